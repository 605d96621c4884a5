#include "cuzk/r1cs/gadgets/uint64.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/word_bits.hpp"

namespace cuzk {

UInt64 UInt64::constant(std::uint64_t v) {
  UInt64 r;
  word_bits::constant<64>(v, r.bits_);
  r.value_ = v;
  return r;
}

Result<UInt64> UInt64::alloc(ConstraintSystem& cs, std::optional<std::uint64_t> v) {
  UInt64 r;
  CUZK_RETURN_IF_ERROR(word_bits::alloc<64>(cs, v, r.bits_));
  r.value_ = v;
  return r;
}

UInt64 UInt64::from_bits_be(std::span<const Boolean> bits) {
  UInt64 r;
  for (unsigned i = 0; i < 64; ++i) r.bits_[63 - i] = bits[i];
  r.value_ = word_bits::value_msb_first<64, std::uint64_t>(bits);
  return r;
}

UInt64 UInt64::from_bits(std::span<const Boolean> bits) {
  UInt64 r;
  for (unsigned i = 0; i < 64; ++i) r.bits_[i] = bits[i];
  r.value_ = word_bits::value_lsb_first<64, std::uint64_t>(bits);
  return r;
}

Status UInt64::pack_into_input(ConstraintSystem& cs) const { return pack_into_inputs(cs, bits_); }

}  // namespace cuzk
