// A read-only memory map of a whole file (keys of gigabytes are decoded lazily and in parallel
// from the map instead of being read into a buffer first), and small helpers shared by the
// readers: a bounds-checked cursor whose errors name the section and offset, and file writing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk {

/// mmap(2) of a file, unmapped on destruction; empty files map to an empty span.
class MappedFile {
 public:
  /// not_found / io_error naming |path|.
  static Result<MappedFile> open(const std::string& path);
  MappedFile() = default;
  MappedFile(MappedFile&& o) noexcept;
  MappedFile& operator=(MappedFile&& o) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Reads a file into memory; not_found / io_error naming the path.
Result<std::vector<std::uint8_t>> read_whole_file(const std::string& path);
/// Writes (replaces) a file; io_error naming the path.
Status write_whole_file(const std::string& path, std::span<const std::uint8_t> bytes);

/// A cursor over bytes; every read checks the bounds and reports truncation with |what| and offset.
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> bytes, std::string what)
      : b_(bytes), what_(std::move(what)) {}
  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return b_.size() - pos_; }
  /// The next |n| bytes, or truncated "<what>: need n bytes at offset o, m left".
  Result<std::span<const std::uint8_t>> take(std::size_t n, const std::string& field);
  Result<std::uint32_t> u32_le(const std::string& field);
  Result<std::uint64_t> u64_le(const std::string& field);
  Result<std::uint32_t> u32_be(const std::string& field);
  const std::string& what() const { return what_; }

 private:
  std::span<const std::uint8_t> b_;
  std::string what_;
  std::size_t pos_ = 0;
};

/// Appends little/big-endian integers.
void put_u32_le(std::vector<std::uint8_t>& out, std::uint32_t v);
void put_u64_le(std::vector<std::uint8_t>& out, std::uint64_t v);
void put_u32_be(std::vector<std::uint8_t>& out, std::uint32_t v);

}  // namespace cuzk
