// snarkjs Groth16 .zkey (version 1) read and write (tools/oracles/README.md, "The formats a C++
// prover must handle"): an iden3 binfile "zkey" with sections looked up by id — 1 protocol (= 1),
// 2 header (n8q | q | n8r | r | nVars | nPublic | domainSize | α₁ β₁ β₂ γ₂ δ₁ δ₂), 3 IC,
// 4 coefficients (A and B only, value c·R² mod r), 5 A, 6 B1, 7 B2, 8 C (aux, /δ), 9 H (domainSize
// points, odd Lagrange basis of the 2n-domain), 10 MPC transcript (ignored on read; empty on
// write). Points are LEM (little-endian Montgomery limbs), the identity all zero. The result is a
// ProvingKey of the snarkjs layout plus the R1CS rows of section 4 (C is not stored: the snarkjs
// prover takes c = a∘b).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

/// Where a zkey read's wall time went (seconds), for `cuzk prove --timings`.
struct ZkeyReadTimings {
  double header = 0;  ///< section table, header points
  double points = 0;  ///< sections 3, 5-9: range + curve (+ subgroup) checks into the key's arrays
  double coefficients = 0;  ///< section 4 into A and B rows
};

struct ZkeyReadOptions {
  /// Also test subgroup membership of every point (≈ 70 µs per G1 point); snarkjs itself tests
  /// neither curve nor subgroup. Range and curve are always checked.
  bool check_subgroup = true;
  /// Threads for point decoding (nullptr: one thread).
  ThreadPool* pool = nullptr;
  /// Filled when set.
  ZkeyReadTimings* timings = nullptr;
  /// false: sections 3 and 5-9 are only size-checked and the key's point arrays (IC included)
  /// left empty, for a caller that takes them from a key image of this file.
  bool points = true;
  /// false: section 4 is not read (the matrices left empty), for a caller that takes the rows
  /// from a key image of this file.
  bool coefficients = true;
};

/// A parsed zkey.
struct SnarkjsZkey {
  ProvingKey pk;  ///< layout snarkjs
  R1csMatrices
      matrices;  ///< A, B of section 4 (C rows empty), nConstraints + nPublic + 1 rows; empty
                 ///< without ZkeyReadOptions::coefficients
  std::uint32_t n_vars = 0, n_public = 0;
};

/// Parses a .zkey image; errors name the section (and point index) at fault.
Result<SnarkjsZkey> parse_zkey(std::span<const std::uint8_t> file, const ZkeyReadOptions& opt = {});
/// Reads a .zkey through a memory map.
Result<SnarkjsZkey> read_zkey(const std::string& path, const ZkeyReadOptions& opt = {});

/// The .zkey image of a snarkjs-layout key and the A, B rows of its circuit, sections in snarkjs's
/// order 1,2,4,3,9,8,5,6,7,10 (section 10: zero circuit hash, no contributions).
/// invalid_argument for a bellperson-layout key; size_mismatch when key and matrices disagree.
Result<std::vector<std::uint8_t>> write_zkey(const ProvingKey& pk, const R1csMatrices& m,
                                             ThreadPool* pool = nullptr);

}  // namespace cuzk
