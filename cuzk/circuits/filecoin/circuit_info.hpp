// CircuitInfo: a circuit's shape as bellperson sees it, counted without values or matrices (the
// recording system in counting mode: about 1 bit per aux variable), so that a 130M-constraint
// 32 GiB partition is counted in memory. These are the figures pinned against upstream sources
// (FORMATS.md §3.6, §4.1, §4.2) and printed by `cuzk filecoin circuit-info`.
#pragma once

#include <cstdint>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::circuits::filecoin {

struct CircuitInfo {
  std::uint64_t constraints = 0;    ///< as the circuit enforces them (no input constraints)
  std::uint64_t public_inputs = 0;  ///< without ONE
  std::uint64_t aux = 0;
  // With bellperson's input constraints (input_i · 0 = 0), as the prover's matrices hold them.
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
  std::uint64_t a_aux_density = 0;    ///< aux variables with a non-zero coefficient in A
  std::uint64_t b_input_density = 0;  ///< inputs (ONE included) in B
  std::uint64_t b_aux_density = 0;    ///< aux variables in B
};

/// Synthesizes |circuit| without values (as setup does) and counts it.
Result<CircuitInfo> circuit_info(Circuit& circuit);

}  // namespace cuzk::circuits::filecoin
