// Compile-time parsing of hex literals into canonical limbs and field elements, so curve constants
// read exactly as published ("0x17f1d3a7…") and are converted to Montgomery form by the compiler.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/limbs.hpp"

namespace cuzk::ec_detail {

/// Canonical limbs of a "0x…" hex literal; a malformed literal or overflow fails constant evaluation.
template <std::size_t N>
consteval Limbs<N> hex_limbs(const char* s) {
  Limbs<N> r{};
  std::size_t i = 0;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) i = 2;
  for (; s[i] != '\0'; ++i) {
    const char c = s[i];
    unsigned d = 0;
    if (c >= '0' && c <= '9')
      d = static_cast<unsigned>(c - '0');
    else if (c >= 'a' && c <= 'f')
      d = static_cast<unsigned>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      d = static_cast<unsigned>(c - 'A' + 10);
    else
      throw "bad hex digit";  // not a constant expression: compile error
    if (limbs_mul_small(r, 16, d) != 0) throw "hex literal too large";
  }
  return r;
}

/// Fp element from a canonical hex literal (must be < p).
consteval Fp fp_hex(const char* s) {
  const Limbs<6> c = hex_limbs<6>(s);
  if (limbs_cmp(c, Fp::kModulus) >= 0) throw "Fp literal not below p";
  return Fp::from_canonical_unchecked(c);
}

/// Fp2 element c0 + c1·u from two canonical hex literals.
consteval Fp2 fp2_hex(const char* c0, const char* c1) { return Fp2{fp_hex(c0), fp_hex(c1)}; }

}  // namespace cuzk::ec_detail
