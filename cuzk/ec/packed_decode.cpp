#include "cuzk/ec/packed_decode.hpp"

#include <string>

namespace cuzk {

namespace {

template <class Coord>
PackedDecodeConstants<Coord, Fp> constants(const Coord& b) {
  PackedDecodeConstants<Coord, Fp> k{};
  for (std::size_t i = 0; i < 48; ++i)  // p big-endian: byte i is bits 8·(47 − i) of the limbs
    k.p_be[i] = static_cast<std::uint8_t>(Fp::kModulus[(47 - i) / 8] >> (8 * ((47 - i) % 8)));
  k.r2 = Fp::from_mont_unchecked(Fp::kR2);
  k.b = b;
  return k;
}

template <class Coord>
Status decode_all(std::span<const std::uint8_t> bytes, std::span<PackedAffine<Coord>> out,
                  bool allow_identity) {
  constexpr bool kG2 = !std::is_same_v<Coord, Fp>;
  constexpr std::size_t kBytes = kG2 ? 192 : 96;
  if (bytes.size() != out.size() * kBytes)
    return Status(Errc::size_mismatch, std::string(kG2 ? "G2" : "G1") +
                                           " packed decode: " + std::to_string(bytes.size()) +
                                           " bytes for " + std::to_string(out.size()) + " points");
  const auto k = [] {
    if constexpr (kG2)
      return constants<Coord>(G2Curve::kB);
    else
      return constants<Coord>(G1Curve::kB);
  }();
  for (std::size_t i = 0; i < out.size(); ++i) {
    const PackedDecodeError e =
        decode_uncompressed_packed(bytes.data() + i * kBytes, k, out[i].x, out[i].y);
    CUZK_RETURN_IF_ERROR(packed_decode_status(e, kG2, i, allow_identity));
  }
  return {};
}

}  // namespace

PackedDecodeConstants<Fp, Fp> g1_packed_constants() { return constants<Fp>(G1Curve::kB); }
PackedDecodeConstants<Fp2, Fp> g2_packed_constants() { return constants<Fp2>(G2Curve::kB); }

Status decode_packed_g1(std::span<const std::uint8_t> bytes, std::span<PackedG1> out,
                        bool allow_identity) {
  return decode_all<Fp>(bytes, out, allow_identity);
}
Status decode_packed_g2(std::span<const std::uint8_t> bytes, std::span<PackedG2> out,
                        bool allow_identity) {
  return decode_all<Fp2>(bytes, out, allow_identity);
}

Status packed_decode_status(PackedDecodeError e, bool g2, std::size_t index, bool allow_identity) {
  // The wording of ec/encoding.cpp's decode_uncompressed and of formats/bellperson.cpp's
  // identity rule, so both paths name a bad point alike.
  const std::string g = g2 ? "G2" : "G1";
  const std::string point = "point " + std::to_string(index) + ": ";
  const std::string at = g + " " + point;
  switch (e) {
    case PackedDecodeError::ok:
      return {};
    case PackedDecodeError::identity:
      if (allow_identity) return {};
      return Status(Errc::bad_encoding, point + "point at infinity");
    case PackedDecodeError::bad_flags:
      return Status(Errc::bad_encoding,
                    at + g + " uncompressed: flag bits other than infinity set");
    case PackedDecodeError::infinity_bits:
      return Status(Errc::bad_encoding, at + g + " uncompressed: infinity with other bits set");
    case PackedDecodeError::x_range:
      return Status(Errc::out_of_range, at + g + " uncompressed x is not below p");
    case PackedDecodeError::y_range:
      return Status(Errc::out_of_range, at + g + " uncompressed y is not below p");
    case PackedDecodeError::not_on_curve:
      return Status(Errc::not_on_curve, at + g + " uncompressed: point is not on the curve");
    case PackedDecodeError::order_three:
      return Status(Errc::not_in_subgroup, at + g + " uncompressed: x = 0 is a point of order 3");
  }
  return Status(Errc::bad_encoding, at + "unknown decode error");
}

}  // namespace cuzk
