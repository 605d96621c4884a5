// Groth16 over a Filecoin circuit, the path `cuzk filecoin setup|prove|verify` takes
// (docs/filecoin/groth16.md): two random 2 KiB sectors sealed here, their WindowPoSt and
// WinningPoSt vanilla proofs, the families' witness and public inputs, a seeded setup whose .params
// the family finds under its v28 name. CpuProofVerifies: the CPU proof verifies with the inputs
// from public data and fails with any one of them changed. CudaProofEqualsCpu: with the same r, s
// the CUDA backend ("cuda:0") gives the CPU proof byte for byte (a deterministic function of key,
// witness, r and s); skipped when the build or the machine has no CUDA device. No real data needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using circuits::JobRequest;

// A random 2 KiB sector sealed with StackedDrg2KiBV1_1, ready for PoSt.
fc::PostSector seal_random_sector(std::uint64_t sector_id, std::mt19937_64& rng, ThreadPool& pool) {
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1_1").value();
  fc::SectorInfo info;
  info.registered_proof = proof.name;
  info.size = proof.size;
  info.porep_id = proof.porep_id;
  info.api = proof.api;
  info.id = {fc::node_from_fr(test::random_fr(rng)), sector_id,
             fc::node_from_fr(test::random_fr(rng))};
  std::vector<fc::Node> data(fc::sector_nodes(proof.size));
  for (fc::Node& n : data) n = fc::node_from_fr(test::random_fr(rng));
  auto sealed = fc::seal(info.config(), info.id, data, pool).value();
  info.comm_d = sealed.comm_d;
  info.comm_c = sealed.comm_c;
  info.comm_r_last = sealed.comm_r_last;
  info.comm_r = sealed.comm_r;
  info.replica_id = sealed.replica_id;
  return fc::PostSector{info, std::move(sealed.tree_r_last)};
}

std::string bytes_string(std::span<const std::uint8_t> b) {
  return std::string(b.begin(), b.end());
}

// One PoSt job with its key: the family's plan, matrices and a seeded setup's key, written as the
// v28 .params the family looks up.
struct PostCase {
  std::unique_ptr<cf::PostFamily> family;
  JobRequest req;
  circuits::PartitionPlan plan;
  R1csMatrices matrices;  ///< plain, as setup and the slow prover take them
  ProvingKey pk;
  std::vector<Fr> z, inputs;
};

void make_case(fc::PostKind kind, const std::string& proof_name, const fs::path& dir,
               std::span<const fc::PostSector> sectors, std::mt19937_64& rng, ThreadPool& pool,
               PostCase& c) {
  const fc::PostProof proof = fc::post_proof(proof_name).value();
  const fc::Bytes32 randomness = fc::node_from_fr(test::random_fr(rng));
  c.family = std::make_unique<cf::PostFamily>(kind, cf::FilecoinFamilyOptions{dir.string(), ""});
  c.req.registered_proof = fc::post_proof_number(proof);
  c.req.randomness = bytes_string(randomness);
  if (kind == fc::PostKind::window) {
    c.req.kind = circuits::ProofKind::window_post_partition;
    auto vanilla = fc::window_post_vanilla_proofs(proof, randomness, sectors);
    ASSERT_TRUE(vanilla.ok()) << vanilla.status().to_string();
    for (const auto& v : *vanilla)
      c.req.vanilla_proofs.push_back(bytes_string(fc::write_post_sector_proof(v)));
  } else {
    c.req.kind = circuits::ProofKind::winning_post;
    c.req.miner_id = 1000;
    auto vanilla =
        fc::winning_post_vanilla_proof(proof, randomness, fc::prover_id_of_actor(1000), sectors);
    ASSERT_TRUE(vanilla.ok()) << vanilla.status().to_string();
    c.req.vanilla_proofs.push_back(bytes_string(fc::write_post_sector_proof(vanilla->proof)));
  }
  const fc::ParameterSet set = fc::post_parameters(kind, proof.size);
  auto matrices = c.family->record_matrices(cf::filecoin_key_id(set));
  ASSERT_TRUE(matrices.ok()) << matrices.status().to_string();
  c.matrices = std::move(*matrices);
  SeededRng setup_rng(rng());
  auto pk = setup(c.matrices, setup_rng, {.pool = &pool});
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  c.pk = std::move(*pk);
  auto img = write_params(c.pk, &pool);
  ASSERT_TRUE(img.ok());
  ASSERT_TRUE(write_whole_file((dir / set.params_file()).string(), *img).ok());
  auto plan = c.family->plan(c.req);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  ASSERT_TRUE(c.family->complete_plan(*plan).ok());  // the circuit recorded now when pending
  c.plan = std::move(*plan);
  ASSERT_EQ(c.plan.partitions, 1u);
  const circuits::CancelFlag cancel{false};
  ASSERT_TRUE(c.family->witness(c.req, c.plan, 0, c.z, cancel).ok());
  auto inputs = c.family->public_inputs(c.req, c.plan, 0);
  ASSERT_TRUE(inputs.ok()) << inputs.status().to_string();
  c.inputs = std::move(*inputs);
}

Result<std::vector<std::uint8_t>> proof_bytes(Backend& backend, ThreadPool& pool, const PostCase& c,
                                              const Fr& r, const Fr& s) {
  auto key = ResidentKey::load(backend, c.pk);
  if (!key.ok()) return key.status();
  auto proof = prove(pool, **key, c.matrices, c.z, {.r = r, .s = s});
  if (!proof.ok()) return proof.status();
  const Proof one[1] = {*proof};
  return write_proofs(one);
}

class FilecoinGroth16 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    seed_ = test::fresh_seed();
    std::mt19937_64 rng(seed_);
    ThreadPool pool(0);
    dir_ = fs::temp_directory_path() / ("cuzk-fc-groth16-" + std::to_string(seed_));
    fs::create_directories(dir_);
    sectors_.push_back(seal_random_sector(11, rng, pool));
    sectors_.push_back(seal_random_sector(12, rng, pool));
    window_ = new PostCase;
    make_case(fc::PostKind::window, "StackedDrgWindow2KiBV1_2", dir_, sectors_, rng, pool,
              *window_);
  }
  static void TearDownTestSuite() {
    delete window_;
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  void SetUp() override { RecordProperty("seed", std::to_string(seed_)); }

  static inline std::uint64_t seed_ = 0;
  static inline fs::path dir_;
  static inline std::vector<fc::PostSector> sectors_;
  static inline PostCase* window_ = nullptr;
};

TEST_F(FilecoinGroth16, CpuProofVerifies) {
  ASSERT_NE(window_, nullptr);
  ASSERT_FALSE(HasFatalFailure());
  ThreadPool pool(0);
  auto cpu = make_backend("cpu", pool).value();
  std::mt19937_64 rng(seed_ + 1);
  auto bytes = proof_bytes(*cpu, pool, *window_, test::random_fr(rng), test::random_fr(rng));
  ASSERT_TRUE(bytes.ok()) << bytes.status().to_string();
  ASSERT_EQ(bytes->size(), kBellpersonProofBytes);
  const Proof proof = parse_proofs(*bytes).value()[0];
  const PreparedVerifyingKey pvk = prepare_verifying_key(window_->pk.vk);
  // 2 sectors × (comm_r + 10 challenged leaves), from public data alone.
  ASSERT_EQ(window_->inputs.size(), 22u);
  EXPECT_TRUE(verify(pvk, window_->inputs, proof).value());
  for (std::size_t i = 0; i < window_->inputs.size(); ++i) {
    std::vector<Fr> changed = window_->inputs;
    changed[i] = changed[i] + Fr::one();
    EXPECT_FALSE(verify(pvk, changed, proof).value()) << "input " << i << " changed";
  }
}

TEST_F(FilecoinGroth16, CudaProofEqualsCpu) {
  ASSERT_NE(window_, nullptr);
  ThreadPool pool(0);
  auto cuda = make_backend("cuda:0", pool);
  if (!cuda.ok()) GTEST_SKIP() << "no CUDA backend: " << cuda.status().to_string();
  auto cpu = make_backend("cpu", pool).value();
  std::mt19937_64 rng(seed_ + 2);
  // WindowPoSt (domain 2^15) from the suite, WinningPoSt (2^17) made here.
  PostCase winning;
  make_case(fc::PostKind::winning, "StackedDrgWinning2KiBV1", dir_, sectors_, rng, pool, winning);
  ASSERT_FALSE(HasFatalFailure());
  for (const PostCase* c : std::vector<const PostCase*>{window_, &winning}) {
    const Fr r = test::random_fr(rng), s = test::random_fr(rng);
    auto on_cpu = proof_bytes(*cpu, pool, *c, r, s);
    ASSERT_TRUE(on_cpu.ok()) << on_cpu.status().to_string();
    auto on_cuda = proof_bytes(**cuda, pool, *c, r, s);
    ASSERT_TRUE(on_cuda.ok()) << on_cuda.status().to_string();
    EXPECT_EQ(*on_cuda, *on_cpu) << c->plan.key_id
                                 << ": CUDA and CPU proofs differ; seed=" << seed_;
    const Proof proof = parse_proofs(*on_cuda).value()[0];
    EXPECT_TRUE(verify(prepare_verifying_key(c->pk.vk), c->inputs, proof).value())
        << c->plan.key_id;
  }
}

}  // namespace
}  // namespace cuzk
