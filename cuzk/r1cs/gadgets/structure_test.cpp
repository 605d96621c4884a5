// Gadget structure by twins, not by pinned digests: for the configurations whose recorded A, B, C
// bellperson's params depend on (SHA-256 with negated and constant input bits, Poseidon of every
// arity the Filecoin circuits use with its output inputized, a Poseidon 8-8-2 PoR), the matrices
// recorded from the blank circuit (setup: no values) must equal the classic recording with random
// values in counts and densities, and be satisfied, row for row, by the witness of the native
// fast paths (native SHA-256 / Poseidon writing z in bellperson's variable order: an independent
// computation), through the PCE and its compiled plan (gadget_test::expect_pce_matches_classic).
// Constraint and input counts come from upstream elsewhere (bellperson sha256.rs: sha256_test;
// neptune's circuit sizes: poseidon_test; rust-fil-proofs por_circuit.rs, 1,907 for 8-8-2:
// merkle_test); the row order against the real v28 params is checked by proving with them
// (circuits_filecoin_family_prove_test, CUZK_FILECOIN_DATA). Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <random>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

using gadget_test::FnCircuit;
using test::random_fr;

// Each twin is synthesized with values (|with|) and without (|blank|) from one definition.
template <class Define>
void expect_twins(Define define) {
  FnCircuit with([&](ConstraintSystem& cs) { return define(cs, true); });
  FnCircuit blank([&](ConstraintSystem& cs) { return define(cs, false); });
  gadget_test::expect_pce_matches_classic(with, blank);
}

TEST(GadgetStructure, Sha256WithNegatedAndConstantBits) {
  std::mt19937_64 rng(gadget_test::fresh_seed());
  std::vector<bool> values(512);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = rng() & 1;
  expect_twins([&](ConstraintSystem& cs, bool with) -> Status {
    std::vector<Boolean> bits;
    for (std::size_t i = 0; i < values.size(); ++i) {
      CUZK_ASSIGN_OR_RETURN(
          AllocatedBit b,
          AllocatedBit::alloc(cs, with ? std::optional<bool>(values[i]) : std::nullopt));
      bits.push_back(Boolean::from(b));
    }
    bits[7] = bits[7].negate();  // a negated input exercises the Not forms
    bits[100] = Boolean::constant(true);
    CUZK_ASSIGN_OR_RETURN(auto out, sha256(cs, bits));
    (void)out;
    return {};
  });
}

TEST(GadgetStructure, PoseidonArities) {
  std::mt19937_64 rng(gadget_test::fresh_seed());
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    SCOPED_TRACE(arity);
    std::vector<Fr> xs;
    for (unsigned i = 0; i < arity; ++i) xs.push_back(random_fr(rng));
    expect_twins([&](ConstraintSystem& cs, bool with) -> Status {
      std::vector<AllocatedNum> in;
      for (const Fr& x : xs) {
        CUZK_ASSIGN_OR_RETURN(AllocatedNum n,
                              AllocatedNum::alloc(cs, with ? std::optional<Fr>(x) : std::nullopt));
        in.push_back(n);
      }
      const PoseidonConstants& pc = *poseidon_constants(arity);
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h,
                            poseidon_hash_circuit(cs, pc, poseidon_merkle_tag(arity), in));
      return h.inputize(cs);
    });
  }
}

TEST(GadgetStructure, PoseidonPathAndInsert) {
  std::mt19937_64 rng(gadget_test::fresh_seed());
  // The 8-8-2 path of two base levels, every sibling and position drawn, its root computed.
  MerklePath path = blank_merkle_path(8, 2, 8, 2);
  for (std::vector<MerklePathLevel>* levels : {&path.base, &path.sub, &path.top}) {
    for (MerklePathLevel& level : *levels) {
      for (std::optional<Fr>& s : level.siblings) s = random_fr(rng);
      level.index = rng() % (level.siblings.size() + 1);
    }
  }
  const Fr leaf = random_fr(rng);
  const Fr root = merkle_root_native(MerkleHash::poseidon, leaf, path);
  const MerklePath blank = blank_merkle_path(8, 2, 8, 2);
  expect_twins([&](ConstraintSystem& cs, bool with) -> Status {
    return with ? por_circuit(cs, MerkleHash::poseidon, leaf, path, root, false)
                : por_circuit(cs, MerkleHash::poseidon, std::nullopt, blank, std::nullopt, false);
  });
}

}  // namespace
}  // namespace cuzk
