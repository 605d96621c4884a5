// Structure digests: the recorded A, B, C of each gadget (every row, column and coefficient, in
// order) hashed to 64 bits and pinned. The counts above them come from upstream; these digests
// were recorded from this implementation (2026-12-02) and catch any later change in constraint
// order, variable order or coefficients, which would break compatibility with bellperson's params.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/r1cs/checksum.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

std::uint64_t digest(Circuit& blank) {
  RecordingConstraintSystem rec;
  EXPECT_TRUE(synthesize_circuit(blank, rec).ok());
  const R1csMatrices m = rec.take().matrices;
  std::vector<std::uint64_t> words = {m.num_inputs, m.num_aux, m.num_constraints};
  for (const SparseMatrix* x : {&m.a, &m.b, &m.c}) {
    for (std::size_t row = 0; row < m.num_constraints; ++row) {
      x->for_each_term(row, [&](std::uint64_t col, const Fr& coeff) {
        words.push_back(row);
        words.push_back(col);
        for (std::uint64_t w : coeff.to_canonical()) words.push_back(w);
      });
    }
  }
  return checksum64(words.data(), words.size() * sizeof(std::uint64_t));
}

void expect_digest(Circuit& blank, std::uint64_t want, const char* what) {
  const std::uint64_t got = digest(blank);
  EXPECT_EQ(got, want) << what << ": digest 0x" << std::hex << got;
}

TEST(GadgetStructure, Sha256Compression) {
  gadget_test::FnCircuit c([](ConstraintSystem& cs) -> Status {
    std::vector<Boolean> bits;
    for (int i = 0; i < 512; ++i) {
      CUZK_ASSIGN_OR_RETURN(AllocatedBit b, AllocatedBit::alloc(cs, std::nullopt));
      bits.push_back(Boolean::from(b));
    }
    bits[7] = bits[7].negate();  // a negated input exercises the Not forms
    bits[100] = Boolean::constant(true);
    CUZK_ASSIGN_OR_RETURN(auto out, sha256(cs, bits));
    return {};
  });
  expect_digest(c, 0xb303c15462f7bdacULL, "sha256");
}

TEST(GadgetStructure, PoseidonArities) {
  const std::pair<unsigned, std::uint64_t> pinned[] = {{2, 0x02557fb43fcc1a13ULL},
                                                       {4, 0xce72ba8e7af8a564ULL},
                                                       {8, 0x577d1978e803c25eULL},
                                                       {11, 0x52b58866bcc4f667ULL}};
  for (auto [arity, want] : pinned) {
    gadget_test::FnCircuit c([arity = arity](ConstraintSystem& cs) -> Status {
      std::vector<AllocatedNum> in;
      for (unsigned i = 0; i < arity; ++i) {
        CUZK_ASSIGN_OR_RETURN(AllocatedNum n, AllocatedNum::alloc(cs, std::nullopt));
        in.push_back(n);
      }
      const PoseidonConstants& pc = *poseidon_constants(arity);
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h,
                            poseidon_hash_circuit(cs, pc, poseidon_merkle_tag(arity), in));
      return h.inputize(cs);
    });
    expect_digest(c, want, "poseidon");
  }
}

TEST(GadgetStructure, PoseidonPathAndInsert) {
  gadget_test::FnCircuit c([](ConstraintSystem& cs) -> Status {
    return por_circuit(cs, MerkleHash::poseidon, std::nullopt, blank_merkle_path(8, 2, 8, 2),
                       std::nullopt, false);
  });
  expect_digest(c, 0xef5ad6a9a0866ab3ULL, "por 8-8-2");
}

}  // namespace
}  // namespace cuzk
