// ParamsFileWriter (formats/params_writer.hpp) against write_params, its slow twin: a random
// bellperson-layout key fed query by query in chunks gives the same bytes; misuse is refused with
// an error naming it (queries out of order or short, points of the wrong group, the snarkjs
// layout), and a writer dropped before finish() leaves no file behind. Seeded (printed; CUZK_SEED
// replays).
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <random>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/params_writer.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

namespace fs = std::filesystem;
using test::fresh_seed;
using test::random_fr;

template <class C>
std::vector<Affine<C>> random_points(std::mt19937_64& rng, std::size_t n) {
  std::vector<Affine<C>> v(n);
  for (auto& p : v) p = mul_vartime(Affine<C>::generator(), random_fr(rng)).to_affine_vartime();
  return v;
}

ProvingKey random_key(std::mt19937_64& rng) {
  ProvingKey pk;
  pk.domain_size = 16;
  auto g1 = random_points<G1Curve>(rng, 8);
  auto g2 = random_points<G2Curve>(rng, 4);
  pk.vk.alpha_g1 = g1[0];
  pk.vk.beta_g1 = g1[1];
  pk.vk.delta_g1 = g1[2];
  pk.vk.beta_g2 = g2[0];
  pk.vk.gamma_g2 = g2[1];
  pk.vk.delta_g2 = g2[2];
  pk.vk.ic = random_points<G1Curve>(rng, 3);
  pk.h = random_points<G1Curve>(rng, 15);
  pk.l = random_points<G1Curve>(rng, 7);
  pk.a = random_points<G1Curve>(rng, 9);
  pk.b_g1 = random_points<G1Curve>(rng, 5);
  pk.b_g2 = random_points<G2Curve>(rng, 5);
  return pk;
}

template <class T>
std::span<const T> span_of(const PointArray<T>& a) {
  return std::span<const T>(a.data(), a.size());
}

struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("cuzk-params-writer-" + std::to_string(::getpid()) +
                                              "-" + std::to_string(fresh_seed()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
};

TEST(ParamsFileWriter, ChunkedWriteEqualsWriteParams) {
  std::mt19937_64 rng(fresh_seed());
  const ProvingKey pk = random_key(rng);
  TempDir tmp;
  const std::string path = (tmp.dir / "k.params").string();
  ThreadPool pool(2);
  {
    ParamsFileWriter w(path, &pool);
    ASSERT_TRUE(w.verifying_key(pk.vk, KeyLayout::bellperson, pk.domain_size).ok());
    auto g1_query = [&](KeyQuery q, const PointArray<G1Affine>& pts) {
      ASSERT_TRUE(w.begin_query(q, pts.size()).ok());
      auto s = span_of(pts);
      for (std::size_t off = 0; off < s.size(); off += 4)
        ASSERT_TRUE(w.append_g1(s.subspan(off, std::min<std::size_t>(4, s.size() - off))).ok());
    };
    g1_query(KeyQuery::h, pk.h);
    g1_query(KeyQuery::l, pk.l);
    g1_query(KeyQuery::a, pk.a);
    g1_query(KeyQuery::b_g1, pk.b_g1);
    ASSERT_TRUE(w.begin_query(KeyQuery::b_g2, pk.b_g2.size()).ok());
    ASSERT_TRUE(w.append_g2(span_of(pk.b_g2).first(2)).ok());
    ASSERT_TRUE(w.append_g2(span_of(pk.b_g2).subspan(2)).ok());
    ASSERT_TRUE(w.finish().ok());
    EXPECT_TRUE(w.vk() == pk.vk);
  }
  auto got = read_whole_file(path);
  auto want = write_params(pk);
  ASSERT_TRUE(got.ok() && want.ok());
  EXPECT_TRUE(*got == *want);
  EXPECT_EQ(got->size(), want->size());
  EXPECT_FALSE(fs::exists(path + ".partial"));
}

TEST(ParamsFileWriter, MisuseIsRefusedAndLeavesNoFile) {
  std::mt19937_64 rng(fresh_seed());
  const ProvingKey pk = random_key(rng);
  TempDir tmp;
  const std::string path = (tmp.dir / "k.params").string();
  {
    ParamsFileWriter w(path);
    EXPECT_EQ(w.begin_query(KeyQuery::h, 1).code(), Errc::invalid_argument);  // before the VK
    EXPECT_EQ(w.verifying_key(pk.vk, KeyLayout::snarkjs, 16).code(), Errc::invalid_argument);
    ASSERT_TRUE(w.verifying_key(pk.vk, KeyLayout::bellperson, 16).ok());
    EXPECT_EQ(w.begin_query(KeyQuery::l, 1).code(), Errc::invalid_argument);  // out of order
    ASSERT_TRUE(w.begin_query(KeyQuery::h, 2).ok());
    EXPECT_EQ(w.append_g2(span_of(pk.b_g2).first(1)).code(), Errc::invalid_argument);
    ASSERT_TRUE(w.append_g1(span_of(pk.h).first(1)).ok());
    EXPECT_EQ(w.append_g1(span_of(pk.h).first(2)).code(), Errc::invalid_argument);  // too many
    const Status s = w.begin_query(KeyQuery::l, 1);  // h one point short
    EXPECT_EQ(s.code(), Errc::invalid_argument);
    EXPECT_NE(s.to_string().find("lacks 1 points"), std::string::npos) << s.to_string();
    EXPECT_EQ(w.finish().code(), Errc::invalid_argument);
    EXPECT_TRUE(fs::exists(path + ".partial"));
  }
  EXPECT_FALSE(fs::exists(path + ".partial"));
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace cuzk
