// SHA-256 (FIPS 180-4) from OpenSSL's libcrypto, which uses the CPU's SHA extensions where present.
// One-shot and incremental; the incremental form lets callers hash a label preimage (prefix ‖
// parents) without concatenating it first. Cost on SHA-NI: ~2 cycles/byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace cuzk::hash {

using Digest32 = std::array<std::uint8_t, 32>;

/// SHA-256 of |data|.
Digest32 sha256(std::span<const std::uint8_t> data);
/// SHA-256 of the bytes of |text|.
Digest32 sha256(std::string_view text);

/// Incremental SHA-256; reusable after finish() (it resets).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  /// Appends |data|.
  Sha256& update(std::span<const std::uint8_t> data);
  Sha256& update(std::string_view text);
  /// The digest of everything appended since construction or the last finish().
  Digest32 finish();

 private:
  void* ctx_;  // EVP_MD_CTX
};

}  // namespace cuzk::hash
