// Uncompressed ZCash/bellperson point encodings (FORMATS.md §1.2: 96 bytes per G1 point, 192 per
// G2; big-endian coordinates, G2 coordinates as c1 then c0; flag bits 0x80 compressed, 0x40
// infinity, 0x20 sign in byte 0) decoded straight into the packed layout of resident bases:
// (x, y) in Montgomery form, the identity as (0, 0), no flag and no padding (96 / 192 bytes, the
// layout of gpu/ec/dev_curves.cuh's DevAffine and of streamed tables).
//
// The per-point decode is written once over the field type (CUZK_HD): the CUDA backend runs it in
// a kernel over raw .params bytes with its device fields (gpu/encoded_bases.cu), the host twin
// below runs it with Fp / Fp2. It refuses what the host decoder of encoding.hpp refuses in its
// unchecked mode (ec/encoding.cpp decode_uncompressed): flag bits other than infinity, an
// infinity encoding with other bits set, a coordinate ≥ p, a point off the curve, and on G1
// x = 0 (the order-3 points (0, ±2)). Like rust-fil-proofs' unchecked mapped read it does no
// subgroup check. Cost per point: 2 (G1) or 4 (G2) Montgomery products for the conversion, and
// y² = x³ + b (3 products in Fp or Fp2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "cuzk/base/status.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/hd.hpp"

namespace cuzk {

/// One point's outcome; |identity| is a valid encoding of the identity (packed as (0, 0)).
enum class PackedDecodeError : std::uint8_t {
  ok = 0,
  identity,
  bad_flags,      ///< flag bits other than infinity set
  infinity_bits,  ///< infinity with other bits set
  x_range,        ///< a part of x is not below p
  y_range,        ///< a part of y is not below p
  not_on_curve,
  order_three,  ///< G1 x = 0
};

/// What the decode reads besides the bytes: p big-endian, R² mod p as a field element (a
/// canonical value a becomes a·R by one Montgomery product with it), and the curve's b.
template <class Coord, class Base>
struct PackedDecodeConstants {
  std::uint8_t p_be[48];
  Base r2;
  Coord b;
};

namespace packed_detail {

inline constexpr std::size_t kFpBytes = 48;

/// Big-endian canonical value at |in| into |out| (Montgomery form); false when it is ≥ p.
template <class Base>
CUZK_HD bool read_fp_be(const std::uint8_t* in, const std::uint8_t* p_be, const Base& r2,
                        Base& out) {
  int cmp = 0;
  for (std::size_t i = 0; i < kFpBytes && cmp == 0; ++i)
    cmp = (in[i] > p_be[i]) - (in[i] < p_be[i]);
  if (cmp >= 0) return false;
  // Little-endian limbs are the bytes reversed (host and device types share these bytes).
  auto* o = reinterpret_cast<unsigned char*>(&out);
  for (std::size_t i = 0; i < kFpBytes; ++i) o[i] = in[kFpBytes - 1 - i];
  out = out * r2;  // a · R² · R⁻¹ = a·R
  return true;
}

template <class Coord, class Base>
CUZK_HD bool read_coord(const std::uint8_t* in, const PackedDecodeConstants<Coord, Base>& k,
                        Coord& out) {
  if constexpr (std::is_same_v<Coord, Base>) {
    return read_fp_be(in, k.p_be, k.r2, out);
  } else {  // Fp2: c1 then c0
    return read_fp_be(in, k.p_be, k.r2, out.c1) && read_fp_be(in + kFpBytes, k.p_be, k.r2, out.c0);
  }
}

}  // namespace packed_detail

/// Decodes one uncompressed encoding (96 bytes for G1: Coord = Base = Fp; 192 for G2: Coord =
/// Fp2) into (|x|, |y|); the identity gives (0, 0) and PackedDecodeError::identity. On an error
/// other than |identity|, |x| and |y| are unspecified.
template <class Coord, class Base>
CUZK_HD PackedDecodeError decode_uncompressed_packed(const std::uint8_t* in,
                                                     const PackedDecodeConstants<Coord, Base>& k,
                                                     Coord& x, Coord& y) {
  constexpr bool kG1 = std::is_same_v<Coord, Base>;
  constexpr std::size_t kCoord = kG1 ? 48 : 96;
  const std::uint8_t flags = in[0] & 0xe0;
  if (flags == 0x40) {  // infinity: every other bit zero
    std::uint8_t rest = in[0] & 0x1f;
    for (std::size_t i = 1; i < 2 * kCoord; ++i) rest |= in[i];
    if (rest != 0) return PackedDecodeError::infinity_bits;
    x = Coord::zero();
    y = Coord::zero();
    return PackedDecodeError::identity;
  }
  if (flags != 0) return PackedDecodeError::bad_flags;
  if (!packed_detail::read_coord(in, k, x)) return PackedDecodeError::x_range;
  if (!packed_detail::read_coord(in + kCoord, k, y)) return PackedDecodeError::y_range;
  if (!(y.square() == x.square() * x + k.b)) return PackedDecodeError::not_on_curve;
  if (kG1 && x.is_zero()) return PackedDecodeError::order_three;
  return PackedDecodeError::ok;
}

/// The packed layout on the host: (x, y) Montgomery, identity (0, 0).
template <class Coord>
struct PackedAffine {
  Coord x, y;
};

using PackedG1 = PackedAffine<Fp>;
using PackedG2 = PackedAffine<Fp2>;
static_assert(sizeof(PackedG1) == 96 && sizeof(PackedG2) == 192);

/// The constants for G1 (Fp) and G2 (Fp2); the device takes them byte for byte (its fields share
/// the host fields' bytes).
PackedDecodeConstants<Fp, Fp> g1_packed_constants();
PackedDecodeConstants<Fp2, Fp> g2_packed_constants();

/// The host twin of the device decode: out.size() consecutive encodings from |bytes|
/// (size_mismatch unless bytes.size() is out.size() × 96 / 192); the error of the lowest bad
/// index (packed_decode_status), the identity refused unless |allow_identity|.
Status decode_packed_g1(std::span<const std::uint8_t> bytes, std::span<PackedG1> out,
                        bool allow_identity);
Status decode_packed_g2(std::span<const std::uint8_t> bytes, std::span<PackedG2> out,
                        bool allow_identity);

/// The error of point |index| as the host decoders word it (ec/batch_decode: "G1 point i: G1
/// uncompressed: ..."; formats/bellperson's identity rule: "point i: point at infinity"),
/// with its Errc; ok for PackedDecodeError::ok, and for |identity| when |allow_identity|.
Status packed_decode_status(PackedDecodeError e, bool g2, std::size_t index, bool allow_identity);

}  // namespace cuzk
