#include "cuzk/r1cs/gadgets/sha256.hpp"

#include "cuzk/hash/sha256.hpp"

#include <string>
#include <variant>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/sha256_witness.hpp"

namespace cuzk {
namespace {

constexpr std::uint32_t kIv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// A word whose addition is deferred (bellpepper's Maybe::Deferred) or known (Concrete).
struct Maybe {
  bool concrete = true;
  UInt32 value;
  std::vector<UInt32> terms;

  Result<UInt32> compute(ConstraintSystem& cs, MultiEq& meq, std::span<const UInt32> others) const {
    if (concrete) return value;
    std::vector<UInt32> v = terms;
    v.insert(v.end(), others.begin(), others.end());
    return UInt32::addmany(cs, meq, v);
  }
};

// s = x.rotr(r1) ^ x.rotr(r2) ^ (shift ? x.shr(r3) : x.rotr(r3)), scopes |n1|, |n2|.
Result<UInt32> sigma(ConstraintSystem& cs, const UInt32& x, unsigned r1, unsigned r2, unsigned r3,
                     bool shift, const char* n1, const char* n2) {
  UInt32 s = x.rotr(r1);
  {
    Namespace ns(cs, n1);
    CUZK_ASSIGN_OR_RETURN(s, s.bit_xor(cs, x.rotr(r2)));
  }
  Namespace ns(cs, n2);
  return s.bit_xor(cs, shift ? x.shr(r3) : x.rotr(r3));
}

}  // namespace

std::array<UInt32, 8> sha256_iv() {
  std::array<UInt32, 8> r;
  for (int i = 0; i < 8; ++i) r[i] = UInt32::constant(kIv[i]);
  return r;
}

Result<std::array<UInt32, 8>> sha256_compression_function(ConstraintSystem& cs,
                                                          std::span<const Boolean> block,
                                                          const std::array<UInt32, 8>& current) {
  if (block.size() != 512) return Status(Errc::size_mismatch, "SHA-256 block must be 512 bits");
  if (cs.fast_witness()) {
    // The native twin (sha256_witness.hpp) once every value is known; a missing value takes this
    // path, which names it.
    bool known = true;
    for (const Boolean& b : block) known &= b.value().has_value();
    for (const UInt32& x : current) known &= x.value().has_value();
    if (known) return sha256_compression_witness(cs, block, current);
  }
  std::vector<UInt32> w;
  w.reserve(64);
  for (int i = 0; i < 16; ++i) w.push_back(UInt32::from_bits_be(block.subspan(32 * i, 32)));

  MultiEq meq(cs);
  for (int i = 16; i < 64; ++i) {
    Namespace ns(cs, [i] { return "w extension " + std::to_string(i); });
    CUZK_ASSIGN_OR_RETURN(
        UInt32 s0, sigma(cs, w[i - 15], 7, 18, 3, true, "first xor for s0", "second xor for s0"));
    CUZK_ASSIGN_OR_RETURN(
        UInt32 s1, sigma(cs, w[i - 2], 17, 19, 10, true, "first xor for s1", "second xor for s1"));
    const UInt32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
    Namespace ns2(cs, "computation of w[i]");
    CUZK_ASSIGN_OR_RETURN(UInt32 t, UInt32::addmany(cs, meq, ops));
    w.push_back(t);
  }

  Maybe a{true, current[0], {}};
  UInt32 b = current[1], c = current[2], d = current[3];
  Maybe e{true, current[4], {}};
  UInt32 f = current[5], g = current[6], h = current[7];

  for (int i = 0; i < 64; ++i) {
    Namespace ns(cs, [i] { return "compression round " + std::to_string(i); });
    UInt32 new_e;
    {
      Namespace n2(cs, "deferred e computation");
      CUZK_ASSIGN_OR_RETURN(new_e, e.compute(cs, meq, {}));
    }
    CUZK_ASSIGN_OR_RETURN(
        UInt32 s1, sigma(cs, new_e, 6, 11, 25, false, "first xor for s1", "second xor for s1"));
    UInt32 ch;
    {
      Namespace n2(cs, "ch");
      CUZK_ASSIGN_OR_RETURN(ch, UInt32::sha256_ch(cs, new_e, f, g));
    }
    std::vector<UInt32> temp1 = {h, s1, ch, UInt32::constant(kSha256RoundConstants[i]), w[i]};
    UInt32 new_a;
    {
      Namespace n2(cs, "deferred a computation");
      CUZK_ASSIGN_OR_RETURN(new_a, a.compute(cs, meq, {}));
    }
    CUZK_ASSIGN_OR_RETURN(
        UInt32 s0, sigma(cs, new_a, 2, 13, 22, false, "first xor for s0", "second xor for s0"));
    UInt32 maj;
    {
      Namespace n2(cs, "maj");
      CUZK_ASSIGN_OR_RETURN(maj, UInt32::sha256_maj(cs, new_a, b, c));
    }
    h = g;
    g = f;
    f = new_e;
    e.concrete = false;
    e.terms = temp1;
    e.terms.push_back(d);
    d = c;
    c = b;
    b = new_a;
    a.concrete = false;
    a.terms = temp1;
    a.terms.push_back(s0);
    a.terms.push_back(maj);
  }

  std::array<UInt32, 8> out;
  {
    Namespace n2(cs, "deferred h0 computation");
    const UInt32 o[1] = {current[0]};
    CUZK_ASSIGN_OR_RETURN(out[0], a.compute(cs, meq, o));
  }
  auto add2 = [&](const char* name, const UInt32& x, const UInt32& y) -> Result<UInt32> {
    Namespace n2(cs, name);
    const UInt32 o[2] = {x, y};
    return UInt32::addmany(cs, meq, o);
  };
  CUZK_ASSIGN_OR_RETURN(out[1], add2("new h1", current[1], b));
  CUZK_ASSIGN_OR_RETURN(out[2], add2("new h2", current[2], c));
  CUZK_ASSIGN_OR_RETURN(out[3], add2("new h3", current[3], d));
  {
    Namespace n2(cs, "deferred h4 computation");
    const UInt32 o[1] = {current[4]};
    CUZK_ASSIGN_OR_RETURN(out[4], e.compute(cs, meq, o));
  }
  CUZK_ASSIGN_OR_RETURN(out[5], add2("new h5", current[5], f));
  CUZK_ASSIGN_OR_RETURN(out[6], add2("new h6", current[6], g));
  CUZK_ASSIGN_OR_RETURN(out[7], add2("new h7", current[7], h));
  meq.flush();
  return out;
}

Result<std::vector<Boolean>> sha256_block_no_padding(ConstraintSystem& cs,
                                                     std::span<const Boolean> block) {
  CUZK_ASSIGN_OR_RETURN(auto h, sha256_compression_function(cs, block, sha256_iv()));
  std::vector<Boolean> out;
  out.reserve(256);
  for (const UInt32& x : h) {
    auto be = x.into_bits_be();
    out.insert(out.end(), be.begin(), be.end());
  }
  return out;
}

Result<std::vector<Boolean>> sha256(ConstraintSystem& cs, std::span<const Boolean> message) {
  if (message.size() % 8 != 0)
    return Status(Errc::invalid_argument, "SHA-256 message must be whole bytes");
  std::vector<Boolean> padded(message.begin(), message.end());
  const std::uint64_t plen = message.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant(((plen >> i) & 1) != 0));
  std::array<UInt32, 8> cur = sha256_iv();
  for (std::size_t i = 0; i < padded.size() / 512; ++i) {
    Namespace ns(cs, [i] { return "block " + std::to_string(i); });
    CUZK_ASSIGN_OR_RETURN(
        cur, sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(512 * i, 512),
                                         cur));
  }
  std::vector<Boolean> out;
  out.reserve(256);
  for (const UInt32& x : cur) {
    auto be = x.into_bits_be();
    out.insert(out.end(), be.begin(), be.end());
  }
  return out;
}

std::array<std::uint8_t, 32> sha256_native(std::span<const std::uint8_t> message) {
  return hash::sha256(message);
}

}  // namespace cuzk
