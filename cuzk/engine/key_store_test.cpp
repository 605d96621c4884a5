// The key store's bellperson .params source (KeySource::params, the way the Filecoin families
// name their parameter files) through Groth16Prover with a registry of its own: a family that
// serves bench-10's circuit under another id, with its key read from a .params file at a path.
// The job proves and self-verifies with no key generated; the key's image is written and a fresh
// prover loads from it; a file for another circuit, or a missing one, is refused with its name.
#include "cuzk/engine/key_store.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <filesystem>

#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"

namespace cuzk::engine {
namespace {

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

std::string temp_dir(const std::string& tag) {
  auto p = std::filesystem::temp_directory_path() /
           ("cuzk-keystore-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

// bench-<K>'s circuit served as "params-<K>", its key a bellperson .params at |params|.
class ParamsFamily final : public circuits::CircuitFamily {
 public:
  ParamsFamily(std::shared_ptr<circuits::BenchFamily> bench, int k, std::string params)
      : bench_(std::move(bench)), k_(k), params_(std::move(params)) {}
  std::string name() const override { return "params"; }
  bool serves_circuit(const std::string& id) const override { return id == id_(); }
  Result<circuits::PartitionPlan> plan(const JobRequest& req) override {
    auto p = bench_->plan(as_bench(req));
    if (p) p->key_id = id_();
    return p;
  }
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string&) override {
    return bench_->shape(bench_id());
  }
  Result<circuits::KeySource> key_source(const std::string&) override {
    return circuits::KeySource{
        .kind = circuits::KeySource::Kind::params, .path = params_, .image_name = id_() + ".kimg"};
  }
  Status witness(const JobRequest& req, const circuits::PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override {
    return bench_->witness(as_bench(req), plan, k, z, cancel);
  }
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const circuits::PartitionPlan& plan,
                                        std::uint32_t k) override {
    return bench_->public_inputs(as_bench(req), plan, k);
  }

 private:
  std::string id_() const { return "params-" + std::to_string(k_); }
  std::string bench_id() const { return "bench-" + std::to_string(k_); }
  JobRequest as_bench(JobRequest req) const {
    req.circuit_id = bench_id();
    return req;
  }
  std::shared_ptr<circuits::BenchFamily> bench_;
  int k_;
  std::string params_;
};

std::shared_ptr<Groth16Prover> params_prover(const std::string& dir, const std::string& bench_dir,
                                             const std::string& params) {
  auto reg = std::make_shared<circuits::Registry>();
  auto bench =
      std::make_shared<circuits::BenchFamily>(circuits::BenchFamilyOptions{.cache_dir = bench_dir});
  EXPECT_TRUE(reg->add(std::make_shared<ParamsFamily>(bench, 10, params)).ok());
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.families = reg;
  auto p = Groth16Prover::create(o);
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return std::shared_ptr<Groth16Prover>(std::move(*p));
}

TEST(KeyStore, BellpersonParamsFileAtAPathProves) {
  auto bench_dir = temp_dir("bench"), dir = temp_dir("params");
  std::string params;
  {  // A bench-10 key from the built-in families: the .params file the family will name.
    Groth16ProverOptions o;
    o.cache_dir = bench_dir;
    o.threads = 2;
    auto gen = Groth16Prover::create(o);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE((*gen)->load_key("bench-10").ok());
    params = dir + "/v28-test.params";
    std::filesystem::copy_file((*gen)->key_path("bench-10"), params);
  }
  auto prover = params_prover(dir, bench_dir, params);
  EXPECT_TRUE(prover->supports("params-10"));
  EXPECT_FALSE(prover->supports("bench-10"));
  EXPECT_EQ(prover->key_path("params-10"), params);
  {
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    JobRequest r;
    r.request_id = "p1";
    r.circuit_id = "params-10";
    r.num_partitions = 2;
    r.vanilla_proof = fake_input(9);
    ASSERT_TRUE((*e)->submit(r).ok());
    auto o = (*e)->await("p1");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;  // self-verified
    EXPECT_EQ(o->proof.size(), 2u * 192u);
    (*e)->shutdown(std::chrono::seconds(5));
  }
  EXPECT_EQ(prover->keys_generated(), 0u);
  EXPECT_TRUE(std::filesystem::exists(prover->image_path("params-10")));
  // A fresh prover maps the image straight into the mmap tier (no decode of the .params).
  auto again = params_prover(dir, bench_dir, params);
  ASSERT_TRUE(again->mapped_load_bytes("params-10").has_value());
  auto key = again->load_key_mapped("params-10");
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  EXPECT_TRUE(again->key_is_mapped(**key));

  // A .params of another circuit (bench-11's) is refused against this circuit; a missing file
  // is named.
  {
    Groth16ProverOptions o;
    o.cache_dir = bench_dir;
    o.threads = 2;
    auto gen = Groth16Prover::create(o);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE((*gen)->load_key("bench-11").ok());
    auto other_dir = temp_dir("other");
    auto wrong = params_prover(other_dir, bench_dir, (*gen)->key_path("bench-11"));
    auto k = wrong->load_key("params-10");
    ASSERT_FALSE(k.ok());
    EXPECT_EQ(k.status().code(), Errc::size_mismatch) << k.status().to_string();
    auto missing = params_prover(other_dir, bench_dir, other_dir + "/absent.params");
    auto m = missing->load_key("params-10");
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find("absent.params"), std::string::npos)
        << m.status().to_string();
    std::filesystem::remove_all(other_dir);
  }
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(bench_dir);
}

}  // namespace
}  // namespace cuzk::engine
