#include "cuzk/r1cs/gadgets/multipack.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {
namespace {

Num pack_chunk(std::span<const Boolean> bits) {
  Num num = Num::zero();
  Fr coeff = Fr::one();
  for (const Boolean& b : bits) {
    num = num.add_bool_with_coeff(b, coeff);
    coeff = coeff.dbl();
  }
  return num;
}

// Witness fast path: Σ 2^j·b_j of at most 254 bits as an integer below r, without the Num's LC;
// nullopt when a value is missing (the generic path then names it).
std::optional<Fr> packed_value(std::span<const Boolean> bits) {
  Limbs<4> c{};
  for (std::size_t j = 0; j < bits.size(); ++j) {
    const std::optional<bool> v = bits[j].value();
    if (!v) return std::nullopt;
    c[j / 64] |= std::uint64_t{*v} << (j % 64);
  }
  return Fr::from_canonical_unchecked(c);
}

}  // namespace

Status pack_into_inputs(ConstraintSystem& cs, std::span<const Boolean> bits) {
  for (std::size_t i = 0, off = 0; off < bits.size(); ++i, off += kFrCapacity) {
    const std::span<const Boolean> chunk =
        bits.subspan(off, std::min(kFrCapacity, bits.size() - off));
    if (cs.fast_witness()) {
      if (const std::optional<Fr> v = packed_value(chunk)) {
        CUZK_ASSIGN_OR_RETURN(Variable input, cs.alloc_input("input", [&] { return *v; }));
        (void)input;
        cs.count_skipped_constraints(1);  // packing constraint i
        continue;
      }
    }
    const Num num = pack_chunk(chunk);
    auto value = num.value();
    CUZK_ASSIGN_OR_RETURN(
        Variable input,
        cs.alloc_input([i] { return "input " + std::to_string(i); }, [&] { return value; }));
    cs.enforce([i] { return "packing constraint " + std::to_string(i); }, num.raw_lc(),
               Variable::one(), input);
  }
  return {};
}

Result<AllocatedNum> pack_bits(ConstraintSystem& cs, std::span<const Boolean> bits) {
  const std::span<const Boolean> chunk = bits.first(std::min(kFrCapacity, bits.size()));
  if (cs.fast_witness()) {
    if (const std::optional<Fr> v = packed_value(chunk)) {
      const ConstraintSystem::AuxBlock blk = cs.alloc_aux_block(1);
      blk.values[0] = *v;
      cs.count_skipped_constraints(1);  // packing constraint
      return AllocatedNum(Variable::aux(blk.first), *v);
    }
  }
  const Num num = pack_chunk(chunk);
  Result<AllocatedNum> n = Status();
  {
    Namespace ns(cs, "input");
    n = AllocatedNum::alloc(cs, num.value());
  }
  if (!n) return n;
  cs.enforce("packing constraint", num.raw_lc(), Variable::one(), n->variable());
  return n;
}

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
  std::vector<Fr> out;
  for (std::size_t off = 0; off < bits.size(); off += kFrCapacity) {
    Fr cur = Fr::zero(), coeff = Fr::one();
    for (std::size_t j = off; j < std::min(bits.size(), off + kFrCapacity); ++j) {
      if (bits[j]) cur += coeff;
      coeff = coeff.dbl();
    }
    out.push_back(cur);
  }
  return out;
}

std::vector<bool> bytes_to_bits(std::span<const std::uint8_t> bytes) {
  std::vector<bool> r;
  for (std::uint8_t v : bytes)
    for (int i = 7; i >= 0; --i) r.push_back(((v >> i) & 1) != 0);
  return r;
}

std::vector<bool> bytes_to_bits_le(std::span<const std::uint8_t> bytes) {
  std::vector<bool> r;
  for (std::uint8_t v : bytes)
    for (int i = 0; i < 8; ++i) r.push_back(((v >> i) & 1) != 0);
  return r;
}

}  // namespace cuzk
