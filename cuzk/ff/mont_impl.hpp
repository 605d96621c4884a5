// Out-of-line members of MontField that are not on hot paths: variable-time inversion, square
// roots, byte and string conversion. Included by mont.hpp only.
#pragma once

#include <algorithm>

#include "cuzk/ff/safegcd.hpp"

namespace cuzk {

template <class P>
MontField<P> MontField<P>::inverse_vartime() const {
  // Bernstein–Yang divsteps (safegcd.hpp) on the stored integer x = a·R give x^{−1} mod p; the
  // wanted a^{−1}·R = x^{−1}·R² is one Montgomery product with R³. Zero maps to zero.
  static constexpr safegcd::Inverter<N> kInverter{kModulus};
  if (is_zero()) return zero();
  return from_mont_unchecked(kInverter.invert(l)) * from_mont_unchecked(kR3);
}

template <class P>
MontField<P> MontField<P>::inverse_ct() const {
  // Pornin's binary GCD gives x^{−1}·2^(−s) for the stored x = a·R; a^{−1}·R = x^{−1}·R² is one
  // Montgomery product with 2^s·R³. Zero maps to zero.
  static constexpr safegcd::Pornin<N> kPornin{kModulus};
  static constexpr Repr kFix = mont_detail::pow2_mod(kModulus, kPornin.kScaleBits + 192 * N);
  // The x86-64 updates use mulx/adx: taken when the multiplications take the assembly path.
  const Repr v = mont_x86::g_use_asm ? kPornin.template invert_scaled<false>(l)
                                     : kPornin.template invert_scaled<true>(l);
  return from_mont_unchecked(v) * from_mont_unchecked(kFix);
}

template <class P>
std::optional<MontField<P>> MontField<P>::sqrt() const {
  if (is_zero()) return zero();
  if constexpr (kTwoAdicity == 1) {
    MontField r = pow_vartime(kSqrtExp);
    if (r.square() == *this) return r;
    return std::nullopt;
  } else {
    // Tonelli–Shanks: z = c^t for a non-residue c has order 2^s.
    MontField z = from_u64(P::nonresidue).pow_vartime(kOddPart);
    MontField w = pow_vartime(kOddPartHalf);  // a^((t−1)/2)
    MontField x = w * *this;                  // a^((t+1)/2)
    MontField b = x * w;                      // a^t
    unsigned v = kTwoAdicity;
    while (!b.is_one()) {
      unsigned k = 0;
      MontField b2k = b;
      while (!b2k.is_one()) {
        b2k.square_inplace();
        ++k;
        if (k == v) return std::nullopt;  // a is not a square
      }
      MontField w2 = z;
      for (unsigned j = 0; j < v - k - 1; ++j) w2.square_inplace();
      z = w2.square();
      b *= z;
      x *= w2;
      v = k;
    }
    return x;
  }
}

template <class P>
void MontField<P>::to_bytes_le(std::span<std::uint8_t, kBytes> out) const {
  Repr c = to_canonical();
  for (std::size_t i = 0; i < kBytes; ++i)
    out[i] = static_cast<std::uint8_t>(c[i / 8] >> (8 * (i % 8)));
}

template <class P>
void MontField<P>::to_bytes_be(std::span<std::uint8_t, kBytes> out) const {
  to_bytes_le(out);
  std::reverse(out.begin(), out.end());
}

template <class P>
Result<MontField<P>> MontField<P>::from_bytes_le(std::span<const std::uint8_t, kBytes> in) {
  Repr c{};
  for (std::size_t i = 0; i < kBytes; ++i)
    c[i / 8] |= static_cast<std::uint64_t>(in[i]) << (8 * (i % 8));
  auto f = from_canonical(c);
  if (!f)
    return Status(Errc::out_of_range, std::string(P::name) + " element is not below the modulus");
  return *f;
}

template <class P>
Result<MontField<P>> MontField<P>::from_bytes_be(std::span<const std::uint8_t, kBytes> in) {
  std::array<std::uint8_t, kBytes> le{};
  std::reverse_copy(in.begin(), in.end(), le.begin());
  return from_bytes_le(std::span<const std::uint8_t, kBytes>(le));
}

template <class P>
std::string MontField<P>::to_hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  Repr c = to_canonical();
  std::string s;
  for (std::size_t i = N * 16; i-- > 0;) {
    unsigned d = (c[i / 16] >> (4 * (i % 16))) & 0xf;
    if (s.empty() && d == 0) continue;
    s.push_back(kDigits[d]);
  }
  return "0x" + (s.empty() ? std::string("0") : s);
}

template <class P>
std::string MontField<P>::to_dec() const {
  Repr c = to_canonical();
  std::string s;
  while (!limbs_is_zero(c)) s.push_back(static_cast<char>('0' + limbs_div_small(c, 10)));
  if (s.empty()) s = "0";
  std::reverse(s.begin(), s.end());
  return s;
}

template <class P>
Result<MontField<P>> MontField<P>::from_hex(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return Status(Errc::bad_encoding, "empty hex string");
  Repr c{};
  for (char ch : s) {
    unsigned d;
    if (ch >= '0' && ch <= '9')
      d = ch - '0';
    else if (ch >= 'a' && ch <= 'f')
      d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F')
      d = ch - 'A' + 10;
    else
      return Status(Errc::bad_encoding, std::string("invalid hex digit '") + ch + "'");
    if (c[N - 1] >> 60)
      return Status(Errc::out_of_range, std::string(P::name) + " hex value too large");
    limbs_mul_small(c, 16, d);
  }
  auto f = from_canonical(c);
  if (!f)
    return Status(Errc::out_of_range, std::string(P::name) + " value is not below the modulus");
  return *f;
}

template <class P>
Result<MontField<P>> MontField<P>::from_dec(std::string_view s) {
  if (s.empty()) return Status(Errc::bad_encoding, "empty decimal string");
  Repr c{};
  for (char ch : s) {
    if (ch < '0' || ch > '9')
      return Status(Errc::bad_encoding, std::string("invalid decimal digit '") + ch + "'");
    if (limbs_mul_small(c, 10, static_cast<std::uint64_t>(ch - '0')) != 0)
      return Status(Errc::out_of_range, std::string(P::name) + " decimal value too large");
  }
  auto f = from_canonical(c);
  if (!f)
    return Status(Errc::out_of_range, std::string(P::name) + " value is not below the modulus");
  return *f;
}

template <class P>
Result<MontField<P>> MontField<P>::from_string(std::string_view s) {
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return from_hex(s);
  return from_dec(s);
}

}  // namespace cuzk
