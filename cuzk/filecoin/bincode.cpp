#include "cuzk/filecoin/bincode.hpp"

namespace cuzk::filecoin {

std::string BincodeReader::field_path() const {
  std::string s;
  for (const Frame& f : path_) {
    if (f.name && *f.name) {
      if (!s.empty()) s += '.';
      s += f.name;
    }
    if (f.index >= 0) s += "[" + std::to_string(f.index) + "]";
  }
  return s.empty() ? std::string("(top)") : s;
}

Status BincodeReader::error_at(std::size_t at, Errc code, const std::string& what) const {
  return Status(code, "byte " + std::to_string(at) + ", field " + field_path() + ": " + what);
}

Status BincodeReader::u32(std::uint32_t& out) {
  if (remaining() < 4)
    return error(Errc::truncated, "needs 4 bytes (u32), " + std::to_string(remaining()) + " left");
  out = 0;
  for (int i = 0; i < 4; ++i) out |= static_cast<std::uint32_t>(in_[pos_ + i]) << (8 * i);
  pos_ += 4;
  return {};
}

Status BincodeReader::u64(std::uint64_t& out) {
  if (remaining() < 8)
    return error(Errc::truncated, "needs 8 bytes (u64), " + std::to_string(remaining()) + " left");
  out = 0;
  for (int i = 0; i < 8; ++i) out |= static_cast<std::uint64_t>(in_[pos_ + i]) << (8 * i);
  pos_ += 8;
  return {};
}

Status BincodeReader::bytes32(Bytes32& out) {
  if (remaining() < 32)
    return error(Errc::truncated, "needs 32 bytes, " + std::to_string(remaining()) + " left");
  std::copy_n(in_.begin() + static_cast<std::ptrdiff_t>(pos_), 32, out.begin());
  pos_ += 32;
  return {};
}

Status BincodeReader::length(std::uint64_t& out, std::size_t min_item_bytes) {
  const std::size_t at = pos_;
  CUZK_RETURN_IF_ERROR(u64(out));
  if (min_item_bytes > 0 && out > remaining() / min_item_bytes) {
    pos_ = at;
    return error(Errc::truncated, "length " + std::to_string(out) + " of items of at least " +
                                      std::to_string(min_item_bytes) + " bytes exceeds the " +
                                      std::to_string(remaining() - 8) + " bytes left");
  }
  return {};
}

void BincodeWriter::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void BincodeWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace cuzk::filecoin
