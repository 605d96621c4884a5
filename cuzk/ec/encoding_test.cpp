// ZCash and snarkjs encodings: round trips, every flag combination, coordinates ≥ p, off-curve and
// off-subgroup inputs, infinity with stray bits, and random/mutated bytes (never a crash; whatever
// decodes re-encodes to the same bytes). Typed over G1 and G2; printed seeds.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/test_util.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;
using ec_test::random_curve_point;
using ec_test::random_subgroup_point;

// One interface over both groups so each test is written once.
struct G1Codec {
  using C = G1Curve;
  using P = G1Affine;
  static constexpr std::size_t kC = 48, kU = 96, kL = 96, kCoord = 48;
  static auto comp(const P& p) { return to_compressed(p); }
  static auto uncomp(const P& p) { return to_uncompressed(p); }
  static auto lem(const P& p) { return to_snarkjs_lem(p); }
  static Result<P> dec_c(const std::array<std::uint8_t, kC>& b, bool chk) {
    return chk ? g1_from_compressed(b) : g1_from_compressed_unchecked(b);
  }
  static Result<P> dec_u(const std::array<std::uint8_t, kU>& b, bool chk) {
    return chk ? g1_from_uncompressed(b) : g1_from_uncompressed_unchecked(b);
  }
  static Result<P> dec_l(const std::array<std::uint8_t, kL>& b, bool chk) {
    return chk ? g1_from_snarkjs_lem(b) : g1_from_snarkjs_lem_unchecked(b);
  }
};
struct G2Codec {
  using C = G2Curve;
  using P = G2Affine;
  static constexpr std::size_t kC = 96, kU = 192, kL = 192, kCoord = 96;
  static auto comp(const P& p) { return to_compressed(p); }
  static auto uncomp(const P& p) { return to_uncompressed(p); }
  static auto lem(const P& p) { return to_snarkjs_lem(p); }
  static Result<P> dec_c(const std::array<std::uint8_t, kC>& b, bool chk) {
    return chk ? g2_from_compressed(b) : g2_from_compressed_unchecked(b);
  }
  static Result<P> dec_u(const std::array<std::uint8_t, kU>& b, bool chk) {
    return chk ? g2_from_uncompressed(b) : g2_from_uncompressed_unchecked(b);
  }
  static Result<P> dec_l(const std::array<std::uint8_t, kL>& b, bool chk) {
    return chk ? g2_from_snarkjs_lem(b) : g2_from_snarkjs_lem_unchecked(b);
  }
};

template <class T>
Errc code(const Result<T>& r) {
  return r.ok() ? Errc::ok : r.status().code();
}

/// Big-endian bytes of p + |add| (a 48-byte value ≥ p, below 2^381 for small |add|).
std::array<std::uint8_t, 48> modulus_plus(std::uint64_t add) {
  Limbs<6> v = limbs_add_small(Fp::kModulus, add);
  std::array<std::uint8_t, 48> b{};
  for (std::size_t i = 0; i < 48; ++i)
    b[47 - i] = static_cast<std::uint8_t>(v[i / 8] >> (8 * (i % 8)));
  return b;
}

template <class K>
class Encoding : public ::testing::Test {};
using Codecs = ::testing::Types<G1Codec, G2Codec>;
TYPED_TEST_SUITE(Encoding, Codecs);

TYPED_TEST(Encoding, RoundTrips) {
  using K = TypeParam;
  using P = typename K::P;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<P> pts = {P::identity(), P::generator(), -P::generator()};
  for (int i = 0; i < 6; ++i)
    pts.push_back(random_subgroup_point<typename K::C>(rng).to_affine_vartime());
  for (const P& p : pts) {
    for (bool chk : {true, false}) {
      ASSERT_EQ(K::dec_c(K::comp(p), chk).value(), p) << "seed=" << seed;
      ASSERT_EQ(K::dec_u(K::uncomp(p), chk).value(), p) << "seed=" << seed;
      ASSERT_EQ(K::dec_l(K::lem(p), chk).value(), p) << "seed=" << seed;
    }
    // flags as written: 0x80 always, 0x20 iff y is the larger root, 0x40 only for the identity
    const auto c = K::comp(p);
    ASSERT_TRUE(c[0] & kFlagCompressed);
    ASSERT_EQ((c[0] & kFlagInfinity) != 0, p.infinity);
    if (!p.infinity) {
      ASSERT_EQ((c[0] & kFlagLargest) != 0, p.y.is_lexicographically_largest());
    }
    const auto u = K::uncomp(p);
    ASSERT_EQ(u[0] & 0xe0, p.infinity ? kFlagInfinity : 0);
  }
  // identity encodings exactly
  auto ic = K::comp(P::identity());
  auto iu = K::uncomp(P::identity());
  EXPECT_EQ(ic[0], 0xc0);
  EXPECT_EQ(iu[0], 0x40);
  for (std::size_t i = 1; i < ic.size(); ++i) EXPECT_EQ(ic[i], 0);
  for (std::size_t i = 1; i < iu.size(); ++i) EXPECT_EQ(iu[i], 0);
  for (auto b : K::lem(P::identity())) EXPECT_EQ(b, 0);
}

TYPED_TEST(Encoding, EveryFlagCombination) {
  using K = TypeParam;
  using P = typename K::P;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const P p = random_subgroup_point<typename K::C>(rng).to_affine_vartime();
  const bool largest = p.y.is_lexicographically_largest();
  for (unsigned f = 0; f < 8; ++f) {
    const std::uint8_t flags = static_cast<std::uint8_t>(f << 5);
    SCOPED_TRACE(::testing::Message()
                 << "flags=0x" << std::hex << unsigned{flags} << " seed=" << std::dec << seed);
    // compressed form of p with these flags
    auto c = K::comp(p);
    c[0] = static_cast<std::uint8_t>((c[0] & 0x1f) | flags);
    auto rc = K::dec_c(c, true);
    if (flags == 0x80 || flags == 0xa0) {
      ASSERT_TRUE(rc.ok()) << rc.status().to_string();
      EXPECT_EQ(*rc, ((flags == 0xa0) == largest) ? p : -p);
    } else {
      EXPECT_EQ(code(rc), Errc::bad_encoding);
    }
    // uncompressed form of p with these flags
    auto u = K::uncomp(p);
    u[0] = static_cast<std::uint8_t>((u[0] & 0x1f) | flags);
    EXPECT_EQ(code(K::dec_u(u, true)), flags == 0 ? Errc::ok : Errc::bad_encoding);
    // flags over an all-zero rest
    std::array<std::uint8_t, K::kC> zc{};
    zc[0] = flags;
    const Errc ec = code(K::dec_c(zc, false));
    constexpr bool kG1 = std::is_same_v<K, G1Codec>;
    if (flags == 0xc0) {
      EXPECT_EQ(ec, Errc::ok);
    } else if (flags == 0x80 || flags == 0xa0) {  // x = 0: G1 gives the order-3 point, G2 has none
      EXPECT_EQ(ec, kG1 ? Errc::ok : Errc::not_on_curve);
      EXPECT_EQ(code(K::dec_c(zc, true)), kG1 ? Errc::not_in_subgroup : Errc::not_on_curve);
    } else {
      EXPECT_EQ(ec, Errc::bad_encoding);
    }
    std::array<std::uint8_t, K::kU> zu{};
    zu[0] = flags;
    const Errc eu = code(K::dec_u(zu, false));
    if (flags == 0x40) {
      EXPECT_EQ(eu, Errc::ok);
    } else if (flags == 0) {
      EXPECT_EQ(eu, Errc::not_on_curve);  // (0, 0): 0 ≠ b
    } else {
      EXPECT_EQ(eu, Errc::bad_encoding);
    }
  }
  EXPECT_TRUE(K::dec_c(
                  [] {
                    std::array<std::uint8_t, K::kC> z{};
                    z[0] = 0xc0;
                    return z;
                  }(),
                  true)
                  ->is_identity());
}

TYPED_TEST(Encoding, InfinityWithStrayBits) {
  using K = TypeParam;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 40; ++i) {
    std::array<std::uint8_t, K::kC> c{};
    c[0] = 0xc0;
    std::array<std::uint8_t, K::kU> u{};
    u[0] = 0x40;
    const std::size_t ic = rng() % K::kC, iu = rng() % K::kU;
    c[ic] |= static_cast<std::uint8_t>(ic == 0 ? (1u << (rng() % 5)) : (1u << (rng() % 8)));
    u[iu] |= static_cast<std::uint8_t>(iu == 0 ? (1u << (rng() % 5)) : (1u << (rng() % 8)));
    EXPECT_EQ(code(K::dec_c(c, false)), Errc::bad_encoding) << "byte " << ic << " seed=" << seed;
    EXPECT_EQ(code(K::dec_u(u, false)), Errc::bad_encoding) << "byte " << iu << " seed=" << seed;
  }
  std::array<std::uint8_t, K::kC> c{};
  c[0] = 0xe0;  // infinity and "largest"
  EXPECT_EQ(code(K::dec_c(c, false)), Errc::bad_encoding);
}

TYPED_TEST(Encoding, CoordinatesNotBelowP) {
  using K = TypeParam;
  using P = typename K::P;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const P p = random_subgroup_point<typename K::C>(rng).to_affine_vartime();
  // every 48-byte coordinate slot in turn set to p + small (and to the largest 381-bit value)
  for (std::uint64_t add : {std::uint64_t{0}, std::uint64_t{1}, rng() % 1000000}) {
    const auto big = modulus_plus(add);
    for (std::size_t slot = 0; slot < K::kCoord / 48; ++slot) {
      auto c = K::comp(p);
      std::copy(big.begin(), big.end(), c.begin() + 48 * slot);
      c[0] |= kFlagCompressed;
      EXPECT_EQ(code(K::dec_c(c, false)), Errc::out_of_range)
          << "slot " << slot << " seed=" << seed;
    }
    for (std::size_t slot = 0; slot < K::kU / 48; ++slot) {
      auto u = K::uncomp(p);
      std::copy(big.begin(), big.end(), u.begin() + 48 * slot);
      EXPECT_EQ(code(K::dec_u(u, false)), Errc::out_of_range)
          << "slot " << slot << " seed=" << seed;
    }
  }
  auto c = K::comp(p);
  c[0] = 0x9f;  // x ≥ 2^380 after masking the flags: above p
  for (std::size_t i = 1; i < 48; ++i) c[i] = 0xff;
  EXPECT_EQ(code(K::dec_c(c, false)), Errc::out_of_range);
  // snarkjs: Montgomery limbs ≥ p in any slot
  for (std::size_t slot = 0; slot < K::kL / 48; ++slot) {
    auto l = K::lem(p);
    const auto big = modulus_plus(rng() % 1000);
    for (std::size_t i = 0; i < 48; ++i) l[48 * slot + i] = big[47 - i];  // little-endian
    EXPECT_EQ(code(K::dec_l(l, false)), Errc::out_of_range) << "slot " << slot << " seed=" << seed;
  }
}

TYPED_TEST(Encoding, OffCurveAndOffSubgroup) {
  using K = TypeParam;
  using C = typename K::C;
  using P = typename K::P;
  using F = typename C::Field;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 6; ++i) {
    // on the curve, outside the subgroup: unchecked accepts, checked says not_in_subgroup
    const P q = random_curve_point<C>(rng);
    ASSERT_FALSE(is_in_subgroup(q)) << "seed=" << seed;
    EXPECT_EQ(K::dec_c(K::comp(q), false).value(), q) << "seed=" << seed;
    EXPECT_EQ(K::dec_u(K::uncomp(q), false).value(), q) << "seed=" << seed;
    EXPECT_EQ(K::dec_l(K::lem(q), false).value(), q) << "seed=" << seed;
    EXPECT_EQ(code(K::dec_c(K::comp(q), true)), Errc::not_in_subgroup) << "seed=" << seed;
    EXPECT_EQ(code(K::dec_u(K::uncomp(q), true)), Errc::not_in_subgroup) << "seed=" << seed;
    EXPECT_EQ(code(K::dec_l(K::lem(q), true)), Errc::not_in_subgroup) << "seed=" << seed;
    // off the curve: y + 1
    const P bad{q.x, q.y + F::one(), false};
    EXPECT_EQ(code(K::dec_u(K::uncomp(bad), false)), Errc::not_on_curve) << "seed=" << seed;
    EXPECT_EQ(code(K::dec_l(K::lem(bad), false)), Errc::not_on_curve) << "seed=" << seed;
  }
  // a compressed x whose x³ + b is not a square
  for (int i = 0; i < 100; ++i) {
    const F x = ec_test::random_field<F>(rng);
    if ((x.square() * x + C::kB).sqrt()) continue;
    const P fake{x, F::one(), false};  // only x is written
    EXPECT_EQ(code(K::dec_c(K::comp(fake), false)), Errc::not_on_curve) << "seed=" << seed;
    break;
  }
}

TEST(Encoding, G1UncompressedXZeroIsNotInGroup) {
  const G1Affine p{Fp::zero(), Fp::from_u64(2), false};
  EXPECT_EQ(code(g1_from_uncompressed_unchecked(to_uncompressed(p))), Errc::not_in_subgroup);
  EXPECT_EQ(code(g1_from_uncompressed_unchecked(to_uncompressed(-p))), Errc::not_in_subgroup);
  EXPECT_EQ(code(g1_from_uncompressed(to_uncompressed(p))), Errc::not_in_subgroup);
}

TYPED_TEST(Encoding, RandomAndMutatedBytes) {
  using K = TypeParam;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  int decoded = 0;
  auto fill = [&](auto& a) {
    for (auto& b : a) b = static_cast<std::uint8_t>(rng());
  };
  auto mutate = [&](auto& a) {
    const std::size_t i = rng() % a.size();
    a[i] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
  };
  const auto base = random_subgroup_point<typename K::C>(rng).to_affine_vartime();
  for (int i = 0; i < 60; ++i) {
    std::array<std::uint8_t, K::kC> c;
    std::array<std::uint8_t, K::kU> u;
    std::array<std::uint8_t, K::kL> l;
    if (i % 2) {
      fill(c), fill(u), fill(l);
      if (i % 4 == 1) c[0] |= 0x80, c[0] &= 0x9f;  // give compressed inputs a chance to decode
    } else {
      c = K::comp(base), u = K::uncomp(base), l = K::lem(base);
      mutate(c), mutate(u), mutate(l);
    }
    for (bool chk : {false, true}) {
      if (auto r = K::dec_c(c, chk); r.ok()) {
        ++decoded;
        EXPECT_TRUE(r->is_on_curve());
        EXPECT_EQ(K::comp(*r), c) << "seed=" << seed;
        if (chk) {
          EXPECT_TRUE(is_in_subgroup(*r));
        }
      }
      if (auto r = K::dec_u(u, chk); r.ok()) {
        EXPECT_TRUE(r->is_on_curve());
        EXPECT_EQ(K::uncomp(*r), u) << "seed=" << seed;
      }
      if (auto r = K::dec_l(l, chk); r.ok()) {
        EXPECT_TRUE(r->is_on_curve());
        EXPECT_EQ(K::lem(*r), l) << "seed=" << seed;
      }
    }
  }
  EXPECT_GT(decoded, 0) << "seed=" << seed;
}

}  // namespace
}  // namespace cuzk
