// The on-disk cache of a CompactR1cs (pce_compact.hpp), so each circuit shape is recorded once per
// machine, in the checked-file frame it shares with pce_cache.hpp (checked_file.hpp: header with
// its own checksum, chained body checksum, temporary file renamed into place, every defect named);
// load_or_build rebuilding.
//
// Layout (little-endian, 120-byte header then body):
//   magic "CUZKPCEC" | u32 version | u32 header size | u64 circuit key
//   | u64 num_inputs, num_aux, num_constraints | u64 nnz A, B, C | u64 blocks, segments, slots
//   | u64 body size | u64 body checksum | u64 header checksum (of the 112 bytes before it)
//   body: block table, per block 12 × u64: locals, slots, rows, nnz A/B/C, general A/B/C,
//           distinct coefficients A/B/C
//         per block, for A, B, C in turn: u32 row length[rows] | u32 column word[nnz]
//           | u32 coefficient index[general] | Fr coefficient[distinct]
//         segments: (u32 block, u32 aux column)[segments] | u32 slot column[slots]
//         density bitmaps as u64 words: A aux (num_aux bits), B inputs (num_inputs), B aux (num_aux)
// Fr values are stored in Montgomery form (a cache for this build, not an exchange format); row
// offsets, plans and the SpMV's tasks are rebuilt on load. The circuit key is the caller's
// identity of the circuit (kind, registered proof or shape, code version): another key is stale.
// Size: the form's (a few tens of MB for the 32 GiB PoRep partition, docs/perf/filecoin.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

inline constexpr std::uint32_t kCompactCacheVersion = 1;

/// A circuit key from a circuit's identity (e.g. "porep StackedDrg32GiBV1_1 partition") and the
/// cache version: a different name, or a new cache version, makes old files stale.
std::uint64_t compact_circuit_key(std::string_view circuit_id);

/// Writes |c| to |path| (through a temporary file renamed into place).
Status save_compact_cache(const std::string& path, const CompactR1cs& c, std::uint64_t key);
/// Reads and checks a cache written for |key|; the result is finalized.
Result<CompactR1cs> load_compact_cache(const std::string& path, std::uint64_t key);

/// The compact form and where it came from.
struct CachedCompact {
  CompactR1cs compact;
  bool from_cache = false;
  Status load_error;  ///< why the cache was not used (ok when it was)
  Status save_error;  ///< a failure to write the rebuilt cache (the form is still good)
};
/// Loads the cache or, on any defect, calls |build| (e.g. record_compact) and rewrites the cache.
Result<CachedCompact> load_or_build_compact(const std::string& path, std::uint64_t key,
                                            const std::function<Result<CompactR1cs>()>& build);

}  // namespace cuzk
