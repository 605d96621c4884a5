// Parallel point-array decoding/encoding over the single-point codecs.
#include "cuzk/ec/batch_decode.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <string>

namespace cuzk {

namespace {

Result<G1Affine> decode_one(const std::uint8_t* p, const DecodeOptions& o, G1Affine*) {
  const bool c = o.check_subgroup;
  switch (o.form) {
    case PointForm::compressed: {
      std::span<const std::uint8_t, kG1CompressedBytes> s(p, kG1CompressedBytes);
      return c ? g1_from_compressed(s) : g1_from_compressed_unchecked(s);
    }
    case PointForm::uncompressed: {
      std::span<const std::uint8_t, kG1UncompressedBytes> s(p, kG1UncompressedBytes);
      return c ? g1_from_uncompressed(s) : g1_from_uncompressed_unchecked(s);
    }
    case PointForm::snarkjs_lem: {
      std::span<const std::uint8_t, kG1LemBytes> s(p, kG1LemBytes);
      return c ? g1_from_snarkjs_lem(s) : g1_from_snarkjs_lem_unchecked(s);
    }
  }
  return Status(Errc::invalid_argument, "unknown point form");
}

Result<G2Affine> decode_one(const std::uint8_t* p, const DecodeOptions& o, G2Affine*) {
  const bool c = o.check_subgroup;
  switch (o.form) {
    case PointForm::compressed: {
      std::span<const std::uint8_t, kG2CompressedBytes> s(p, kG2CompressedBytes);
      return c ? g2_from_compressed(s) : g2_from_compressed_unchecked(s);
    }
    case PointForm::uncompressed: {
      std::span<const std::uint8_t, kG2UncompressedBytes> s(p, kG2UncompressedBytes);
      return c ? g2_from_uncompressed(s) : g2_from_uncompressed_unchecked(s);
    }
    case PointForm::snarkjs_lem: {
      std::span<const std::uint8_t, kG2LemBytes> s(p, kG2LemBytes);
      return c ? g2_from_snarkjs_lem(s) : g2_from_snarkjs_lem_unchecked(s);
    }
  }
  return Status(Errc::invalid_argument, "unknown point form");
}

template <std::size_t N>
void put(const std::array<std::uint8_t, N>& a, std::uint8_t* out) {
  std::copy(a.begin(), a.end(), out);
}

void encode_one(const G1Affine& p, PointForm f, std::uint8_t* out) {
  switch (f) {
    case PointForm::compressed:
      put(to_compressed(p), out);
      break;
    case PointForm::uncompressed:
      put(to_uncompressed(p), out);
      break;
    case PointForm::snarkjs_lem:
      put(to_snarkjs_lem(p), out);
      break;
  }
}
void encode_one(const G2Affine& p, PointForm f, std::uint8_t* out) {
  switch (f) {
    case PointForm::compressed:
      put(to_compressed(p), out);
      break;
    case PointForm::uncompressed:
      put(to_uncompressed(p), out);
      break;
    case PointForm::snarkjs_lem:
      put(to_snarkjs_lem(p), out);
      break;
  }
}

template <class P>
Status decode_batch(std::span<const std::uint8_t> bytes, std::span<P> out, ThreadPool& pool,
                    const DecodeOptions& opt, std::size_t size, const char* group) {
  if (bytes.size() / size != out.size() || bytes.size() % size != 0)
    return Status(Errc::size_mismatch,
                  std::string(group) + " array: " + std::to_string(bytes.size()) + " bytes for " +
                      std::to_string(out.size()) + " points of " + std::to_string(size) + " bytes");
  std::mutex mu;
  std::size_t first_bad = std::numeric_limits<std::size_t>::max();
  Status first_status;
  std::atomic<std::size_t> bad_bound{std::numeric_limits<std::size_t>::max()};
  pool.parallel_for(
      out.size(),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e && i < bad_bound.load(std::memory_order_relaxed); ++i) {
          auto r = decode_one(bytes.data() + i * size, opt, static_cast<P*>(nullptr));
          if (r.ok()) {
            out[i] = *r;
            continue;
          }
          std::lock_guard<std::mutex> lock(mu);
          if (i < first_bad) {
            first_bad = i;
            first_status =
                r.status().with_context(std::string(group) + " point " + std::to_string(i));
            bad_bound.store(i, std::memory_order_relaxed);
          }
          return;
        }
      },
      16);  // ≥ 16 × 35 µs per chunk
  return first_status;
}

template <class P>
Status encode_batch(std::span<const P> in, std::span<std::uint8_t> out, PointForm form,
                    ThreadPool& pool, std::size_t size, const char* group) {
  if (out.size() / size != in.size() || out.size() % size != 0)
    return Status(Errc::size_mismatch, std::string(group) +
                                           " array: " + std::to_string(out.size()) + " bytes for " +
                                           std::to_string(in.size()) + " points");
  pool.parallel_for(
      in.size(), [&](std::size_t i) { encode_one(in[i], form, out.data() + i * size); }, 1024);
  return Status();
}

}  // namespace

Status decode_g1_batch(std::span<const std::uint8_t> bytes, std::span<G1Affine> out,
                       ThreadPool& pool, const DecodeOptions& opt) {
  return decode_batch(bytes, out, pool, opt, g1_encoded_size(opt.form), "G1");
}
Status decode_g2_batch(std::span<const std::uint8_t> bytes, std::span<G2Affine> out,
                       ThreadPool& pool, const DecodeOptions& opt) {
  return decode_batch(bytes, out, pool, opt, g2_encoded_size(opt.form), "G2");
}
Status encode_g1_batch(std::span<const G1Affine> in, std::span<std::uint8_t> out, PointForm form,
                       ThreadPool& pool) {
  return encode_batch(in, out, form, pool, g1_encoded_size(form), "G1");
}
Status encode_g2_batch(std::span<const G2Affine> in, std::span<std::uint8_t> out, PointForm form,
                       ThreadPool& pool) {
  return encode_batch(in, out, form, pool, g2_encoded_size(form), "G2");
}

}  // namespace cuzk
