// A small satisfied circuit shaped like the Filecoin ones for the compact-witness tests: scoped
// gadgets repeated with a few shapes (so the compact recorder finds blocks and segments whose
// slots are earlier gadgets' outputs), each allocating booleans (b·(1 − b) = 0), an AND of two of
// them, and, when |field_chain| > 0, the bits packed into a field value and a chain of products
// over an earlier field value (runs of values that are not 0 or 1). With field_chain = 0 every
// variable, the inputs included, is 0 or 1: the compact witness has no runs; a long chain makes
// it mostly runs. Values are drawn from |seed| whether or not the system asks for them, so a
// recording and a witness synthesis see the same circuit.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::test {

struct BittyOptions {
  std::uint64_t seed = 1;
  unsigned uses = 40;
  /// Products per gadget over field values (0: a witness of bits only).
  unsigned field_chain = 2;
};

class BittyCircuit final : public Circuit {
 public:
  explicit BittyCircuit(const BittyOptions& o) : o_(o) {}

  Status synthesize(ConstraintSystem& cs) override {
    std::mt19937_64 rng(o_.seed);
    const bool fields = o_.field_chain > 0;
    auto value_of = [&](Fr v) { return [v] { return v; }; };
    // Public inputs: field values, or bits when the witness is bits only.
    Fr prev_value = fields ? random_fr(rng) : Fr::from_u64(rng() & 1);
    CUZK_ASSIGN_OR_RETURN(Variable prev, cs.alloc_input("in0", value_of(prev_value)));
    const Fr in1 = fields ? random_fr(rng) : Fr::from_u64(rng() & 1);
    CUZK_ASSIGN_OR_RETURN(Variable in1_var, cs.alloc_input("in1", value_of(in1)));
    cs.enforce("in1 squared", LC(in1_var), LC(in1_var), LC(in1_var).scaled(in1));
    for (unsigned u = 0; u < o_.uses; ++u) {
      Namespace ns(cs, "gadget");
      const unsigned nbits = u % 3 == 0 ? 8 : u % 3 == 1 ? 5 : 3;
      std::vector<Variable> bits;
      std::vector<std::uint64_t> bit_values;
      for (unsigned j = 0; j < nbits; ++j) {
        const std::uint64_t bv = rng() & 1;
        CUZK_ASSIGN_OR_RETURN(Variable b, cs.alloc("bit", value_of(Fr::from_u64(bv))));
        cs.enforce("boolean", LC(b), LC(Variable::one()).sub(b), LC());
        bits.push_back(b);
        bit_values.push_back(bv);
      }
      CUZK_ASSIGN_OR_RETURN(Variable t,
                            cs.alloc("and", value_of(Fr::from_u64(bit_values[0] & bit_values[1]))));
      cs.enforce("and", LC(bits[0]), LC(bits[1]), LC(t));
      if (!fields) continue;
      // p = Σ 2^j b_j, then y_0 = prev·(p + 3), y_k = y_(k−1)·y_(k−1) + prev.
      std::uint64_t packed = 0;
      LC pack;
      for (unsigned j = 0; j < nbits; ++j) {
        packed |= bit_values[j] << j;
        pack.add(Fr::from_u64(std::uint64_t{1} << j), bits[j]);
      }
      CUZK_ASSIGN_OR_RETURN(Variable p, cs.alloc("pack", value_of(Fr::from_u64(packed))));
      cs.enforce("pack", pack, LC(Variable::one()), LC(p));
      Fr y_value = prev_value * (Fr::from_u64(packed) + Fr::from_u64(3));
      CUZK_ASSIGN_OR_RETURN(Variable y, cs.alloc("y", value_of(y_value)));
      cs.enforce("y", LC(prev), LC(p).add(Fr::from_u64(3), Variable::one()), LC(y));
      for (unsigned k = 1; k < o_.field_chain; ++k) {
        const Fr next = y_value * y_value + prev_value;
        CUZK_ASSIGN_OR_RETURN(Variable yn, cs.alloc("chain", value_of(next)));
        cs.enforce("chain", LC(y), LC(y), LC(yn).sub(prev));
        y = yn;
        y_value = next;
      }
      prev = y;
      prev_value = y_value;
    }
    return {};
  }

 private:
  BittyOptions o_;
};

}  // namespace cuzk::test
