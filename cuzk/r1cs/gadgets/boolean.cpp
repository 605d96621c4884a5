#include "cuzk/r1cs/gadgets/boolean.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/bit_value.hpp"

namespace cuzk {
namespace {

std::optional<Fr> bit_fr(std::optional<bool> v) {
  if (!v) return std::nullopt;
  return *v ? Fr::one() : Fr::zero();
}

// Allocates a result bit named |name| with value f(a, b) when both are known.
template <class F>
Result<Variable> alloc_result(ConstraintSystem& cs, const char* name, std::optional<bool> a,
                              std::optional<bool> b, F f, std::optional<bool>& out) {
  out = (a && b) ? std::optional<bool>(f(*a, *b)) : std::nullopt;
  return cs.alloc(name, [&] { return bit_fr(out); });
}

}  // namespace

Result<AllocatedBit> AllocatedBit::alloc(ConstraintSystem& cs, std::optional<bool> value) {
  CUZK_ASSIGN_OR_RETURN(Variable v, cs.alloc("boolean", [&] { return bit_fr(value); }));
  cs.enforce(
      "boolean constraint", [&] { return LC(Variable::one()) - v; }, v, [] { return LC(); });
  return AllocatedBit(v, value);
}

Result<AllocatedBit> AllocatedBit::alloc_conditionally(ConstraintSystem& cs,
                                                       std::optional<bool> value,
                                                       const AllocatedBit& must_be_false) {
  CUZK_ASSIGN_OR_RETURN(Variable v, cs.alloc("boolean", [&] { return bit_fr(value); }));
  cs.enforce(
      "boolean constraint", [&] { return LC(Variable::one()) - must_be_false.var_ - v; }, v,
      [] { return LC(); });
  return AllocatedBit(v, value);
}

Result<AllocatedBit> AllocatedBit::bit_xor(ConstraintSystem& cs, const AllocatedBit& a,
                                           const AllocatedBit& b) {
  std::optional<bool> r;
  CUZK_ASSIGN_OR_RETURN(Variable c, alloc_result(
                                        cs, "xor result", a.value_, b.value_,
                                        [](bool x, bool y) { return x != y; }, r));
  cs.enforce(
      "xor constraint", [&] { return LC(a.var_) + a.var_; }, b.var_,
      [&] { return LC(a.var_) + b.var_ - c; });
  return AllocatedBit(c, r);
}

Result<AllocatedBit> AllocatedBit::bit_and(ConstraintSystem& cs, const AllocatedBit& a,
                                           const AllocatedBit& b) {
  std::optional<bool> r;
  CUZK_ASSIGN_OR_RETURN(Variable c, alloc_result(
                                        cs, "and result", a.value_, b.value_,
                                        [](bool x, bool y) { return x && y; }, r));
  cs.enforce("and constraint", a.var_, b.var_, c);
  return AllocatedBit(c, r);
}

Result<AllocatedBit> AllocatedBit::and_not(ConstraintSystem& cs, const AllocatedBit& a,
                                           const AllocatedBit& b) {
  std::optional<bool> r;
  CUZK_ASSIGN_OR_RETURN(Variable c, alloc_result(
                                        cs, "and not result", a.value_, b.value_,
                                        [](bool x, bool y) { return x && !y; }, r));
  cs.enforce(
      "and not constraint", a.var_, [&] { return LC(Variable::one()) - b.var_; }, c);
  return AllocatedBit(c, r);
}

Result<AllocatedBit> AllocatedBit::nor(ConstraintSystem& cs, const AllocatedBit& a,
                                       const AllocatedBit& b) {
  std::optional<bool> r;
  CUZK_ASSIGN_OR_RETURN(Variable c, alloc_result(
                                        cs, "nor result", a.value_, b.value_,
                                        [](bool x, bool y) { return !x && !y; }, r));
  cs.enforce(
      "nor constraint", [&] { return LC(Variable::one()) - a.var_; },
      [&] { return LC(Variable::one()) - b.var_; }, c);
  return AllocatedBit(c, r);
}

std::optional<bool> Boolean::value() const {
  switch (kind_) {
    case Kind::constant:
      return const_;
    case Kind::is:
      return bit_.value();
    case Kind::negated: {
      auto v = bit_.value();
      if (!v) return std::nullopt;
      return !*v;
    }
  }
  return std::nullopt;
}

LC Boolean::lc(const Fr& coeff) const {
  LC r;
  switch (kind_) {
    case Kind::constant:
      if (const_) r.add(coeff, Variable::one());
      break;
    case Kind::is:
      r.add(coeff, bit_.variable());
      break;
    case Kind::negated:
      r.add(coeff, Variable::one());
      r.sub(coeff, bit_.variable());
      break;
  }
  return r;
}

Boolean Boolean::negate() const {
  Boolean r = *this;
  switch (kind_) {
    case Kind::constant:
      r.const_ = !const_;
      break;
    case Kind::is:
      r.kind_ = Kind::negated;
      break;
    case Kind::negated:
      r.kind_ = Kind::is;
      break;
  }
  return r;
}

namespace {
bool is_const(const Boolean& x, bool v) { return x.is_constant() && x.constant_value() == v; }
}  // namespace

Result<Boolean> Boolean::bit_xor(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (is_const(a, false)) return b;
  if (is_const(b, false)) return a;
  if (is_const(a, true)) return b.negate();
  if (is_const(b, true)) return a.negate();
  if (a.kind_ == Kind::is && b.kind_ == Kind::negated) {
    CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::bit_xor(cs, a.bit_, b.bit_));
    return Boolean::from(r).negate();
  }
  if (a.kind_ == Kind::negated && b.kind_ == Kind::is) {
    CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::bit_xor(cs, b.bit_, a.bit_));
    return Boolean::from(r).negate();
  }
  CUZK_ASSIGN_OR_RETURN(AllocatedBit r, AllocatedBit::bit_xor(cs, a.bit_, b.bit_));
  return Boolean::from(r);
}

Result<Boolean> Boolean::bit_and(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (is_const(a, false) || is_const(b, false)) return Boolean::constant(false);
  if (is_const(a, true)) return b;
  if (is_const(b, true)) return a;
  Result<AllocatedBit> r = Status();
  if (a.kind_ == Kind::is && b.kind_ == Kind::negated) {
    r = AllocatedBit::and_not(cs, a.bit_, b.bit_);
  } else if (a.kind_ == Kind::negated && b.kind_ == Kind::is) {
    r = AllocatedBit::and_not(cs, b.bit_, a.bit_);
  } else if (a.kind_ == Kind::negated) {
    r = AllocatedBit::nor(cs, a.bit_, b.bit_);
  } else {
    r = AllocatedBit::bit_and(cs, a.bit_, b.bit_);
  }
  if (!r) return r.status();
  return Boolean::from(*r);
}

Result<Boolean> Boolean::bit_or(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  Namespace ns(cs, "not and (not a) (not b)");
  CUZK_ASSIGN_OR_RETURN(Boolean r, bit_and(cs, a.negate(), b.negate()));
  return r.negate();
}

Status Boolean::enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.const_ == b.const_) return {};
    return Status(Errc::invalid_argument, "enforce_equal of two different constants");
  }
  if (is_const(a, true) || is_const(b, true)) {
    const Boolean& x = is_const(a, true) ? b : a;
    cs.enforce(
        "enforce equal to one", [] { return LC(); }, [] { return LC(); },
        [&] { return LC(Variable::one()) - x.lc(); });
    return {};
  }
  if (is_const(a, false) || is_const(b, false)) {
    const Boolean& x = is_const(a, false) ? b : a;
    cs.enforce(
        "enforce equal to zero", [] { return LC(); }, [] { return LC(); }, [&] { return x.lc(); });
    return {};
  }
  cs.enforce(
      "enforce equal", [] { return LC(); }, [] { return LC(); }, [&] { return a.lc() - b.lc(); });
  return {};
}

Result<Boolean> Boolean::sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                   const Boolean& c) {
  std::optional<bool> v;
  if (a.value() && b.value() && c.value())
    v = (*a.value() && *b.value()) != (!*a.value() && *c.value());
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(*v);
  if (is_const(a, false)) return c;
  if (is_const(b, false)) return bit_and(cs, a.negate(), c);
  if (is_const(c, false)) return bit_and(cs, a, b);
  if (is_const(c, true)) {
    CUZK_ASSIGN_OR_RETURN(Boolean r, bit_and(cs, a, b.negate()));
    return r.negate();
  }
  if (is_const(b, true)) {
    CUZK_ASSIGN_OR_RETURN(Boolean r, bit_and(cs, a.negate(), c.negate()));
    return r.negate();
  }
  CUZK_ASSIGN_OR_RETURN(Variable ch, cs.alloc("ch", [&] { return bit_fr(v); }));
  cs.enforce(
      "ch computation", [&] { return b.lc() - c.lc(); }, [&] { return a.lc(); },
      [&] { return LC(ch) - c.lc(); });
  return Boolean::from(AllocatedBit(ch, v));
}

Result<Boolean> Boolean::sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b,
                                    const Boolean& c) {
  std::optional<bool> v;
  if (a.value() && b.value() && c.value()) {
    const bool x = *a.value(), y = *b.value(), z = *c.value();
    v = ((x && y) != (x && z)) != (y && z);
  }
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(*v);
  if (is_const(a, false)) return bit_and(cs, b, c);
  if (is_const(b, false)) return bit_and(cs, a, c);
  if (is_const(c, false)) return bit_and(cs, a, b);
  auto not_and_not = [&](const Boolean& x, const Boolean& y) -> Result<Boolean> {
    CUZK_ASSIGN_OR_RETURN(Boolean r, bit_and(cs, x.negate(), y.negate()));
    return r.negate();
  };
  if (is_const(c, true)) return not_and_not(a, b);
  if (is_const(b, true)) return not_and_not(a, c);
  if (is_const(a, true)) return not_and_not(b, c);
  CUZK_ASSIGN_OR_RETURN(Variable maj, cs.alloc("maj", [&] { return bit_fr(v); }));
  Result<Boolean> bc_r = Status();
  {
    Namespace ns(cs, "b and c");
    bc_r = bit_and(cs, b, c);
  }
  if (!bc_r) return bc_r.status();
  const Boolean& bc = *bc_r;
  cs.enforce(
      "maj computation", [&] { return bc.lc() + bc.lc() - b.lc() - c.lc(); },
      [&] { return a.lc(); }, [&] { return bc.lc() - maj; });
  return Boolean::from(AllocatedBit(maj, v));
}

Result<std::vector<Boolean>> u64_into_boolean_vec_le(ConstraintSystem& cs,
                                                     std::optional<std::uint64_t> value) {
  std::vector<Boolean> bits;
  bits.reserve(64);
  if (value && cs.fast_witness()) {
    // Witness fast path: the 64 values in one block, one booleanity constraint each.
    const ConstraintSystem::AuxBlock blk = cs.alloc_aux_block(64);
    for (unsigned i = 0; i < 64; ++i) {
      const bool b = ((*value >> i) & 1) != 0;
      blk.values[i] = bit_value(b);
      bits.push_back(Boolean::from(AllocatedBit(Variable::aux(blk.first + i), b)));
    }
    cs.count_skipped_constraints(64);
    return bits;
  }
  for (unsigned i = 0; i < 64; ++i) {
    Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    std::optional<bool> b;
    if (value) b = ((*value >> i) & 1) != 0;
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    bits.push_back(Boolean::from(bit));
  }
  return bits;
}

Result<std::vector<AllocatedBit>> field_into_allocated_bits_le(ConstraintSystem& cs,
                                                               std::optional<Fr> value) {
  std::vector<AllocatedBit> bits;
  bits.reserve(FrParams::bits);
  Limbs<4> c{};
  if (value) c = value->to_canonical();
  if (value && cs.fast_witness()) {
    // Witness fast path: the 255 values in one block, one booleanity constraint each.
    const ConstraintSystem::AuxBlock blk = cs.alloc_aux_block(FrParams::bits);
    for (unsigned i = 0; i < FrParams::bits; ++i) {
      const bool b = ((c[i / 64] >> (i % 64)) & 1) != 0;
      blk.values[i] = bit_value(b);
      bits.emplace_back(Variable::aux(blk.first + i), b);
    }
    cs.count_skipped_constraints(FrParams::bits);
    return bits;
  }
  for (unsigned i = 0; i < FrParams::bits; ++i) {
    Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    std::optional<bool> b;
    if (value) b = ((c[i / 64] >> (i % 64)) & 1) != 0;
    CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
    bits.push_back(bit);
  }
  return bits;
}

}  // namespace cuzk
