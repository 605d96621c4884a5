#include "cuzk/r1cs/gadgets/uint64.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"

namespace cuzk {

UInt64 UInt64::constant(std::uint64_t v) {
  UInt64 r;
  for (unsigned i = 0; i < 64; ++i) r.bits_[i] = Boolean::constant(((v >> i) & 1) != 0);
  r.value_ = v;
  return r;
}

Result<UInt64> UInt64::alloc(ConstraintSystem& cs, std::optional<std::uint64_t> v) {
  UInt64 r;
  for (unsigned i = 0; i < 64; ++i) {
    Namespace ns(cs, [i] { return "allocated bit " + std::to_string(i); });
    std::optional<bool> b;
    if (v) b = ((*v >> i) & 1) != 0;
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    r.bits_[i] = Boolean::from(bit);
  }
  r.value_ = v;
  return r;
}

UInt64 UInt64::from_bits_be(std::span<const Boolean> bits) {
  UInt64 r;
  std::optional<std::uint64_t> v = 0;
  for (unsigned i = 0; i < 64; ++i) {
    r.bits_[63 - i] = bits[i];
    auto bv = bits[i].value();
    if (v && bv) v = (*v << 1) | (*bv ? 1u : 0u); else v = std::nullopt;
  }
  r.value_ = v;
  return r;
}

UInt64 UInt64::from_bits(std::span<const Boolean> bits) {
  UInt64 r;
  std::optional<std::uint64_t> v = 0;
  for (unsigned i = 64; i-- > 0;) {
    r.bits_[i] = bits[i];
    auto bv = bits[i].value();
    if (v && bv) v = (*v << 1) | (*bv ? 1u : 0u); else v = std::nullopt;
  }
  r.value_ = v;
  return r;
}

Status UInt64::pack_into_input(ConstraintSystem& cs) const { return pack_into_inputs(cs, bits_); }

}  // namespace cuzk
