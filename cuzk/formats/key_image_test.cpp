// Key images (key_image.hpp) and the key storage they back (groth16/point_array.hpp): round trip
// in both layouts with the queries as views of the mapping (and the circuit's matrices when
// stored), a proof from the mapped key and matrices equal byte for byte to one from the owned key
// (fixed r, s) on the CPU backend, damaged / stale / truncated / missing / old-version images and
// damaged matrix bytes refused with their reasons, and PointArray's owned/view behaviour.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/ec/test_util.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/key_image.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"

namespace cuzk {
namespace {

std::uint64_t get64_at(const std::string& path, std::uint64_t at) {
  std::ifstream f(path, std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  std::uint8_t b[8] = {};
  f.read(reinterpret_cast<char*>(b), 8);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
  return v;
}

// A fresh seed (ec_test::fresh_seed: printed, CUZK_SEED replays it), a generator from it, and a
// bench circuit of 256 + g() % |spread| rows with two public inputs.
struct SeededCircuit {
  std::uint64_t seed;
  std::mt19937_64 g;
  Result<BenchR1cs> circuit;
};
SeededCircuit seeded_circuit(unsigned spread) {
  const std::uint64_t seed = ec_test::fresh_seed();
  std::mt19937_64 g(seed);
  const std::size_t rows = 256 + g() % spread;
  return {seed, g, generate_bench_r1cs({.rows = rows, .seed = seed, .num_public = 2})};
}

std::string temp_path(const std::string& tag) {
  return ::testing::TempDir() + "cuzk_kimg_" + tag + "_" + std::to_string(::getpid()) + ".kimg";
}

void flip_byte(const std::string& path, std::uint64_t at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  char c = 0;
  f.read(&c, 1);
  c ^= 0x20;
  f.seekp(static_cast<std::streamoff>(at));
  f.write(&c, 1);
}

TEST(KeyImage, RoundTripProvesLikeTheOwnedKey) {
  ThreadPool pool(2);
  auto [seed, g, c] = seeded_circuit(400);
  ASSERT_TRUE(c.ok());
  const auto z = c->assignment();
  for (KeyLayout layout : {KeyLayout::bellperson, KeyLayout::snarkjs}) {
    SeededRng rng(seed);
    auto pk = setup(c->matrices, rng, {.layout = layout, .pool = &pool});
    ASSERT_TRUE(pk.ok()) << pk.status().to_string();
    const std::string path =
        temp_path(layout == KeyLayout::snarkjs ? "rt-snarkjs" : "rt-bellperson");
    // The snarkjs key stores the circuit's matrices (as `cuzk prove --zkey` does), the
    // bellperson key none (as the engine's images).
    const bool with_m = layout == KeyLayout::snarkjs;
    ASSERT_TRUE(write_key_image(path, *pk, 0x1234, &pool, with_m ? &c->matrices : nullptr).ok());
    // Written by this process: counted as checked; "always" reads it all.
    auto img = KeyImage::open(path, 0x1234, &pool);
    ASSERT_TRUE(img.ok()) << img.status().to_string();
    EXPECT_FALSE((*img)->data_checked());
    auto img2 = KeyImage::open(path, 0x1234, &pool, KeyImageCheck::always);
    ASSERT_TRUE(img2.ok()) << img2.status().to_string();
    EXPECT_TRUE((*img2)->data_checked());
    EXPECT_EQ((*img)->file_bytes(), std::filesystem::file_size(path));
    ProvingKey mapped = (*img)->key();
    EXPECT_TRUE(mapped == *pk) << "seed=" << seed;
    EXPECT_TRUE(mapped.h.is_view() && mapped.l.is_view() && mapped.a.is_view() &&
                mapped.b_g1.is_view() && mapped.b_g2.is_view());
    EXPECT_EQ(mapped.query_bytes(), pk->query_bytes());
    EXPECT_EQ((*img)->has_matrices(), with_m);
    auto mm = (*img)->matrices();
    ASSERT_EQ(mm.ok(), with_m) << mm.status().to_string();
    if (!with_m) {
      EXPECT_EQ(mm.status().code(), Errc::not_found);
    }
    const R1csMatrices& m_used = with_m ? *mm : c->matrices;
    if (with_m) {
      EXPECT_TRUE(*mm == c->matrices) << "seed=" << seed;
    }
    // The mapping outlives the image handle through the views.
    img->reset();
    img2->reset();
    std::filesystem::remove(path);  // unlinked: the mapping stays valid
    CpuBackend backend(pool);
    const Fr r = Fr::from_u64(seed | 1), s = Fr::from_u64(seed ^ 0x5555);
    auto from_owned = prove(backend, pool, *pk, c->matrices, z, {.r = r, .s = s});
    auto from_mapped = prove(backend, pool, mapped, m_used, z, {.r = r, .s = s});
    ASSERT_TRUE(from_owned.ok() && from_mapped.ok()) << from_mapped.status().to_string();
    const Proof a[1] = {*from_owned}, b[1] = {*from_mapped};
    EXPECT_EQ(write_proofs(a), write_proofs(b)) << "seed=" << seed;
    const auto pvk = prepare_verifying_key(mapped.vk);
    const std::span<const Fr> pub(z.data() + 1, c->matrices.num_inputs - 1);
    EXPECT_TRUE(*verify(pvk, pub, *from_mapped)) << "seed=" << seed;
    // A ResidentKey on the CPU proves from the mapping in place: the key's owner is shared.
    auto rk = ResidentKey::load(backend, mapped);
    ASSERT_TRUE(rk.ok());
    EXPECT_GE(mapped.h.owner().use_count(), 3);  // 5 query views + the backend's tables
  }
}

TEST(KeyImage, DamagedStaleTruncatedImagesRefused) {
  ThreadPool pool(2);
  auto c = generate_bench_r1cs({.rows = 300, .seed = 7, .num_public = 2});
  ASSERT_TRUE(c.ok());
  SeededRng rng(7);
  auto pk = setup(c->matrices, rng, {.pool = &pool});
  ASSERT_TRUE(pk.ok());
  const std::string path = temp_path("damage");
  auto fresh = [&] { ASSERT_TRUE(write_key_image(path, *pk, 42, &pool).ok()); };
  fresh();
  EXPECT_EQ(KeyImage::open(path, 43, &pool).status().code(), Errc::invalid_argument);  // stale
  EXPECT_NE(KeyImage::open(path, 43, &pool).status().to_string().find("stale"), std::string::npos);
  EXPECT_EQ(KeyImage::open(path + ".none", 42, &pool).status().code(), Errc::not_found);
  // A flipped bit in the data: the file changed (mtime/size), so the first open checks it again.
  const std::uint64_t size = std::filesystem::file_size(path);
  flip_byte(path, size - 4096 - 100);  // inside b_g2 or padding before the end
  flip_byte(path, 4096 + 200);         // inside the vk / ic
  auto bad = KeyImage::open(path, 42, &pool);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::bad_encoding);
  EXPECT_NE(bad.status().to_string().find("data checksum"), std::string::npos)
      << bad.status().to_string();
  // Header damage.
  fresh();
  flip_byte(path, 33);  // domain size
  auto hb = KeyImage::open(path, 42, &pool, KeyImageCheck::header_only);
  ASSERT_FALSE(hb.ok());
  EXPECT_NE(hb.status().to_string().find("header checksum"), std::string::npos)
      << hb.status().to_string();
  fresh();
  flip_byte(path, 0);
  EXPECT_EQ(KeyImage::open(path, 42, &pool).status().code(), Errc::bad_encoding);
  // Truncated.
  fresh();
  std::filesystem::resize_file(path, size / 2);
  auto tr = KeyImage::open(path, 42, &pool);
  ASSERT_FALSE(tr.ok());
  EXPECT_EQ(tr.status().code(), Errc::bad_encoding);
  std::filesystem::resize_file(path, 100);
  EXPECT_EQ(KeyImage::open(path, 42, &pool).status().code(), Errc::bad_encoding);
  // Rewritten: good again.
  fresh();
  auto ok = KeyImage::open(path, 42, &pool, KeyImageCheck::always);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE((*ok)->key() == *pk);
  std::filesystem::remove(path);
}

// The stored matrices are covered by the data checksum and validated when copied out; an image
// of another version is refused by its version before anything else is read.
TEST(KeyImage, MatricesDamagedAndOldVersionRefused) {
  ThreadPool pool(2);
  auto [seed, g, c] = seeded_circuit(300);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  SeededRng rng(seed);
  auto pk = setup(c->matrices, rng, {.layout = KeyLayout::snarkjs, .pool = &pool});
  ASSERT_TRUE(pk.ok());
  const std::string path = temp_path("matrices");
  // Named outside the lambda: clang before 16 cannot capture a structured binding (c).
  const R1csMatrices& matrices = c->matrices;
  auto fresh = [&] { ASSERT_TRUE(write_key_image(path, *pk, 7, &pool, &matrices).ok()); };
  fresh();
  // Table entry s at 64 + 16·s (offset, count): 8 = A col, 12 = B row_ptr, 22 = a_aux density.
  for (int s : {8, 12, 22}) {
    fresh();
    const std::uint64_t off = get64_at(path, 64 + 16 * s), count = get64_at(path, 72 + 16 * s);
    ASSERT_GT(count, 0u) << "section " << s;
    flip_byte(path, off + (g() % count) * (s == 8 ? 4 : 8));
    auto bad = KeyImage::open(path, 7, &pool);  // the file changed: its data is checked again
    ASSERT_FALSE(bad.ok()) << "section " << s << " seed=" << seed;
    EXPECT_EQ(bad.status().code(), Errc::bad_encoding);
    EXPECT_NE(bad.status().to_string().find("data checksum"), std::string::npos)
        << bad.status().to_string();
    // Opened without the data check, the copy-out's validation catches what SpMV would misread
    // (a column past the variables, offsets that decrease or overrun), or the rows differ.
    auto unchecked = KeyImage::open(path, 7, &pool, KeyImageCheck::header_only);
    ASSERT_TRUE(unchecked.ok()) << unchecked.status().to_string();
    auto m = (*unchecked)->matrices();
    if (m.ok())
      EXPECT_FALSE(*m == c->matrices) << "section " << s;
    else
      EXPECT_EQ(m.status().code(), Errc::bad_encoding) << m.status().to_string();
  }
  // A column word past the last variable: refused by the copy-out's validation.
  fresh();
  {
    const std::uint64_t off = get64_at(path, 64 + 16 * 8);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    const std::uint32_t w = 0x3fffffff;  // kind +1, column 2^30 − 1
    f.seekp(static_cast<std::streamoff>(off));
    f.write(reinterpret_cast<const char*>(&w), 4);
  }
  auto unchecked = KeyImage::open(path, 7, &pool, KeyImageCheck::header_only);
  ASSERT_TRUE(unchecked.ok());
  auto m = (*unchecked)->matrices();
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), Errc::bad_encoding);
  EXPECT_NE(m.status().to_string().find("out of range"), std::string::npos)
      << m.status().to_string();
  // Version 1 (the layout before the matrices): refused by its version, whatever its checksums.
  fresh();
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    const std::uint32_t v1 = 1;
    f.seekp(8);
    f.write(reinterpret_cast<const char*>(&v1), 4);
  }
  auto old = KeyImage::open(path, 7, &pool);
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), Errc::bad_encoding);
  EXPECT_NE(old.status().to_string().find("version 1"), std::string::npos)
      << old.status().to_string();
  // Rewritten: good again, matrices equal.
  fresh();
  auto ok = KeyImage::open(path, 7, &pool, KeyImageCheck::always);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  auto mm = (*ok)->matrices();
  ASSERT_TRUE(mm.ok()) << mm.status().to_string();
  EXPECT_TRUE(*mm == c->matrices) << "seed=" << seed;
  std::filesystem::remove(path);
}

TEST(PointArray, OwnedAndViewBehaveLikeVectors) {
  PointArray<G1Affine> a;
  EXPECT_TRUE(a.empty());
  for (std::uint64_t i = 0; i < 100; ++i)
    a.push_back(G1Affine{Fp::from_u64(i), Fp::from_u64(i + 1), false});
  ASSERT_EQ(a.size(), 100u);
  EXPECT_FALSE(a.is_view());
  EXPECT_EQ(a[7].x, Fp::from_u64(7));
  PointArray<G1Affine> copy = a;  // owned: deep copy
  copy[7] = G1Affine::identity();
  EXPECT_EQ(a[7].x, Fp::from_u64(7));
  // A view shares its owner; a write through it copies first.
  auto owner = std::make_shared<std::vector<G1Affine>>(a.begin(), a.end());
  auto v = PointArray<G1Affine>::view(std::span<const G1Affine>(*owner), owner);
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(owner.use_count(), 2);
  auto v2 = v;  // shares
  EXPECT_TRUE(v2.is_view());
  EXPECT_EQ(owner.use_count(), 3);
  v2[3] = G1Affine::identity();  // detaches
  EXPECT_FALSE(v2.is_view());
  EXPECT_EQ(owner.use_count(), 2);
  EXPECT_FALSE((*owner)[3].is_identity());
  EXPECT_TRUE(v2[3].is_identity());
  EXPECT_TRUE(v == a);
  EXPECT_FALSE(v2 == a);
  // Large arrays (huge-page advised mappings) and adopting a vector.
  PointArray<G1Affine> big((std::size_t{3} << 20) / sizeof(G1Affine));
  EXPECT_TRUE(big[big.size() - 1].x == Fp::zero());
  big.resize(big.size() + 5, G1Affine::generator());
  EXPECT_TRUE(big.back() == G1Affine::generator());
  std::vector<G1Affine> vec(10, G1Affine::generator());
  const G1Affine* p = vec.data();
  PointArray<G1Affine> adopted(std::move(vec));
  EXPECT_EQ(adopted.data(), p);
  adopted.pop_back();
  EXPECT_EQ(adopted.size(), 9u);
  adopted.clear();
  EXPECT_TRUE(adopted.empty());
}

}  // namespace
}  // namespace cuzk
