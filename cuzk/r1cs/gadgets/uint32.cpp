#include "cuzk/r1cs/gadgets/uint32.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/word_bits.hpp"

namespace cuzk {

UInt32 UInt32::constant(std::uint32_t v) {
  UInt32 r;
  word_bits::constant<32>(v, r.bits_);
  r.value_ = v;
  return r;
}

Result<UInt32> UInt32::alloc(ConstraintSystem& cs, std::optional<std::uint32_t> v) {
  UInt32 r;
  CUZK_RETURN_IF_ERROR(word_bits::alloc<32>(cs, v, r.bits_));
  r.value_ = v;
  return r;
}

UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) r.bits_[31 - i] = bits[i];
  r.value_ = word_bits::value_msb_first<32, std::uint32_t>(bits);
  return r;
}

UInt32 UInt32::from_bits(std::span<const Boolean> bits) {
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) r.bits_[i] = bits[i];
  r.value_ = word_bits::value_lsb_first<32, std::uint32_t>(bits);
  return r;
}

std::vector<Boolean> UInt32::into_bits_be() const {
  return std::vector<Boolean>(bits_.rbegin(), bits_.rend());
}

UInt32 UInt32::rotr(unsigned by) const {
  by %= 32;
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) r.bits_[i] = bits_[(i + by) % 32];
  if (value_) r.value_ = by == 0 ? *value_ : (*value_ >> by) | (*value_ << (32 - by));
  return r;
}

UInt32 UInt32::shr(unsigned by) const {
  by %= 32;
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i)
    r.bits_[i] = i + by < 32 ? bits_[i + by] : Boolean::constant(false);
  if (value_) r.value_ = *value_ >> by;
  return r;
}

Result<UInt32> UInt32::bit_xor(ConstraintSystem& cs, const UInt32& other) const {
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) {
    Namespace ns(cs, [i] { return "xor of bit " + std::to_string(i); });
    CUZK_ASSIGN_OR_RETURN(r.bits_[i], Boolean::bit_xor(cs, bits_[i], other.bits_[i]));
  }
  if (value_ && other.value_) r.value_ = *value_ ^ *other.value_;
  return r;
}

Result<UInt32> UInt32::sha256_ch(ConstraintSystem& cs, const UInt32& a, const UInt32& b,
                                 const UInt32& c) {
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) {
    Namespace ns(cs, [i] { return "ch " + std::to_string(i); });
    CUZK_ASSIGN_OR_RETURN(r.bits_[i], Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]));
  }
  if (a.value_ && b.value_ && c.value_)
    r.value_ = (*a.value_ & *b.value_) ^ (~*a.value_ & *c.value_);
  return r;
}

Result<UInt32> UInt32::sha256_maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b,
                                  const UInt32& c) {
  UInt32 r;
  for (unsigned i = 0; i < 32; ++i) {
    Namespace ns(cs, [i] { return "maj " + std::to_string(i); });
    CUZK_ASSIGN_OR_RETURN(r.bits_[i], Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]));
  }
  if (a.value_ && b.value_ && c.value_) {
    r.value_ = (*a.value_ & *b.value_) ^ (*a.value_ & *c.value_) ^ (*b.value_ & *c.value_);
  }
  return r;
}

Result<UInt32> UInt32::addmany(ConstraintSystem& cs, MultiEq& meq,
                               std::span<const UInt32> operands) {
  if (operands.size() < 2 || operands.size() > 10) {
    return Status(Errc::invalid_argument, "addmany takes 2..10 operands");
  }
  std::uint64_t max_value = operands.size() * std::uint64_t{0xffffffffu};
  bool known = true;
  std::uint64_t sum = 0;
  bool all_constants = true;
  const bool want = cs.wants_constraints();
  LC lc;
  for (const UInt32& op : operands) {
    if (op.value_ && known) {
      sum += *op.value_;
    } else {
      known = false;
    }
    if (want) {
      Fr coeff = Fr::one();
      for (const Boolean& bit : op.bits_) {
        lc.add(bit.lc(coeff));
        coeff = coeff.dbl();
      }
    }
    for (const Boolean& bit : op.bits_) all_constants &= bit.is_constant();
  }
  std::optional<std::uint64_t> result;
  std::optional<std::uint32_t> modular;
  if (known) {
    result = sum;
    modular = static_cast<std::uint32_t>(sum);
  }
  if (all_constants && modular) return constant(*modular);

  std::vector<Boolean> bits;
  LC result_lc;
  Fr coeff = Fr::one();
  std::size_t i = 0;
  while (max_value != 0) {
    Namespace ns(cs, [i] { return "result bit " + std::to_string(i); });
    std::optional<bool> b;
    if (result) b = ((*result >> i) & 1) != 0;
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    if (want) {
      result_lc.add(coeff, bit.variable());
      coeff = coeff.dbl();
    }
    bits.push_back(Boolean::from(bit));
    max_value >>= 1;
    ++i;
  }
  meq.enforce_equal(i, lc, result_lc);
  UInt32 r;
  for (unsigned k = 0; k < 32; ++k) r.bits_[k] = bits[k];
  r.value_ = modular;
  return r;
}

}  // namespace cuzk
