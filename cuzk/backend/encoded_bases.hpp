// EncodedBases: a base table handed to a backend as a bellperson .params file stores it, so a
// device backend can decode it where the table will live (CudaBackend: raw bytes through bounded
// staging, decoded by a kernel into the resident layout; no decoded host copy) instead of being
// given host points (Backend::load_bases_g1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace cuzk {

/// |bytes| are consecutive uncompressed ZCash encodings (FORMATS.md §1.2: 96 bytes per G1 point,
/// 192 per G2, big-endian, flag bits in byte 0), e.g. a query section of a mapped .params file.
/// They are decoded as formats/bellperson's unchecked read does: flag bits, coordinates below p
/// and the curve equation checked, no subgroup check, the identity refused (a query point of a
/// .params never is the identity); an error names the point ("G1 point i: ...").
struct EncodedBases {
  std::span<const std::uint8_t> bytes;
  /// Called with (offset, length) of a part of |bytes| once the backend has read it and will not
  /// read it again (the key store drops a mapping's pages); may be empty.
  std::function<void(std::size_t offset, std::size_t length)> consumed;
  /// Most bytes the backend stages at once (0: its own choice; tests force several chunks).
  std::size_t chunk_bytes = 0;
};

}  // namespace cuzk
