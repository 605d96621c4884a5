// BLAKE2b-512 (RFC 7693) from OpenSSL's libcrypto. Filecoin uses it for the Feistel round function
// of the SDR expander (first 8 bytes, FORMATS.md §7) and for parameter-file digests (the first 32
// hex digits of the file's BLAKE2b-512, §4.4).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace cuzk::hash {

using Digest64 = std::array<std::uint8_t, 64>;

/// BLAKE2b-512 of |data|.
Digest64 blake2b512(std::span<const std::uint8_t> data);

/// Incremental BLAKE2b-512 (for files read in chunks); reusable after finish().
class Blake2b512 {
 public:
  Blake2b512();
  ~Blake2b512();
  Blake2b512(const Blake2b512&) = delete;
  Blake2b512& operator=(const Blake2b512&) = delete;
  Blake2b512& update(std::span<const std::uint8_t> data);
  Digest64 finish();

 private:
  void* ctx_;  // EVP_MD_CTX
};

}  // namespace cuzk::hash
