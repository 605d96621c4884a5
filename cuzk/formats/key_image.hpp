// Key image: a proving key stored in cuzk's in-memory layout, so it can be mapped and proved from
// in place (the SRS manager's "mmap" tier) instead of decoded; optionally with the circuit's R1CS
// matrices (a snarkjs .zkey's section 4 as decoded: `cuzk prove --zkey` then reads no section 4).
// Written once after the first decode of a key (bellperson .params, snarkjs .zkey, or the setup of
// a bench key) next to the key cache; a stale or damaged image is reported and rebuilt, never used.
//
// Layout (little-endian; this build's point layout: Montgomery limbs, 104-byte G1Affine and
// 200-byte G2Affine with their padding as written; Fr as its 32-byte Montgomery limbs):
//   header (4096 bytes):
//     0   magic "CUZKKIMG"      8   u32 version (2)      12  u32 header bytes (4096)
//     16  u32 sizeof(G1Affine)  20  u32 sizeof(G2Affine) 24  u32 layout (0 bellperson, 1 snarkjs)
//     28  u32 sizeof(Fr)        32  u64 domain size      40  u64 source tag
//     48  u64 file bytes        56  u64 data checksum
//     64  25 × (u64 offset, u64 count), counts in elements:
//           0-6   vk, ic, h, l, a, b_g1, b_g2   (vk: count 1 = α, β G1, β, γ G2, δ G1, δ G2)
//           7-21  the matrices A, B, C, each row_ptr (u64), col (u32), gen_idx (u32), coeffs (Fr),
//                 block_gen (u64) as in r1cs/matrices.hpp's SparseMatrix
//           22-24 the density words (u64) of a_aux, b_input, b_aux
//     464 the G1 generator as this build lays it out (104 bytes: a different point layout is refused)
//     568 Fr one as this build stores it (32 bytes)
//     600 u64 num_inputs  608 u64 num_aux  616 u64 num_constraints
//     624 u64 density bits of a_aux, b_input, b_aux (624, 632, 640)
//     648 u64 flags (bit 0: the matrices are stored; without it sections 7-24 are empty)
//     656 u64 header checksum (checksum64 of bytes 0..656)
//   sections: each at a 4096-byte aligned offset, the elements back to back.
// Version 1 (no matrices; header checksum at 280) is refused as "version 1" and rebuilt.
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
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

inline constexpr std::uint32_t kKeyImageVersion = 2;

/// When KeyImage::open checks the data checksum.
enum class KeyImageCheck {
  once_per_process,  ///< the first open of this file (device, inode, size, mtime) in the process
  always,
  header_only,
};

/// A source tag for an image made from the file at |path| as it is now (device, inode, size, mtime
/// in ns: the identity the data check is keyed by) and |mode| (the maker's decode choices, e.g. the
/// check mode): another file, a touched or replaced one, or another mode gives another tag.
/// not_found / io_error when the file cannot be stat'ed.
Result<std::uint64_t> key_image_file_tag(const std::string& path, std::uint64_t mode);

/// Writes |pk| (and |matrices| when given: the circuit's R1CS as the prover uses it) as an image at
/// |path| (a temporary file renamed over it, so readers never see a half-written image); the
/// written file counts as checked for this process.
Status write_key_image(const std::string& path, const ProvingKey& pk, std::uint64_t source_tag,
                       ThreadPool* pool = nullptr, const R1csMatrices* matrices = nullptr);

/// A mapped key image.
class KeyImage : public std::enable_shared_from_this<KeyImage> {
 public:
  /// not_found without the file; bad_encoding for a damaged header or data, another point layout
  /// or version; invalid_argument ("stale") when |source_tag| differs.
  static Result<std::shared_ptr<const KeyImage>> open(
      const std::string& path, std::uint64_t source_tag, ThreadPool* pool = nullptr,
      KeyImageCheck check = KeyImageCheck::once_per_process);
  /// The key, its five queries views of this mapping (each keeps the image alive); the
  /// verifying key copied.
  ProvingKey key() const;
  /// Views of the queries into |pk| (layout and sizes must match: same image).
  void view_queries(ProvingKey& pk) const;
  /// Whether the image holds the circuit's matrices.
  bool has_matrices() const { return has_matrices_; }
  /// The matrices copied out of the mapping (a memcpy per array, no decode) and validated;
  /// not_found when the image holds none, bad_encoding when they fail R1csMatrices::validate.
  Result<R1csMatrices> matrices() const;
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
  Section sec_[25];
  std::uint64_t dims_[6] = {};  // num_inputs, num_aux, num_constraints, density bits ×3
  bool has_matrices_ = false;
  bool data_checked_ = false;
};

/// The data checksum over |bytes| (16 MiB chunks on |pool|).
std::uint64_t key_image_checksum(std::span<const std::uint8_t> bytes, ThreadPool* pool = nullptr);

}  // namespace cuzk
