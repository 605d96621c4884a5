// Curio's C2 request envelope: the JSON object Curio sends with a C1 output (curio
// cmd/curio/debug-proofsvc.go `commit2In`, read by its cuzk as `C1OutputWrapper` in
// extern/cuzk/cuzk-core/src/prover.rs):
//   {"SectorNum": <int>, "Phase1Out": "<base64 of the C1 JSON bytes>", "SectorSize": <bytes>}
// Go's encoding/json writes the fields in that order and the []byte as standard padded base64.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"

namespace cuzk::filecoin {

struct CurioC1Request {
  std::uint64_t sector_num = 0;
  std::uint64_t sector_size = 0;
  std::string phase1_out;  ///< the decoded C1 JSON text
};

/// Reads the envelope and decodes Phase1Out; errors name the field.
Result<CurioC1Request> read_curio_c1_request(std::string_view json);
/// The envelope as Go's json.Marshal writes it.
std::string write_curio_c1_request(const CurioC1Request& req);

/// Reads the envelope and the C1 inside it; SectorSize must be the registered proof's size.
Result<SealCommitPhase1Output> read_curio_c1(std::string_view json,
                                             CurioC1Request* header = nullptr);

/// The same without copying |json| (it may only gain spare capacity for simdjson's padding).
Result<SealCommitPhase1Output> read_curio_c1_in_place(std::string& json,
                                                      CurioC1Request* header = nullptr);

}  // namespace cuzk::filecoin
