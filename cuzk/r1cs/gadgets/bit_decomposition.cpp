#include "cuzk/r1cs/gadgets/bit_decomposition.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {
namespace {

// (Σ 2^i·b_i)·ONE = x under |name|.
void enforce_packed(ConstraintSystem& cs, const std::string& name,
                    const std::vector<AllocatedBit>& bits, const AllocatedNum& x) {
  cs.enforce(
      name,
      [&] {
        LC lc;
        Fr pow2 = Fr::one();
        for (const AllocatedBit& b : bits) {
          lc.add(pow2, b.variable());
          pow2 = pow2.dbl();
        }
        return lc;
      },
      Variable::one(), x.variable());
}

}  // namespace

Result<std::vector<AllocatedBit>> num_into_bits_le_packed(ConstraintSystem& cs,
                                                          const AllocatedNum& x) {
  CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedBit> bits,
                        field_into_allocated_bits_le(cs, x.value()));
  enforce_packed(cs, "binary decomp", bits, x);
  return bits;
}

Result<std::vector<AllocatedBit>> low_bits_le_packed(ConstraintSystem& cs, const AllocatedNum& x,
                                                     std::size_t count, std::string_view prefix) {
  if (count > FrParams::bits)
    return Status(Errc::invalid_argument,
                  "low_bits_le_packed: " + std::to_string(count) + " bits of a 255-bit field");
  std::vector<AllocatedBit> bits;
  bits.reserve(count);
  const std::optional<Fr> value = x.value();
  for (std::size_t i = 0; i < count; ++i) {
    Namespace ns(cs, [&] { return std::string(prefix) + "_bit_" + std::to_string(i); });
    std::optional<bool> b;
    if (value) b = fr_bit(*value, static_cast<unsigned>(i));
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    bits.push_back(bit);
  }
  enforce_packed(cs, std::string(prefix) + " binary decomp", bits, x);
  return bits;
}

std::vector<bool> bits_le_native(const Fr& x, std::size_t count) {
  std::vector<bool> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = fr_bit(x, static_cast<unsigned>(i));
  return out;
}

Fr pack_bits_le_native(const std::vector<bool>& bits) {
  Fr acc = Fr::zero(), pow2 = Fr::one();
  for (bool b : bits) {
    if (b) acc += pow2;
    pow2 = pow2.dbl();
  }
  return acc;
}

}  // namespace cuzk
