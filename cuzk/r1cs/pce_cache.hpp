// A compact on-disk cache of R1csMatrices, so a circuit topology is recorded once per machine.
//
// The frame (magic, version, header and body checksums, write-then-rename, every defect named) is
// checked_file.hpp's; this file defines the fields and arrays.
// Layout (little-endian, 144-byte header then body):
//   magic "CUZKR1CS" | u32 version | u32 header size | u64 topology key
//   | u64 num_inputs, num_aux, num_constraints | u64 nnz A, B, C | u64 general terms A, B, C
//   | u64 distinct coefficients A, B, C | u64 body size | u64 body checksum
//   | u64 header checksum (of the 136 bytes before it)
//   body, for A, B, C in turn: u32 row length[rows] | u32 column word[nnz]
//   | u32 coefficient index[general] | Fr coefficient[distinct]
// Fr values are stored in Montgomery form (the file is a cache for this build, not an exchange
// format); row offsets, block offsets and the density bitmaps are recomputed on load. The topology key is the
// caller's identity of the circuit (type, parameters, code version): a different key is "stale".
// Every defect found on load (missing, truncated, wrong magic or version, stale, checksum,
// structure) is an error naming it; load_or_build() then rebuilds and rewrites the file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

inline constexpr std::uint32_t kR1csCacheVersion = 1;

/// A topology key from a circuit's identity (e.g. "porep-32g-v1.1 partition layout") and this
/// cache version: a different name, or a new cache version, makes old files stale.
std::uint64_t r1cs_topology_key(std::string_view circuit_id);

/// Writes |m| to |path| (through a temporary file renamed into place).
Status save_r1cs_cache(const std::string& path, const R1csMatrices& m, std::uint64_t topology_key);
/// Reads and checks a cache written for |topology_key|.
Result<R1csMatrices> load_r1cs_cache(const std::string& path, std::uint64_t topology_key);

/// The matrices and where they came from.
struct CachedR1cs {
  R1csMatrices matrices;
  bool from_cache = false;
  Status load_error;  ///< why the cache was not used (ok when it was)
  Status save_error;  ///< a failure to write the rebuilt cache (the matrices are still good)
};
/// Loads the cache or, on any defect, calls |build| and rewrites the cache.
Result<CachedR1cs> load_or_build_r1cs(const std::string& path, std::uint64_t topology_key,
                                      const std::function<Result<R1csMatrices>()>& build);

}  // namespace cuzk
