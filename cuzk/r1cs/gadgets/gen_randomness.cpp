#include "cuzk/r1cs/gadgets/gen_randomness.hpp"

#include "cuzk/r1cs/gadgets/poseidon.hpp"

namespace cuzk {
namespace {

constexpr std::uint64_t kGenRandomnessId = 1;  // CType::Arbitrary(1)

}  // namespace

Result<AllocatedNum> gen_randomness_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                            const AllocatedNum& b) {
  const AllocatedNum preimage[2] = {a, b};
  return poseidon_hash_circuit(cs, *poseidon_constants(2), poseidon_custom_tag(kGenRandomnessId),
                               preimage);
}

Fr gen_randomness_native(const Fr& a, const Fr& b) {
  const Fr preimage[2] = {a, b};
  return poseidon_hash(*poseidon_constants(2), poseidon_custom_tag(kGenRandomnessId), preimage);
}

}  // namespace cuzk
