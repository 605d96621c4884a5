// R1csDims: what the Groth16 prover and a key check need of a circuit besides a, b, c — its counts
// and bellperson's three density bitmaps (FORMATS.md §2.1) — as a view that either form of the
// circuit gives: the plain matrices (R1csMatrices, matrices.hpp) or the compact form
// (CompactR1cs::dims(), pce_compact.hpp). A proving key's query sizes follow from it alone:
// h n − 1, l num_aux, a num_inputs + |A aux density|, b_g1 and b_g2 |B input density| + |B aux
// density|. The view does not own the bitmaps: the form it was taken from must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

struct R1csDims {
  std::uint64_t num_inputs = 0;  ///< ONE included
  std::uint64_t num_aux = 0;
  std::uint64_t num_constraints = 0;  ///< rows, bellperson's input constraints included
  const DensityBitmap* a_aux_density = nullptr;
  const DensityBitmap* b_input_density = nullptr;
  const DensityBitmap* b_aux_density = nullptr;

  R1csDims() = default;
  /// The view of |m| (implicit: every caller holding plain matrices passes them as they are).
  R1csDims(const R1csMatrices& m)  // NOLINT(google-explicit-constructor)
      : num_inputs(m.num_inputs),
        num_aux(m.num_aux),
        num_constraints(m.num_constraints),
        a_aux_density(&m.a_aux_density),
        b_input_density(&m.b_input_density),
        b_aux_density(&m.b_aux_density) {}

  std::uint64_t num_columns() const { return num_inputs + num_aux; }
  /// Set bits of the bitmaps: inputs + A-dense aux (the a query), B-dense inputs and aux (b_g1,
  /// b_g2). One pass over the bitmaps (16 MB each for the 32 GiB PoRep partition).
  std::uint64_t a_query_points() const { return num_inputs + a_aux_density->count(); }
  std::uint64_t b_query_points() const { return b_input_density->count() + b_aux_density->count(); }
};

}  // namespace cuzk
