// Variable-time modular inversion by Bernstein–Yang divsteps ("safegcd", eprint 2019/266), in the
// form of libsecp256k1's modinv64_var (Wuille's "hddivsteps" variant: batches of 62 divsteps on the
// low 64 bits giving a 2×2 transition matrix, runs of zeros skipped with count-trailing-zeros and
// up to 6 bits of g cancelled per step), generalised to any odd modulus of N 64-bit limbs.
//
// Numbers are kept in "signed62" form: L = bits/62 + 1 limbs of 62 bits, the top one signed.
// Invariants (see libsecp256k1 doc/safegcd_implementation.md): f, g ∈ (−p, p], d, e ∈ (−2p, p),
// d·x ≡ f, e·x ≡ g (mod p) up to the common factor 2^(−62·iterations) that update_de divides out.
// The loop stops at g = 0; then f = ±1 and d·sign(f) ≡ x^{−1}. Host only (uses __int128).
// invert_ct runs the plain divsteps branch-free for the Bernstein–Yang iteration bound instead.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace cuzk::safegcd {

using i128 = __int128;

template <std::size_t N>
struct Inverter {
  static constexpr std::size_t L = (64 * N) / 62 + 1;  // enough for bits + sign
  static constexpr std::uint64_t kM62 = ~std::uint64_t{0} >> 2;
  using Repr = std::array<std::uint64_t, N>;
  using S62 = std::array<std::int64_t, L>;

  S62 modulus{};
  std::uint64_t modulus_inv62 = 0;  // p^{−1} mod 2^62

  constexpr explicit Inverter(const Repr& p) {
    modulus = to_s62(p);
    std::uint64_t x = p[0];  // Newton: x = p^{−1} mod 2^64
    for (int i = 0; i < 6; ++i) x *= 2 - p[0] * x;
    modulus_inv62 = x & kM62;
  }

  static constexpr S62 to_s62(const Repr& a) {
    S62 r{};
    for (std::size_t i = 0; i < L; ++i) {
      const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
      std::uint64_t v = w < N ? a[w] >> s : 0;
      if (s > 2 && w + 1 < N) v |= a[w + 1] << (64 - s);
      r[i] = static_cast<std::int64_t>(v & kM62);
    }
    return r;
  }
  /// |a| has limbs in [0, 2^62) and value in [0, 2^(64N)).
  static constexpr Repr from_s62(const S62& a) {
    Repr r{};
    for (std::size_t i = 0; i < L; ++i) {
      const auto v = static_cast<std::uint64_t>(a[i]);
      const std::size_t bit = 62 * i, w = bit / 64, s = bit % 64;
      if (w < N) r[w] |= v << s;
      if (s > 2 && w + 1 < N) r[w + 1] |= v >> (64 - s);
    }
    return r;
  }

  struct Trans {
    std::int64_t u, v, q, r;
  };

  /// 62 divsteps on the low bits of f and g; returns the new eta (= −delta).
  static std::int64_t divsteps_62_var(std::int64_t eta, std::uint64_t f0, std::uint64_t g0, Trans& t) {
    std::uint64_t u = 1, v = 0, q = 0, r = 1;
    std::uint64_t f = f0, g = g0, m;
    std::uint32_t w;
    int i = 62, limit, zeros;
    for (;;) {
      zeros = std::countr_zero(g | (~std::uint64_t{0} << i));  // sentinel: at most i
      g >>= zeros;
      u <<= zeros;
      v <<= zeros;
      eta -= zeros;
      i -= zeros;
      if (i == 0) break;
      if (eta < 0) {
        std::uint64_t tmp;
        eta = -eta;
        tmp = f, f = g, g = 0 - tmp;
        tmp = u, u = q, q = 0 - tmp;
        tmp = v, v = r, r = 0 - tmp;
        // Cancel up to 6 bits of g (no more than i, nor than eta + 1).
        limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
        m = (~std::uint64_t{0} >> (64 - limit)) & 63U;
        w = static_cast<std::uint32_t>((f * g * (f * f - 2)) & m);
      } else {
        limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
        m = (~std::uint64_t{0} >> (64 - limit)) & 15U;
        std::uint64_t ww = f + (((f + 1) & 4) << 1);
        w = static_cast<std::uint32_t>((0 - ww * g) & m);
      }
      g += f * w;
      q += u * w;
      r += v * w;
    }
    t = {static_cast<std::int64_t>(u), static_cast<std::int64_t>(v), static_cast<std::int64_t>(q),
         static_cast<std::int64_t>(r)};
    return eta;
  }

  /// 62 divsteps without branches or table look-ups on the data (original divsteps, delta starting
  /// at 1 as eta = −delta; the same steps as divsteps_62_var, one at a time).
  static std::int64_t divsteps_62_ct(std::int64_t eta, std::uint64_t f0, std::uint64_t g0, Trans& t) {
    std::uint64_t u = 1, v = 0, q = 0, r = 1, f = f0, g = g0;
    for (int i = 0; i < 62; ++i) {
      const auto c1 = static_cast<std::uint64_t>(eta >> 63);  // all ones when delta > 0
      const std::uint64_t c2 = 0 - (g & 1);                    // all ones when g is odd
      const std::uint64_t x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1;
      g += x & c2;  // g ± f
      q += y & c2;
      r += z & c2;
      const std::uint64_t c3 = c1 & c2;  // swap: (delta, f, g) → (1 − delta, g, (g − f)/2)
      eta = (eta ^ static_cast<std::int64_t>(c3)) - (static_cast<std::int64_t>(c3) + 1);
      f += g & c3;
      u += q & c3;
      v += r & c3;
      g >>= 1;
      u <<= 1;
      v <<= 1;
    }
    t = {static_cast<std::int64_t>(u), static_cast<std::int64_t>(v), static_cast<std::int64_t>(q),
         static_cast<std::int64_t>(r)};
    return eta;
  }

  /// Divsteps that always reach g = 0 from f = p, 0 ≤ g < p < 2^(64N) (Bernstein–Yang, Theorem
  /// 11.2: ⌊(49d + 57)/17⌋ for d ≥ 46 bits), in batches of 62.
  static constexpr unsigned kCtBatches = ((49 * 64 * N + 57) / 17 + 61) / 62;

  /// [d, e] ← (t·[d, e] + p·[md, me]) / 2^62, md, me chosen to make the division exact.
  void update_de(S62& d, S62& e, const Trans& t) const {
    const std::int64_t u = t.u, v = t.v, q = t.q, r = t.r;
    const std::int64_t sd = d[L - 1] >> 63, se = e[L - 1] >> 63;
    std::int64_t md = (u & sd) + (v & se);
    std::int64_t me = (q & sd) + (r & se);
    i128 cd = i128(u) * d[0] + i128(v) * e[0];
    i128 ce = i128(q) * d[0] + i128(r) * e[0];
    md -= static_cast<std::int64_t>((modulus_inv62 * static_cast<std::uint64_t>(cd) + static_cast<std::uint64_t>(md)) & kM62);
    me -= static_cast<std::int64_t>((modulus_inv62 * static_cast<std::uint64_t>(ce) + static_cast<std::uint64_t>(me)) & kM62);
    cd += i128(modulus[0]) * md;
    ce += i128(modulus[0]) * me;
    cd >>= 62;
    ce >>= 62;
    for (std::size_t i = 1; i < L; ++i) {
      cd += i128(u) * d[i] + i128(v) * e[i] + i128(modulus[i]) * md;
      ce += i128(q) * d[i] + i128(r) * e[i] + i128(modulus[i]) * me;
      d[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cd) & kM62);
      e[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(ce) & kM62);
      cd >>= 62;
      ce >>= 62;
    }
    d[L - 1] = static_cast<std::int64_t>(cd);
    e[L - 1] = static_cast<std::int64_t>(ce);
  }

  /// [f, g] ← t·[f, g] / 2^62 over the low |len| limbs (the rest are sign extension).
  static void update_fg_var(std::size_t len, S62& f, S62& g, const Trans& t) {
    const std::int64_t u = t.u, v = t.v, q = t.q, r = t.r;
    i128 cf = i128(u) * f[0] + i128(v) * g[0];
    i128 cg = i128(q) * f[0] + i128(r) * g[0];
    cf >>= 62;
    cg >>= 62;
    for (std::size_t i = 1; i < len; ++i) {
      cf += i128(u) * f[i] + i128(v) * g[i];
      cg += i128(q) * f[i] + i128(r) * g[i];
      f[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cf) & kM62);
      g[i - 1] = static_cast<std::int64_t>(static_cast<std::uint64_t>(cg) & kM62);
      cf >>= 62;
      cg >>= 62;
    }
    f[len - 1] = static_cast<std::int64_t>(cf);
    g[len - 1] = static_cast<std::int64_t>(cg);
  }

  /// r ∈ (−2p, p) → (sign < 0 ? −r : r) mod p in [0, p), limbs in [0, 2^62).
  void normalize(S62& r, std::int64_t sign) const {
    auto carry = [&] {
      for (std::size_t i = 0; i + 1 < L; ++i) {
        r[i + 1] += r[i] >> 62;
        r[i] &= static_cast<std::int64_t>(kM62);
      }
    };
    auto add_p_if_negative = [&] {
      const std::int64_t c = r[L - 1] >> 63;
      for (std::size_t i = 0; i < L; ++i) r[i] += modulus[i] & c;
    };
    add_p_if_negative();  // (−2p, p) → (−p, p)
    const std::int64_t neg = sign >> 63;
    for (std::size_t i = 0; i < L; ++i) r[i] = (r[i] ^ neg) - neg;
    carry();
    add_p_if_negative();  // → [0, p)
    carry();
  }

  /// x^{−1} mod p for 0 ≤ x < p (x = 0 gives 0) in a fixed number of steps with no branch or
  /// memory access that depends on x.
  Repr invert_ct(const Repr& x) const {
    S62 d{}, e{}, f = modulus, g = to_s62(x);
    e[0] = 1;
    std::int64_t eta = -1;
    for (unsigned i = 0; i < kCtBatches; ++i) {
      Trans t;
      eta = divsteps_62_ct(eta, static_cast<std::uint64_t>(f[0]), static_cast<std::uint64_t>(g[0]), t);
      update_de(d, e, t);
      update_fg_var(L, f, g, t);  // full length: no data-dependent shortening
    }
    normalize(d, f[L - 1]);
    return from_s62(d);
  }

  /// x^{−1} mod p for 0 < x < p (x = 0 gives 0). Variable time.
  Repr invert(const Repr& x) const {
    S62 d{}, e{}, f = modulus, g = to_s62(x);
    e[0] = 1;
    std::size_t len = L;
    std::int64_t eta = -1;
    for (;;) {
      Trans t;
      eta = divsteps_62_var(eta, static_cast<std::uint64_t>(f[0]), static_cast<std::uint64_t>(g[0]), t);
      update_de(d, e, t);
      update_fg_var(len, f, g, t);
      if (g[0] == 0) {
        std::int64_t cond = 0;
        for (std::size_t j = 1; j < len; ++j) cond |= g[j];
        if (cond == 0) break;
      }
      const std::int64_t fn = f[len - 1], gn = g[len - 1];
      std::int64_t cond = (static_cast<std::int64_t>(len) - 2) >> 63;
      cond |= fn ^ (fn >> 63);
      cond |= gn ^ (gn >> 63);
      if (cond == 0) {  // top limbs are 0 or −1: drop one, folding its sign into the limb below
        f[len - 2] = static_cast<std::int64_t>(static_cast<std::uint64_t>(f[len - 2]) | (static_cast<std::uint64_t>(fn) << 62));
        g[len - 2] = static_cast<std::int64_t>(static_cast<std::uint64_t>(g[len - 2]) | (static_cast<std::uint64_t>(gn) << 62));
        --len;
      }
    }
    normalize(d, f[len - 1]);
    return from_s62(d);
  }
};

}  // namespace cuzk::safegcd
