// Parallel array decoding/encoding against the single-point codecs: random sizes, every form, an
// injected defect reported at its index (the lowest when there are two), size mismatches.
#include <gtest/gtest.h>

#include <vector>

#include "cuzk/ec/batch_decode.hpp"
#include "cuzk/ec/test_util.hpp"

namespace cuzk {
namespace {

using ec_test::fresh_seed;

template <class P>
struct Ops;
template <>
struct Ops<G1Affine> {
  using C = G1Curve;
  static std::size_t size(PointForm f) { return g1_encoded_size(f); }
  static Status dec(std::span<const std::uint8_t> b, std::span<G1Affine> o, ThreadPool& t,
                    const DecodeOptions& d) {
    return decode_g1_batch(b, o, t, d);
  }
  static Status enc(std::span<const G1Affine> i, std::span<std::uint8_t> o, PointForm f,
                    ThreadPool& t) {
    return encode_g1_batch(i, o, f, t);
  }
};
template <>
struct Ops<G2Affine> {
  using C = G2Curve;
  static std::size_t size(PointForm f) { return g2_encoded_size(f); }
  static Status dec(std::span<const std::uint8_t> b, std::span<G2Affine> o, ThreadPool& t,
                    const DecodeOptions& d) {
    return decode_g2_batch(b, o, t, d);
  }
  static Status enc(std::span<const G2Affine> i, std::span<std::uint8_t> o, PointForm f,
                    ThreadPool& t) {
    return encode_g2_batch(i, o, f, t);
  }
};

template <class P>
class BatchCodec : public ::testing::Test {};
using Points = ::testing::Types<G1Affine, G2Affine>;
TYPED_TEST_SUITE(BatchCodec, Points);

TYPED_TEST(BatchCodec, RoundTripAndDefects) {
  using P = TypeParam;
  using O = Ops<P>;
  using C = typename O::C;
  const std::uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  // a few distinct points, repeated to a random length (not a power of two), identities included
  std::vector<P> base = {P::identity(), P::generator()};
  for (int i = 0; i < 3; ++i)
    base.push_back(ec_test::random_subgroup_point<C>(rng).to_affine_vartime());
  const std::size_t n = 40 + rng() % 150;
  std::vector<P> pts(n);
  for (auto& p : pts) p = base[rng() % base.size()];
  for (PointForm form : {PointForm::compressed, PointForm::uncompressed, PointForm::snarkjs_lem}) {
    const std::size_t sz = O::size(form);
    std::vector<std::uint8_t> bytes(n * sz);
    ASSERT_TRUE(O::enc(pts, bytes, form, pool).ok());
    std::vector<P> back(n);
    ASSERT_TRUE(O::dec(bytes, back, pool, {.form = form}).ok()) << "seed=" << seed;
    ASSERT_EQ(back, pts) << "seed=" << seed;
    ASSERT_TRUE(O::dec(bytes, back, pool, {.form = form, .check_subgroup = false}).ok());
    ASSERT_EQ(back, pts);

    // a point outside the subgroup at index j, an off-curve point at k > j
    const std::size_t j = rng() % n, k = j + 1 + rng() % (n - j);
    std::vector<P> bad = pts;
    bad[j] = ec_test::random_curve_point<C>(rng);
    std::vector<std::uint8_t> bb(n * sz);
    ASSERT_TRUE(O::enc(bad, bb, form, pool).ok());
    if (k < n) {
      // flip the low bit of the last byte of k's encoding: for compressed x this changes x (it may
      // still decode), so use the uncompressed/LEM forms for the off-curve defect only
      if (form != PointForm::compressed && !bad[k].infinity) bb[k * sz + sz - 1] ^= 1;
    }
    Status s = O::dec(bb, back, pool, {.form = form});
    ASSERT_EQ(s.code(), Errc::not_in_subgroup) << s.to_string() << " seed=" << seed;
    ASSERT_NE(s.message().find("point " + std::to_string(j) + ":"), std::string::npos)
        << s.message();
    // unchecked: the subgroup defect passes; the off-curve one (if any) is reported
    s = O::dec(bb, back, pool, {.form = form, .check_subgroup = false});
    if (k < n && form != PointForm::compressed && !bad[k].infinity) {
      ASSERT_EQ(s.code(), Errc::not_on_curve) << s.to_string() << " seed=" << seed;
      ASSERT_NE(s.message().find("point " + std::to_string(k) + ":"), std::string::npos)
          << s.message();
    } else {
      ASSERT_TRUE(s.ok()) << s.to_string() << " seed=" << seed;
      ASSERT_EQ(back[j], bad[j]);
    }
    // sizes that do not fit
    EXPECT_EQ(O::dec(std::span<const std::uint8_t>(bytes).first(bytes.size() - 1), back, pool,
                     {.form = form})
                  .code(),
              Errc::size_mismatch);
    EXPECT_EQ(O::dec(bytes, std::span<P>(back).first(n - 1), pool, {.form = form}).code(),
              Errc::size_mismatch);
    EXPECT_EQ(O::enc(pts, std::span<std::uint8_t>(bytes).first(sz), form, pool).code(),
              Errc::size_mismatch);
  }
  std::vector<P> none;
  EXPECT_TRUE(O::dec({}, none, pool, {}).ok());
}

}  // namespace
}  // namespace cuzk
