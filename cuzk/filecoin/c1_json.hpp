// The C1 output (`SealCommitPhase1Output`, porep_vanilla_proof.hpp) in the JSON that filecoin-ffi
// writes with `serde_json::to_vec` and Curio sends to the prover (FORMATS.md §3.5):
//   compact (no whitespace), struct fields in declaration order, [u8; 32] values as arrays of 32
//   integers, enums externally tagged ({"Single": {...}}, {"StackedDrg32GiBV1": [...]}), unit
//   enums as their name ("registered_proof": "StackedDrg32GiBV1_1"), PhantomData as null ("_h").
// The reader (simdjson On-Demand) accepts what serde_json accepts for these types: fields in any
// order, unknown fields ignored, whitespace anywhere; a missing or repeated field, a wrong type, a
// byte array of another length or a value out of its integer range is an error naming the field
// path ("vanilla_proofs[3][7].replica_column_proofs.drg_parents[2].column.rows[4][31]").
#pragma once

#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"

namespace cuzk::filecoin {

/// The JSON serde_json writes for |c1|.
std::string write_c1_json(const SealCommitPhase1Output& c1);

/// Parses C1 JSON. The text is copied once into a padded buffer for simdjson.
Result<SealCommitPhase1Output> read_c1_json(std::string_view json);
/// Parses C1 JSON without copying it: |json| only gains spare capacity (simdjson's padding) when
/// it has too little; its content is unchanged.
Result<SealCommitPhase1Output> read_c1_json_in_place(std::string& json);

}  // namespace cuzk::filecoin
