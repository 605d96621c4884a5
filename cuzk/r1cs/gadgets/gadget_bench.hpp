// Gadget workloads for `cuzk microbench` (ops sha256-gadget, poseidon-gadget) and bench/gadget_bench:
// n instances synthesised into one constraint system of the chosen kind, from a seeded witness.
//   sha256-gadget:   per instance, 512 allocated message bits + sha256() (two compressions, the
//                    second constant): 45,386 constraints (the tree_d node hash without to_bits)
//   poseidon-gadget: per instance, |arity| allocated elements + the legacy circuit (default
//                    arity 8: 505 constraints, the PoRep base-tree node)
#pragma once

#include <cstdint>
#include <functional>

#include "cuzk/base/status.hpp"

namespace cuzk {

/// Which constraint system the workload synthesises into.
enum class GadgetCs {
  witness,    ///< WitnessConstraintSystem: values only (the PCE proving path)
  recording,  ///< RecordingConstraintSystem with values and a/b/c (the classic proving path)
  setup,      ///< RecordingConstraintSystem without values (matrix extraction)
};

struct GadgetWorkload {
  std::uint64_t n = 1;     ///< instances
  std::uint64_t seed = 1;  ///< witness seed
  GadgetCs cs = GadgetCs::witness;
  unsigned poseidon_arity = 8;  ///< 2, 4, 8 or 11
};

class ConstraintSystem;

/// The SHA-256 workload synthesised into |cs| (any system).
Status synthesize_sha256_gadget(ConstraintSystem& cs, const GadgetWorkload& w);
/// The Poseidon workload synthesised into |cs| (any system).
Status synthesize_poseidon_gadget(ConstraintSystem& cs, const GadgetWorkload& w);

/// Synthesises n SHA-256 gadget instances; returns the constraint count (input constraints
/// excluded) or the synthesis error.
Result<std::uint64_t> run_sha256_gadget(const GadgetWorkload& w);
/// Synthesises n Poseidon gadget instances; returns the constraint count.
Result<std::uint64_t> run_poseidon_gadget(const GadgetWorkload& w);

}  // namespace cuzk
