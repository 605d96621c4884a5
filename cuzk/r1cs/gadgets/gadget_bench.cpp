#include "cuzk/r1cs/gadgets/gadget_bench.hpp"

#include <random>
#include <string>
#include <vector>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

// Runs |body| against a fresh system of the requested kind; returns its constraint count.
template <class F>
Result<std::uint64_t> in_system(GadgetCs kind, F body) {
  if (kind == GadgetCs::witness) {
    WitnessConstraintSystem cs;
    CUZK_RETURN_IF_ERROR(body(cs));
    return static_cast<std::uint64_t>(cs.num_constraints());
  }
  RecordingConstraintSystem cs(
      kind == GadgetCs::setup
          ? RecordingOptions{}
          : RecordingOptions{.with_values = true, .record_matrices = false, .evaluate_abc = true});
  CUZK_RETURN_IF_ERROR(body(cs));
  return static_cast<std::uint64_t>(cs.num_constraints());
}

}  // namespace

Status synthesize_sha256_gadget(ConstraintSystem& cs, const GadgetWorkload& w) {
  std::mt19937_64 rng(w.seed);
  {
    for (std::uint64_t k = 0; k < w.n; ++k) {
      Namespace ns(cs, [k] { return "sha256 " + std::to_string(k); });
      std::vector<Boolean> bits;
      bits.reserve(512);
      for (int i = 0; i < 8; ++i) {
        const std::uint64_t word = rng();
        for (int b = 0; b < 64; ++b) {
          CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, ((word >> b) & 1) != 0));
          bits.push_back(Boolean::from(bit));
        }
      }
      CUZK_ASSIGN_OR_RETURN(auto out, sha256(cs, bits));
      (void)out;
    }
    return {};
  }
}

Result<std::uint64_t> run_sha256_gadget(const GadgetWorkload& w) {
  return in_system(w.cs, [&](ConstraintSystem& cs) { return synthesize_sha256_gadget(cs, w); });
}

Status synthesize_poseidon_gadget(ConstraintSystem& cs, const GadgetWorkload& w) {
  const PoseidonConstants* c = poseidon_constants(w.poseidon_arity);
  if (!c)
    return Status(Errc::invalid_argument,
                  "no Poseidon constants for arity " + std::to_string(w.poseidon_arity));
  std::mt19937_64 rng(w.seed);
  const Fr tag = poseidon_merkle_tag(c->arity);
  {
    std::vector<AllocatedNum> in(c->arity);
    for (std::uint64_t k = 0; k < w.n; ++k) {
      Namespace ns(cs, [k] { return "poseidon " + std::to_string(k); });
      for (unsigned i = 0; i < c->arity; ++i) {
        const Fr x = Fr::from_limbs_reduce({rng(), rng(), rng(), rng() >> 2});
        CUZK_ASSIGN_OR_RETURN(in[i], AllocatedNum::alloc(cs, x));
      }
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h, poseidon_hash_circuit(cs, *c, tag, in));
      (void)h;
    }
    return {};
  }
}

Result<std::uint64_t> run_poseidon_gadget(const GadgetWorkload& w) {
  return in_system(w.cs, [&](ConstraintSystem& cs) { return synthesize_poseidon_gadget(cs, w); });
}

}  // namespace cuzk
