// Compact witnesses by parts (parts_witness.hpp, post_witness.hpp, update_witness.hpp) against
// their slow twin: the whole z through the WitnessConstraintSystem, converted by
// compact_witness_from_z. Data-free: a toy circuit for the driver's contract (runs across part
// boundaries, any pool, slice counts, error order, cancellation), and the 2 KiB WindowPoSt (with
// more circuit sectors than the proof's 2), WinningPoSt (66 sectors) and SnapDeals (10
// challenges) circuits from the seeded synthetic inputs (synth_inputs.hpp) on pools of 1 to 3
// threads, with the heap bytes each run holds checked against parts_scratch_bytes and the
// builder's bound (every allocation counted: tests/support/heap_peak.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/circuits/filecoin/parts_witness.hpp"
#include "cuzk/circuits/filecoin/post_witness.hpp"
#include "cuzk/circuits/filecoin/update_witness.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/heap_peak.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;

// The slow twin: prefix then parts 0.. on one WitnessConstraintSystem, z converted.
CompactWitness sequential(PrefixFn prefix, PartFn part, std::uint64_t parts) {
  WitnessConstraintSystem cs;
  EXPECT_TRUE(prefix(cs).ok());
  for (std::uint64_t i = 0; i < parts; ++i) EXPECT_TRUE(part(cs, i).ok());
  EXPECT_TRUE(cs.finish().ok());
  ThreadPool one(1);
  return compact_witness_from_z(one, cs.assignment(), cs.num_inputs()).value();
}

// The toy circuit: the prefix allocates aux 0, 1, 5, 7 and an input 7 (7 inputized); part i the aux i % 2, i + 2,
// 1, i + 3 and the input i — so bits and runs of values both cross part boundaries.
Status toy_prefix_fn(ConstraintSystem& cs) {
  for (std::uint64_t v : {0, 1, 5}) {
    auto x = AllocatedNum::alloc(cs, Fr::from_u64(v));
    if (!x) return x.status();
  }
  auto in = AllocatedNum::alloc(cs, Fr::from_u64(7));
  if (!in) return in.status();
  return in->inputize(cs);
}
Status toy_part(ConstraintSystem& cs, std::uint64_t i, unsigned extra_aux = 0) {
  for (std::uint64_t v : {i % 2, i + 2, std::uint64_t{1}, i + 3}) {
    auto x = AllocatedNum::alloc(cs, Fr::from_u64(v));
    if (!x) return x.status();
  }
  for (unsigned e = 0; e < extra_aux; ++e)
    if (auto x = AllocatedNum::alloc(cs, Fr::from_u64(9)); !x) return x.status();
  auto in = cs.alloc_input([] { return std::string("x"); },
                           [i]() -> Result<Fr> { return Fr::from_u64(i); });
  return in.ok() ? Status() : in.status();
}

// As a callable FunctionRef can refer to.
const auto toy_prefix = [](ConstraintSystem& cs) { return toy_prefix_fn(cs); };

TEST(PartsWitness, ToyCircuitEqualsTheConverterOnAnyPool) {
  for (std::uint64_t parts : {0, 1, 7, 64}) {
    SCOPED_TRACE(std::to_string(parts) + " parts");
    auto l = count_parts_layout(
        toy_prefix, [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); }, parts);
    ASSERT_TRUE(l.ok()) << l.status().to_string();
    EXPECT_EQ(l->prefix_inputs, 2u);  // ONE and 7
    EXPECT_EQ(l->prefix_aux, 4u);
    EXPECT_EQ(l->part_inputs, parts ? 1u : 0u);
    EXPECT_EQ(l->part_aux, parts ? 4u : 0u);
    const CompactWitness want = sequential(
        toy_prefix, [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); }, parts);
    EXPECT_EQ(want.num_variables(), l->num_variables());
    for (std::size_t threads : {1, 2, 3}) {
      ThreadPool pool(threads);
      auto got = compact_witness_by_parts(
          *l, pool, toy_prefix,
          [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); });
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(*got == want) << threads << " threads";
      EXPECT_TRUE(got->validate().ok());
    }
  }
}

TEST(PartsWitness, APartOfOtherCountsIsOutOfRange) {
  auto l = count_parts_layout(
      toy_prefix, [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); }, 6);
  ASSERT_TRUE(l.ok());
  ThreadPool pool(2);
  // Part 3 allocates one aux more than counted: refused, nothing written outside its slice.
  auto more = compact_witness_by_parts(
      *l, pool, toy_prefix,
      [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i, i == 3 ? 1 : 0); });
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), Errc::out_of_range);
  EXPECT_NE(more.status().message().find("part 3"), std::string::npos) << more.status().to_string();
  // A layout that counts one aux more per part than the parts fill.
  PartsLayout wide = *l;
  ++wide.part_aux;
  auto fewer = compact_witness_by_parts(
      wide, pool, toy_prefix,
      [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); });
  ASSERT_FALSE(fewer.ok());
  EXPECT_EQ(fewer.status().code(), Errc::out_of_range);
}

TEST(PartsWitness, FirstFailingPartInIndexOrderAndCancellation) {
  auto l = count_parts_layout(
      toy_prefix, [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); }, 9);
  ASSERT_TRUE(l.ok());
  ThreadPool pool(3);
  auto failing = [](ConstraintSystem& cs, std::uint64_t i) -> Status {
    if (i == 2 || i == 6) return Status(Errc::invalid_argument, "bad " + std::to_string(i));
    return toy_part(cs, i);
  };
  auto r = compact_witness_by_parts(*l, pool, toy_prefix, failing, {.part_noun = "sector"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Errc::invalid_argument);
  EXPECT_NE(r.status().message().find("sector 2: bad 2"), std::string::npos)
      << r.status().to_string();
  const std::atomic<bool> cancel{true};
  auto c = compact_witness_by_parts(
      *l, pool, toy_prefix, [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); },
      {.cancel = &cancel});
  EXPECT_EQ(c.status().code(), Errc::cancelled);
  // A failing prefix is named.
  auto p = compact_witness_by_parts(
      *l, pool, [](ConstraintSystem&) { return Status(Errc::invalid_argument, "no prefix"); },
      [](ConstraintSystem& cs, std::uint64_t i) { return toy_part(cs, i); });
  EXPECT_EQ(p.status().code(), Errc::invalid_argument);
  EXPECT_NE(p.status().message().find("prefix"), std::string::npos);
}

// The heap bytes |run| holds at its peak, the result's included (it is kept until the end).
template <class F>
std::uint64_t held_by(F&& run) {
  const std::int64_t base = test::heap_peak_reset();
  run();
  return static_cast<std::uint64_t>(test::heap_peak() - base);
}

// |circuit| by parts on pools of 1..3 threads equals the converter's form of its z, and holds no
// more than the scratch and builder bound; |blank| gives that bound.
void expect_by_parts(Circuit& circuit, Circuit& blank, const PartsLayout& l,
                     std::function<Result<CompactWitness>(ThreadPool&)> by_parts) {
  WitnessConstraintSystem cs;
  ASSERT_TRUE(circuit.synthesize(cs).ok());
  ASSERT_TRUE(cs.finish().ok());
  EXPECT_EQ(cs.num_inputs(), l.num_inputs());
  EXPECT_EQ(cs.num_aux(), l.num_aux());
  ThreadPool one(1);
  const CompactWitness want = compact_witness_from_z(one, cs.assignment(), cs.num_inputs()).value();
  auto form = record_compact(blank);
  ASSERT_TRUE(form.ok()) << form.status().to_string();
  const CompactWitnessBound bound = compact_witness_bound(*form);
  EXPECT_EQ(bound.variables, l.num_variables());
  for (std::size_t threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    ThreadPool pool(threads);
    Result<CompactWitness> got = Status();
    const std::uint64_t held = held_by([&] { got = by_parts(pool); });
    ASSERT_TRUE(got.ok()) << got.status().to_string();
    EXPECT_TRUE(*got == want) << "differs from the converter's form of z";
    const std::uint64_t limit = parts_peak_bytes(l, bound, threads);
    EXPECT_LE(held, limit);
    std::printf("%zu threads: %llu parts, held %.2f MB (bound %.2f MB), compact %.2f MB\n", threads,
                static_cast<unsigned long long>(l.parts), held / 1e6, limit / 1e6,
                got->bytes() / 1e6);
  }
}

TEST(PostWitnessByParts, WindowAndWinningEqualTheConverter) {
  ThreadPool pool(2);
  // WindowPoSt with 5 circuit sectors (the 2 KiB proof has 2; the split does not depend on it).
  fc::PostProof window = fc::post_proof("StackedDrgWindow2KiBV1_2").value();
  window.sector_count = 5;
  const fc::SynthPost wp = fc::synth_post(window, 11, 5, pool).value();
  const PostCircuitParams wparams = post_circuit_params(window).value();
  ASSERT_EQ(wparams.sector_count, 5u);
  const auto wproofs = fc::window_post_partition_proof(window, wp.vanilla, 0).value();
  const PostCircuitPublic wpub{
      .randomness = wp.randomness, .prover_id = wp.prover_id, .sectors = wp.sectors};
  // WinningPoSt: 66 circuit sectors of one challenge.
  const fc::PostProof winning = fc::post_proof("StackedDrgWinning2KiBV1").value();
  const fc::SynthPost np = fc::synth_post(winning, 12, 1, pool).value();
  const PostCircuitParams nparams = post_circuit_params(winning).value();
  const auto nproofs = winning_post_circuit_proofs(nparams, np.vanilla[0]).value();
  const PostCircuitPublic npub =
      winning_post_public(nparams, np.randomness, np.prover_id, np.sectors[0]);
  for (const auto& [params, pub, proofs] :
       {std::tuple{&wparams, &wpub, &wproofs}, std::tuple{&nparams, &npub, &nproofs}}) {
    SCOPED_TRACE(std::to_string(params->sector_count) + " circuit sectors");
    auto circuit = PostCircuit::create(*params, *pub, *proofs);
    ASSERT_TRUE(circuit.ok()) << circuit.status().to_string();
    PostCircuit blank(*params);
    auto l = post_witness_layout(*params);
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(l->parts, params->sector_count);
    EXPECT_EQ(l->prefix_inputs, 1u);  // ONE alone
    EXPECT_EQ(l->prefix_aux, 0u);
    EXPECT_EQ(l->part_inputs, 1u + params->challenge_count);  // comm_r, the challenged leaves
    expect_by_parts(*circuit, blank, *l,
                    [&](ThreadPool& tp) { return post_partition_compact_witness(*circuit, tp); });
  }
  // A blank circuit has no witness.
  EXPECT_EQ(post_partition_compact_witness(PostCircuit(wparams), pool).status().code(),
            Errc::invalid_argument);
}

TEST(UpdateWitnessByParts, EqualsTheConverter) {
  ThreadPool pool(2);
  const fc::UpdateProof proof = fc::update_proof("StackedDrg2KiBV1").value();
  const fc::SynthSnap s = fc::synth_snap(proof, 5, pool).value();
  const std::uint64_t nodes = fc::sector_nodes(proof.size);
  for (unsigned k = 0; k < s.partitions.size(); ++k) {
    SCOPED_TRACE("partition " + std::to_string(k));
    const UpdatePublic pub =
        update_public(nodes, k, s.pub.h, s.pub.comm_r_old, s.pub.comm_d_new, s.pub.comm_r_new)
            .value();
    UpdateCircuit circuit(pub, &s.partitions[k]);
    UpdateCircuit blank(UpdatePublic{.nodes = nodes, .k = 0, .h = s.pub.h});
    auto l = update_witness_layout(nodes);
    ASSERT_TRUE(l.ok());
    EXPECT_EQ(l->parts, proof.challenges_per_partition);
    EXPECT_EQ(l->prefix_inputs, 5u);  // ONE and the four public inputs
    EXPECT_EQ(l->part_inputs, 0u);
    expect_by_parts(circuit, blank, *l, [&](ThreadPool& tp) {
      return update_partition_compact_witness(pub, s.partitions[k], tp);
    });
  }
  // A proof of the wrong shape fails as UpdateCircuit does, before any synthesis.
  fc::SnapPartitionProof bad = s.partitions[0];
  bad.challenge_proofs.pop_back();
  const UpdatePublic pub0 =
      update_public(nodes, 0, s.pub.h, s.pub.comm_r_old, s.pub.comm_d_new, s.pub.comm_r_new)
          .value();
  EXPECT_EQ(update_partition_compact_witness(pub0, bad, pool).status().code(), Errc::size_mismatch);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
