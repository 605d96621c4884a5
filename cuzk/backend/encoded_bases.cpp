// Backend's default load of encoded bases: the slow twin of a device backend's in-place decode.
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_decode.hpp"

namespace cuzk {

namespace {

template <class P, class Decode, class Load>
Result<BasesId> decode_then_load(const EncodedBases& in, std::size_t bytes_per, Decode&& decode,
                                 Load&& load) {
  if (in.bytes.size() % bytes_per != 0)
    return Status(Errc::size_mismatch, "encoded bases: " + std::to_string(in.bytes.size()) +
                                           " bytes is not a multiple of " +
                                           std::to_string(bytes_per));
  std::vector<P> points(in.bytes.size() / bytes_per);
  ThreadPool serial(1);
  CUZK_RETURN_IF_ERROR(
      decode(in.bytes, std::span<P>(points), serial,
             DecodeOptions{.form = PointForm::uncompressed, .check_subgroup = false}));
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].is_identity())
      return Status(Errc::bad_encoding, "point " + std::to_string(i) + ": point at infinity");
  if (in.consumed) in.consumed(0, in.bytes.size());
  return load(std::span<const P>(points));
}

}  // namespace

Result<BasesId> Backend::load_bases_g1_encoded(const EncodedBases& bases) {
  return decode_then_load<G1Affine>(
      bases, kG1UncompressedBytes,
      [](auto b, auto o, ThreadPool& t, const DecodeOptions& d) {
        return decode_g1_batch(b, o, t, d);
      },
      [&](std::span<const G1Affine> p) { return load_bases_g1(p); });
}

Result<BasesId> Backend::load_bases_g2_encoded(const EncodedBases& bases) {
  return decode_then_load<G2Affine>(
      bases, kG2UncompressedBytes,
      [](auto b, auto o, ThreadPool& t, const DecodeOptions& d) {
        return decode_g2_batch(b, o, t, d);
      },
      [&](std::span<const G2Affine> p) { return load_bases_g2(p); });
}

}  // namespace cuzk
