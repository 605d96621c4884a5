// Parallel decoding and encoding of point arrays (the G1/G2 sections of .params, .vk and .zkey files).
// Each point is handled exactly as by the single-point functions of encoding.hpp; the work is split
// over a ThreadPool (a checked G1 point costs ≈ 70 µs, so large files need every core).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/encoding.hpp"

namespace cuzk {

/// Which of the encodings of encoding.hpp an array uses.
enum class PointForm { compressed, uncompressed, snarkjs_lem };

struct DecodeOptions {
  PointForm form = PointForm::uncompressed;
  /// Also require subgroup membership (the checked decoders); false = range + on-curve only.
  bool check_subgroup = true;
};

/// Bytes per point of |form| (snarkjs LEM points are as long as uncompressed ones).
constexpr std::size_t g1_encoded_size(PointForm form) {
  return form == PointForm::compressed
             ? kG1CompressedBytes
             : (form == PointForm::uncompressed ? kG1UncompressedBytes : kG1LemBytes);
}
constexpr std::size_t g2_encoded_size(PointForm form) {
  return form == PointForm::compressed
             ? kG2CompressedBytes
             : (form == PointForm::uncompressed ? kG2UncompressedBytes : kG2LemBytes);
}

/// Decodes out.size() consecutive encodings from |bytes|. size_mismatch when bytes.size() is not
/// out.size() × the encoded size; otherwise the error of the lowest-indexed bad point, its message
/// prefixed with "point i". On error the contents of |out| are unspecified.
Status decode_g1_batch(std::span<const std::uint8_t> bytes, std::span<G1Affine> out,
                       ThreadPool& pool, const DecodeOptions& opt = {});
Status decode_g2_batch(std::span<const std::uint8_t> bytes, std::span<G2Affine> out,
                       ThreadPool& pool, const DecodeOptions& opt = {});

/// Encodes |in| into consecutive encodings; size_mismatch when out.size() does not fit exactly.
Status encode_g1_batch(std::span<const G1Affine> in, std::span<std::uint8_t> out, PointForm form,
                       ThreadPool& pool);
Status encode_g2_batch(std::span<const G2Affine> in, std::span<std::uint8_t> out, PointForm form,
                       ThreadPool& pool);

}  // namespace cuzk
