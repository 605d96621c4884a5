// acc ± v for Fr, always inlined: Fr's operators test the run-time asm switch and are called out
// of line, which on sparse rows of 1–3 terms (the PCE's SpMV, the bench circuits' solver) costs as
// much as the addition. mont_x86's add4/sub4 use only add/adc/sbb/cmov (no mulx/adx), so they are
// valid on every x86-64 whatever the switch says.
#pragma once

#include "cuzk/ff/fr.hpp"
#include "cuzk/ff/mont_x86.hpp"

namespace cuzk {

[[gnu::always_inline]] inline void fr_acc_add(Fr& acc, const Fr& v) {
#if CUZK_FF_X86_ASM
  mont_x86::add4<Fr::kModulus>(acc.l, acc.l, v.l);
#else
  acc += v;
#endif
}

[[gnu::always_inline]] inline void fr_acc_sub(Fr& acc, const Fr& v) {
#if CUZK_FF_X86_ASM
  mont_x86::sub4<Fr::kModulus>(acc.l, acc.l, v.l);
#else
  acc -= v;
#endif
}

}  // namespace cuzk
