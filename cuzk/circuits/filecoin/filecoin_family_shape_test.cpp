// The Filecoin families' circuit shape is the compact PCE form (filecoin_family_common.hpp), and
// the engine's proof system and key store work from it without plain matrices. No real data needed:
//   * the proof system's a, b, c of a 2 KiB PoRep partition (a seeded, mostly-bit z; CUZK_SEED
//     replays) from the family's compact shape equal those of the plain recording of the same
//     blank circuit (spmv_naive, the slow twin), and a shape with no form is refused;
//   * the compact form is cached per key id: a second family instance loads it (records nothing)
//     and gets the same form; a damaged cache file is recorded again and rewritten;
//   * the key store checks a .params key against the compact form's counts and densities: a key
//     sized for the 2 KiB WinningPoSt circuit offered as the WindowPoSt key is refused, so is a
//     WindowPoSt-sized key with one A-query point short (the densities count), and a key of
//     exactly the WindowPoSt sizes is accepted (the check can pass). The keys' points are
//     generators: the check reads sizes only, the key is never proved with.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/engine/key_store.hpp"
#include "cuzk/engine/proof_system.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
using namespace testing;

TEST(FilecoinShape, CompactAbcOfA2KiBPorepPartitionEqualsThePlainMatrices) {
  const fc::ParameterSet set = fc::porep_parameters(fc::SectorSize::s2KiB);
  PorepFamily fam(FilecoinFamilyOptions{});
  const std::string key_id = filecoin_key_id(set);
  auto shape = fam.shape(key_id);
  ASSERT_TRUE(shape.ok()) << shape.status().to_string();
  ASSERT_NE((*shape)->compact, nullptr);
  EXPECT_EQ((*shape)->matrices, nullptr);
  auto plain = fam.record_matrices(key_id);
  ASSERT_TRUE(plain.ok()) << plain.status().to_string();
  const R1csMatrices& m = *plain;
  ASSERT_EQ((*shape)->dims().num_columns(), m.num_columns());
  // The shape's charge is the compact form, far below the plain matrices (≈ 11× at 2 KiB).
  EXPECT_EQ((*shape)->form_bytes(), (*shape)->compact->memory_bytes());
  EXPECT_LT((*shape)->form_bytes() * 4, m.memory_bytes());

  std::mt19937_64 rng(cuzk::test::fresh_seed());
  std::vector<Fr> z(m.num_columns());
  z[0] = Fr::one();
  for (std::size_t i = 1; i < z.size(); ++i) {
    const unsigned kind = rng() % 4;  // mostly bits, as a Filecoin witness
    z[i] = kind == 0 ? Fr::zero() : kind == 1 ? Fr::one() : cuzk::test::random_fr(rng);
  }
  ThreadPool pool(2);
  engine::Groth16ProofSystem system(pool);
  auto buffers = std::make_shared<engine::FrBufferPool>(4);
  engine::PartitionVectors part(buffers);
  part.plain_z = z;
  ASSERT_TRUE(system.evaluate_abc(**shape, part).ok());
  const AbcVectors want = spmv_naive(m, z);
  ASSERT_EQ(part.abc.a.size(), m.num_constraints);
  EXPECT_GE(part.abc.a.capacity(), (*shape)->domain_size);  // the H step extends in place
  EXPECT_TRUE(part.abc.a == want.a);
  EXPECT_TRUE(part.abc.b == want.b);
  EXPECT_TRUE(part.abc.c == want.c);

  engine::PartitionVectors none(buffers);
  none.plain_z = z;
  EXPECT_EQ(system.evaluate_abc(CircuitShape{}, none).code(), Errc::invalid_argument);
}

TEST(FilecoinShape, CompactFormIsCachedAndReloadedByTheNextInstance) {
  const fs::path cache = params_dir_with("shape_cache", {});
  const FilecoinFamilyOptions opt{.cache_dir = cache.string()};
  const fc::ParameterSet set = fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB);
  const std::string key_id = filecoin_key_id(set);
  auto compact_of = [&](PostFamily& fam) -> std::shared_ptr<const CompactR1cs> {
    auto sh = fam.shape(key_id);
    EXPECT_TRUE(sh.ok()) << sh.status().to_string();
    return sh.ok() ? (*sh)->compact : nullptr;
  };

  PostFamily first(fc::PostKind::winning, opt);
  const std::string path = first.compact_cache_path(key_id);
  EXPECT_EQ(path, (cache / (key_id + ".pce-compact")).string());
  auto recorded = compact_of(first);
  ASSERT_NE(recorded, nullptr);
  EXPECT_EQ(first.compact_recordings(), 1u);
  ASSERT_TRUE(fs::exists(path));

  PostFamily second(fc::PostKind::winning, opt);
  auto loaded = compact_of(second);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(second.compact_recordings(), 0u) << "the second instance recorded instead of loading";
  EXPECT_TRUE(compact_to_matrices(*loaded) == compact_to_matrices(*recorded));

  // A damaged byte in the body: recorded again, the file rewritten, then loaded again.
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(path) / 2));
    char byte = 0;
    f.read(&byte, 1);
    f.seekp(static_cast<std::streamoff>(fs::file_size(path) / 2));
    byte = static_cast<char>(byte ^ 0x5a);
    f.write(&byte, 1);
  }
  PostFamily third(fc::PostKind::winning, opt);
  auto rebuilt = compact_of(third);
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_EQ(third.compact_recordings(), 1u) << "a damaged cache was used";
  EXPECT_TRUE(compact_to_matrices(*rebuilt) == compact_to_matrices(*recorded));
  PostFamily fourth(fc::PostKind::winning, opt);
  ASSERT_NE(compact_of(fourth), nullptr);
  EXPECT_EQ(fourth.compact_recordings(), 0u) << "the rewritten cache was not used";
  fs::remove_all(cache);
}

// A bellperson-layout key with the query sizes of a circuit of |d| and domain |n| (generator
// points), written as a .params file at |path|; |a_short| points fewer in the A query.
void write_key_of(const R1csDims& d, std::uint64_t n, const fs::path& path,
                  std::size_t a_short = 0) {
  ProvingKey pk;
  pk.domain_size = n;
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  pk.vk.alpha_g1 = pk.vk.beta_g1 = pk.vk.delta_g1 = g1;
  pk.vk.beta_g2 = pk.vk.gamma_g2 = pk.vk.delta_g2 = g2;
  pk.vk.ic.assign(d.num_inputs, g1);
  pk.h = PointArray<G1Affine>(n - 1, g1);
  pk.l = PointArray<G1Affine>(d.num_aux, g1);
  pk.a = PointArray<G1Affine>(d.a_query_points() - a_short, g1);
  pk.b_g1 = PointArray<G1Affine>(d.b_query_points(), g1);
  pk.b_g2 = PointArray<G2Affine>(d.b_query_points(), g2);
  auto bytes = write_params(pk);
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes->data()),
             static_cast<std::streamsize>(bytes->size()));
}

TEST(FilecoinShape, KeyStoreChecksKeysAgainstTheCompactForm) {
  const fs::path params = params_dir_with("shape_keys", {});
  const fs::path cache = params_dir_with("shape_keys_cache", {});
  const FilecoinFamilyOptions opt{.params_dir = params.string(), .cache_dir = cache.string()};
  auto window = std::make_shared<PostFamily>(fc::PostKind::window, opt);
  auto winning = std::make_shared<PostFamily>(fc::PostKind::winning, opt);
  auto reg = std::make_shared<Registry>();
  ASSERT_TRUE(reg->add(window).ok());
  ASSERT_TRUE(reg->add(winning).ok());
  const fc::ParameterSet window_set =
      fc::post_parameters(fc::PostKind::window, fc::SectorSize::s2KiB);
  const fc::ParameterSet winning_set =
      fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB);
  const std::string window_id = filecoin_key_id(window_set);
  auto window_shape = window->shape(window_id);
  auto winning_shape = winning->shape(filecoin_key_id(winning_set));
  ASSERT_TRUE(window_shape.ok() && winning_shape.ok());
  ASSERT_NE((*window_shape)->domain_size, (*winning_shape)->domain_size);

  ThreadPool pool(2);
  engine::Backends backends;  // none: the check happens on load, before any backend
  engine::KeyStore keys({.cache_dir = cache.string(), .key_images = false}, reg, pool, backends);
  const fs::path key_path = params / window_set.params_file();
  auto load = [&] { return keys.load(window_id, false).status(); };

  // The WinningPoSt circuit's key under the WindowPoSt name.
  write_key_of((*winning_shape)->dims(), (*winning_shape)->domain_size, key_path);
  Status s = load();
  EXPECT_EQ(s.code(), Errc::size_mismatch) << s.to_string();
  EXPECT_NE(s.message().find("domain size"), std::string::npos) << s.to_string();

  // The right domain and counts, one A point short: only the density count tells.
  write_key_of((*window_shape)->dims(), (*window_shape)->domain_size, key_path, 1);
  s = load();
  EXPECT_EQ(s.code(), Errc::size_mismatch) << s.to_string();
  EXPECT_NE(s.message().find("query a "), std::string::npos) << s.to_string();

  // Exactly the WindowPoSt sizes: accepted, and charged the compact form with the points.
  write_key_of((*window_shape)->dims(), (*window_shape)->domain_size, key_path);
  auto key = keys.load(window_id, false);
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  auto bytes = keys.key_bytes(window_id);
  ASSERT_TRUE(bytes.ok());
  const R1csDims d = (*window_shape)->dims();
  const std::uint64_t n = (*window_shape)->domain_size;
  EXPECT_EQ(*bytes,
            sizeof(G1Affine) * ((n - 1) + d.num_aux + d.a_query_points() + d.b_query_points()) +
                sizeof(G2Affine) * d.b_query_points() + (*window_shape)->form_bytes());
  fs::remove_all(params);
  fs::remove_all(cache);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
