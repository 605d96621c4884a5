// Base64, standard alphabet with padding (RFC 4648 §4): what Go's encoding/json writes for a
// []byte and what Rust's `base64::engine::general_purpose::STANDARD` reads. The decoder is strict
// like that engine: length a multiple of 4, '=' only as the last one or two characters, no
// whitespace, unused trailing bits zero. Cost: one table lookup per character.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk::filecoin {

std::string base64_encode(std::span<const std::uint8_t> bytes);

/// Decodes |text|; bad_encoding naming |what| and the character position on any defect.
Result<std::vector<std::uint8_t>> base64_decode(std::string_view text, std::string_view what);
/// The same into |out| (replaced), reserving |spare| bytes of capacity past the decoded bytes.
Status base64_decode_into(std::string_view text, std::string& out, std::string_view what,
                          std::size_t spare = 0);

}  // namespace cuzk::filecoin
