#include "cuzk/r1cs/gadgets/sha256_witness.hpp"

#include <bit>
#include <cstdint>

#include "cuzk/r1cs/gadgets/bit_value.hpp"
#include "cuzk/r1cs/gadgets/multieq.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

// A word of 32 Booleans: v their values, c the constant ones, n the negated ones (n ⊆ ¬c).
struct Word {
  std::uint32_t v = 0, c = 0, n = 0;
};

constexpr Word constant_word(std::uint32_t x) { return {x, ~0u, 0}; }

constexpr std::uint32_t rotr32(std::uint32_t x, unsigned r) {
  return std::rotr(x, static_cast<int>(r));
}

Word rotr(Word w, unsigned r) { return {rotr32(w.v, r), rotr32(w.c, r), rotr32(w.n, r)}; }

// UInt32::shr: the top |r| bits become constant 0 (0 < r < 32).
Word shr(Word w, unsigned r) { return {w.v >> r, (w.c >> r) | ~(~0u >> r), w.n >> r}; }

Word word_of(std::span<const Boolean> bits, bool msb_first) {
  Word w;
  for (unsigned j = 0; j < 32; ++j) {
    const Boolean& b = bits[j];
    const std::uint32_t bit = 1u << (msb_first ? 31 - j : j);
    if (*b.value()) w.v |= bit;
    if (b.is_constant()) w.c |= bit;
    if (b.kind() == Boolean::Kind::negated) w.n |= bit;
  }
  return w;
}

// One Boolean of a word, for the bit-by-bit twin of the constant folding.
struct Bit {
  bool v = false, c = false, n = false;
};

Bit negate(Bit x) {
  x.v = !x.v;
  if (!x.c) x.n = !x.n;
  return x;
}

constexpr Bit kFalse{false, true, false};

// Writes the variables' values of one compression and counts its constraints.
class Emitter {
 public:
  explicit Emitter(ConstraintSystem& cs) : cs_(cs) {}

  // Boolean::bit_xor, word-wise.
  Word bit_xor(Word a, Word b) {
    const std::uint32_t alloc = ~(a.c | b.c);
    if (alloc != 0) write_bits((a.v ^ a.n) ^ (b.v ^ b.n), alloc);
    Word r;
    r.v = a.v ^ b.v;
    r.c = a.c & b.c;
    r.n = ((a.n ^ b.n) & alloc) | ((b.n ^ a.v) & a.c & ~b.c) | ((a.n ^ b.v) & b.c & ~a.c);
    return r;
  }

  // s = x.rotr(r1) ^ x.rotr(r2) ^ (shift ? x.shr(r3) : x.rotr(r3)).
  Word sigma(Word x, unsigned r1, unsigned r2, unsigned r3, bool shift) {
    const Word s = bit_xor(rotr(x, r1), rotr(x, r2));
    return bit_xor(s, shift ? shr(x, r3) : rotr(x, r3));
  }

  // Boolean::sha256_ch per bit: one value per bit when no operand bit is constant.
  Word ch(Word a, Word b, Word c) {
    if ((a.c | b.c | c.c) == 0) {
      const std::uint32_t v = (a.v & b.v) ^ (~a.v & c.v);
      write_bits(v, ~0u);
      return {v, 0, 0};
    }
    Word r;
    for (unsigned i = 0; i < 32; ++i) set(r, i, ch_bit(get(a, i), get(b, i), get(c, i)));
    return r;
  }

  // Boolean::sha256_maj per bit: maj then b ∧ c per bit when no operand bit is constant.
  Word maj(Word a, Word b, Word c) {
    if ((a.c | b.c | c.c) == 0) {
      const std::uint32_t v = (a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v);
      const std::uint32_t bc = b.v & c.v;
      const AuxBlock blk = take(64);
      for (unsigned i = 0; i < 32; ++i) {
        blk.values[2 * i] = bit_value((v >> i) & 1);
        blk.values[2 * i + 1] = bit_value((bc >> i) & 1);
      }
      return {v, 0, 0};
    }
    Word r;
    for (unsigned i = 0; i < 32; ++i) set(r, i, maj_bit(get(a, i), get(b, i), get(c, i)));
    return r;
  }

  // UInt32::addmany: the sum's low bits as new variables unless every operand bit is constant;
  // |first| gets the first result bit's index (result bit k is first + k).
  Word addmany(std::span<const Word> ops, std::uint32_t* first = nullptr) {
    std::uint64_t sum = 0;
    bool all_constants = true;
    for (const Word& op : ops) {
      sum += op.v;
      all_constants &= op.c == ~0u;
    }
    if (all_constants) return constant_word(static_cast<std::uint32_t>(sum));
    const unsigned nbits =
        static_cast<unsigned>(std::bit_width(ops.size() * std::uint64_t{0xffffffffu}));
    const AuxBlock blk = take(nbits);
    for (unsigned k = 0; k < nbits; ++k) blk.values[k] = bit_value((sum >> k) & 1);
    if (first) *first = blk.first;
    // MultiEq::enforce_equal: a constraint whenever the packed bits would reach the capacity.
    if (MultiEq::kCapacity <= meq_bits_ + nbits) {
      ++constraints_;
      meq_bits_ = 0;
    }
    meq_bits_ += nbits;
    return {static_cast<std::uint32_t>(sum), 0, 0};
  }

  // MultiEq::flush, then the skipped constraints handed to the system.
  void finish() {
    if (meq_bits_ > 0) ++constraints_;
    meq_bits_ = 0;
    cs_.count_skipped_constraints(constraints_);
    constraints_ = 0;
  }

 private:
  using AuxBlock = ConstraintSystem::AuxBlock;

  static Bit get(Word w, unsigned i) {
    return {((w.v >> i) & 1) != 0, ((w.c >> i) & 1) != 0, ((w.n >> i) & 1) != 0};
  }
  static void set(Word& w, unsigned i, Bit b) {
    w.v |= std::uint32_t{b.v} << i;
    w.c |= std::uint32_t{b.c} << i;
    w.n |= std::uint32_t{b.n} << i;
  }

  // |n| new variables; every one of them carries one constraint (booleanity, xor, ch, and, maj).
  AuxBlock take(std::size_t n) {
    constraints_ += n;
    return cs_.alloc_aux_block(n);
  }

  // The bits of |value| selected by |mask|, in ascending order.
  void write_bits(std::uint32_t value, std::uint32_t mask) {
    const AuxBlock blk = take(static_cast<std::size_t>(std::popcount(mask)));
    Fr* out = blk.values;
    if (mask == ~0u) {
      for (unsigned i = 0; i < 32; ++i) out[i] = bit_value((value >> i) & 1);
      return;
    }
    for (std::uint32_t m = mask; m != 0; m &= m - 1)
      *out++ = bit_value((value >> std::countr_zero(m)) & 1);
  }

  Bit alloc_bit(bool v) {
    take(1).values[0] = bit_value(v);
    return {v, false, false};
  }

  // Boolean::bit_and: and / and_not / nor all allocate the value of x ∧ y.
  Bit bit_and(Bit x, Bit y) {
    if ((x.c && !x.v) || (y.c && !y.v)) return kFalse;
    if (x.c) return y;
    if (y.c) return x;
    return alloc_bit(x.v && y.v);
  }

  // Boolean::sha256_ch's case order.
  Bit ch_bit(Bit a, Bit b, Bit c) {
    const bool v = (a.v && b.v) != (!a.v && c.v);
    if (a.c && b.c && c.c) return {v, true, false};
    if (a.c && !a.v) return c;
    if (b.c && !b.v) return bit_and(negate(a), c);
    if (c.c && !c.v) return bit_and(a, b);
    if (c.c) return negate(bit_and(a, negate(b)));
    if (b.c) return negate(bit_and(negate(a), negate(c)));
    return alloc_bit(v);
  }

  // Boolean::sha256_maj's case order.
  Bit maj_bit(Bit a, Bit b, Bit c) {
    const bool v = ((a.v && b.v) != (a.v && c.v)) != (b.v && c.v);
    if (a.c && b.c && c.c) return {v, true, false};
    if (a.c && !a.v) return bit_and(b, c);
    if (b.c && !b.v) return bit_and(a, c);
    if (c.c && !c.v) return bit_and(a, b);
    if (c.c) return negate(bit_and(negate(a), negate(b)));
    if (b.c) return negate(bit_and(negate(a), negate(c)));
    if (a.c) return negate(bit_and(negate(b), negate(c)));
    const Bit m = alloc_bit(v);  // maj, then "b and c" (neither constant here)
    bit_and(b, c);
    return m;
  }

  ConstraintSystem& cs_;
  std::size_t constraints_ = 0;
  std::size_t meq_bits_ = 0;
};

// A word whose sum is deferred (sha256.cpp's Maybe).
struct Deferred {
  bool concrete = true;
  Word value;
  Word terms[8];
  unsigned count = 0;
};

// The output word: the addmany's fresh bits, or constants.
UInt32 output_word(Word w, std::uint32_t first) {
  std::array<Boolean, 32> bits;
  for (unsigned k = 0; k < 32; ++k) {
    const bool v = ((w.v >> k) & 1) != 0;
    bits[k] =
        w.c != 0 ? Boolean::constant(v) : Boolean::from(AllocatedBit(Variable::aux(first + k), v));
  }
  return UInt32::from_bits(bits);
}

}  // namespace

Result<std::array<UInt32, 8>> sha256_compression_witness(ConstraintSystem& cs,
                                                         std::span<const Boolean> block,
                                                         const std::array<UInt32, 8>& current) {
  Emitter e(cs);
  Word w[64];
  for (unsigned i = 0; i < 16; ++i) w[i] = word_of(block.subspan(32 * i, 32), true);
  Word cur[8];
  for (unsigned i = 0; i < 8; ++i) cur[i] = word_of(current[i].bits(), false);

  for (unsigned i = 16; i < 64; ++i) {
    const Word s0 = e.sigma(w[i - 15], 7, 18, 3, true);
    const Word s1 = e.sigma(w[i - 2], 17, 19, 10, true);
    const Word ops[4] = {w[i - 16], s0, w[i - 7], s1};
    w[i] = e.addmany(ops);
  }

  auto compute = [&](const Deferred& d, std::span<const Word> others,
                     std::uint32_t* first) -> Word {
    if (d.concrete) return d.value;
    Word ops[10];
    unsigned n = 0;
    for (unsigned k = 0; k < d.count; ++k) ops[n++] = d.terms[k];
    for (const Word& o : others) ops[n++] = o;
    return e.addmany(std::span<const Word>(ops, n), first);
  };

  Deferred a{true, cur[0], {}, 0};
  Word b = cur[1], c = cur[2], d = cur[3];
  Deferred ee{true, cur[4], {}, 0};
  Word f = cur[5], g = cur[6], h = cur[7];
  for (unsigned i = 0; i < 64; ++i) {
    const Word new_e = compute(ee, {}, nullptr);
    const Word s1 = e.sigma(new_e, 6, 11, 25, false);
    const Word ch = e.ch(new_e, f, g);
    const Word temp1[5] = {h, s1, ch, constant_word(kSha256RoundConstants[i]), w[i]};
    const Word new_a = compute(a, {}, nullptr);
    const Word s0 = e.sigma(new_a, 2, 13, 22, false);
    const Word maj = e.maj(new_a, b, c);
    h = g;
    g = f;
    f = new_e;
    ee.concrete = false;
    ee.count = 0;
    for (const Word& t : temp1) ee.terms[ee.count++] = t;
    ee.terms[ee.count++] = d;
    d = c;
    c = b;
    b = new_a;
    a.concrete = false;
    a.count = 0;
    for (const Word& t : temp1) a.terms[a.count++] = t;
    a.terms[a.count++] = s0;
    a.terms[a.count++] = maj;
  }

  // Each output word is an addmany's fresh bits (first = its first variable).
  std::array<UInt32, 8> out;
  auto emit = [&](unsigned k, const Deferred* deferred, Word x, Word y) {
    std::uint32_t first = 0;
    const Word ops[2] = {x, y};
    const Word r = deferred ? compute(*deferred, std::span<const Word>(&x, 1), &first)
                            : e.addmany(ops, &first);
    out[k] = output_word(r, first);
  };
  emit(0, &a, cur[0], {});
  emit(1, nullptr, cur[1], b);
  emit(2, nullptr, cur[2], c);
  emit(3, nullptr, cur[3], d);
  emit(4, &ee, cur[4], {});
  emit(5, nullptr, cur[5], f);
  emit(6, nullptr, cur[6], g);
  emit(7, nullptr, cur[7], h);
  e.finish();
  return out;
}

}  // namespace cuzk
