// prove_compact (a partition from its compact witness, Backend::prove_partition_compact: the
// default host path on CpuBackend) against prove_with_abc on the expanded witness with a, b, c
// from the compact SpMV: with the same r, s the proofs are the same bytes, and they verify. Both
// key layouts; witnesses of bits only (no runs), mixed, and mostly field values (mostly runs);
// constraint counts that are not powers of two. Bad inputs are refused with errors naming what is
// wrong. Circuit: tests/support/bitty_circuit.hpp recorded into a CompactR1cs; seeded (printed;
// CUZK_SEED replays).
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/bitty_circuit.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

struct CompactFixture {
  std::shared_ptr<const CompactR1cs> form;
  std::vector<Fr> z;
  CompactWitness witness;
};

CompactFixture make_fixture(ThreadPool& pool, const test::BittyOptions& o) {
  test::BittyCircuit circuit(o);
  auto form = record_compact(circuit);
  EXPECT_TRUE(form.ok()) << form.status().to_string();
  WitnessConstraintSystem wcs;
  EXPECT_TRUE(synthesize_circuit(circuit, wcs).ok());
  CompactFixture f{
      std::make_shared<const CompactR1cs>(std::move(*form)), wcs.take_assignment(), {}};
  f.witness = compact_witness_from_z(pool, f.z, f.form->num_inputs).value();
  return f;
}

AbcVectors host_abc(ThreadPool& pool, const CompactR1cs& m, std::span<const Fr> z) {
  const std::size_t rows = m.num_constraints;
  AbcVectors v{std::vector<Fr>(rows), std::vector<Fr>(rows), std::vector<Fr>(rows)};
  EXPECT_TRUE(pce_compact_evaluate_into(pool, m, z, v.a, v.b, v.c).ok());
  return v;
}

// make_fixture's circuit (field_chain 2, |uses| uses) under a seeded setup, its key resident on
// |backend|; key null when either step failed (the failure reported).
struct KeyedFixture {
  CompactFixture f;
  std::unique_ptr<ProvingKey> pk;
  std::unique_ptr<ResidentKey> key;
};

KeyedFixture keyed_fixture(ThreadPool& pool, Backend& backend, std::mt19937_64& rng,
                           unsigned uses) {
  KeyedFixture k{make_fixture(pool, {.seed = rng(), .uses = uses, .field_chain = 2}), {}, {}};
  SeededRng trng(rng());
  auto pk = setup_with_trapdoor(*k.f.form, random_trapdoor(trng), {.pool = &pool});
  EXPECT_TRUE(pk.ok()) << pk.status().to_string();
  if (!pk.ok()) return k;
  k.pk = std::make_unique<ProvingKey>(std::move(*pk));
  auto key = ResidentKey::load(backend, *k.pk);
  EXPECT_TRUE(key.ok()) << key.status().to_string();
  if (key.ok()) k.key = std::move(*key);
  return k;
}

TEST(ProveCompact, SameProofAsProveWithAbcAndVerifies) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  CpuBackend backend(pool);
  for (unsigned field_chain : {0u, 2u, 12u}) {
    for (KeyLayout layout : {KeyLayout::bellperson, KeyLayout::snarkjs}) {
      SCOPED_TRACE(testing::Message()
                   << "field_chain " << field_chain << " layout " << static_cast<int>(layout));
      const CompactFixture f = make_fixture(pool, {.seed = rng(),
                                                   .uses = 30 + static_cast<unsigned>(rng() % 60),
                                                   .field_chain = field_chain});
      const CompactR1cs& m = *f.form;
      ASSERT_FALSE(std::has_single_bit(m.num_constraints)) << m.num_constraints;
      if (field_chain == 0) {
        EXPECT_EQ(f.witness.num_runs(), 0u);
      }
      if (field_chain == 12) {
        EXPECT_GT(f.witness.values.size() * 2, f.z.size());
      }
      SeededRng trng(rng());
      auto pk = setup_with_trapdoor(m, random_trapdoor(trng), {.layout = layout, .pool = &pool});
      ASSERT_TRUE(pk.ok()) << pk.status().to_string();
      auto key = ResidentKey::load(backend, *pk);
      ASSERT_TRUE(key.ok());
      auto id = backend.load_circuit(f.form);
      ASSERT_TRUE(id.ok());
      const Fr r = test::random_fr(rng), s = test::random_fr(rng);

      auto want =
          prove_with_abc(pool, **key, m.dims(), host_abc(pool, m, f.z), f.z, {.r = r, .s = s});
      ASSERT_TRUE(want.ok()) << want.status().to_string();
      ProveTimings tm;
      auto got =
          prove_compact(pool, **key, m.dims(), *id, f.witness, {.r = r, .s = s, .timings = &tm});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_EQ(*got, *want);
      EXPECT_EQ(tm.upload_bytes, 0u);  // the host path moves nothing to a device

      const auto pvk = prepare_verifying_key(pk->vk);
      const std::span<const Fr> pub(f.z.data() + 1, m.num_inputs - 1);
      EXPECT_TRUE(*verify(pvk, pub, *got));
      // A different r gives another proof (the blinding is used), which verifies too.
      auto other =
          prove_compact(pool, **key, m.dims(), *id, f.witness, {.r = r + Fr::one(), .s = s});
      ASSERT_TRUE(other.ok());
      EXPECT_NE(*other, *got);
      EXPECT_TRUE(*verify(pvk, pub, *other));
      EXPECT_TRUE(backend.release_circuit(*id).ok());
    }
  }
}

// A HostVectorPool that keeps what is given back, filled with garbage, and counts its calls.
class DirtyVectorPool final : public HostVectorPool {
 public:
  std::vector<Fr> take(std::size_t n) override {
    ++takes;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      if (kept_[i].capacity() != n) continue;
      std::vector<Fr> v = std::move(kept_[i]);
      kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(i));
      ++reused;
      return v;
    }
    std::vector<Fr> v;
    v.reserve(n);
    return v;
  }
  void give(std::vector<Fr>&& v) override {
    ++gives;
    v.assign(v.capacity(), test::random_fr(rng_));  // what the next take() finds
    v.clear();
    kept_.push_back(std::move(v));
  }
  std::size_t takes = 0, gives = 0, reused = 0;

 private:
  std::mt19937_64 rng_{7};
  std::vector<std::vector<Fr>> kept_;
};

// The host path's z, a, b, c taken from a caller's pool (CompactPartitionInputs::host_vectors),
// fresh the first time and dirty from the previous partition the next: the same proof bytes as
// with fresh vectors of its own, every vector given back, the second partition served entirely
// from the kept ones.
TEST(ProveCompact, VectorsFromTheCallersPoolGiveTheSameProof) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  CpuBackend backend(pool);
  DirtyVectorPool vectors;
  const KeyedFixture k = keyed_fixture(pool, backend, rng, 50);
  ASSERT_NE(k.key, nullptr);
  auto id = backend.load_circuit(k.f.form);
  ASSERT_TRUE(id.ok());
  const R1csDims dims = k.f.form->dims();
  const Fr r = test::random_fr(rng), s = test::random_fr(rng);
  auto want = prove_compact(pool, *k.key, dims, *id, k.f.witness, {.r = r, .s = s});
  ASSERT_TRUE(want.ok()) << want.status().to_string();
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    auto got = prove_compact(pool, *k.key, dims, *id, k.f.witness,
                             {.r = r, .s = s, .host_vectors = &vectors});
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_EQ(*got, *want);
    EXPECT_EQ(vectors.takes, 4u * (round + 1));  // z, a, b, c
    EXPECT_EQ(vectors.gives, vectors.takes);
    EXPECT_EQ(vectors.reused, 4u * round);
  }
  // Given back on an error too: a damaged witness, refused by the expansion once they are taken.
  CompactWitness damaged = k.f.witness;
  ASSERT_FALSE(damaged.values.empty());
  damaged.values[0] = Fr::zero();
  const Status st =
      prove_compact(pool, *k.key, dims, *id, damaged, {.host_vectors = &vectors}).status();
  EXPECT_EQ(st.code(), Errc::bad_encoding) << st.to_string();
  EXPECT_EQ(vectors.takes, 12u);
  EXPECT_EQ(vectors.gives, vectors.takes);
  EXPECT_TRUE(backend.release_circuit(*id).ok());
}

TEST(ProveCompact, RefusesBadInputs) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  CpuBackend backend(pool);
  const KeyedFixture k = keyed_fixture(pool, backend, rng, 37);
  ASSERT_NE(k.key, nullptr);
  const CompactFixture& f = k.f;
  const CompactR1cs& m = *f.form;
  const ResidentKey& key = *k.key;
  EXPECT_EQ(backend.load_circuit(nullptr).status().code(), Errc::invalid_argument);
  auto id = backend.load_circuit(f.form);
  ASSERT_TRUE(id.ok());
  auto message_has = [](const Status& s, const char* what) {
    return s.to_string().find(what) != std::string::npos;
  };

  // A witness of another variable count.
  const CompactWitness shorter =
      compact_witness_from_z(pool, std::span(f.z).first(f.z.size() - 1), m.num_inputs).value();
  Status st = prove_compact(pool, key, m.dims(), *id, shorter).status();
  EXPECT_EQ(st.code(), Errc::size_mismatch);
  EXPECT_TRUE(message_has(st, "variables")) << st.to_string();
  // A witness with another split of inputs and aux (same count).
  const CompactWitness moved = compact_witness_from_z(pool, f.z, m.num_inputs + 1).value();
  st = prove_compact(pool, key, m.dims(), *id, moved).status();
  EXPECT_EQ(st.code(), Errc::size_mismatch);
  EXPECT_TRUE(message_has(st, "inputs")) << st.to_string();

  // An unknown circuit, and one released.
  st = prove_compact(pool, key, m.dims(), CircuitId{id->value + 1000}, f.witness).status();
  EXPECT_EQ(st.code(), Errc::not_found);
  EXPECT_TRUE(message_has(st, "is not loaded")) << st.to_string();

  // The backend's own checks: a domain shorter than the constraints, not a power of two, no pool,
  // no witness.
  CompactPartitionInputs in{.witness = &f.witness,
                            .circuit = *id,
                            .domain_size = std::bit_floor(m.num_constraints),
                            .a = key.a,
                            .b_g1 = key.b_g1,
                            .b_g2 = key.b_g2,
                            .l = key.l,
                            .h = key.h,
                            .host_pool = &pool};
  st = backend.prove_partition_compact(in).status();
  EXPECT_EQ(st.code(), Errc::size_mismatch);
  EXPECT_TRUE(message_has(st, "constraints")) << st.to_string();
  in.domain_size = m.num_constraints;
  EXPECT_EQ(backend.prove_partition_compact(in).status().code(), Errc::invalid_argument);
  in.domain_size = k.pk->domain_size;
  in.host_pool = nullptr;
  st = backend.prove_partition_compact(in).status();
  EXPECT_EQ(st.code(), Errc::invalid_argument);
  EXPECT_TRUE(message_has(st, "thread pool")) << st.to_string();
  in.host_pool = &pool;
  in.witness = nullptr;
  EXPECT_EQ(backend.prove_partition_compact(in).status().code(), Errc::invalid_argument);

  EXPECT_TRUE(backend.release_circuit(*id).ok());
  EXPECT_EQ(backend.release_circuit(*id).code(), Errc::not_found);
  st = prove_compact(pool, key, m.dims(), *id, f.witness).status();
  EXPECT_EQ(st.code(), Errc::not_found);
}

// A ResidentKey loads its circuit on its backend (the key store's device copies do) and releases it
// with the key.
TEST(ProveCompact, ResidentKeyCarriesItsCircuit) {
  std::mt19937_64 rng(test::fresh_seed());
  ThreadPool pool(2);
  CpuBackend backend(pool);
  const CompactFixture f = make_fixture(pool, {.seed = rng(), .uses = 21, .field_chain = 1});
  SeededRng trng(rng());
  auto pk = setup_with_trapdoor(*f.form, random_trapdoor(trng), {.pool = &pool});
  ASSERT_TRUE(pk.ok());
  CircuitId id;
  {
    auto key = ResidentKey::load(backend, *pk);
    ASSERT_TRUE(key.ok());
    EXPECT_EQ((*key)->circuit().value, 0u);
    ASSERT_TRUE((*key)->load_circuit(f.form).ok());
    id = (*key)->circuit();
    EXPECT_NE(id.value, 0u);
    EXPECT_EQ((*key)->load_circuit(f.form).code(), Errc::invalid_argument);
    auto p = prove_compact(pool, **key, f.form->dims(), id, f.witness);
    ASSERT_TRUE(p.ok()) << p.status().to_string();
    EXPECT_TRUE(*verify(prepare_verifying_key(pk->vk),
                        std::span<const Fr>(f.z.data() + 1, f.form->num_inputs - 1), *p));
  }
  EXPECT_EQ(backend.release_circuit(id).code(), Errc::not_found) << "released with the key";
}

}  // namespace
}  // namespace cuzk
