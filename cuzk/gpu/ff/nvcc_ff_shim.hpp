// Pre-included in every CUDA translation unit of gpu/. In nvcc's device pass (__CUDA_ARCH__) the x86
// asm of ff/mont_x86.hpp is compiled out, but mont.hpp names mont_x86::add6/add4/sub6/sub4 in an
// `if` whose condition is a constant false there; a qualified name must still be declared. These
// declarations are never defined nor called (the branch is dead in device code).
#pragma once

#if defined(__CUDA_ARCH__)
#include "cuzk/ff/limbs.hpp"
#include "cuzk/ff/mont_x86.hpp"

#if !CUZK_FF_X86_ASM
namespace cuzk::mont_x86 {
template <const Limbs<6>& p>
void add6(Limbs<6>& r, const Limbs<6>& a, const Limbs<6>& b);
template <const Limbs<4>& p>
void add4(Limbs<4>& r, const Limbs<4>& a, const Limbs<4>& b);
template <const Limbs<6>& p>
void sub6(Limbs<6>& r, const Limbs<6>& a, const Limbs<6>& b);
template <const Limbs<4>& p>
void sub4(Limbs<4>& r, const Limbs<4>& a, const Limbs<4>& b);
}  // namespace cuzk::mont_x86
#endif
#endif
