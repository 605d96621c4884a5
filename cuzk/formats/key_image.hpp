// Key image: a proving key stored in cuzk's in-memory layout, so it can be mapped and proved from
// in place (the SRS manager's "mmap" tier) instead of decoded. Written once after the first
// decode of a key (bellperson .params, snarkjs .zkey, or the setup of a bench key) next to the
// key cache; a stale or damaged image is reported and rebuilt, never used.
//
// Layout (little-endian; this build's point layout: Montgomery limbs, 104-byte G1Affine and
// 200-byte G2Affine with their padding as written):
//   header (4096 bytes):
//     0   magic "CUZKKIMG"      8   u32 version (1)      12  u32 header bytes (4096)
//     16  u32 sizeof(G1Affine)  20  u32 sizeof(G2Affine) 24  u32 layout (0 bellperson, 1 snarkjs)
//     28  u32 0                 32  u64 domain size      40  u64 source tag
//     48  u64 file bytes        56  u64 data checksum
//     64  7 × (u64 offset, u64 count): vk, ic, h, l, a, b_g1, b_g2   (vk: count 1 = α, β G1, β, γ G2, δ G1, δ G2)
//     176 the G1 generator as this build lays it out (104 bytes: a different point layout is refused)
//     280 u64 header checksum (checksum64 of bytes 0..280)
//   sections: each at a 4096-byte aligned offset, the points back to back.
// The source tag binds an image to what it was made from (the caller's fingerprint of the
// .params/.zkey and circuit): another tag means stale.
// The header is checked on every open. The data checksum (checksum64 of 16 MiB chunks, then of
// the chunk sums; the chunks in parallel on |pool|) is checked the first time a process maps an
// image (keyed by device, inode, size and mtime), which reads the whole file once: the cost is
// the file's read from disk or page cache (docs/perf/engine.md "SRS tiers").
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk {

inline constexpr std::uint32_t kKeyImageVersion = 1;

/// When KeyImage::open checks the data checksum.
enum class KeyImageCheck {
  once_per_process,  ///< the first open of this file (device, inode, size, mtime) in the process
  always,
  header_only,
};

/// Writes |pk| as an image at |path| (a temporary file renamed over it, so readers never see a
/// half-written image); the written file counts as checked for this process.
Status write_key_image(const std::string& path, const ProvingKey& pk, std::uint64_t source_tag,
                       ThreadPool* pool = nullptr);

/// A mapped key image.
class KeyImage : public std::enable_shared_from_this<KeyImage> {
 public:
  /// not_found without the file; bad_encoding for a damaged header or data, another point layout
  /// or version; invalid_argument ("stale") when |source_tag| differs.
  static Result<std::shared_ptr<const KeyImage>> open(const std::string& path, std::uint64_t source_tag,
                                                      ThreadPool* pool = nullptr,
                                                      KeyImageCheck check = KeyImageCheck::once_per_process);
  /// The key, its five queries views of this mapping (each keeps the image alive); the
  /// verifying key copied.
  ProvingKey key() const;
  /// Views of the queries into |pk| (layout and sizes must match: same image).
  void view_queries(ProvingKey& pk) const;
  std::uint64_t file_bytes() const { return file_.bytes().size(); }
  const std::string& path() const { return path_; }
  /// Whether this open read the whole file to check its data.
  bool data_checked() const { return data_checked_; }
  /// Drops the mapping's pages from this process (madvise MADV_DONTNEED: they stay in the page
  /// cache and fault back on the next read), so a key nobody reads now (its copy made on a
  /// device, or idle in the mmap tier) leaves the process's RSS. Safe while others read.
  void release_pages() const;

  struct Section {
    std::uint64_t offset = 0, count = 0;
  };

 private:
  KeyImage() = default;
  MappedFile file_;
  std::string path_;
  KeyLayout layout_ = KeyLayout::bellperson;
  std::uint64_t domain_size_ = 0;
  Section sec_[7];
  bool data_checked_ = false;
};

/// The data checksum over |bytes| (16 MiB chunks on |pool|).
std::uint64_t key_image_checksum(std::span<const std::uint8_t> bytes, ThreadPool* pool = nullptr);

}  // namespace cuzk
