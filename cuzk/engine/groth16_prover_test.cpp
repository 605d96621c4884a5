// Groth16Prover through the engine: a bench-10 job of 3 partitions gives 3 × 192 bytes, each
// partition proof verifies with our verifier against the cached key's VK (inputs recomputed here
// independently), a corrupted key cache is detected and regenerated, malformed requests are
// rejected with clear errors. The witness solver is checked against the naive SpMV at random
// non-power-of-two sizes (seed printed).
#include "cuzk/engine/groth16_prover.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/base/pinned_host.hpp"
#include "cuzk/circuits/bench/bench_witness.hpp"
#include "cuzk/engine/config.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/srs_manager.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/key_image.hpp"
#include "cuzk/formats/snarkjs_json.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_cache.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/wait_until.hpp"

namespace cuzk::engine {
namespace {

using circuits::bench_partition_seed;
using circuits::solve_bench_witness;

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

std::string temp_dir(const std::string& tag) { return test::fresh_temp_dir("g16-" + tag); }

JobRequest bench_job(const std::string& id, std::uint64_t seed, std::uint32_t parts) {
  return fake_job(id, "bench-10", seed, parts);
}

std::shared_ptr<Groth16Prover> make_prover(const std::string& dir) {
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  auto p = Groth16Prover::create(o);
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return std::shared_ptr<Groth16Prover>(std::move(*p));
}

// Checks every partition proof of |proof| against the VK in the cache file, with public inputs
// solved here from the job seed.
void expect_partitions_verify(Groth16Prover& prover, const std::string& proof, std::uint64_t seed,
                              std::uint32_t parts) {
  ASSERT_EQ(proof.size(), parts * kBellpersonProofBytes);
  auto pk = read_params(prover.key_path("bench-10"));
  ASSERT_TRUE(pk.ok()) << pk.status().to_string();
  auto pvk = prepare_verifying_key(pk->vk);
  auto proofs =
      parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
  ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
  auto m = prover.matrices("bench-10");
  ASSERT_TRUE(m.ok());
  for (std::uint32_t k = 0; k < parts; ++k) {
    auto w = solve_bench_witness(**m, bench_partition_seed(seed, k));
    ASSERT_TRUE(w.ok()) << w.status().to_string();
    auto ok = verify(pvk, w->public_inputs, (*proofs)[k]);
    ASSERT_TRUE(ok.ok()) << ok.status().to_string();
    EXPECT_TRUE(*ok) << "partition " << k;
    // Another partition's inputs must not verify this proof.
    auto w2 = solve_bench_witness(**m, bench_partition_seed(seed, k + 100));
    ASSERT_TRUE(w2.ok());
    if (w2->public_inputs != w->public_inputs) {
      auto bad = verify(pvk, w2->public_inputs, (*proofs)[k]);
      ASSERT_TRUE(bad.ok());
      EXPECT_FALSE(*bad) << "partition " << k << " verified with other inputs";
    }
  }
}

TEST(Groth16Prover, WitnessSolverSatisfiesRandomSizes) {
  std::uint64_t seed = std::random_device{}();
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 3; ++t) {
    BenchCircuitParams p;
    p.rows = 256 + rng() % 3000;
    p.seed = rng();
    p.num_public = 1 + static_cast<std::uint32_t>(rng() % 6);
    auto g = generate_bench_r1cs(p, false);
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    auto w1 = solve_bench_witness(g->matrices, rng());
    ASSERT_TRUE(w1.ok()) << "rows " << p.rows << ": " << w1.status().to_string();
    // Slow twin: every row checked through the naive SpMV.
    std::size_t bad = 0;
    EXPECT_TRUE(abc_satisfied(spmv_naive(g->matrices, w1->z), &bad))
        << "rows " << p.rows << " row " << bad;
    EXPECT_EQ(w1->public_inputs.size(), p.num_public);
    auto w2 = solve_bench_witness(g->matrices, rng());
    ASSERT_TRUE(w2.ok());
    EXPECT_NE(w1->z, w2->z) << "different seeds gave the same witness";
  }
}

TEST(Groth16Prover, SolverRejectsUnsolvableRow) {
  auto g = generate_bench_r1cs(BenchCircuitParams{.log_rows = 10, .seed = 3}, false);
  ASSERT_TRUE(g.ok());
  R1csMatrices m = g->matrices;
  // Row 0 is a boolean (ONE − b)·b = 0; point its B term at the next variable, not fixed yet.
  ASSERT_EQ(m.b.row_ptr[1] - m.b.row_ptr[0], 1u);
  m.b.col[0] += 1;
  auto w = solve_bench_witness(m, 7);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), Errc::unsatisfied);
  EXPECT_NE(w.status().message().find("row 0 has two unknown"), std::string::npos)
      << w.status().message();
}

TEST(Groth16Prover, PlanAndKeyBytesAreExact) {
  auto dir = temp_dir("plan");
  auto prover = make_prover(dir);
  auto plan = prover->plan(bench_job("p", 1, 3));
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  auto m = prover->matrices("bench-10");
  ASSERT_TRUE(m.ok());
  const std::uint64_t n = 1024;
  EXPECT_EQ((*m)->num_constraints, n);
  EXPECT_EQ(plan->partition_bytes, 3 * 32 * n + 32 * (*m)->num_columns());  // a, b, c (h over a), z
  EXPECT_EQ(plan->partitions, 3u);
  auto kb = prover->key_bytes("bench-10");
  auto key = prover->load_key("bench-10");
  ASSERT_TRUE(kb.ok() && key.ok());
  EXPECT_EQ((*key)->size_bytes(), *kb);
  auto pk = read_params(prover->key_path("bench-10"));
  ASSERT_TRUE(pk.ok());
  std::uint64_t pts =
      sizeof(G1Affine) * (pk->h.size() + pk->l.size() + pk->a.size() + pk->b_g1.size()) +
      sizeof(G2Affine) * pk->b_g2.size();
  EXPECT_EQ(*kb,
            pts + (*m)->memory_bytes());  // the CPU backend proves from the key's tables in place
  std::filesystem::remove_all(dir);
}

TEST(Groth16Prover, EngineJobProvesAndVerifies) {
  auto dir = temp_dir("job");
  auto prover = make_prover(dir);
  auto e = Engine::create(EngineOptions{}, {prover});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  auto& eng = **e;
  auto s = eng.submit(bench_job("j1", 77, 3));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto o = eng.await("j1");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(prover->keys_generated(), 1u);
  expect_partitions_verify(*prover, o->proof, 77, 3);

  // A second job reuses the resident key; its proof differs (new witness, new blinding).
  auto s2 = eng.submit(bench_job("j2", 78, 2));
  ASSERT_TRUE(s2.ok());
  auto o2 = eng.await("j2");
  ASSERT_TRUE(o2.ok());
  ASSERT_EQ(o2->status, AwaitStatus::completed) << o2->error;
  EXPECT_EQ(prover->keys_generated(), 1u);
  expect_partitions_verify(*prover, o2->proof, 78, 2);
  EXPECT_NE(o->proof.substr(0, 192), o2->proof.substr(0, 192));
  eng.shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

// Partition buffers reused from one partition to the next, charged exactly: once the jobs are
// done the budget holds the key and the kept buffers' charges, nothing else; the second job's
// partitions take buffers the first one gave back; after shutdown nothing is kept or charged.
TEST(Groth16Prover, EngineReusesPartitionBuffersUnderTheBudget) {
  auto dir = temp_dir("reuse");
  auto prover = make_prover(dir);
  auto kb = prover->key_bytes("bench-10");
  ASSERT_TRUE(kb.ok());
  {
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    auto& eng = **e;
    auto settled = [&] {
      // The last partition's release races await(): wait until the budget is the key and the kept buffers.
      test::wait_until(
          [&] { return eng.budget().used() == *kb + prover->kept_buffers().kept_bytes(); },
          std::chrono::seconds(2));
      return eng.budget().used();
    };
    for (std::uint64_t seed : {91, 92}) {
      const std::string id = "r" + std::to_string(seed);
      ASSERT_TRUE(eng.submit(bench_job(id, seed, 3)).ok());
      auto o = eng.await(id);
      ASSERT_TRUE(o.ok());
      ASSERT_EQ(o->status, AwaitStatus::completed) << o->error;
      expect_partitions_verify(*prover, o->proof, seed, 3);
      EXPECT_GT(prover->kept_buffers().kept(), 0u);
      EXPECT_EQ(settled(), *kb + prover->kept_buffers().kept_bytes()) << "seed " << seed;
    }
    EXPECT_GE(prover->kept_buffers().reused(), 3u * 4u);  // the second job's z, a, b, c
    eng.shutdown(std::chrono::seconds(5));
    EXPECT_EQ(prover->kept_buffers().kept(), 0u);
  }
  std::filesystem::remove_all(dir);
}

// A pinned pool (here plain heap memory registered as one) with room for one bench-10 partition's
// z, a, b, c: of a 3-partition job some partitions draw their vectors from it and the others fall
// back to the buffer pool (never failing); every partition verifies and the pool ends empty.
class HeapPinnedPool final : public PinnedHostPool {
 public:
  explicit HeapPinnedPool(std::size_t slots, std::size_t slot_bytes)
      : mem_(slots * slot_bytes), slot_bytes_(slot_bytes), busy_(slots, false) {}
  void* allocate(std::size_t bytes) override {
    std::lock_guard lock(mu_);
    if (bytes > slot_bytes_) return nullptr;
    for (std::size_t i = 0; i < busy_.size(); ++i)
      if (!busy_[i]) {
        busy_[i] = true;
        ++given_;
        return mem_.data() + i * slot_bytes_;
      }
    return nullptr;
  }
  void deallocate(void* p, std::size_t) override {
    std::lock_guard lock(mu_);
    busy_[static_cast<std::size_t>(static_cast<char*>(p) - mem_.data()) / slot_bytes_] = false;
  }
  bool contains(const void* p, std::size_t bytes) const override {
    const char* c = static_cast<const char*>(p);
    return c >= mem_.data() && c + bytes <= mem_.data() + mem_.size();
  }
  std::size_t busy() const {
    std::lock_guard lock(mu_);
    return static_cast<std::size_t>(std::count(busy_.begin(), busy_.end(), true));
  }
  std::size_t given() const {
    std::lock_guard lock(mu_);
    return given_;
  }

 private:
  std::vector<char> mem_;
  std::size_t slot_bytes_;
  mutable std::mutex mu_;
  std::vector<bool> busy_;
  std::size_t given_ = 0;
};

TEST(Groth16Prover, PartitionVectorsFromPinnedPoolWithFallback) {
  auto dir = temp_dir("pinned");
  auto prover = make_prover(dir);
  auto m = prover->matrices("bench-10");
  ASSERT_TRUE(m.ok());
  HeapPinnedPool pool(4, std::max((*m)->num_columns(), (*m)->num_constraints) * sizeof(Fr));
  PinnedHostPools::add(&pool);
  {
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    auto& eng = **e;
    for (std::uint64_t seed : {61, 62}) {
      const std::string id = "p" + std::to_string(seed);
      ASSERT_TRUE(eng.submit(bench_job(id, seed, 3)).ok());
      auto o = eng.await(id);
      ASSERT_TRUE(o.ok());
      ASSERT_EQ(o->status, AwaitStatus::completed) << o->error;
      expect_partitions_verify(*prover, o->proof, seed, 3);
    }
    eng.shutdown(std::chrono::seconds(5));
  }
  PinnedHostPools::remove(&pool);
  EXPECT_EQ(pool.busy(), 0u);
  // The prover's own path as well: synthesize + prove_partition on pinned vectors.
  auto key = prover->load_key("bench-10");
  ASSERT_TRUE(key.ok());
  PinnedHostPools::add(&pool);
  auto req = bench_job("q", 7, 1);
  auto pl = prover->plan(req);
  ASSERT_TRUE(pl.ok());
  CancelFlag cancel{false};
  auto part = prover->synthesize(req, *pl, 0, cancel);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  EXPECT_EQ(pool.busy(), 4u);
  auto p = prover->prove_partition(0, **key, req, 0, **part, cancel);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_GE(pool.given(), 4u);
  (*part)->release_abc();
  EXPECT_EQ(pool.busy(), 1u);  // z stays until the partition ends
  part->reset();
  EXPECT_EQ(pool.busy(), 0u);
  PinnedHostPools::remove(&pool);
  EXPECT_TRUE(prover->verify(**key, req, *p).ok());
  std::filesystem::remove_all(dir);
}

TEST(Groth16Prover, TamperedProofFailsSelfVerification) {
  auto dir = temp_dir("tamper");
  auto prover = make_prover(dir);
  JobPlan plan;
  auto req = bench_job("t", 5, 2);
  auto pl = prover->plan(req);
  ASSERT_TRUE(pl.ok());
  auto key = prover->load_key("bench-10");
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  std::string proof;
  CancelFlag cancel{false};
  for (std::uint32_t k = 0; k < 2; ++k) {
    auto part = prover->synthesize(req, *pl, k, cancel);
    ASSERT_TRUE(part.ok()) << part.status().to_string();
    auto p = prover->prove_partition(0, **key, req, k, **part, cancel);
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    proof += *p;
  }
  EXPECT_TRUE(prover->verify(**key, req, proof).ok());
  // Partitions swapped: both well-formed, neither verifies at the other's index.
  std::string swapped = proof.substr(192) + proof.substr(0, 192);
  auto st = prover->verify(**key, req, swapped);
  EXPECT_EQ(st.code(), Errc::unsatisfied) << st.to_string();
  EXPECT_NE(st.message().find("partition 0"), std::string::npos) << st.message();
  // Another job seed (other public inputs): fails.
  auto other = bench_job("t2", 6, 2);
  EXPECT_FALSE(prover->verify(**key, other, proof).ok());
  std::filesystem::remove_all(dir);
}

TEST(Groth16Prover, CorruptKeyCacheIsRegenerated) {
  auto dir = temp_dir("corrupt");
  {
    auto prover = make_prover(dir);
    ASSERT_TRUE(prover->load_key("bench-10").ok());
    EXPECT_EQ(prover->keys_generated(), 1u);
  }
  {
    auto prover = make_prover(dir);  // fresh process state: the cache is read
    ASSERT_TRUE(prover->load_key("bench-10").ok());
    EXPECT_EQ(prover->keys_generated(), 0u);
  }
  // Flip one byte in the middle of the l query.
  auto path = make_prover(dir)->key_path("bench-10");
  auto size = std::filesystem::file_size(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size * 2 / 3));
    char c = 0;
    f.read(&c, 1);
    c ^= 0x10;
    f.seekp(static_cast<std::streamoff>(size * 2 / 3));
    f.write(&c, 1);
  }
  auto prover = make_prover(dir);
  auto e = Engine::create(EngineOptions{}, {prover});
  ASSERT_TRUE(e.ok());
  auto s = (*e)->submit(bench_job("c", 9, 2));
  ASSERT_TRUE(s.ok());
  auto o = (*e)->await("c");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(prover->keys_generated(), 1u) << "corrupt cache was not detected";
  expect_partitions_verify(*prover, o->proof, 9, 2);
  // Truncated cache: detected as well.
  std::filesystem::resize_file(path, size / 2);
  auto p2 = make_prover(dir);
  ASSERT_TRUE(p2->load_key("bench-10").ok());
  EXPECT_EQ(p2->keys_generated(), 1u);
  (*e)->shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

TEST(Groth16Prover, KeyCachedForOtherMatricesIsRegenerated) {
  auto dir = temp_dir("stale");
  ASSERT_TRUE(make_prover(dir)->load_key("bench-10").ok());
  // Replace the matrix cache by another structure under the same topology key (as a changed
  // generator would): the cached key no longer belongs to the circuit and must not be used.
  auto other = generate_bench_r1cs(BenchCircuitParams{.log_rows = 10, .seed = 2}, false);
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(save_r1cs_cache(dir + "/bench-10.r1cs", other->matrices,
                              r1cs_topology_key("bench-10 structure_seed=1 num_public=4"))
                  .ok());
  auto prover = make_prover(dir);
  auto m = prover->matrices("bench-10");
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE(**m == other->matrices) << "the replaced matrix cache was not read";
  auto e = Engine::create(EngineOptions{}, {prover});
  ASSERT_TRUE(e.ok());
  ASSERT_TRUE((*e)->submit(bench_job("st", 4, 2)).ok());
  auto o = (*e)->await("st");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(prover->keys_generated(), 1u);
  expect_partitions_verify(*prover, o->proof, 4, 2);
  (*e)->shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

TEST(Groth16Prover, MalformedRequestsRejected) {
  auto dir = temp_dir("bad");
  auto prover = make_prover(dir);
  auto e = Engine::create(EngineOptions{}, {prover});
  ASSERT_TRUE(e.ok());
  auto garbage = bench_job("g", 1, 2);
  garbage.vanilla_proof = "not a bench input";
  auto r = (*e)->submit(garbage);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::bad_encoding);
  EXPECT_NE(r.status().message().find("bench input"), std::string::npos) << r.status().message();
  auto fault = bench_job("f", 1, 2);
  fault.vanilla_proof = fake_input(1, 2, 0);  // fault injection is the fake prover's only
  EXPECT_EQ((*e)->submit(fault).status().code(), Errc::bad_encoding);
  auto many = bench_job("m", 1, 65);
  EXPECT_EQ((*e)->submit(many).status().code(), Errc::out_of_range);
  auto small = bench_job("s", 1, 1);
  small.circuit_id = "bench-9";
  EXPECT_FALSE((*e)->submit(small).ok());
  auto unknown = bench_job("u", 1, 1);
  unknown.circuit_id = "porep";
  EXPECT_EQ((*e)->submit(unknown).status().code(), Errc::not_found);
  // The engine still serves a good job afterwards (empty input: seed from the request id).
  auto good = bench_job("ok", 1, 1);
  good.vanilla_proof.clear();
  ASSERT_TRUE((*e)->submit(good).ok());
  auto o = (*e)->await("ok");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
  EXPECT_EQ(o->proof.size(), 192u);
  (*e)->shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::engine

#ifdef CUZK_TEST_DATA_DIR
namespace cuzk::engine {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A circom circuit registered by its zkey: the .wtns witness proves through the engine, and the
// proof verifies against snarkjs's verification_key.json with snarkjs's public.json.
TEST(Groth16Prover, CircomZkeyJobThroughEngine) {
  const std::string v = std::string(CUZK_TEST_DATA_DIR) + "/oracles/mulchain_1021/";
  auto dir = temp_dir("circom");
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.circom["mulchain"] = v + "mulchain_1021.zkey";
  auto p = Groth16Prover::create(o);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  std::shared_ptr<Groth16Prover> prover(std::move(*p));
  EXPECT_TRUE(prover->supports("mulchain"));
  EXPECT_FALSE(prover->supports("poseidon"));
  // a/b/c come from the compiled SpMV plan, built once with the circuit's matrices.
  auto cplan = prover->pce_plan("mulchain");
  ASSERT_TRUE(cplan.ok() && *cplan) << cplan.status().to_string();
  auto cplan2 = prover->pce_plan("mulchain");
  ASSERT_TRUE(cplan2.ok());
  EXPECT_EQ(cplan->get(), cplan2->get());  // cached, not rebuilt
  EXPECT_FALSE(prover->pce_plan("poseidon").ok());
  auto e = Engine::create(EngineOptions{}, {prover});
  ASSERT_TRUE(e.ok());
  JobRequest r;
  r.request_id = "c1";
  r.circuit_id = "mulchain";
  r.vanilla_proof = slurp(v + "mulchain_1021.wtns");
  ASSERT_FALSE(r.vanilla_proof.empty());
  auto s = (*e)->submit(r);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto out = (*e)->await("c1");
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->status, AwaitStatus::completed) << out->error;
  ASSERT_EQ(out->proof.size(), 192u);
  auto vk = vk_from_snarkjs_json(slurp(v + "verification_key.json"));
  auto pub = public_from_snarkjs_json(slurp(v + "public.json"));
  ASSERT_TRUE(vk.ok() && pub.ok());
  auto proofs = parse_proofs(
      std::span(reinterpret_cast<const std::uint8_t*>(out->proof.data()), out->proof.size()));
  ASSERT_TRUE(proofs.ok());
  auto ok = verify(prepare_verifying_key(*vk), *pub, (*proofs)[0]);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
  // Malformed witnesses: garbage, and another circuit's witness (wrong signal count).
  r.request_id = "c2";
  r.vanilla_proof = "garbage";
  EXPECT_FALSE((*e)->submit(r).ok());
  r.request_id = "c3";
  r.vanilla_proof = slurp(std::string(CUZK_TEST_DATA_DIR) + "/oracles/poseidon/poseidon.wtns");
  auto bad = (*e)->submit(r);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Errc::size_mismatch) << bad.status().to_string();
  (*e)->shutdown(std::chrono::seconds(5));
  // The zkey's key image: written by the first load, a fresh prover's key comes from it (same
  // verifying key, proves and self-verifies from the mapping).
  const std::string img = prover->image_path("mulchain");
  ASSERT_TRUE(std::filesystem::exists(img)) << img;
  const auto written = std::filesystem::last_write_time(img);
  auto p2 = Groth16Prover::create(o);
  ASSERT_TRUE(p2.ok());
  auto key = (*p2)->load_key("mulchain");
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  EXPECT_EQ(std::filesystem::last_write_time(img), written);  // used, not rebuilt
  ASSERT_TRUE((*p2)->key_mapping(**key).has_value());
  ASSERT_TRUE((*p2)->map_key(**key).ok());
  EXPECT_TRUE((*p2)->key_is_mapped(**key));
  r.request_id = "c4";
  r.vanilla_proof = slurp(v + "mulchain_1021.wtns");
  auto plan = (*p2)->plan(r);
  ASSERT_TRUE(plan.ok());
  CancelFlag cancel{false};
  auto part = (*p2)->synthesize(r, *plan, 0, cancel);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  auto proof = (*p2)->prove_partition(0, **key, r, 0, **part, cancel);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  EXPECT_TRUE((*p2)->verify(**key, r, *proof).ok());
  auto proofs2 =
      parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof->data()), proof->size()));
  ASSERT_TRUE(proofs2.ok());
  auto ok2 = verify(prepare_verifying_key(*vk), *pub, (*proofs2)[0]);
  ASSERT_TRUE(ok2.ok());
  EXPECT_TRUE(*ok2);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::engine
#endif

namespace cuzk::engine {
namespace {

TEST(Groth16Prover, ConfigRegistersCircomCircuits) {
  auto c = parse_config("[circom]\nmulchain = \"/k/mulchain.zkey\"\nposeidon = \"p.zkey\"\n");
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->circom.size(), 2u);
  EXPECT_EQ(c->circom["mulchain"], "/k/mulchain.zkey");
  EXPECT_FALSE(parse_config("[circom]\nmulchain = 3\n").ok());
  EXPECT_FALSE(parse_config("[circom]\n\"bench-12\" = \"x.zkey\"\n").ok());
  auto d = parse_config("[engine]\ncache_dir = \"/var/cache/cuzk\"\n");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->cache_dir, "/var/cache/cuzk");
}

// A CPU backend behind a fake VRAM arena: the tables it loads are charged as the CUDA backend
// charges them (resident_bases_bytes), out_of_memory when they do not fit. With |working|, each
// partition also takes that many arena bytes for the length of its prove_partition call (one at a
// time, as the CUDA backend's compute section), out_of_memory when the arena lacks them.
class FakeArenaBackend final : public Backend, public DeviceMemoryReport {
 public:
  FakeArenaBackend(std::string name, ThreadPool& pool, std::uint64_t arena, bool streams = false,
                   std::uint64_t working = 0)
      : name_(std::move(name)), cpu_(pool), arena_(arena), streams_(streams), working_(working) {}
  std::string name() const override { return name_; }
  DeviceMemory device_memory() const override {
    std::lock_guard lock(mu_);
    return {.total = arena_, .used = used_, .streamed_bytes = streamed_};
  }
  // With |streams|, the CUDA backend's small-card rule: a table over half the arena stays on the
  // host (charged to streamed_bytes, not the arena).
  bool streams_table(std::uint64_t points, bool g2) const override {
    return streams_ && (g2 ? 192 : 96) * points + 256 > arena_ / 2;
  }
  std::uint64_t resident_bases_bytes(std::uint64_t g1, std::uint64_t g2,
                                     std::uint32_t tables) const override {
    return 96 * g1 + 192 * g2 + 256 * std::uint64_t{tables};
  }
  bool can_stream_tables() const override { return streams_; }
  std::uint64_t partition_working_bytes(std::uint64_t, std::uint64_t) const override {
    return working_;
  }
  // No pinned pool here: a streamed table is plain host memory.
  std::uint64_t table_plain_host_bytes(BasesId id) const override {
    std::lock_guard lock(mu_);
    auto it = streamed_sizes_.find(id.value);
    return it == streamed_sizes_.end() ? 0 : it->second;
  }
  Result<BasesId> load_bases_g1(std::span<const G1Affine> b) override {
    if (streams_table(b.size(), false))
      return stream(96 * b.size(), [&] { return cpu_.load_bases_g1(b); });
    return charge(resident_bases_bytes(b.size(), 0, 1), [&] { return cpu_.load_bases_g1(b); });
  }
  Result<BasesId> load_bases_g2(std::span<const G2Affine> b) override {
    if (streams_table(b.size(), true))
      return stream(192 * b.size(), [&] { return cpu_.load_bases_g2(b); });
    return charge(resident_bases_bytes(0, b.size(), 1), [&] { return cpu_.load_bases_g2(b); });
  }
  Result<BasesId> load_bases_g1_streamed(std::span<const G1Affine> b) override {
    return stream(96 * b.size(), [&] { return cpu_.load_bases_g1(b); });
  }
  Result<BasesId> load_bases_g2_streamed(std::span<const G2Affine> b) override {
    return stream(192 * b.size(), [&] { return cpu_.load_bases_g2(b); });
  }
  Result<PartitionSums> prove_partition(const PartitionInputs& in,
                                        PartitionTimings* timings) override {
    std::lock_guard section(compute_mu_);
    {
      std::lock_guard lock(mu_);
      if (used_ + working_ > arena_)
        return Status(Errc::out_of_memory, name_ + ": fake arena has no room for the partition");
      used_ += working_;
      peak_ = std::max(peak_, used_);
    }
    auto r = prove_partition_steps(in, timings);
    std::lock_guard lock(mu_);
    used_ -= working_;
    return r;
  }
  Status release_bases(BasesId id) override {
    {
      std::lock_guard lock(mu_);
      if (auto it = sizes_.find(id.value); it != sizes_.end()) {
        used_ -= it->second;
        sizes_.erase(it);
      }
      if (auto it = streamed_sizes_.find(id.value); it != streamed_sizes_.end()) {
        streamed_ -= it->second;
        streamed_sizes_.erase(it);
      }
    }
    return cpu_.release_bases(id);
  }
  Status ntt(std::span<Fr> v, const NttOptions& o) override { return cpu_.ntt(v, o); }
  Result<G1Jacobian> msm_g1(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g1(b, s, o);
  }
  Result<G2Jacobian> msm_g2(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g2(b, s, o);
  }
  Status compute_h(HInputs in, std::span<Fr> h) override { return cpu_.compute_h(in, h); }
  std::uint64_t peak() const {
    std::lock_guard lock(mu_);
    return peak_;
  }

 private:
  template <class F>
  Result<BasesId> charge(std::uint64_t bytes, F load) {
    {
      std::lock_guard lock(mu_);
      if (used_ + bytes > arena_) return Status(Errc::out_of_memory, name_ + ": fake arena full");
      used_ += bytes;
      peak_ = std::max(peak_, used_);
    }
    auto r = load();
    std::lock_guard lock(mu_);
    if (!r)
      used_ -= bytes;
    else
      sizes_[r->value] = bytes;
    return r;
  }
  template <class F>
  Result<BasesId> stream(std::uint64_t bytes, F load) {
    auto r = load();
    std::lock_guard lock(mu_);
    if (r) streamed_ += bytes, streamed_sizes_[r->value] = bytes;
    return r;
  }
  std::string name_;
  CpuBackend cpu_;
  std::uint64_t arena_;
  bool streams_;
  std::uint64_t working_;
  std::mutex compute_mu_;
  mutable std::mutex mu_;
  std::uint64_t used_ = 0, peak_ = 0, streamed_ = 0;
  std::map<std::uint64_t, std::uint64_t> sizes_, streamed_sizes_;
};

const SrsEntryStatus* key_status(const EngineStatus& s, const std::string& id) {
  for (auto& k : s.keys)
    if (k.key_id == id) return &k;
  return nullptr;
}

// bench-10 and bench-11 on "cuda:1", a fake arena that holds either key but not both: each job
// places its key in VRAM and demotes the other's copy (its host copy stays), proofs verify, the
// status and metrics show the tiers and the arena.
TEST(Groth16Prover, KeysMoveBetweenHostAndFakeVramTiers) {
  auto dir = temp_dir("vram");
  FakeArenaBackend* device = nullptr;
  std::uint64_t arena = 0;
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.backends = {"cuda:1"};
  o.backend_factory = [&](const std::string& spec,
                          ThreadPool& pool) -> Result<std::unique_ptr<Backend>> {
    auto b = std::make_unique<FakeArenaBackend>(spec, pool, arena);
    device = b.get();
    return std::unique_ptr<Backend>(std::move(b));
  };
  // Sizes first, with an unlimited arena.
  std::uint64_t b10 = 0, b11 = 0;
  {
    arena = ~std::uint64_t{0};
    auto sizer = Groth16Prover::create(o);
    ASSERT_TRUE(sizer.ok()) << sizer.status().to_string();
    auto k10 = (*sizer)->load_key("bench-10");
    auto k11 = (*sizer)->load_key("bench-11");
    ASSERT_TRUE(k10.ok() && k11.ok());
    b10 = (*sizer)->device_key_bytes(**k10, 1);
    b11 = (*sizer)->device_key_bytes(**k11, 1);
    EXPECT_EQ((*sizer)->device_key_bytes(**k10, 0), 0u);  // no such device
    ASSERT_TRUE((*sizer)->make_resident(**k10, 1).ok());
    EXPECT_EQ(device->device_memory().used, b10);  // the prediction is what the arena charges
    (*sizer)->release_resident(**k10, 1);
    EXPECT_EQ(device->device_memory().used, 0u);
  }
  ASSERT_GT(b11, b10);
  arena = b11 + b10 / 2;  // one key at a time
  auto p = Groth16Prover::create(o);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  std::shared_ptr<Groth16Prover> prover(std::move(*p));
  EngineOptions eo;
  eo.devices = prover->devices();
  ASSERT_EQ(eo.devices.size(), 1u);
  EXPECT_EQ(eo.devices[0].ordinal, 1);
  auto e = Engine::create(eo, {prover});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  auto run = [&](const std::string& circuit, std::uint64_t seed) {
    auto req = bench_job(circuit + "-" + std::to_string(seed), seed, 2);
    req.circuit_id = circuit;
    auto sub = (*e)->submit(req);
    ASSERT_TRUE(sub.ok()) << sub.status().to_string();
    auto out = (*e)->await(sub->job_id, std::chrono::seconds(60));
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    ASSERT_EQ(out->status, AwaitStatus::completed) << out->error;  // self-verified
  };
  auto expect_tiers = [&](const std::string& in_vram, const std::string& in_host) {
    auto s = (*e)->status();
    auto* v = key_status(s, in_vram);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->tier, "vram");
    ASSERT_EQ(v->devices.size(), 1u);
    EXPECT_EQ(v->devices[0].device, 1);
    EXPECT_EQ(v->devices[0].bytes, in_vram == "bench-10" ? b10 : b11);
    if (!in_host.empty()) {
      auto* h = key_status(s, in_host);
      ASSERT_NE(h, nullptr);
      // Its device copy was made, no host backend proves from its tables: served from its image.
      EXPECT_EQ(h->tier, "mmap");
      EXPECT_TRUE(h->devices.empty());
      EXPECT_GT(h->host_bytes, 0u);  // the matrices
      EXPECT_LT(h->host_bytes, h->size_bytes);
      EXPECT_GT(h->mapped_bytes, 0u);
    }
    ASSERT_EQ(s.devices.size(), 1u);
    EXPECT_TRUE(s.devices[0].vram.has_arena);
    EXPECT_EQ(s.devices[0].info.vram_total_bytes, arena);
    EXPECT_EQ(s.devices[0].vram.keys_bytes, v->devices[0].bytes);
    EXPECT_EQ(s.devices[0].info.vram_free_bytes, arena - device->device_memory().used);
  };
  run("bench-10", 1);
  expect_tiers("bench-10", "");
  run("bench-11", 2);
  expect_tiers("bench-11", "bench-10");
  run("bench-10", 3);
  expect_tiers("bench-10", "bench-11");
  EXPECT_LE(device->peak(), arena);
  EXPECT_EQ(prover->keys_generated(), 0u);  // the sizer cached both keys
  const std::string m = (*e)->metrics_text();
  EXPECT_NE(m.find("cuzk_device_vram_bytes{device=\"1\",kind=\"total\"} " + std::to_string(arena)),
            std::string::npos)
      << m;
  EXPECT_NE(
      m.find("cuzk_srs_bytes{key=\"bench-10\",tier=\"vram\",device=\"1\"} " + std::to_string(b10)),
      std::string::npos)
      << m;
  // Preload puts a key in the top tier; evicting a key in use is refused, an idle one goes.
  auto pre = (*e)->preload("bench-11");
  ASSERT_TRUE(pre.ok()) << pre.status().to_string();
  EXPECT_TRUE(pre->already_loaded);
  expect_tiers("bench-11", "bench-10");
  auto ev = (*e)->evict("bench-10");
  ASSERT_TRUE(ev.ok()) << ev.status().to_string();
  EXPECT_GT(*ev, 0u);
  auto s = (*e)->status();
  ASSERT_NE(key_status(s, "bench-10"), nullptr);
  EXPECT_EQ(key_status(s, "bench-10")->tier, "disk");  // the cached file is still listed
  (*e)->shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

// The small-card path through the engine: bench-11 on a fake arena smaller than its key. The
// tables over half the arena (h, l, a) stay on the host and stream; b_g1 and b_g2 are resident
// and are all the SRS manager places and counts in VRAM. Jobs prove and verify, the arena never
// holds more than its size, the status and metrics report the streamed bytes; evicting the key
// drops both.
TEST(Groth16Prover, KeyLargerThanFakeArenaStreamsItsLargeTables) {
  auto dir = temp_dir("stream");
  FakeArenaBackend* device = nullptr;
  std::uint64_t arena = ~std::uint64_t{0};
  bool streams = false;
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.backends = {"cuda:0"};
  o.backend_factory = [&](const std::string& spec,
                          ThreadPool& pool) -> Result<std::unique_ptr<Backend>> {
    auto b = std::make_unique<FakeArenaBackend>(spec, pool, arena, streams);
    device = b.get();
    return std::unique_ptr<Backend>(std::move(b));
  };
  std::uint64_t whole = 0;
  const std::uint64_t n_h = 1u << 11;  // the h query covers the domain
  {
    auto sizer = Groth16Prover::create(o);
    ASSERT_TRUE(sizer.ok()) << sizer.status().to_string();
    auto k = (*sizer)->load_key("bench-11");
    ASSERT_TRUE(k.ok());
    whole = (*sizer)->device_key_bytes(**k, 0);
  }
  // Half the arena is below one 2^11-point G1 table: h, l and a stream, b_g1 and b_g2 stay.
  arena = 96 * n_h * 3 / 2;
  streams = true;
  ASSERT_LT(arena, whole);
  auto p = Groth16Prover::create(o);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  std::shared_ptr<Groth16Prover> prover(std::move(*p));
  EngineOptions eo;
  eo.devices = prover->devices();
  auto e = Engine::create(eo, {prover});
  ASSERT_TRUE(e.ok()) << e.status().to_string();
  for (std::uint64_t seed : {5u, 6u}) {
    auto req = bench_job("s-" + std::to_string(seed), seed, 2);
    req.circuit_id = "bench-11";
    auto sub = (*e)->submit(req);
    ASSERT_TRUE(sub.ok()) << sub.status().to_string();
    auto out = (*e)->await(sub->job_id, std::chrono::seconds(60));
    ASSERT_TRUE(out.ok()) << out.status().to_string();
    ASSERT_EQ(out->status, AwaitStatus::completed) << out->error;  // self-verified
  }
  auto s = (*e)->status();
  auto* k = key_status(s, "bench-11");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->tier, "vram");
  ASSERT_EQ(k->devices.size(), 1u);
  const std::uint64_t placed = k->devices[0].bytes;
  EXPECT_GT(placed, 0u);
  EXPECT_LT(placed, arena);
  EXPECT_EQ(device->device_memory().used, placed);
  EXPECT_LE(device->peak(), arena);
  ASSERT_EQ(s.devices.size(), 1u);
  const std::uint64_t streamed = s.devices[0].vram.streamed_bytes;
  EXPECT_GE(streamed, 96 * (n_h - 1));  // h at least
  EXPECT_EQ(streamed, device->device_memory().streamed_bytes);
  // The streamed tables are plain host memory (no pinned pool): charged to the budget with the
  // device copy; the key itself is mapped (no host backend), charged its matrices only.
  EXPECT_EQ(k->devices[0].host_bytes, streamed);
  EXPECT_EQ(k->devices[0].pinned_bytes, 0u);
  EXPECT_GT(k->mapped_bytes, 0u);
  const std::uint64_t key_host = k->host_bytes;
  // Every base of the key is either resident or streamed (a streamed table has no 256-byte granule).
  EXPECT_LT(whole - (streamed + placed), 5u * 256);
  EXPECT_GE(whole - (streamed + placed), 256u);
  const std::string m = (*e)->metrics_text();
  EXPECT_NE(
      m.find("cuzk_device_host_bytes{device=\"0\",kind=\"streamed\"} " + std::to_string(streamed)),
      std::string::npos)
      << m;
  EXPECT_NE(m.find("cuzk_srs_bytes{key=\"bench-11\",tier=\"streamed_host\",device=\"0\"} " +
                   std::to_string(streamed)),
            std::string::npos)
      << m;
  EXPECT_NE(
      m.find("cuzk_srs_bytes{key=\"bench-11\",tier=\"mmap\"} " + std::to_string(k->mapped_bytes)),
      std::string::npos)
      << m;
  auto ev = (*e)->evict("bench-11");
  ASSERT_TRUE(ev.ok()) << ev.status().to_string();
  EXPECT_EQ(*ev, key_host + streamed);  // the key's charge and its streamed tables'
  EXPECT_EQ(device->device_memory().streamed_bytes, 0u);
  EXPECT_EQ(device->device_memory().used, 0u);
  (*e)->shutdown(std::chrono::seconds(5));
  std::filesystem::remove_all(dir);
}

// Placement keeps room for a partition (groth16/key_placement.hpp): bench-11 on a fake arena with
// a partition working set, each table well under half the arena. With room for the key and one
// partition, every table is resident. With one byte less, the key alone still fits but the
// partition would not: its largest table (and only it) stays on the host and streams, the SRS
// manager places and charges exactly that (device bytes, streamed host bytes), and jobs prove and
// self-verify with the partition's bytes taken from the arena. Without the placement (the arena
// full of key) the partition fails with out_of_memory: the last case, with streaming off.
TEST(Groth16Prover, KeyLeavesRoomForAPartitionByStreamingItsLargestTable) {
  auto dir = temp_dir("room");
  FakeArenaBackend* device = nullptr;
  std::uint64_t arena = ~std::uint64_t{0}, working = 0;
  bool streams = true;
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.backends = {"cuda:0"};
  o.backend_factory = [&](const std::string& spec,
                          ThreadPool& pool) -> Result<std::unique_ptr<Backend>> {
    auto b = std::make_unique<FakeArenaBackend>(spec, pool, arena, streams, working);
    device = b.get();
    return std::unique_ptr<Backend>(std::move(b));
  };
  std::uint64_t whole = 0, largest = 0;
  {
    auto sizer = Groth16Prover::create(o);
    ASSERT_TRUE(sizer.ok()) << sizer.status().to_string();
    auto k = (*sizer)->load_key("bench-11");
    ASSERT_TRUE(k.ok());
    whole = (*sizer)->device_key_bytes(**k, 0);
    const auto* gk = dynamic_cast<const Groth16Key*>(k->get());
    ASSERT_NE(gk, nullptr);
    const QueryCounts c = gk->counts();
    for (std::uint64_t g1 : {c.h, c.l, c.a, c.b_g1}) largest = std::max(largest, 96 * g1);
    largest = std::max(largest, 192 * c.b_g2);
  }
  ASSERT_GT(largest, 0u);
  working = whole / 3;  // a partition's fake working set
  auto run = [&](std::uint64_t arena_bytes, bool expect_streamed, bool expect_proved) {
    arena = arena_bytes;
    ASSERT_LT(largest + 256, arena / 2);  // no table streams by the half-arena rule
    auto p = Groth16Prover::create(o);
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    std::shared_ptr<Groth16Prover> prover(std::move(*p));
    EngineOptions eo;
    eo.devices = prover->devices();
    auto e = Engine::create(eo, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    for (std::uint64_t seed : {7u, 8u}) {
      auto req =
          bench_job("r-" + std::to_string(arena_bytes) + "-" + std::to_string(seed), seed, 2);
      req.circuit_id = "bench-11";
      auto sub = (*e)->submit(req);
      ASSERT_TRUE(sub.ok()) << sub.status().to_string();
      auto out = (*e)->await(sub->job_id, std::chrono::seconds(60));
      ASSERT_TRUE(out.ok()) << out.status().to_string();
      if (expect_proved) {
        ASSERT_EQ(out->status, AwaitStatus::completed) << out->error;  // self-verified
      } else {
        EXPECT_EQ(out->status, AwaitStatus::failed);
        EXPECT_NE(out->error.find("no room for the partition"), std::string::npos) << out->error;
      }
    }
    auto s = (*e)->status();
    auto* k = key_status(s, "bench-11");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->devices.size(), 1u);
    ASSERT_EQ(s.devices.size(), 1u);
    const std::uint64_t streamed = s.devices[0].vram.streamed_bytes;
    if (expect_streamed) {
      EXPECT_EQ(k->devices[0].bytes, whole - largest - 256);  // its largest table is not there
      EXPECT_EQ(streamed, largest);
      EXPECT_EQ(k->devices[0].host_bytes, largest);  // plain memory, charged with the copy
    } else {
      EXPECT_EQ(k->devices[0].bytes, whole);
      EXPECT_EQ(streamed, 0u);
      EXPECT_EQ(k->devices[0].host_bytes, 0u);
    }
    EXPECT_EQ(device->device_memory().used,
              k->devices[0].bytes);  // the partitions gave theirs back
    EXPECT_LE(device->peak(), arena);
    if (expect_proved) {
      EXPECT_EQ(device->peak(), k->devices[0].bytes + working);
    }
    (*e)->shutdown(std::chrono::seconds(5));
  };
  run(whole + working, false, true);     // room for both: fully resident
  run(whole + working - 1, true, true);  // the key alone fits: its largest table streams
  streams = false;                       // a backend that cannot stream: the partition fails
  run(whole + working - 1, false, false);
  std::filesystem::remove_all(dir);
}

// Key images and the mmap tier on the CPU backend: the first load writes bench-<K>.kimg, a fresh
// prover loads from it (no generation, no decode) into owned memory (the CPU proves from host
// tables); under a small budget the SRS manager maps the idle bench-10 to make room for bench-11,
// a job proves and self-verifies from the mapping while there is no room to promote it, and the
// next use with room promotes it back; the budget's peak stays under its limit. A damaged or
// stale image is rebuilt.
TEST(Groth16Prover, KeyImageBacksTheMmapTierOnTheCpu) {
  auto dir = temp_dir("mmap");
  {
    auto gen = make_prover(dir);
    ASSERT_TRUE(gen->load_key("bench-10").ok());
    ASSERT_TRUE(gen->load_key("bench-11").ok());
    EXPECT_EQ(gen->keys_generated(), 2u);
  }
  auto prover = make_prover(dir);
  const std::string img10 = prover->image_path("bench-10");
  ASSERT_TRUE(std::filesystem::exists(img10));
  auto kb10 = prover->key_bytes("bench-10"), kb11 = prover->key_bytes("bench-11");
  ASSERT_TRUE(kb10.ok() && kb11.ok());
  const std::uint64_t charged10 = (*prover->matrices("bench-10"))->memory_bytes();
  const std::uint64_t limit =
      *kb11 + charged10 + (*kb10 - charged10) / 2;  // bench-11 and a mapped bench-10
  MemoryBudget budget(limit, 0);
  SrsManager m(budget);
  auto prove_one = [&](const std::shared_ptr<SrsLease>& l, std::uint64_t seed) {
    auto key = l->wait();
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    auto req = bench_job("m" + std::to_string(seed), seed, 1);
    auto plan = prover->plan(req);
    ASSERT_TRUE(plan.ok());
    CancelFlag cancel{false};
    auto part = prover->synthesize(req, *plan, 0, cancel);
    ASSERT_TRUE(part.ok()) << part.status().to_string();
    auto proof = prover->prove_partition(0, **key, req, 0, **part, cancel);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    EXPECT_TRUE(prover->verify(**key, req, *proof).ok());
    expect_partitions_verify(*prover, *proof, seed, 1);
  };
  auto tier = [&](const std::string& id) {
    for (auto& s : m.status())
      if (s.key_id == id) return s;
    return SrsEntryStatus{};
  };
  {
    auto l10 = m.acquire("bench-10", *prover, Priority::normal);
    ASSERT_TRUE(l10.ok()) << l10.status().to_string();
    auto key = (*l10)->wait();
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_EQ(prover->keys_generated(), 0u);
    EXPECT_FALSE(prover->key_is_mapped(**key));  // the CPU proves from owned tables
    auto km = prover->key_mapping(**key);
    ASSERT_TRUE(km.has_value());
    EXPECT_EQ(km->charged_bytes, charged10);
    EXPECT_EQ(km->image_bytes, std::filesystem::file_size(img10));
    EXPECT_EQ(tier("bench-10").tier, "host");
    prove_one(*l10, 1);
  }
  auto l11 = m.acquire("bench-11", *prover, Priority::normal);
  ASSERT_TRUE(l11.ok()) << l11.status().to_string();
  ASSERT_TRUE((*l11)->wait().ok());
  auto s10 = tier("bench-10");
  EXPECT_EQ(s10.tier, "mmap");
  EXPECT_EQ(s10.host_bytes, charged10);
  EXPECT_EQ(s10.mapped_bytes, std::filesystem::file_size(img10));
  EXPECT_EQ(budget.used(), *kb11 + charged10);
  {
    auto l10 = m.acquire("bench-10", *prover, Priority::normal);  // no room to promote
    ASSERT_TRUE(l10.ok());
    auto key = (*l10)->wait();
    ASSERT_TRUE(key.ok());
    EXPECT_TRUE(prover->key_is_mapped(**key));
    prove_one(*l10, 2);
    EXPECT_EQ(tier("bench-10").tier, "mmap");
  }
  l11->reset();
  ASSERT_TRUE(m.evict("bench-11").ok());
  {
    auto l10 = m.acquire("bench-10", *prover, Priority::normal);  // room: promoted
    ASSERT_TRUE(l10.ok());
    auto key = (*l10)->wait();
    ASSERT_TRUE(key.ok());
    EXPECT_FALSE(prover->key_is_mapped(**key));
    EXPECT_EQ(tier("bench-10").tier, "host");
    EXPECT_EQ(budget.used(), *kb10);
    prove_one(*l10, 3);
  }
  EXPECT_LE(budget.peak(), limit);
  ASSERT_TRUE(m.evict("bench-10").ok());
  EXPECT_EQ(budget.used(), 0u);
  // A budget smaller than the key's host copy: it loads straight from its image into the mmap
  // tier (charged its matrices) and proves from the mapping.
  {
    MemoryBudget tiny(*kb10 / 2, 0);
    ASSERT_GT(*kb10 / 2, charged10);
    SrsManager m2(tiny);
    auto l = m2.acquire("bench-10", *prover, Priority::normal);
    ASSERT_TRUE(l.ok()) << l.status().to_string();
    auto key = (*l)->wait();
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_TRUE(prover->key_is_mapped(**key));
    EXPECT_EQ(tiny.used(), charged10);
    for (auto& st : m2.status()) {
      if (st.key_id == "bench-10") {
        EXPECT_EQ(st.tier, "mmap");
      }
    }
    prove_one(*l, 4);
    EXPECT_LE(tiny.peak(), tiny.limit());
  }

  // A damaged image is rebuilt from the .params (not used, not a generation).
  {
    const auto size = std::filesystem::file_size(img10);
    std::fstream f(img10, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 5000));
    const char junk[4] = {1, 2, 3, 4};
    f.write(junk, 4);
  }
  auto p2 = make_prover(dir);
  auto k2 = p2->load_key("bench-10");
  ASSERT_TRUE(k2.ok()) << k2.status().to_string();
  EXPECT_EQ(p2->keys_generated(), 0u);
  {
    const auto size = std::filesystem::file_size(img10);
    std::ifstream f(img10, std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - 5000));
    char back[4] = {};
    f.read(back, 4);
    EXPECT_FALSE(back[0] == 1 && back[1] == 2 && back[2] == 3 && back[3] == 4)
        << "the damaged image was not rebuilt";
  }
  // A replaced .params (new mtime) makes the image stale: rebuilt, and the key still loads.
  const auto before = std::filesystem::last_write_time(img10);
  std::filesystem::last_write_time(prover->key_path("bench-10"),
                                   std::filesystem::file_time_type::clock::now());
  auto p3 = make_prover(dir);
  ASSERT_TRUE(p3->load_key("bench-10").ok());
  EXPECT_EQ(p3->keys_generated(), 0u);
  EXPECT_NE(std::filesystem::last_write_time(img10), before);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::engine
