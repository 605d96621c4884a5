// Any circuit's plain matrices as a CompactR1cs of one block used once, so circuits without
// repeated gadgets (the benchmark circuit, circom circuits) can take the compact paths too: the
// device's resident compact R1CS and SpMV (Backend::load_circuit, prove_partition_compact).
// The block's columns are [ONE | every aux variable (its locals, from column num_inputs) | the
// other inputs (its slots)]; the densities are the matrices'. No memory is saved (the block is
// the matrices, reordered), and the host compact SpMV runs the one segment on one thread
// (CompactR1cs::kTaskRows splits at segments), so the plain SpMV stays the host's fast path.
#pragma once

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

/// |m| as one block and one segment, finalized (compact_to_matrices gives |m| back).
/// invalid_argument for matrices without the ONE input; the errors of CompactR1cs::finalize.
Result<CompactR1cs> compact_from_matrices(const R1csMatrices& m);

}  // namespace cuzk
