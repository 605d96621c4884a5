// Setup from the compact form (column_evaluations over CompactR1cs, in parallel) against its slow
// twin, setup from the plain recording of the same circuit, with the same trapdoor: the keys are
// equal (==), for both layouts, on 1 and 3 threads, with chunks smaller than the queries; the
// column evaluations alone too. Circuits: chains of scoped gadgets whose rows read earlier
// gadgets' outputs and the inputs (so a segment's slots are other segments' locals), recorded
// under several block thresholds. Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/groth16/column_evaluations.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/poly/domain.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_fr;

// |uses| uses of a few gadget kinds; every local occurs in some row (bellperson's l needs it).
class GadgetChain final : public Circuit {
 public:
  GadgetChain(std::uint64_t seed, unsigned uses) : seed_(seed), uses_(uses) {}

  Status synthesize(ConstraintSystem& cs) override {
    std::mt19937_64 rng(seed_);
    const Fr c[3] = {Fr::from_u64(3), kFrMinusOne, random_fr(rng)};
    std::vector<Variable> pool;
    for (int i = 0; i < 3; ++i) {
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc_input("in", [] { return Fr::one(); }));
      pool.push_back(x);
    }
    for (unsigned u = 0; u < uses_; ++u) {
      const Variable a = pool[rng() % pool.size()], b = pool[rng() % pool.size()];
      const unsigned kind = static_cast<unsigned>(rng() % 3);
      Namespace ns(cs, "gadget");
      auto one = [] { return Fr::one(); };
      CUZK_ASSIGN_OR_RETURN(Variable t1, cs.alloc("t1", one));
      CUZK_ASSIGN_OR_RETURN(Variable t2, cs.alloc("t2", one));
      cs.enforce("r1", LC(a).add(c[kind], Variable::one()), LC(b), LC(t1));
      cs.enforce("r2", LC(t1).add(c[2], a), LC(t1).add(kFrMinusOne, Variable::one()), LC(t2));
      if (kind != 0) {
        CUZK_ASSIGN_OR_RETURN(Variable t3, cs.alloc("t3", one));
        cs.enforce("r3", LC(t2), LC(Variable::one()), LC(t3).add(c[kind], b));
        pool.push_back(t3);
      }
      pool.push_back(t2);
      pool.push_back(t1);
    }
    return {};
  }

 private:
  std::uint64_t seed_;
  unsigned uses_;
};

TEST(SetupCompact, KeysEqualThePlainMatricesKeys) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool one(1), three(3);
  std::size_t slot_uses = 0;
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    GadgetChain circuit(rng(), 20 + static_cast<unsigned>(rng() % 200));
    const std::uint64_t thresholds[] = {1, 2, 5, 100000};
    const CompactOptions copt{.min_template_rows = thresholds[rng() % 2],
                              .max_block_rows = thresholds[rng() % 4],
                              .min_segment_rows = thresholds[rng() % 4]};
    auto compact = record_compact(circuit, copt);
    ASSERT_TRUE(compact.ok()) << compact.status().to_string();
    RecordingConstraintSystem rcs;
    ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
    const R1csMatrices plain = rcs.take().matrices;
    ASSERT_TRUE(compact_to_matrices(*compact) == plain);
    slot_uses += compact->slots.size();

    // The column evaluations alone, on 1 and 3 threads.
    const std::vector<Fr> lag = [&] {
      std::vector<Fr> l(plain.num_constraints + static_cast<std::size_t>(rng() % 5));
      for (Fr& x : l) x = random_fr(rng);
      return l;
    }();
    auto want = column_evaluations(plain, lag);
    ASSERT_TRUE(want.ok());
    for (ThreadPool* pool : {&one, &three}) {
      auto got = column_evaluations(*compact, lag, *pool);
      ASSERT_TRUE(got.ok());
      EXPECT_TRUE(*got == *want) << "threads " << pool->size();
    }
    EXPECT_EQ(column_evaluations(*compact, std::span(lag).first(plain.num_constraints - 1), one)
                  .status()
                  .code(),
              Errc::size_mismatch);

    SeededRng trng(rng());
    const Trapdoor td = random_trapdoor(trng);
    for (KeyLayout layout : {KeyLayout::bellperson, KeyLayout::snarkjs}) {
      auto slow = setup_with_trapdoor(plain, td, {.layout = layout, .pool = &one});
      ASSERT_TRUE(slow.ok()) << slow.status().to_string();
      ASSERT_GT(slow->h.size(), 0u);
      for (ThreadPool* pool : {&one, &three}) {
        SetupStats st;
        auto fast = setup_with_trapdoor(
            *compact, td, {.layout = layout, .pool = pool, .chunk = 1 + rng() % 100, .stats = &st});
        ASSERT_TRUE(fast.ok()) << fast.status().to_string();
        EXPECT_TRUE(*fast == *slow)
            << "layout " << static_cast<int>(layout) << " threads " << pool->size();
        EXPECT_GT(st.total, 0.0);
      }
    }
  }
  EXPECT_GT(slot_uses, 0u) << "no segment had slots: the racing terms went untested";
}

// An unconstrained aux variable is refused by both forms before anything reaches the sink.
TEST(SetupCompact, UnconstrainedAuxRefusedByBoth) {
  class Loose final : public Circuit {
   public:
    Status synthesize(ConstraintSystem& cs) override {
      auto one = [] { return Fr::one(); };
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc_input("x", one));
      CUZK_ASSIGN_OR_RETURN(Variable y, cs.alloc("y", one));
      CUZK_ASSIGN_OR_RETURN(Variable unused, cs.alloc("unused", one));
      (void)unused;
      cs.enforce("r", LC(x), LC(x), LC(y));
      return {};
    }
  } circuit;
  auto compact = record_compact(circuit);
  ASSERT_TRUE(compact.ok());
  SeededRng trng(fresh_seed());
  const Trapdoor td = random_trapdoor(trng);
  ProvingKeyCollector sink;
  const Status s = setup_into(*compact, td, sink);
  EXPECT_EQ(s.code(), Errc::invalid_argument);
  EXPECT_NE(s.to_string().find("aux variable 1"), std::string::npos) << s.to_string();
  EXPECT_EQ(sink.take().vk.ic.size(), 0u);  // nothing delivered
}

// An executor that computes wrong points (here: one point off in every call) fails the setup
// with device_failure instead of delivering a bad key.
TEST(SetupCompact, WrongExecutorPointsAreCaught) {
  class OffByOne final : public FixedBaseExecutor {
   public:
    explicit OffByOne(ThreadPool& pool) : cpu_(make_cpu_fixed_base(pool, 1 << 10, 1 << 10)) {}
    Status g1_many(std::span<const Fr> ks, std::span<G1Affine> out) override {
      CUZK_RETURN_IF_ERROR(cpu_->g1_many(ks, out));
      if (calls_++ == 3) out.back() = G1Affine::generator();
      return {};
    }
    Status g2_many(std::span<const Fr> ks, std::span<G2Affine> out) override {
      return cpu_->g2_many(ks, out);
    }
    std::string name() const override { return "off-by-one"; }

   private:
    std::unique_ptr<FixedBaseExecutor> cpu_;
    int calls_ = 0;
  };
  GadgetChain circuit(fresh_seed(), 100);
  RecordingConstraintSystem rcs;
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  const R1csMatrices plain = rcs.take().matrices;
  SeededRng trng(fresh_seed());
  const Trapdoor td = random_trapdoor(trng);
  ThreadPool pool(1);
  OffByOne bad(pool);
  auto key = setup_with_trapdoor(plain, td, {.pool = &pool, .fixed_base = &bad, .chunk = 50});
  ASSERT_FALSE(key.ok());
  EXPECT_EQ(key.status().code(), Errc::device_failure);
  EXPECT_NE(key.status().to_string().find("off-by-one"), std::string::npos)
      << key.status().to_string();
}

}  // namespace
}  // namespace cuzk
