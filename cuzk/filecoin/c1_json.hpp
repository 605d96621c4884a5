// The C1 output (`SealCommitPhase1Output`, porep_vanilla_proof.hpp) in the JSON that filecoin-ffi
// writes with `serde_json::to_vec` and Curio sends to the prover (FORMATS.md §3.5):
//   compact (no whitespace), struct fields in declaration order, [u8; 32] values as arrays of 32
//   integers, enums externally tagged ({"Single": {...}}, {"StackedDrg32GiBV1": [...]}), unit
//   enums as their name ("registered_proof": "StackedDrg32GiBV1_1"), PhantomData as null ("_h").
// The reader accepts what serde_json accepts for these types: fields in any order, unknown fields
// ignored, whitespace anywhere; a missing or repeated field, a wrong type, a byte array of another
// length or a value out of its integer range is an error naming the field path
// ("vanilla_proofs[3][7].replica_column_proofs.drg_parents[2].column.rows[4][31]"). Two readers do
// this: a fast one-pass scanner of serde's own form (declaration order, optional whitespace), and
// the reference reader (simdjson On-Demand) for anything else and for every error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"

namespace cuzk::filecoin {

/// The JSON serde_json writes for |c1|.
std::string write_c1_json(const SealCommitPhase1Output& c1);

/// Parses C1 JSON: the fast reader, and the reference reader when the fast one gives up (its
/// errors are the reference reader's). Reads |json| where it lies.
Result<SealCommitPhase1Output> read_c1_json(std::string_view json);
/// As read_c1_json; the reference reader runs on |json| without a copy: |json| only gains spare
/// capacity (simdjson's padding) when it has too little; its content is unchanged.
Result<SealCommitPhase1Output> read_c1_json_in_place(std::string& json);

/// The fast reader alone: one pass over the characters of JSON in serde_json's form (fields in
/// declaration order; whitespace between tokens allowed). nullopt at anything else — another
/// field order, unknown fields, escapes, any error — without saying why. What it returns is what
/// the reference reader returns for the same text.
std::optional<SealCommitPhase1Output> read_c1_json_fast(std::string_view json);
/// The reference reader alone (simdjson On-Demand; copies the text into a padded buffer): the
/// slow twin of read_c1_json_fast and the reader that names errors.
Result<SealCommitPhase1Output> read_c1_json_reference(std::string_view json);

}  // namespace cuzk::filecoin
