// The NTT's Fr multiplication: DevMont's CIOS with the even/odd accumulators (dev_mont.cuh), less the
// products by the two low limbs of r, which are 1 and 2^32 − 1 (r ≡ 2^64 − 2^32 + 1 mod 2^64):
//   m = −t0 · r^{-1} = −t0 mod 2^32,   m·r0 = m (high word 0),
//   m·r1 = m·2^32 − m: low word −m = t0, high word m − [t0 ≠ 0].
// Per row 28 multiply-adds instead of 33 (224 instead of 264 per product, −15 %); the same values
// as DevFr's operator* limb for limb (so the same bound: every row keeps t < 2r, output < r).
//
// The steps are written once over an Ops policy: DeviceOps issues the PTX carry-chain instructions
// (asm volatile keeps their order, so the carry flag flows as written); HostOps emulates them with
// an explicit flag, so a CPU test checks the algorithm against the host Fr without a GPU.
#pragma once

#include <cstdint>

#include "cuzk/gpu/ff/dev_fields.cuh"

// Unrolled on the device (the limb indices become registers and immediates); the host emulation
// is a test, its compiler does without the pragma.
#ifdef __CUDA_ARCH__
#define CUZK_FR_UNROLL _Pragma("unroll")
#else
#define CUZK_FR_UNROLL
#endif

namespace cuzk::gpu {

namespace fr_mul_detail {

/// Limb |j| of r (host and device alike: an immediate operand after unrolling).
__host__ __device__ constexpr std::uint32_t kR(int j) {
  constexpr std::uint64_t r[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                  0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
  return static_cast<std::uint32_t>(r[j / 2] >> (32 * (j % 2)));
}
static_assert(FrParams::modulus[0] == 0xffffffff00000001ULL &&
                  FrParams::modulus[1] == 0x53bda402fffe5bfeULL &&
                  FrParams::modulus[2] == 0x3339d80809a1d805ULL &&
                  FrParams::modulus[3] == 0x73eda753299d7d48ULL,
              "fr_mul is specialised to the BLS12-381 scalar field");

/// The carry-chain instructions of PTX, emulated with an explicit carry flag.
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
  void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { d = a - b, cf = a < b; }
  void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t s = std::uint64_t{a} - b - cf;
    d = static_cast<std::uint32_t>(s), cf = (s >> 32) != 0;
  }
  void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { d = a - b - cf; }
  // d += lo/hi(a·b) (+ carry in), carry out
  void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    add_cc(d, static_cast<std::uint32_t>(wide(a, b)), d);
  }
  void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    addc_cc(d, static_cast<std::uint32_t>(wide(a, b)), d);
  }
  void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    addc_cc(d, static_cast<std::uint32_t>(wide(a, b) >> 32), d);
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
  CUZK_DEV void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm("mul.lo.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
  CUZK_DEV void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  }
};
#endif

/// r = a·b·2^{-256} mod r (inputs < r, output < r), limb for limb DevFr's operator*.
#pragma nv_exec_check_disable
template <class Ops>
__host__ __device__ __forceinline__ void fr_mul_limbs(Ops& ops, std::uint32_t out[8],
                                                      const std::uint32_t a[8],
                                                      const std::uint32_t b[8]) {
  constexpr int N = 8;
  std::uint32_t e[N + 1], o[N + 1];
  CUZK_FR_UNROLL
  for (int k = 0; k <= N; ++k) e[k] = 0;
  CUZK_FR_UNROLL
  for (int i = 0; i < N; ++i) {
    const std::uint32_t bi = b[i];
    // E[0..N] += a_even·b_i.
    ops.mad_lo_cc(e[0], a[0], bi);
    ops.madc_hi_cc(e[1], a[0], bi);
    CUZK_FR_UNROLL
    for (int j = 2; j < N; j += 2) {
      ops.madc_lo_cc(e[j], a[j], bi);
      ops.madc_hi_cc(e[j + 1], a[j], bi);
    }
    ops.addc(e[N], e[N], 0);
    // O[1..N] = a_odd·b_i (disjoint limbs).
    CUZK_FR_UNROLL
    for (int j = 1; j < N; j += 2) {
      ops.mul_lo(o[j], a[j], bi);
      ops.mul_hi(o[j + 1], a[j], bi);
    }
    // m = −t0 mod 2^32; m·r0 = m; m·r1 = t0 + (m − [t0 ≠ 0])·2^32.
    const std::uint32_t t0 = e[0];
    std::uint32_t m, c0, hi1;
    ops.sub_cc(m, 0, t0);  // borrow = [t0 ≠ 0]
    ops.subc(c0, 0, 0);    // −[t0 ≠ 0]
    hi1 = m + c0;
    // E += m·r_even: limb 0 takes m (to 0, carry [t0 ≠ 0]), limb 1 only the carry.
    ops.add_cc(e[0], e[0], m);
    ops.addc_cc(e[1], e[1], 0);
    CUZK_FR_UNROLL
    for (int j = 2; j < N; j += 2) {
      ops.madc_lo_cc(e[j], m, kR(j));
      ops.madc_hi_cc(e[j + 1], m, kR(j));
    }
    ops.addc(e[N], e[N], 0);
    // O += m·r_odd: limb 1 takes t0, limb 2 takes m − [t0 ≠ 0].
    ops.add_cc(o[1], o[1], t0);
    ops.addc_cc(o[2], o[2], hi1);
    CUZK_FR_UNROLL
    for (int j = 3; j < N; j += 2) {
      ops.madc_lo_cc(o[j], m, kR(j));
      ops.madc_hi_cc(o[j + 1], m, kR(j));
    }
    // E[0] is 0: fold O in and shift down one limb.
    ops.add_cc(e[0], e[1], o[1]);
    CUZK_FR_UNROLL
    for (int k = 1; k < N - 1; ++k) ops.addc_cc(e[k], e[k + 1], o[k + 1]);
    ops.addc(e[N - 1], e[N], o[N]);
    e[N] = 0;
  }
  // One conditional subtraction: t < 2r.
  std::uint32_t s[N], br;
  ops.sub_cc(s[0], e[0], kR(0));
  CUZK_FR_UNROLL
  for (int k = 1; k < N; ++k) ops.subc_cc(s[k], e[k], kR(k));
  ops.subc(br, 0, 0);  // all ones when t < r
  CUZK_FR_UNROLL
  for (int k = 0; k < N; ++k) out[k] = (e[k] & br) | (s[k] & ~br);
}

}  // namespace fr_mul_detail

#ifdef __CUDACC__
/// a·b in Montgomery form, equal to DevFr's a * b.
CUZK_DEV DevFr fr_mul(const DevFr& a, const DevFr& b) {
  fr_mul_detail::DeviceOps ops;
  DevFr r;
  fr_mul_detail::fr_mul_limbs(ops, r.l, a.l, b.l);
  return r;
}
#endif

}  // namespace cuzk::gpu
