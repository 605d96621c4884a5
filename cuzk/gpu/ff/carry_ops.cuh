// The carry-chain instructions of PTX as a policy, so a multi-limb algorithm is written once:
// DeviceOps issues them (asm volatile keeps their order, so the carry flag CC.CF flows as written);
// HostOps emulates them with an explicit flag, so a CPU test checks the algorithm without a GPU.
// Every multiply-add names its addend (d = lo/hi(a·b) + c [+ CF]): in place when c is d, or another
// register (a shift folded into the product, as mont_rows.cuh does).
#pragma once

#include <cstdint>

// Unrolled on the device (limb indices become registers and immediates); the host emulation is a
// test, its compiler does without the pragma.
#ifdef __CUDA_ARCH__
#define CUZK_LIMB_UNROLL _Pragma("unroll")
#else
#define CUZK_LIMB_UNROLL
#endif

#ifdef __CUDACC__
#define CUZK_LIMB_HD __host__ __device__ __forceinline__
#else
#define CUZK_LIMB_HD inline
#endif

namespace cuzk::gpu {

/// PTX's carry-chain instructions on the host, with an explicit carry (or borrow) flag.
struct HostOps {
  std::uint32_t cf = 0;
  static std::uint64_t wide(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} * b; }
  void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t s = std::uint64_t{a} + b;
    d = static_cast<std::uint32_t>(s), cf = static_cast<std::uint32_t>(s >> 32);
  }
  void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t s = std::uint64_t{a} + b + cf;
    d = static_cast<std::uint32_t>(s), cf = static_cast<std::uint32_t>(s >> 32);
  }
  void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { d = a + b + cf; }
  void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    cf = a < b;
    d = a - b;
  }
  void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t s = std::uint64_t{a} - b - cf;
    d = static_cast<std::uint32_t>(s), cf = (s >> 32) != 0;
  }
  void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { d = a - b - cf; }
  // d = lo/hi(a·b) + c (+ carry in), carry out unless named otherwise
  void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    add_cc(d, static_cast<std::uint32_t>(wide(a, b)), c);
  }
  void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    addc_cc(d, static_cast<std::uint32_t>(wide(a, b)), c);
  }
  void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    addc_cc(d, static_cast<std::uint32_t>(wide(a, b) >> 32), c);
  }
  void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    addc(d, static_cast<std::uint32_t>(wide(a, b) >> 32), c);
  }
  void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b));
  }
  void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b) >> 32);
  }
};

#ifdef __CUDACC__
/// The same instructions on the device: the carry flag is the hardware's (CC.CF).
struct DeviceOps {
  __device__ __forceinline__ void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b,
                                            std::uint32_t c) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  }
  __device__ __forceinline__ void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b,
                                             std::uint32_t c) {
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  }
  __device__ __forceinline__ void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b,
                                             std::uint32_t c) {
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  }
  __device__ __forceinline__ void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b,
                                          std::uint32_t c) {
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  }
  __device__ __forceinline__ void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  __device__ __forceinline__ void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
};
#endif

}  // namespace cuzk::gpu
