// The Filecoin circuit families (porep_family, post_family, update_family) and their public data
// (filecoin_public_data):
//   * registered proof numbers as Curio's cuzk maps them (Winning 32 GiB = 3, Window 32 GiB V1 = 8,
//     Go's Window V1_1 = 13 → V1_2, update 32 GiB = 3) and prover ids (t0106 → 0x6a; 1000 →
//     e8 07: Curio's make_prover_id tests);
//   * keys: key ids are the .params stems, key_source is the file in the parameter directory,
//     key_files lists what is there, and a plan whose key is missing fails naming the file;
//   * with CUZK_FILECOIN_DATA, real requests built from the venus 2 KiB sectors (C1 envelope for
//     PoRep, bincode vanilla proofs for WindowPoSt partitions 0 and 1, WinningPoSt and SnapDeals):
//     each plans (its dimensions from shape()'s compact form, whose counts and densities are the
//     plain recording's), every partition's witness satisfies A·z ∘ B·z = C·z of the plain
//     matrices and the compact form's a, b, c of it equal theirs (slow twin spmv_naive),
//     public_inputs(k) equals z[1..1+n], and a changed input leaves the system unsatisfied; bad
//     requests (truncated C1 or vanilla proof, wrong registered proof or sector size, a vanilla
//     proof of another sector or miner, missing randomness or commitment, tampered public data)
//     are refused at plan with a message naming the problem;
//   * porep_id / api_version overrides (ProofOverrides, `prove --porep-id --api-version`): a C1
//     whose registered proof is not the one its replica_id and graph were made with proves with
//     the overrides that name them, and WindowPoSt vanilla proofs of the V1 challenge rule prove
//     under a V1_2 proof with api 1.0.0; an override the C1 contradicts is refused naming both.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "tests/support/filecoin_data.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
using namespace testing;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

#define EXPECT_ERROR_NAMING(expr, needle)                                                       \
  do {                                                                                          \
    const Status s_ = (expr);                                                                   \
    EXPECT_FALSE(s_.ok()) << "accepted; expected an error naming '" << needle << "'";           \
    EXPECT_NE(s_.to_string().find(needle), std::string::npos) << "message: " << s_.to_string(); \
  } while (0)

TEST(FilecoinNumbers, RegisteredProofsAndProverIds) {
  EXPECT_EQ(fc::post_proof_by_number(3)->name, "StackedDrgWinning32GiBV1");
  EXPECT_EQ(fc::post_proof_by_number(8)->name, "StackedDrgWindow32GiBV1");
  EXPECT_EQ(fc::post_proof_by_number(13)->name, "StackedDrgWindow32GiBV1_2");
  EXPECT_EQ(fc::post_proof_by_number(0)->name, "StackedDrgWinning2KiBV1");
  EXPECT_EQ(fc::post_proof_by_number(10)->name, "StackedDrgWindow2KiBV1_2");
  EXPECT_FALSE(fc::post_proof_by_number(15).ok());
  EXPECT_EQ(fc::update_proof_by_number(3)->name, "StackedDrg32GiBV1");
  EXPECT_FALSE(fc::update_proof_by_number(5).ok());
  EXPECT_EQ(fc::seal_proof_by_number(8)->name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(fc::seal_proof_by_number(0)->name, "StackedDrg2KiBV1");
  EXPECT_FALSE(fc::seal_proof_by_number(20).ok());
  for (std::uint64_t n = 0; n < 15; ++n)
    EXPECT_EQ(fc::post_proof_number(*fc::post_proof_by_number(n)), n);
  for (std::uint64_t n = 0; n < 5; ++n)
    EXPECT_EQ(fc::update_proof_number(*fc::update_proof_by_number(n)), n);

  fc::Bytes32 t0106{};
  t0106[0] = 0x6a;
  EXPECT_EQ(fc::prover_id_of_actor(106), t0106);
  const fc::Bytes32 m1000 = fc::prover_id_of_actor(1000);
  EXPECT_EQ(m1000[0], 0xe8);
  EXPECT_EQ(m1000[1], 0x07);
  EXPECT_EQ(m1000[2], 0x00);
  EXPECT_EQ(fc::prover_id_of_actor(128)[0], 0x80);
  EXPECT_EQ(fc::prover_id_of_actor(128)[1], 0x01);
  EXPECT_EQ(fc::prover_id_of_actor(0), fc::Bytes32{});
}

TEST(FilecoinFamilies, KeysAreTheParameterFilesByName) {
  const fc::ParameterSet porep = fc::porep_parameters(fc::SectorSize::s2KiB);
  const fs::path dir = params_dir_with("keys", {porep});
  const FilecoinFamilyOptions opt{.params_dir = dir.string()};
  PorepFamily fam(opt);
  PostFamily winning(fc::PostKind::winning, opt);
  const std::string id = filecoin_key_id(porep);
  EXPECT_EQ(id + ".params", porep.params_file());
  EXPECT_EQ(id.rfind("v28-stacked-proof-of-replication-", 0), 0u) << id;
  EXPECT_TRUE(fam.serves_circuit(id));
  EXPECT_FALSE(winning.serves_circuit(id));
  EXPECT_TRUE(winning.serves_circuit(
      filecoin_key_id(fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s32GiB))));
  EXPECT_FALSE(fam.serves_circuit("bench-10"));
  auto src = fam.key_source(id);
  ASSERT_TRUE(src.ok());
  EXPECT_EQ(src->kind, KeySource::Kind::params);
  EXPECT_EQ(src->path, (dir / porep.params_file()).string());
  const auto files = fam.key_files();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].key_id, id);
  EXPECT_TRUE(winning.key_files().empty());
  EXPECT_EQ(fam.kinds(), std::vector{ProofKind::porep_seal_commit});
  EXPECT_EQ(winning.kinds(), std::vector{ProofKind::winning_post});
  EXPECT_EQ(PostFamily(fc::PostKind::window, opt).kinds(),
            std::vector{ProofKind::window_post_partition});
  EXPECT_EQ(UpdateFamily(opt).kinds(), std::vector{ProofKind::snap_deals_update});
  fs::remove_all(dir);
}

#define NEED_VENUS()             \
  CUZK_REQUIRE_FILECOIN_DATA();  \
  const Venus* venus_ = venus(); \
  ASSERT_NE(venus_, nullptr);    \
  const Venus& v = *venus_

class VenusFamilies : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = params_dir_with("venus", all_2kib_sets());
    const FilecoinFamilyOptions opt{.params_dir = dir_.string()};
    porep_ = std::make_unique<PorepFamily>(opt);
    window_ = std::make_unique<PostFamily>(fc::PostKind::window, opt);
    winning_ = std::make_unique<PostFamily>(fc::PostKind::winning, opt);
    update_ = std::make_unique<UpdateFamily>(opt);
  }
  static void TearDownTestSuite() {
    porep_.reset();
    window_.reset();
    winning_.reset();
    update_.reset();
    fs::remove_all(dir_);
  }

  // Plans |req|; every partition's witness satisfies the recorded matrices, its inputs are the
  // family's public inputs, and a changed input is caught.
  static void expect_proves(FilecoinFamily& fam, const JobRequest& req, std::uint32_t partitions) {
    SCOPED_TRACE(fam.name());
    auto t = Clock::now();
    auto plan = fam.plan(req);
    ASSERT_TRUE(plan.ok()) << plan.status().to_string();
    ASSERT_TRUE(fam.complete_plan(*plan).ok());  // records the circuit when pending
    ASSERT_FALSE(plan->dimensions_pending);
    const double plan_s = since(t);
    EXPECT_EQ(plan->partitions, partitions);
    t = Clock::now();
    auto shape = fam.shape(plan->key_id);  // made by complete_plan: shared, not recorded again
    ASSERT_TRUE(shape.ok()) << shape.status().to_string();
    const double shape_s = since(t);
    EXPECT_EQ(fam.shape(plan->key_id)->get(), shape->get());  // recorded once
    // The compact form only: no plain matrices held.
    ASSERT_NE((*shape)->compact, nullptr);
    EXPECT_EQ((*shape)->matrices, nullptr);
    const CompactR1cs& compact = *(*shape)->compact;
    // The slow twin: the blank circuit recorded as plain matrices. The compact form's counts and
    // densities are the recording's, and the plan's dimensions follow from them.
    auto plain = fam.record_matrices(plan->key_id);
    ASSERT_TRUE(plain.ok()) << plain.status().to_string();
    const R1csMatrices& m = *plain;
    const R1csDims dims = (*shape)->dims();
    EXPECT_EQ(dims.num_inputs, m.num_inputs);
    EXPECT_EQ(dims.num_aux, m.num_aux);
    EXPECT_EQ(dims.num_constraints, m.num_constraints);
    EXPECT_EQ(*dims.a_aux_density, m.a_aux_density);
    EXPECT_EQ(*dims.b_input_density, m.b_input_density);
    EXPECT_EQ(*dims.b_aux_density, m.b_aux_density);
    EXPECT_EQ(plan->columns, m.num_columns());
    EXPECT_EQ(plan->domain_size, (*shape)->domain_size);
    EXPECT_GE(plan->domain_size, m.num_constraints);
    EXPECT_LT(plan->domain_size / 2, m.num_constraints);
    ThreadPool pool(2);
    for (std::uint32_t k = 0; k < plan->partitions; ++k) {
      SCOPED_TRACE("partition " + std::to_string(k));
      std::vector<Fr> z;
      CancelFlag cancel{false};
      t = Clock::now();
      const Status ws = fam.witness(req, *plan, k, z, cancel);
      ASSERT_TRUE(ws.ok()) << ws.to_string();
      const double witness_s = since(t);
      ASSERT_EQ(z.size(), m.num_columns());
      EXPECT_TRUE(fr_is_one(z[0]));
      std::size_t bad = 0;
      const AbcVectors want = spmv_naive(m, z);
      EXPECT_TRUE(abc_satisfied(want, &bad)) << "row " << bad;
      // The compact form's a, b, c of the real witness equal the plain matrices' (slow twin).
      AbcVectors got;
      for (std::vector<Fr>* v : {&got.a, &got.b, &got.c}) v->resize(m.num_constraints);
      ASSERT_TRUE(pce_compact_evaluate_into(pool, compact, z, got.a, got.b, got.c).ok());
      EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c);
      auto inputs = fam.public_inputs(req, *plan, k);
      ASSERT_TRUE(inputs.ok()) << inputs.status().to_string();
      ASSERT_EQ(inputs->size() + 1, m.num_inputs);
      EXPECT_TRUE(std::equal(inputs->begin(), inputs->end(), z.begin() + 1));
      // The same from the request alone (a plan made elsewhere: no parsed job).
      PartitionPlan bare = *plan;
      bare.parsed = nullptr;
      auto again = fam.public_inputs(req, bare, k);
      ASSERT_TRUE(again.ok()) << again.status().to_string();
      EXPECT_EQ(*again, *inputs);
      // A changed public input: its inputize constraint fails.
      for (std::size_t i : {std::size_t{1}, static_cast<std::size_t>(m.num_inputs - 1)}) {
        std::vector<Fr> zt = z;
        zt[i] = zt[i] + Fr::one();
        EXPECT_FALSE(abc_satisfied(spmv_naive(m, zt))) << "input " << i << " changed";
      }
      std::printf("%s partition %u: plan %.2f s, shape %.2f s (%llu rows), witness %.2f s\n",
                  fam.name().c_str(), k, plan_s, shape_s,
                  static_cast<unsigned long long>(m.num_constraints), witness_s);
    }
    // Cancellation is honoured.
    std::vector<Fr> z;
    CancelFlag cancelled{true};
    EXPECT_EQ(fam.witness(req, *plan, 0, z, cancelled).code(), Errc::cancelled);
  }

  static inline fs::path dir_;
  static inline std::unique_ptr<PorepFamily> porep_;
  static inline std::unique_ptr<PostFamily> window_, winning_;
  static inline std::unique_ptr<UpdateFamily> update_;
};

TEST_F(VenusFamilies, PorepProvesEveryPartition) {
  NEED_VENUS();
  expect_proves(*porep_, v.porep, 1);
  // The public-data API alone gives the same inputs (and the replica_id of the C1).
  PorepPublicData pub{.proof = fc::seal_proof("StackedDrg2KiBV1").value(),
                      .prover_id = fc::prover_id_of_actor(kMiner),
                      .sector_id = 0,
                      .ticket = v.c1.ticket,
                      .seed = v.c1.seed,
                      .comm_d = v.c1.comm_d,
                      .comm_r = v.c1.comm_r};
  EXPECT_EQ(porep_replica_id(pub), v.c1.replica_id);
  EXPECT_EQ(partition_count(pub), 1u);
  auto plan = porep_->plan(v.porep);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(*partition_public_inputs(pub, 0), *porep_->public_inputs(v.porep, *plan, 0));
  EXPECT_ERROR_NAMING(partition_public_inputs(pub, 1).status(), "partition 1");
  pub.seed[0] ^= 1;  // another seed: other challenges, other inputs
  EXPECT_NE(*partition_public_inputs(pub, 0), *porep_->public_inputs(v.porep, *plan, 0));
}

TEST_F(VenusFamilies, WindowPostProvesPartitionsZeroAndOne) {
  NEED_VENUS();
  expect_proves(*window_, v.window0, 1);
  expect_proves(*window_, v.window1, 1);
  expect_proves(*window_, v.window_v1_1, 1);
  // Partition 1's inputs are not partition 0's (other sectors; under V1 also positions 2, 3).
  auto p0 = window_->plan(v.window0);
  auto p1 = window_->plan(v.window1);
  ASSERT_TRUE(p0.ok() && p1.ok());
  EXPECT_NE(*window_->public_inputs(v.window0, *p0, 0), *window_->public_inputs(v.window1, *p1, 0));
  // One sector: the partition repeats it.
  JobRequest one = v.window0;
  one.vanilla_proofs.resize(1);
  expect_proves(*window_, one, 1);
}

TEST_F(VenusFamilies, WinningPostProves) {
  NEED_VENUS();
  expect_proves(*winning_, v.winning, 1);
}

TEST_F(VenusFamilies, SnapDealsProvesEveryPartition) {
  NEED_VENUS();
  expect_proves(*update_, v.snap, fc::update_proof("StackedDrg2KiBV1")->partitions);
}

TEST_F(VenusFamilies, PlanInALaterInstanceLoadsTheCachedCircuit) {
  NEED_VENUS();
  // plan() never records the circuit: with neither the form in memory nor a cache file, its
  // dimensions are pending (the engine has the key's preparation record it, off the submit
  // path); complete_plan records it and writes the cache. A later instance with the same cache
  // directory loads the form at plan() and plans its dimensions at once, recording nothing; a
  // damaged cache file is not recorded again at plan() either.
  const fs::path cache = params_dir_with("venus_plan_cache", {});
  const FilecoinFamilyOptions opt{.params_dir = dir_.string(), .cache_dir = cache.string()};
  PostFamily first(fc::PostKind::window, opt);
  auto p1 = first.plan(v.window0);
  ASSERT_TRUE(p1.ok()) << p1.status().to_string();
  EXPECT_TRUE(p1->dimensions_pending);
  EXPECT_EQ(p1->columns, 0u);
  EXPECT_EQ(first.compact_recordings(), 0u) << "plan() recorded the circuit";
  EXPECT_EQ(first.ready_shape(p1->key_id), nullptr);
  ASSERT_TRUE(first.complete_plan(*p1).ok());
  EXPECT_FALSE(p1->dimensions_pending);
  EXPECT_EQ(first.compact_recordings(), 1u);
  EXPECT_NE(first.ready_shape(p1->key_id), nullptr);
  EXPECT_TRUE(fs::exists(first.compact_cache_path(p1->key_id)));
  auto p1_again = first.plan(v.window0);  // the form in memory: planned at once
  ASSERT_TRUE(p1_again.ok());
  EXPECT_FALSE(p1_again->dimensions_pending);
  EXPECT_EQ(p1_again->columns, p1->columns);
  PostFamily second(fc::PostKind::window, opt);
  auto p2 = second.plan(v.window1);
  ASSERT_TRUE(p2.ok()) << p2.status().to_string();
  EXPECT_FALSE(p2->dimensions_pending);
  EXPECT_EQ(second.compact_recordings(), 0u) << "the later instance recorded the circuit again";
  EXPECT_EQ(p2->key_id, p1->key_id);
  EXPECT_EQ(p2->columns, p1->columns);
  EXPECT_EQ(p2->domain_size, p1->domain_size);
  // A damaged cache: plan() leaves the dimensions pending (shape() records it again later).
  {
    const std::string path = first.compact_cache_path(p1->key_id);
    const auto size = fs::file_size(path);
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size / 2));
    const char c = static_cast<char>(f.get());
    f.seekp(static_cast<std::streamoff>(size / 2));
    f.put(static_cast<char>(c ^ 0x5a));
  }
  PostFamily third(fc::PostKind::window, opt);
  auto p3 = third.plan(v.window1);
  ASSERT_TRUE(p3.ok()) << p3.status().to_string();
  EXPECT_TRUE(p3->dimensions_pending);
  EXPECT_EQ(third.compact_recordings(), 0u);
  ASSERT_TRUE(third.complete_plan(*p3).ok());
  EXPECT_EQ(third.compact_recordings(), 1u);
  EXPECT_EQ(p3->columns, p1->columns);
  fs::remove_all(cache);
}

TEST_F(VenusFamilies, BadPorepRequestsAreRefusedAtPlan) {
  NEED_VENUS();
  auto plan_of = [&](const JobRequest& r) { return porep_->plan(r).status(); };
  JobRequest r = v.porep;
  r.vanilla_proof.resize(r.vanilla_proof.size() / 2);
  EXPECT_ERROR_NAMING(plan_of(r), "C1 envelope");
  r = v.porep;
  r.vanilla_proof =
      fc::write_curio_c1_request({.sector_num = 0,
                                  .sector_size = 2048,
                                  .phase1_out = fc::write_c1_json(v.c1).substr(0, 5000)});
  EXPECT_ERROR_NAMING(plan_of(r), "vanilla_proof (C1 envelope)");
  r = v.porep;
  r.vanilla_proof.clear();
  EXPECT_ERROR_NAMING(plan_of(r), "vanilla_proof is empty");
  r = v.porep;
  r.registered_proof = 5;  // StackedDrg2KiBV1_1
  EXPECT_ERROR_NAMING(plan_of(r),
                      "registered_proof 5 (StackedDrg2KiBV1_1) is not the C1's seal proof "
                      "StackedDrg2KiBV1");
  r = v.porep;
  r.sector_size = 8u << 20;
  EXPECT_ERROR_NAMING(plan_of(r), "sector_size 8388608");
  r = v.porep;
  r.sector_number = 1;  // the envelope says 0
  EXPECT_ERROR_NAMING(plan_of(r), "SectorNum 0");
  // A C1 of sector 0 submitted as sector 1, or as another miner's.
  EXPECT_ERROR_NAMING(plan_of(porep_request(v.c1, 1)), "the C1 is not of sector 1 of miner 106");
  r = v.porep;
  r.miner_id = 107;
  EXPECT_ERROR_NAMING(plan_of(r), "replica_id");
  // Tampered public data: another seed (other challenges) or comm_r.
  fc::SealCommitPhase1Output c1 = v.c1;
  c1.seed[3] ^= 1;
  EXPECT_ERROR_NAMING(plan_of(porep_request(c1, 0)), "vanilla_proof (C1 vanilla proofs)");
  c1 = v.c1;
  c1.comm_r[0] ^= 1;
  EXPECT_ERROR_NAMING(plan_of(porep_request(c1, 0)), "vanilla_proof (C1 vanilla proofs)");
  c1 = v.c1;
  c1.vanilla_proofs[0][1].labeling_proofs[0].parents[3][0] ^= 1;
  EXPECT_ERROR_NAMING(plan_of(porep_request(c1, 0)), "partition 0, challenge 1");
}

TEST_F(VenusFamilies, BadPostRequestsAreRefusedAtPlan) {
  NEED_VENUS();
  auto window = [&](const JobRequest& r) { return window_->plan(r).status(); };
  auto winning = [&](const JobRequest& r) { return winning_->plan(r).status(); };
  JobRequest r = v.window0;
  r.randomness.clear();
  EXPECT_ERROR_NAMING(window(r), "randomness is missing");
  r = v.window0;
  r.randomness.resize(31);
  EXPECT_ERROR_NAMING(window(r), "randomness has 31 bytes");
  r = v.window0;
  r.randomness[31] = static_cast<char>(0xff);
  EXPECT_ERROR_NAMING(window(r), "randomness");
  r = v.window0;
  r.randomness[0] ^= 1;  // other challenges
  EXPECT_ERROR_NAMING(window(r), "vanilla_proofs");
  r = v.window0;
  r.registered_proof = 0;  // a Winning proof
  EXPECT_ERROR_NAMING(window(r), "not a WindowPoSt proof");
  r = v.window0;
  r.registered_proof = 15;
  EXPECT_ERROR_NAMING(window(r), "unknown registered PoSt proof 15");
  r = v.window0;
  r.registered_proof = 13;  // Window 32 GiB V1_2
  EXPECT_ERROR_NAMING(window(r), "sector_size 2048 is not StackedDrgWindow32GiBV1_2's");
  r = v.window0;
  r.vanilla_proofs[1].resize(r.vanilla_proofs[1].size() - 7);
  EXPECT_ERROR_NAMING(window(r), "vanilla_proofs[1]");
  r = v.window0;
  r.vanilla_proofs.clear();
  EXPECT_ERROR_NAMING(window(r), "vanilla_proofs: none");
  r = v.window0;
  r.vanilla_proofs.push_back(r.vanilla_proofs[0]);
  EXPECT_ERROR_NAMING(window(r), "3 sectors, a StackedDrgWindow2KiBV1_2 partition has at most 2");
  r = v.window0;
  r.vanilla_proofs[1] = r.vanilla_proofs[0];
  EXPECT_ERROR_NAMING(window(r), "appears twice");
  r = v.window_v1_1;
  r.partition_index = 0;  // V1: proofs made at positions 2 and 3, not 0 and 1
  EXPECT_ERROR_NAMING(window(r), "vanilla_proofs");
  // A vanilla proof of another sector: sector 0's paths under sector 1's id and comm_r.
  {
    fc::FallbackPoStSectorProof p = v.window0_vanilla[0];
    p.sector_id = 7;
    r = v.window0;
    r.vanilla_proofs[0] = bytes_of(fc::write_post_sector_proof(p));
    EXPECT_ERROR_NAMING(window(r), "vanilla_proofs");
  }
  r = v.winning;
  r.sector_number = r.sector_number == 1 ? 5 : 1;
  EXPECT_ERROR_NAMING(winning(r), "the request's sector_number is");
  r = v.winning;
  r.vanilla_proofs.push_back(r.vanilla_proofs[0]);
  EXPECT_ERROR_NAMING(winning(r), "2 proofs, WinningPoSt takes");
  r = v.winning;
  r.randomness.clear();
  EXPECT_ERROR_NAMING(winning(r), "randomness is missing");
  r = v.winning;
  r.miner_id = 1;  // WinningPoSt's prover_id is not constrained: the proof itself still verifies
  EXPECT_TRUE(winning(r).ok());
  r = v.winning;
  r.registered_proof = 5;
  EXPECT_ERROR_NAMING(winning(r), "not a WinningPoSt proof");
}

TEST_F(VenusFamilies, BadSnapRequestsAreRefusedAtPlan) {
  NEED_VENUS();
  auto plan_of = [&](const JobRequest& r) { return update_->plan(r).status(); };
  JobRequest r = v.snap;
  r.comm_d_new.clear();
  EXPECT_ERROR_NAMING(plan_of(r), "comm_d_new is missing");
  r = v.snap;
  r.comm_r_old.resize(33);
  EXPECT_ERROR_NAMING(plan_of(r), "comm_r_old has 33 bytes");
  r = v.snap;
  r.comm_r_new[5] ^= 1;
  EXPECT_ERROR_NAMING(plan_of(r), "vanilla_proofs");
  r = v.snap;
  r.comm_d_new[0] ^= 1;
  EXPECT_ERROR_NAMING(plan_of(r), "vanilla_proofs");
  r = v.snap;
  r.registered_proof = 1;  // 8 MiB: 4 partitions
  EXPECT_ERROR_NAMING(plan_of(r), "sector_size 2048 is not StackedDrg8MiBV1's");
  r.sector_size = 0;
  EXPECT_ERROR_NAMING(plan_of(r), "StackedDrg8MiBV1 has 4 partitions");
  r = v.snap;
  r.registered_proof = 9;
  EXPECT_ERROR_NAMING(plan_of(r), "unknown registered update proof 9");
  // h: 2 KiB allows h = 1 alone (storage-proofs-update hs: [1; 6] up to 32 KiB), so 1 given
  // explicitly plans and any other h is refused naming the allowed ones. (A non-default h that
  // proves needs ≥ 64 KiB sectors: the 8 MiB slow test, h = 8.)
  r = v.snap;
  r.update_h = 1;
  EXPECT_TRUE(update_->plan(r).ok());
  r.update_h = 2;
  EXPECT_ERROR_NAMING(plan_of(r), "update_h 2 is not allowed for StackedDrg2KiBV1 (allowed: 1..1");
  r = v.snap;
  r.vanilla_proofs[0].resize(100);
  EXPECT_ERROR_NAMING(plan_of(r), "vanilla_proofs[0]");
  r = v.snap;
  r.vanilla_proofs.push_back(r.vanilla_proofs[0]);
  EXPECT_ERROR_NAMING(plan_of(r), "partition proofs, StackedDrg2KiBV1 has 1 partition");
  // The public-data API: inputs of the update's one partition; k past it refused.
  SnapPublicData pub{.proof = fc::update_proof("StackedDrg2KiBV1").value()};
  std::copy(v.snap.comm_r_old.begin(), v.snap.comm_r_old.end(), pub.comm_r_old.begin());
  std::copy(v.snap.comm_d_new.begin(), v.snap.comm_d_new.end(), pub.comm_d_new.begin());
  std::copy(v.snap.comm_r_new.begin(), v.snap.comm_r_new.end(), pub.comm_r_new.begin());
  auto in = partition_public_inputs(pub, 0);
  ASSERT_TRUE(in.ok()) << in.status().to_string();
  EXPECT_EQ(in->size(), 4u);
  EXPECT_EQ((*in)[0], Fr::from_u64(1));  // k = 0, h = 1 = hs[0]: h_select 1
  EXPECT_ERROR_NAMING(partition_public_inputs(pub, 1).status(), "partition 1");
}

TEST_F(VenusFamilies, AMissingKeyFailsAtPlanNamingTheFile) {
  NEED_VENUS();
  // A directory holding only the 2 KiB PoRep key serves 2 KiB PoRep and refuses the rest.
  const fc::ParameterSet porep = fc::porep_parameters(fc::SectorSize::s2KiB);
  const fs::path dir = params_dir_with("porep_only", {porep});
  const FilecoinFamilyOptions opt{.params_dir = dir.string()};
  PorepFamily p(opt);
  EXPECT_TRUE(p.plan(v.porep).ok());
  const fc::ParameterSet win = fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB);
  auto s = PostFamily(fc::PostKind::winning, opt).plan(v.winning).status();
  EXPECT_EQ(s.code(), Errc::not_found);
  EXPECT_ERROR_NAMING(s, (dir / win.params_file()).string());
  EXPECT_ERROR_NAMING(UpdateFamily(opt).plan(v.snap).status(),
                      fc::update_parameters(fc::SectorSize::s2KiB).params_file());
  fs::remove_all(dir);
  EXPECT_ERROR_NAMING(p.plan(v.porep).status(), porep.params_file());
}

TEST_F(VenusFamilies, PorepOverridesReplaceTheC1sProof) {
  NEED_VENUS();
  auto family_with = [&](ProofOverrides o) {
    return PorepFamily(FilecoinFamilyOptions{.params_dir = dir_.string(), .overrides = o});
  };
  const fc::PorepId own_id = fc::porep_id_of(0);  // StackedDrg2KiBV1: venus's
  const fc::PorepId other_id = fc::porep_id_of(5);
  // The C1's own porep_id and api version as overrides: nothing changes.
  EXPECT_TRUE(
      family_with({.porep_id = own_id, .api_version = fc::ApiVersion::v1_0_0}).plan(v.porep).ok());
  // The venus C1 (made with porep_id 0) under another porep_id: refused naming both.
  EXPECT_ERROR_NAMING(family_with({.porep_id = other_id}).plan(v.porep).status(),
                      "the C1's replica_id is derived with porep_id " + fc::to_hex(own_id) +
                          " (its registered proof StackedDrg2KiBV1's), not with the porep_id "
                          "override " +
                          fc::to_hex(other_id));
  // Under api 1.1.0 the graph's parents differ from the 1.0.0 ones the C1's proofs hold.
  EXPECT_ERROR_NAMING(
      family_with({.api_version = fc::ApiVersion::v1_1_0}).plan(v.porep).status(),
      "the C1's vanilla proofs are of api version 1.0.0 (its registered proof StackedDrg2KiBV1's), "
      "not of the api_version override 1.1.0");
  // A C1 that names StackedDrg2KiBV1_1 but was made with porep_id 0 and api 1.0.0 (a PoRepConfig
  // built by hand upstream): refused as it is, proved with the overrides, to the same inputs.
  fc::SealCommitPhase1Output c1 = v.c1;
  c1.registered_proof = "StackedDrg2KiBV1_1";
  const JobRequest relabelled = porep_request(c1, 0);
  EXPECT_ERROR_NAMING(porep_->plan(relabelled).status(), "replica_id");
  PorepFamily fam = family_with({.porep_id = own_id, .api_version = fc::ApiVersion::v1_0_0});
  expect_proves(fam, relabelled, 1);
  auto plan = fam.plan(relabelled);
  auto venus_plan = porep_->plan(v.porep);
  ASSERT_TRUE(plan.ok() && venus_plan.ok());
  EXPECT_EQ(*fam.public_inputs(relabelled, *plan, 0),
            *porep_->public_inputs(v.porep, *venus_plan, 0));
}

TEST_F(VenusFamilies, PostAndUpdateOverrides) {
  NEED_VENUS();
  const auto opt = [&](ProofOverrides o) {
    return FilecoinFamilyOptions{.params_dir = dir_.string(), .overrides = o};
  };
  // Partition 1 of a V1 (1.0.0 challenge rule) PoSt, submitted as V1_2 (number 10): its vanilla
  // proofs fail under 1.2.0's rule, and prove with api 1.0.0 to the V1 request's inputs.
  JobRequest r = v.window_v1_1;
  r.registered_proof = 10;
  EXPECT_ERROR_NAMING(window_->plan(r).status(), "vanilla_proofs");
  PostFamily window_v1(fc::PostKind::window, opt({.api_version = fc::ApiVersion::v1_0_0}));
  expect_proves(window_v1, r, 1);
  auto plan = window_v1.plan(r);
  auto v1_plan = window_->plan(v.window_v1_1);
  ASSERT_TRUE(plan.ok() && v1_plan.ok());
  EXPECT_EQ(*window_v1.public_inputs(r, *plan, 0),
            *window_->public_inputs(v.window_v1_1, *v1_plan, 0));
  // The other way: V1_2 vanilla proofs under api 1.0.0 fail.
  EXPECT_ERROR_NAMING(window_v1.plan(v.window1).status(), "vanilla_proofs");
  // PoSt has no porep_id; SnapDeals takes neither override.
  EXPECT_ERROR_NAMING(PostFamily(fc::PostKind::winning, opt({.porep_id = fc::porep_id_of(0)}))
                          .plan(v.winning)
                          .status(),
                      "porep_id override does not apply to PoSt");
  EXPECT_ERROR_NAMING(
      UpdateFamily(opt({.api_version = fc::ApiVersion::v1_2_0})).plan(v.snap).status(),
      "do not apply to SnapDeals");
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
