// The circuit-family registry (a request to the family of its proof kind, or of its circuit id;
// two families for one kind refused) and the bench family behind the interface: its plan sizes
// are the circuit's, its one-pass witness with a/b/c equals the slow twin's z and the PCE's
// a/b/c, and its public inputs equal the witness's whether kept from synthesis or solved again.
#include "cuzk/circuits/circuit_family.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <filesystem>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/circuits/builtin_families.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "tests/support/temp_dir.hpp"

namespace cuzk::circuits {
namespace {

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

std::string temp_dir(const std::string& tag) { return test::fresh_temp_dir("families-" + tag); }

// A family serving proof kinds (as the Filecoin families will): plans only.
class KindFamily final : public CircuitFamily {
 public:
  KindFamily(std::string name, std::vector<ProofKind> kinds)
      : name_(std::move(name)), kinds_(std::move(kinds)) {}
  std::string name() const override { return name_; }
  std::vector<ProofKind> kinds() const override { return kinds_; }
  bool serves_circuit(const std::string& id) const override { return id == name_ + "-key"; }
  Result<PartitionPlan> plan(const JobRequest&) override {
    return PartitionPlan{.key_id = name_ + "-key", .partitions = 2};
  }
  Result<std::shared_ptr<const CircuitShape>> shape(const std::string&) override {
    return Status(Errc::unimplemented, "test");
  }
  Result<KeySource> key_source(const std::string&) override {
    return Status(Errc::unimplemented, "test");
  }
  Status witness(const JobRequest&, const PartitionPlan&, std::uint32_t, std::vector<Fr>&,
                 const CancelFlag&) override {
    return Status(Errc::unimplemented, "test");
  }
  Result<std::vector<Fr>> public_inputs(const JobRequest&, const PartitionPlan&,
                                        std::uint32_t) override {
    return Status(Errc::unimplemented, "test");
  }

 private:
  std::string name_;
  std::vector<ProofKind> kinds_;
};

TEST(Registry, RoutesByProofKindAndCircuitId) {
  auto dir = temp_dir("registry");
  auto reg = builtin_families(FamilyOptions{.cache_dir = dir, .circom = {{"bench-12", "x.zkey"}}},
                              nullptr);
  ASSERT_TRUE(reg.ok()) << reg.status().to_string();
  Registry& r = **reg;
  // The built-in registry serves the four Filecoin proof kinds.
  for (auto [kind, family] : {std::pair{ProofKind::porep_seal_commit, "filecoin-porep"},
                              {ProofKind::snap_deals_update, "filecoin-update"},
                              {ProofKind::window_post_partition, "filecoin-window-post"},
                              {ProofKind::winning_post, "filecoin-winning-post"}}) {
    JobRequest k;
    k.kind = kind;
    ASSERT_NE(r.find(k), nullptr) << family;
    EXPECT_EQ(r.find(k)->name(), family);
  }
  // A second family for a kind already served is refused.
  auto clash = r.add(std::make_shared<KindFamily>("other", std::vector{ProofKind::winning_post}));
  EXPECT_EQ(clash.code(), Errc::invalid_argument);

  JobRequest req;
  req.circuit_id = "bench-10";
  ASSERT_NE(r.find(req), nullptr);
  EXPECT_EQ(r.find(req)->name(), "bench");
  req.circuit_id = "bench-12";  // a registered circom id shadows the bench name
  EXPECT_EQ(r.find(req)->name(), "circom");
  req.circuit_id = "bench-9";
  EXPECT_EQ(r.find(req), nullptr);

  Registry own;
  ASSERT_TRUE(
      own.add(std::make_shared<KindFamily>(
                  "post", std::vector{ProofKind::window_post_partition, ProofKind::winning_post}))
          .ok());
  req.kind = ProofKind::winning_post;  // the kind decides, whatever the circuit id
  ASSERT_NE(own.find(req), nullptr);
  EXPECT_EQ(own.find(req)->name(), "post");
  req.kind = ProofKind::porep_seal_commit;
  EXPECT_EQ(own.find(req), nullptr);
  ASSERT_NE(own.find_circuit("post-key"), nullptr);
  EXPECT_EQ(own.find_circuit("post-key")->name(), "post");
  EXPECT_EQ(file_safe_name("a/b c.d-e_f"), "a_b_c.d-e_f");
  std::filesystem::remove_all(dir);
}

TEST(BenchFamily, WitnessPathsAgreeAndPublicInputsFollowTheRequest) {
  auto dir = temp_dir("bench");
  BenchFamily fam(BenchFamilyOptions{.cache_dir = dir});
  JobRequest req;
  req.request_id = "r";
  req.circuit_id = "bench-10";
  req.num_partitions = 3;
  auto plan = fam.plan(req);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  EXPECT_EQ(plan->key_id, "bench-10");
  EXPECT_EQ(plan->partitions, 3u);
  ASSERT_NE(plan->parsed, nullptr);
  auto shape = fam.shape(plan->key_id);
  ASSERT_TRUE(shape.ok()) << shape.status().to_string();
  const R1csMatrices& m = *(*shape)->matrices;
  EXPECT_EQ(plan->columns, m.num_columns());
  EXPECT_EQ(plan->domain_size, m.num_constraints);
  EXPECT_EQ((*shape)->domain_size, m.num_constraints);
  auto src = fam.key_source("bench-10");
  ASSERT_TRUE(src.ok());
  EXPECT_EQ(src->kind, KeySource::Kind::seeded_setup);
  EXPECT_EQ(src->path, fam.key_path(10));
  EXPECT_EQ(src->image_name, "bench-10.kimg");

  ThreadPool pool(2);
  CancelFlag cancel{false};
  for (std::uint32_t k = 0; k < plan->partitions; ++k) {
    std::vector<Fr> z, fz(m.num_columns()), a(m.num_constraints), b(m.num_constraints),
        c(m.num_constraints);
    ASSERT_TRUE(fam.witness(req, *plan, k, z, cancel).ok());
    ASSERT_TRUE(fam.witness_abc(req, *plan, k, {.z = fz, .a = a, .b = b, .c = c}, cancel).ok());
    ASSERT_EQ(z.size(), fz.size());
    for (std::size_t i = 0; i < z.size(); ++i) ASSERT_TRUE(fr_eq(z[i], fz[i])) << "z " << i;
    auto abc = pce_evaluate(pool, m, z);
    ASSERT_TRUE(abc.ok());
    for (std::size_t i = 0; i < m.num_constraints; ++i)
      ASSERT_TRUE(fr_eq(abc->a[i], a[i]) && fr_eq(abc->b[i], b[i]) && fr_eq(abc->c[i], c[i]))
          << "row " << i;
    // Kept from the synthesis, then (taken) solved again from the request alone.
    for (int round = 0; round < 2; ++round) {
      auto in = fam.public_inputs(req, *plan, k);
      ASSERT_TRUE(in.ok()) << in.status().to_string();
      ASSERT_EQ(in->size(), m.num_inputs - 1);
      for (std::size_t i = 0; i < in->size(); ++i) EXPECT_TRUE(fr_eq((*in)[i], z[1 + i]));
    }
  }
  // Partitions differ; a partition beyond the plan is refused.
  std::vector<Fr> z0, z1;
  ASSERT_TRUE(fam.witness(req, *plan, 0, z0, cancel).ok());
  ASSERT_TRUE(fam.witness(req, *plan, 1, z1, cancel).ok());
  EXPECT_NE(z0, z1);
  EXPECT_EQ(fam.witness(req, *plan, 3, z0, cancel).code(), Errc::out_of_range);
  // Bad inputs are the client's errors.
  JobRequest bad = req;
  bad.vanilla_proof = "garbage";
  EXPECT_EQ(fam.plan(bad).status().code(), Errc::bad_encoding);
  bad = req;
  bad.num_partitions = 65;
  EXPECT_EQ(fam.plan(bad).status().code(), Errc::out_of_range);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::circuits
