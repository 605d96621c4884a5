// A 2 KiB PoRep partition through Groth16Prover with compact witnesses (issue 22 item 3), on the
// venus request (CUZK_FILECOIN_DATA), with no key (plan and synthesis need only the parameter
// file's name): the plan reserves the circuit's bound of the synthesis instead of z, a, b, c —
// far below the vector path's on a backend that holds the circuit on its device, and with the
// host vectors as abc_bytes on the CPU backend, which expands the witness on the host; the
// synthesized partition holds its compact witness and nothing else (within the reservation); a
// cancel during the synthesis returns cancelled. The proofs: filecoin_family_prove_test.
#include <gtest/gtest.h>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
using namespace testing;

// The CPU backend reporting that it keeps a circuit on its device, as CUDA does: the prover then
// plans no host expansion — unless the device streams the key's tables (|streams|: a small card,
// where CudaBackend takes the host path). Only planned here, never proved with.
class CircuitOnDevice final : public Backend, public DeviceMemoryReport {
 public:
  CircuitOnDevice(ThreadPool& pool, bool streams) : cpu_(pool), streams_(streams) {}
  std::string name() const override { return "cuda:0"; }
  DeviceMemory device_memory() const override { return {.total = 1ull << 40}; }
  std::uint64_t resident_bases_bytes(std::uint64_t g1, std::uint64_t g2,
                                     std::uint32_t) const override {
    return 96 * g1 + 192 * g2;
  }
  bool streams_table(std::uint64_t, bool) const override { return streams_; }
  std::uint64_t device_circuit_bytes(const CompactR1cs& c) const override {
    return c.memory_bytes();
  }
  Result<BasesId> load_bases_g1(std::span<const G1Affine> b) override {
    return cpu_.load_bases_g1(b);
  }
  Result<BasesId> load_bases_g2(std::span<const G2Affine> b) override {
    return cpu_.load_bases_g2(b);
  }
  Status release_bases(BasesId id) override { return cpu_.release_bases(id); }
  Status ntt(std::span<Fr> v, const NttOptions& o) override { return cpu_.ntt(v, o); }
  Result<G1Jacobian> msm_g1(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g1(b, s, o);
  }
  Result<G2Jacobian> msm_g2(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g2(b, s, o);
  }
  Status compute_h(HInputs in, std::span<Fr> h) override { return cpu_.compute_h(in, h); }

 private:
  CpuBackend cpu_;
  bool streams_;
};

// The prover's plan of |req| with its dimensions: a prover's first plan of a circuit not yet
// recorded leaves them pending; prepare_key records it (as the engine's SRS manager has it do).
Result<engine::JobPlan> sized_plan(engine::Groth16Prover& p, const JobRequest& req) {
  auto plan = p.plan(req);
  if (!plan || !plan->dimensions_pending) return plan;
  CUZK_RETURN_IF_ERROR(p.prepare_key(plan->key_id));
  auto done = p.complete_plan(*plan);
  if (!done) return done.status();
  if (!*done) return Status(Errc::invalid_argument, "plan still pending after prepare_key");
  return plan;
}

class PorepCompactProver : public ::testing::Test {
 protected:
  void SetUp() override {
    CUZK_REQUIRE_FILECOIN_DATA();
    v_ = venus();
    ASSERT_NE(v_, nullptr);
    params_ = params_dir_with("porep_compact_params", all_2kib_sets());
    cache_ = params_dir_with("porep_compact_cache", {});
  }
  void TearDown() override {
    if (!params_.empty()) fs::remove_all(params_);
    if (!cache_.empty()) fs::remove_all(cache_);
  }
  std::unique_ptr<engine::Groth16Prover> prover(bool compact, bool circuit_on_device,
                                                bool streams = false) {
    engine::Groth16ProverOptions o;
    o.cache_dir = cache_.string();
    o.filecoin_params_dir = params_.string();
    o.threads = 2;
    o.compact_witness = compact;
    if (circuit_on_device) {
      o.backends = {"cuda:0"};
      o.backend_factory = [streams](const std::string&,
                                    ThreadPool& pool) -> Result<std::unique_ptr<Backend>> {
        return std::unique_ptr<Backend>(new CircuitOnDevice(pool, streams));
      };
    }
    auto p = engine::Groth16Prover::create(o);
    EXPECT_TRUE(p.ok()) << p.status().to_string();
    return p.ok() ? std::move(*p) : nullptr;
  }
  const Venus* v_ = nullptr;
  fs::path params_, cache_;
};

TEST_F(PorepCompactProver, PlanReservesTheCircuitsBoundNotTheVectors) {
  auto vectors = prover(false, false);
  auto on_cpu = prover(true, false);
  auto on_device = prover(true, true);
  ASSERT_TRUE(vectors && on_cpu && on_device);
  auto pv = sized_plan(*vectors, v_->porep);
  auto pc = sized_plan(*on_cpu, v_->porep);
  auto pd = sized_plan(*on_device, v_->porep);
  ASSERT_TRUE(pv.ok() && pc.ok() && pd.ok())
      << pv.status().to_string() << pc.status().to_string() << pd.status().to_string();
  auto shape = on_cpu->shape(pv->key_id);
  ASSERT_TRUE(shape.ok());
  const std::uint64_t n = (*shape)->domain_size, cols = (*shape)->dims().num_columns();
  // The vector path: a, b, c over the domain and z.
  EXPECT_EQ(pv->abc_bytes, 32 * 3 * n);
  EXPECT_EQ(pv->partition_bytes, 32 * (3 * n + cols));
  // A device holding the circuit expands on the device: nothing but the synthesis is reserved,
  // the bound of PorepFamily (one part's scratch, the builder, the result).
  EXPECT_EQ(pd->abc_bytes, 0u);
  const CompactWitnessBound bound = compact_witness_bound(*(*shape)->compact);
  PorepFamily fam(FilecoinFamilyOptions{.params_dir = params_.string()});
  auto fp = fam.plan(v_->porep);
  ASSERT_TRUE(fp.ok());
  ASSERT_TRUE(fam.complete_plan(*fp).ok());
  EXPECT_EQ(pd->partition_bytes,
            std::max(fam.compact_witness_peak_bytes(*fp, bound), bound.witness_bytes()));
  EXPECT_LT(pd->partition_bytes * 10, pv->partition_bytes)
      << pd->partition_bytes << " against " << pv->partition_bytes;
  // The CPU backend expands on the host during its device stage: z, a, b, c are charged there;
  // so does a device that streams the key's tables.
  EXPECT_EQ(pc->abc_bytes, 32 * (cols + 3 * n));
  EXPECT_EQ(pc->partition_bytes, bound.witness_bytes() + pc->abc_bytes);
  auto streaming = prover(true, true, true);
  ASSERT_TRUE(streaming);
  auto ps = sized_plan(*streaming, v_->porep);
  ASSERT_TRUE(ps.ok());
  EXPECT_EQ(ps->abc_bytes, pc->abc_bytes);
  EXPECT_EQ(ps->partition_bytes, pc->partition_bytes);
  std::printf(
      "2 KiB PoRep partition: vectors %.1f MB; compact, circuit on the device %.1f MB "
      "(witness bound %.2f MB); compact on the CPU backend %.1f MB\n",
      pv->partition_bytes / 1e6, pd->partition_bytes / 1e6, bound.witness_bytes() / 1e6,
      pc->partition_bytes / 1e6);
}

TEST_F(PorepCompactProver, SynthesisHoldsTheCompactWitnessOnly) {
  auto p = prover(true, true);
  ASSERT_TRUE(p);
  auto plan = sized_plan(*p, v_->porep);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  CancelFlag cancel{false};
  auto part = p->synthesize(v_->porep, *plan, 0, cancel);
  ASSERT_TRUE(part.ok()) << part.status().to_string();
  const std::optional<std::uint64_t> held = (*part)->held_bytes();
  ASSERT_TRUE(held.has_value());
  auto* compact = dynamic_cast<engine::CompactPartition*>(part->get());
  ASSERT_NE(compact, nullptr);
  EXPECT_EQ(*held, compact_witness_capacity_bytes(compact->witness));
  EXPECT_GT(*held, compact->witness.bits.size() * 8);
  EXPECT_LE(*held + plan->abc_bytes, plan->partition_bytes);
  EXPECT_EQ((*part)->upload_bytes(), 0u);  // nothing uploaded before its device stage
  // The vector path's partition of the same job: z, a, b, c, no held_bytes.
  auto vp = prover(false, false);
  auto vplan = sized_plan(*vp, v_->porep);
  ASSERT_TRUE(vplan.ok());
  auto vpart = vp->synthesize(v_->porep, *vplan, 0, cancel);
  ASSERT_TRUE(vpart.ok()) << vpart.status().to_string();
  EXPECT_FALSE((*vpart)->held_bytes().has_value());
  auto* vectors = dynamic_cast<engine::PartitionVectors*>(vpart->get());
  ASSERT_NE(vectors, nullptr);
  // The same witness: the compact form expands to the vector path's z.
  ThreadPool pool(2);
  std::vector<Fr> z(compact->witness.num_variables());
  ASSERT_TRUE(compact_witness_expand(pool, compact->witness, z).ok());
  EXPECT_TRUE(std::equal(z.begin(), z.end(), vectors->z().begin(), vectors->z().end()));
}

// The flag is set before the call, so the synthesis meets it at its first poll whatever the
// machine's speed (a canceller thread 20 ms in lost the race to a 2 KiB partition on a fast run).
TEST_F(PorepCompactProver, CancelDuringSynthesisReturnsCancelled) {
  auto p = prover(true, true);
  ASSERT_TRUE(p);
  auto plan = sized_plan(*p, v_->porep);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  CancelFlag cancel{true};
  auto part = p->synthesize(v_->porep, *plan, 0, cancel);
  ASSERT_FALSE(part.ok());
  EXPECT_EQ(part.status().code(), Errc::cancelled) << part.status().to_string();
  // The prover serves the next partition as before.
  CancelFlag go{false};
  EXPECT_TRUE(p->synthesize(v_->porep, *plan, 0, go).ok());
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
