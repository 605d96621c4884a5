// ZCash/IETF and snarkjs LEM point encodings; rules in encoding.hpp and FORMATS.md §1.2.
#include "cuzk/ec/encoding.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

namespace cuzk {

namespace {

constexpr std::size_t kFp = 48;
constexpr std::uint8_t kFlagMask = kFlagCompressed | kFlagInfinity | kFlagLargest;

/// Big-endian canonical Fp at |in|, with the flag bits of byte 0 cleared when |mask_flags|.
Result<Fp> read_fp_be(const std::uint8_t* in, bool mask_flags, const char* what) {
  std::array<std::uint8_t, kFp> b{};
  std::copy_n(in, kFp, b.begin());
  if (mask_flags) b[0] &= static_cast<std::uint8_t>(~kFlagMask);
  auto f = Fp::from_bytes_be(std::span<const std::uint8_t, kFp>(b));
  if (!f) return Status(Errc::out_of_range, std::string(what) + " is not below p");
  return *f;
}

void write_fp_be(const Fp& f, std::uint8_t* out) {
  f.to_bytes_be(std::span<std::uint8_t, kFp>(out, kFp));
}

/// Little-endian Montgomery limbs at |in|; out_of_range when they are ≥ p.
Result<Fp> read_fp_lem(const std::uint8_t* in, const char* what) {
  Limbs<6> m;
  static_assert(std::endian::native == std::endian::little, "LEM limbs are copied as host words");
  std::memcpy(m.data(), in, kFp);
  if (limbs_cmp(m, Fp::kModulus) >= 0)
    return Status(Errc::out_of_range, std::string(what) + " is not below p");
  return Fp::from_mont_unchecked(m);
}

void write_fp_lem(const Fp& f, std::uint8_t* out) {
  for (std::size_t i = 0; i < kFp; ++i)
    out[i] = static_cast<std::uint8_t>(f.l[i / 8] >> (8 * (i % 8)));
}

bool rest_is_zero(std::span<const std::uint8_t> in) {
  // byte 0 without its flags, then every other byte
  if (in[0] & static_cast<std::uint8_t>(~kFlagMask)) return false;
  return std::all_of(in.begin() + 1, in.end(), [](std::uint8_t b) { return b == 0; });
}

// Per-group coordinate I/O: G1 coordinates are one Fp, G2 coordinates are c1 then c0 (ZCash) or c0
// then c1 (LEM).
struct G1Io {
  using Point = G1Affine;
  using Field = Fp;
  static constexpr std::size_t kCoord = kFp;
  static constexpr const char* name = "G1";
  static constexpr const char* lem_x = "G1 snarkjs x";
  static constexpr const char* lem_y = "G1 snarkjs y";
  static Result<Fp> read_be(const std::uint8_t* in, bool mask, const char* what) {
    return read_fp_be(in, mask, what);
  }
  static void write_be(const Fp& f, std::uint8_t* out) { write_fp_be(f, out); }
  static Result<Fp> read_lem(const std::uint8_t* in, const char* what) {
    return read_fp_lem(in, what);
  }
  static void write_lem(const Fp& f, std::uint8_t* out) { write_fp_lem(f, out); }
};

struct G2Io {
  using Point = G2Affine;
  using Field = Fp2;
  static constexpr std::size_t kCoord = 2 * kFp;
  static constexpr const char* name = "G2";
  static constexpr const char* lem_x = "G2 snarkjs x";
  static constexpr const char* lem_y = "G2 snarkjs y";
  static Result<Fp2> read_be(const std::uint8_t* in, bool mask, const char* what) {
    auto c1 = read_fp_be(in, mask, what);
    if (!c1) return c1.status();
    auto c0 = read_fp_be(in + kFp, false, what);
    if (!c0) return c0.status();
    return Fp2{*c0, *c1};
  }
  static void write_be(const Fp2& f, std::uint8_t* out) {
    write_fp_be(f.c1, out);
    write_fp_be(f.c0, out + kFp);
  }
  static Result<Fp2> read_lem(const std::uint8_t* in, const char* what) {
    auto c0 = read_fp_lem(in, what);
    if (!c0) return c0.status();
    auto c1 = read_fp_lem(in + kFp, what);
    if (!c1) return c1.status();
    return Fp2{*c0, *c1};
  }
  static void write_lem(const Fp2& f, std::uint8_t* out) {
    write_fp_lem(f.c0, out);
    write_fp_lem(f.c1, out + kFp);
  }
};

template <class Io>
Result<typename Io::Point> finish(const typename Io::Point& p, bool check_subgroup) {
  if (check_subgroup && !is_in_subgroup(p))
    return Status(Errc::not_in_subgroup,
                  std::string(Io::name) + " point is not in the prime-order subgroup");
  return p;
}

template <class Io>
Result<typename Io::Point> decode_compressed(std::span<const std::uint8_t> in,
                                             bool check_subgroup) {
  using P = typename Io::Point;
  const std::uint8_t flags = in[0] & kFlagMask;
  if (!(flags & kFlagCompressed))
    return Status(Errc::bad_encoding,
                  std::string(Io::name) + " compressed: compression flag 0x80 not set");
  if (flags & kFlagInfinity) {
    if ((flags & kFlagLargest) || !rest_is_zero(in))
      return Status(Errc::bad_encoding,
                    std::string(Io::name) + " compressed: infinity with other bits set");
    return P::identity();
  }
  auto x = Io::read_be(in.data(), true, (std::string(Io::name) + " compressed x").c_str());
  if (!x) return x.status();
  auto y = (x->square() * *x + P::Curve::kB).sqrt();
  if (!y)
    return Status(Errc::not_on_curve,
                  std::string(Io::name) + " compressed: x³ + b has no square root");
  const bool want_largest = (flags & kFlagLargest) != 0;
  if (y->is_lexicographically_largest() != want_largest) *y = -*y;
  return finish<Io>(P{*x, *y, false}, check_subgroup);
}

template <class Io>
Result<typename Io::Point> decode_uncompressed(std::span<const std::uint8_t> in,
                                               bool check_subgroup) {
  using P = typename Io::Point;
  const std::uint8_t flags = in[0] & kFlagMask;
  if (flags == kFlagInfinity) {
    if (!rest_is_zero(in))
      return Status(Errc::bad_encoding,
                    std::string(Io::name) + " uncompressed: infinity with other bits set");
    return P::identity();
  }
  if (flags != 0)
    return Status(Errc::bad_encoding,
                  std::string(Io::name) + " uncompressed: flag bits other than infinity set");
  auto x = Io::read_be(in.data(), false, (std::string(Io::name) + " uncompressed x").c_str());
  if (!x) return x.status();
  auto y = Io::read_be(in.data() + Io::kCoord, false,
                       (std::string(Io::name) + " uncompressed y").c_str());
  if (!y) return y.status();
  const P p{*x, *y, false};
  if (!p.is_on_curve())
    return Status(Errc::not_on_curve,
                  std::string(Io::name) + " uncompressed: point is not on the curve");
  if (x->is_zero())  // G1 only: (0, ±2) has order 3; blst answers "not in group"
    return Status(Errc::not_in_subgroup,
                  std::string(Io::name) + " uncompressed: x = 0 is a point of order 3");
  return finish<Io>(p, check_subgroup);
}

template <class Io>
Result<typename Io::Point> decode_lem(std::span<const std::uint8_t> in, bool check_subgroup) {
  using P = typename Io::Point;
  if (std::all_of(in.begin(), in.end(), [](std::uint8_t b) { return b == 0; }))
    return P::identity();
  auto x = Io::read_lem(in.data(), Io::lem_x);
  if (!x) return x.status();
  auto y = Io::read_lem(in.data() + Io::kCoord, Io::lem_y);
  if (!y) return y.status();
  const P p{*x, *y, false};
  if (!p.is_on_curve())
    return Status(Errc::not_on_curve,
                  std::string(Io::name) + " snarkjs: point is not on the curve");
  return finish<Io>(p, check_subgroup);
}

template <class Io, std::size_t N>
std::array<std::uint8_t, N> encode_compressed(const typename Io::Point& p) {
  std::array<std::uint8_t, N> out{};
  if (p.infinity) {
    out[0] = kFlagCompressed | kFlagInfinity;
    return out;
  }
  Io::write_be(p.x, out.data());
  out[0] |= kFlagCompressed;
  if (p.y.is_lexicographically_largest()) out[0] |= kFlagLargest;
  return out;
}

template <class Io, std::size_t N>
std::array<std::uint8_t, N> encode_uncompressed(const typename Io::Point& p) {
  std::array<std::uint8_t, N> out{};
  if (p.infinity) {
    out[0] = kFlagInfinity;
    return out;
  }
  Io::write_be(p.x, out.data());
  Io::write_be(p.y, out.data() + Io::kCoord);
  return out;
}

template <class Io, std::size_t N>
std::array<std::uint8_t, N> encode_lem(const typename Io::Point& p) {
  std::array<std::uint8_t, N> out{};
  if (p.infinity) return out;
  Io::write_lem(p.x, out.data());
  Io::write_lem(p.y, out.data() + Io::kCoord);
  return out;
}

}  // namespace

G1Compressed to_compressed(const G1Affine& p) {
  return encode_compressed<G1Io, kG1CompressedBytes>(p);
}
G1Uncompressed to_uncompressed(const G1Affine& p) {
  return encode_uncompressed<G1Io, kG1UncompressedBytes>(p);
}
G2Compressed to_compressed(const G2Affine& p) {
  return encode_compressed<G2Io, kG2CompressedBytes>(p);
}
G2Uncompressed to_uncompressed(const G2Affine& p) {
  return encode_uncompressed<G2Io, kG2UncompressedBytes>(p);
}

Result<G1Affine> g1_from_compressed(std::span<const std::uint8_t, kG1CompressedBytes> in) {
  return decode_compressed<G1Io>(in, true);
}
Result<G1Affine> g1_from_compressed_unchecked(
    std::span<const std::uint8_t, kG1CompressedBytes> in) {
  return decode_compressed<G1Io>(in, false);
}
Result<G1Affine> g1_from_uncompressed(std::span<const std::uint8_t, kG1UncompressedBytes> in) {
  return decode_uncompressed<G1Io>(in, true);
}
Result<G1Affine> g1_from_uncompressed_unchecked(
    std::span<const std::uint8_t, kG1UncompressedBytes> in) {
  return decode_uncompressed<G1Io>(in, false);
}
Result<G2Affine> g2_from_compressed(std::span<const std::uint8_t, kG2CompressedBytes> in) {
  return decode_compressed<G2Io>(in, true);
}
Result<G2Affine> g2_from_compressed_unchecked(
    std::span<const std::uint8_t, kG2CompressedBytes> in) {
  return decode_compressed<G2Io>(in, false);
}
Result<G2Affine> g2_from_uncompressed(std::span<const std::uint8_t, kG2UncompressedBytes> in) {
  return decode_uncompressed<G2Io>(in, true);
}
Result<G2Affine> g2_from_uncompressed_unchecked(
    std::span<const std::uint8_t, kG2UncompressedBytes> in) {
  return decode_uncompressed<G2Io>(in, false);
}

std::array<std::uint8_t, kG1LemBytes> to_snarkjs_lem(const G1Affine& p) {
  return encode_lem<G1Io, kG1LemBytes>(p);
}
std::array<std::uint8_t, kG2LemBytes> to_snarkjs_lem(const G2Affine& p) {
  return encode_lem<G2Io, kG2LemBytes>(p);
}
Result<G1Affine> g1_from_snarkjs_lem(std::span<const std::uint8_t, kG1LemBytes> in) {
  return decode_lem<G1Io>(in, true);
}
Result<G2Affine> g2_from_snarkjs_lem(std::span<const std::uint8_t, kG2LemBytes> in) {
  return decode_lem<G2Io>(in, true);
}
Result<G1Affine> g1_from_snarkjs_lem_unchecked(std::span<const std::uint8_t, kG1LemBytes> in) {
  return decode_lem<G1Io>(in, false);
}
Result<G2Affine> g2_from_snarkjs_lem_unchecked(std::span<const std::uint8_t, kG2LemBytes> in) {
  return decode_lem<G2Io>(in, false);
}

}  // namespace cuzk
