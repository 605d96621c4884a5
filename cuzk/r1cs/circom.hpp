// circom .r1cs (version 1) and snarkjs .wtns (version 2) import for the BLS12-381 scalar field
// (tools/oracles/README.md, "The formats a C++ prover must handle").
//
// Container: magic[4] | u32 version | u32 nSections | nSections × (u32 type | u64 size | bytes);
// sections in any order, looked up by type; trailing bytes are rejected. .r1cs sections: 1 header
// (n8 = 32, prime = r, nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints), 2 constraints
// (LC_A, LC_B, LC_C with canonical LE coefficients, terms in any order), 3 wire → label.
// Wire order: 0 = ONE, then public outputs, public inputs, private inputs, internal wires; so the
// inputs are wires 0..nPublic (nPublic = nPubOut + nPubIn) and the column of wire w is w.
// As snarkjs (and bellperson) do, nPublic + 1 rows input_i · 0 = 0 are appended after the circom
// constraints, so the row count is nConstraints + nPublic + 1.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

/// An imported circom R1CS.
struct CircomR1cs {
  R1csMatrices matrices;
  std::uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0, n_constraints = 0;
  std::uint64_t n_labels = 0;
  std::vector<std::uint64_t> wire_to_label;
  std::uint32_t num_public() const { return n_pub_out + n_pub_in; }
};

struct CircomImportOptions {
  bool append_input_constraints = true;  ///< snarkjs's nPublic + 1 extra rows
};

/// Parses a .r1cs image; errors name the section and what is wrong.
Result<CircomR1cs> parse_circom_r1cs(std::span<const std::uint8_t> file,
                                     const CircomImportOptions& opt = {});
Result<CircomR1cs> read_circom_r1cs(const std::string& path, const CircomImportOptions& opt = {});

/// Parses a .wtns image: the full witness indexed by wire id (w[0] = 1).
Result<std::vector<Fr>> parse_snarkjs_wtns(std::span<const std::uint8_t> file);
Result<std::vector<Fr>> read_snarkjs_wtns(const std::string& path);

/// Reads a whole file (io_error / not_found naming the path).
Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path);

}  // namespace cuzk
