// The checked-file frame that cuzk's on-disk caches share (pce_cache.hpp: plain matrices,
// pce_compact_cache.hpp: the compact PCE form): each defines its header fields and body arrays,
// this layer owns the frame, its checks and the atomic write.
//
// Layout (little-endian):
//   magic[8] | u32 version | u32 header size | u64 field[n] | u64 header checksum
//   body: the format's arrays back to back
// field[0] is the caller's key (the circuit's identity: another key is "stale"); the last two
// fields are the body's size in bytes and its checksum, which this layer computes. The header
// checksum is checksum64 of the header bytes before it (seeded per format); the body checksum
// chains one checksum64 per array (seeded with the array's index) into checksum64 of those values
// (seeded per format), so each array is hashed where it lies, without a copy of the body.
//
// Writing goes through <path>.tmp renamed into place: a reader sees the old file or the new one,
// never a torn one. Reading checks, before anything large is allocated: magic, version (an older
// one is "stale"), header checksum, key, and the file length against the body size; the format
// then checks its fields' consistency, reads its arrays (each one hashed as read) and calls
// check_body(). Every defect is an error naming the file and the defect: not_found (missing),
// truncated, bad_encoding (magic, version, checksum), invalid_argument (stale key),
// size_mismatch (trailing bytes), io_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

/// One file format of the frame.
struct CheckedFileFormat {
  const char* name;  ///< named in errors, e.g. "R1CS cache"
  char magic[8];     ///< e.g. "CUZKR1CS"
  std::uint32_t version;
  std::size_t fields;  ///< u64 header fields: the key first, body size and checksum last
  std::uint64_t header_seed, body_seed;
  const char* key_name;  ///< e.g. "topology key"

  constexpr std::size_t header_size() const { return 16 + 8 * fields + 8; }
};

/// Per-array checksums chained into one body checksum.
class BodyChecksum {
 public:
  explicit BodyChecksum(std::uint64_t seed) : seed_(seed) {}
  void add(const void* p, std::size_t n);
  std::uint64_t value() const;

 private:
  std::uint64_t seed_;
  std::vector<std::uint64_t> parts_;
};

/// Calls its argument (data, bytes) for each body array in file order.
using BodyArrays = std::function<void(const std::function<void(const void*, std::size_t)>&)>;

/// Writes the header — |fields| are all but the last two, which are computed from the arrays —
/// and the arrays (|arrays| is called twice: hash, then write) to <path>.tmp, renamed to |path|.
Status write_checked_file(const std::string& path, const CheckedFileFormat& format,
                          std::vector<std::uint64_t> fields, const BodyArrays& arrays);

/// A checked file opened for reading, its header checked (see the file comment).
class CheckedFileReader {
 public:
  static Result<CheckedFileReader> open(const std::string& path, const CheckedFileFormat& format,
                                        std::uint64_t key);

  /// Header field |i| (0: the key; fields − 2: body size).
  std::uint64_t field(std::size_t i) const { return fields_[i]; }
  std::uint64_t body_size() const { return fields_[fields_.size() - 2]; }
  /// Reads |n| body bytes into |dst| and adds them to the body checksum as one array; false when
  /// the file ends first.
  bool read(void* dst, std::size_t n);
  /// bad_encoding unless the arrays read hash to the header's body checksum.
  Status check_body() const;
  /// |code| with "<format name> <path>: <what>".
  Status error(Errc code, const std::string& what) const;

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  CheckedFileReader(const CheckedFileFormat& format, std::string path)
      : format_(&format), path_(std::move(path)), hash_(format.body_seed) {}

  const CheckedFileFormat* format_;
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::vector<std::uint64_t> fields_;
  BodyChecksum hash_;
};

/// A SparseMatrix as both caches store it, four arrays: u32 row length[rows] | u32 column
/// word[nnz] | u32 coefficient index[general] | Fr coefficient[distinct] (Montgomery form). |lens|
/// is scratch for the row lengths (rows ≤ 2^32 terms each: checked by the caller).
void put_matrix_arrays(const SparseMatrix& s, std::vector<std::uint32_t>& lens,
                       const std::function<void(const void*, std::size_t)>& put);
/// Reads them into |s| (row offsets from the lengths, block offsets rebuilt) with |rows|, |nnz|,
/// |general|, |distinct| from the format's header: truncated "<what> ends early", bad_encoding
/// "<what> row lengths exceed its non-zeros" / "… disagree with its non-zeros".
Status read_matrix_arrays(CheckedFileReader& f, SparseMatrix& s, std::uint64_t rows,
                          std::uint64_t nnz, std::uint64_t general, std::uint64_t distinct,
                          std::vector<std::uint32_t>& lens, const std::string& what);

/// A cache's load-or-build: |load|() the file; on any defect keep its status in load_error, take
/// |build|() and |save| it (a failure to write is kept in save_error: the value is still good).
/// |Cached| holds the value in |value| and the fields from_cache, load_error, save_error.
template <class Cached, class T, class Load, class Build, class Save>
Result<Cached> load_or_build_cached(T Cached::*value, Load&& load, Build&& build, Save&& save) {
  Cached out;
  Result<T> loaded = load();
  if (loaded.ok()) {
    out.*value = std::move(loaded).value();
    out.from_cache = true;
    return out;
  }
  out.load_error = loaded.status();
  Result<T> built = build();
  if (!built.ok()) return built.status();
  out.*value = std::move(built).value();
  out.save_error = save(out.*value);
  return out;
}

}  // namespace cuzk
