// Test helpers for the EmptySectorUpdate circuit: an update of any size update_tree_shape knows
// (upstream's test sizes included, which the data side's snap_encode does not take), built the
// way storage-proofs-update tests/circuit.rs builds it — random sector key and data, tree_r_old,
// tree_d_new, phi, rho, the new replica and tree_r_new — with the partition proofs made by the
// data side (snap_prove.hpp); a system that stops at the first unsatisfied constraint (so tamper
// tests do not synthesize the rest); and a check that the witness-only system and the recording
// system with values give the same assignment.
#pragma once

#include <gtest/gtest.h>

#include <random>

#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "cuzk/filecoin/tree_d.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk::circuits::filecoin::testing {

namespace fc = cuzk::filecoin;

inline fc::Node random_fr32(std::mt19937_64& rng) {
  fc::Node n;
  for (auto& b : n) b = static_cast<std::uint8_t>(rng());
  n[31] &= 0x3f;
  return n;
}

/// An update's public data and one partition proof per partition.
struct Update {
  fc::SnapParams params;
  unsigned h = 0;
  fc::Node comm_r_old{}, comm_d_new{}, comm_r_new{};
  std::vector<fc::SnapPartitionProof> proofs;

  UpdatePublic pub(unsigned k) const {
    return update_public(params.nodes, k, h, comm_r_old, comm_d_new, comm_r_new).value();
  }
};

/// The partition proofs of an update from its trees (snap_partition_proof).
inline Update prove_all(const fc::SnapParams& p, unsigned h, const fc::SnapTrees& trees,
                        const fc::Node& comm_r_old, const fc::Node& comm_d_new) {
  Update u;
  u.params = p;
  u.h = h;
  u.comm_r_old = comm_r_old;
  u.comm_d_new = comm_d_new;
  u.comm_r_new = fc::node_from_fr(
      fc::comm_r_of(fc::fr_from_node(trees.comm_c).value(), trees.tree_r_new->root()));
  for (unsigned k = 0; k < p.partitions; ++k)
    u.proofs.push_back(fc::snap_partition_proof(p, trees, k).value());
  return u;
}

/// A random update of |nodes| nodes with h = hs[2] (upstream's H_SELECT = 1 << 2).
inline Update random_update(std::uint64_t nodes, std::mt19937_64& rng, ThreadPool& pool) {
  const fc::SnapParams p = fc::snap_params(nodes).value();
  const unsigned h = p.hs[2];
  std::vector<Fr> key, data_fr;
  std::vector<fc::Node> data;
  for (std::uint64_t i = 0; i < nodes; ++i) {
    key.push_back(fc::fr_from_node(random_fr32(rng)).value());
    data.push_back(random_fr32(rng));
    data_fr.push_back(fc::fr_from_node(data.back()).value());
  }
  const fc::Node comm_c = random_fr32(rng);
  const TreeShape shape = update_tree_shape(nodes).value();
  const auto tree_r_old = fc::PoseidonTree::build(key, shape, pool).value();
  const Fr comm_r_old = fc::comm_r_of(fc::fr_from_node(comm_c).value(), tree_r_old.root());
  const std::vector<fc::Node> tree_d = fc::build_tree_d(data, pool);
  const fc::Node comm_d_new = tree_d.back();
  const Fr phi = fc::snap_phi(fc::fr_from_node(comm_d_new).value(), comm_r_old);
  const std::vector<Fr> rhos = fc::snap_rhos(p, h, phi);
  const unsigned shift = fc::snap_high_shift(p, h);
  std::vector<Fr> replica(nodes);
  for (std::uint64_t i = 0; i < nodes; ++i) replica[i] = key[i] + data_fr[i] * rhos[i >> shift];
  const auto tree_r_new = fc::PoseidonTree::build(replica, shape, pool).value();
  const fc::SnapTrees trees{&tree_r_old, tree_d, &tree_r_new, comm_c};
  return prove_all(p, h, trees, fc::node_from_fr(comm_r_old), comm_d_new);
}

/// Forwards to a TestConstraintSystem; once a constraint fails, every later allocation fails
/// with Errc::unsatisfied, so synthesis stops there.
class StopAtFirstFailure final : public ConstraintSystem {
 public:
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override {
    if (!inner_.is_satisfied()) return Status(Errc::unsatisfied, *inner_.which_unsatisfied());
    return inner_.alloc_aux_fn(name, value);
  }
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override {
    if (!inner_.is_satisfied()) return Status(Errc::unsatisfied, *inner_.which_unsatisfied());
    return inner_.alloc_input_fn(name, value);
  }
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override {
    inner_.enforce_lc(name, a, b, c);
  }
  void push_scope(NameFn name) override { inner_.push_scope(name); }
  void pop_scope() override { inner_.pop_scope(); }
  Status finish() override { return inner_.finish(); }
  std::size_t num_inputs() const override { return inner_.num_inputs(); }
  std::size_t num_aux() const override { return inner_.num_aux(); }
  std::size_t num_constraints() const override { return inner_.num_constraints(); }
  const TestConstraintSystem& inner() const { return inner_; }

 private:
  TestConstraintSystem inner_;
};

/// The first unsatisfied constraint of partition |k| of |u| with |proof| (nullopt: satisfied).
inline std::optional<std::string> first_failure(const UpdatePublic& pub,
                                                const fc::SnapPartitionProof& proof) {
  UpdateCircuit circuit(pub, &proof);
  StopAtFirstFailure cs;
  const Status s = circuit.synthesize(cs);
  if (!s.ok() && s.code() != Errc::unsatisfied) {
    ADD_FAILURE() << s.to_string();
    return s.message();
  }
  return cs.inner().which_unsatisfied();
}

/// The witness-only system and the recording system with values agree on |circuit|'s inputs and
/// aux, and the inputs are ONE followed by |want_inputs|.
inline void expect_same_assignment(Circuit& circuit, const std::vector<Fr>& want_inputs) {
  WitnessConstraintSystem wcs;
  ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
  RecordingConstraintSystem rcs(RecordingOptions{.with_values = true, .record_matrices = false});
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  const Recording& r = rcs.recording();
  ASSERT_EQ(wcs.inputs().size(), want_inputs.size() + 1);
  EXPECT_EQ(wcs.inputs(), r.inputs);
  for (std::size_t i = 0; i < want_inputs.size(); ++i)
    EXPECT_EQ(wcs.inputs()[i + 1], want_inputs[i]) << "input " << i;
  ASSERT_EQ(wcs.aux().size(), r.aux.size());
  EXPECT_TRUE(std::equal(wcs.aux().begin(), wcs.aux().end(), r.aux.begin()));
}

}  // namespace cuzk::circuits::filecoin::testing
