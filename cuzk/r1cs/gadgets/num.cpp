#include "cuzk/r1cs/gadgets/num.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {
namespace {

template <class F>
std::optional<Fr> both(std::optional<Fr> a, std::optional<Fr> b, F f) {
  if (!a || !b) return std::nullopt;
  return f(*a, *b);
}

}  // namespace

Result<AllocatedNum> AllocatedNum::alloc(ConstraintSystem& cs, std::optional<Fr> value) {
  CUZK_ASSIGN_OR_RETURN(Variable v, cs.alloc("num", [&] { return value; }));
  return AllocatedNum(v, value);
}

Result<AllocatedNum> AllocatedNum::alloc_input(ConstraintSystem& cs, std::optional<Fr> value) {
  CUZK_ASSIGN_OR_RETURN(Variable v, cs.alloc_input("input num", [&] { return value; }));
  return AllocatedNum(v, value);
}

Status AllocatedNum::inputize(ConstraintSystem& cs) const {
  CUZK_ASSIGN_OR_RETURN(Variable in, cs.alloc_input("input variable", [&] { return value_; }));
  cs.enforce("enforce input is correct", LC(in), LC(Variable::one()), LC(var_));
  return {};
}

Result<std::vector<Boolean>> AllocatedNum::to_bits_le(ConstraintSystem& cs) const {
  CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedBit> bits, field_into_allocated_bits_le(cs, value_));
  std::vector<Boolean> out;
  out.reserve(bits.size());
  if (cs.wants_constraints()) {
    LC lc;
    Fr coeff = Fr::one();
    for (const AllocatedBit& b : bits) {
      lc.add(coeff, b.variable());
      coeff = coeff.dbl();
    }
    lc.sub(var_);
    cs.enforce("unpacking constraint", LC(), LC(), lc);
  } else {
    cs.enforce("unpacking constraint", LC(), LC(), LC());
  }
  for (const AllocatedBit& b : bits) out.push_back(Boolean::from(b));
  return out;
}

Result<std::vector<Boolean>> AllocatedNum::to_bits_le_strict(ConstraintSystem& cs) const {
  // Walk r − 1 from its top set bit down: bits under a run of ones in r − 1 are plain bits; after
  // a run, last_run = AND of the run's bits (and the previous last_run), and each bit under a
  // zero of r − 1 is forced to 0 while last_run is 1. Bellpepper's kary_and: a left fold of ANDs.
  const Limbs<4> rm1 = (Fr::zero() - Fr::one()).to_canonical();
  Limbs<4> av{};
  if (value_) av = value_->to_canonical();
  auto rbit = [&](int i) { return ((rm1[i / 64] >> (i % 64)) & 1) != 0; };
  auto abit = [&](int i) -> std::optional<bool> {
    if (!value_) return std::nullopt;
    return ((av[i / 64] >> (i % 64)) & 1) != 0;
  };
  std::vector<AllocatedBit> result;  // big-endian
  std::optional<AllocatedBit> last_run;
  std::vector<AllocatedBit> current_run;
  bool found_one = false;
  unsigned idx = 0;
  for (int i = 255; i >= 0; --i) {
    const bool b = rbit(i);
    found_one |= b;
    if (!found_one) continue;
    if (b) {
      Namespace ns(cs, [idx] { return "bit " + std::to_string(idx); });
      CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, abit(i)));
      current_run.push_back(bit);
      result.push_back(bit);
    } else {
      if (!current_run.empty()) {
        if (last_run) current_run.push_back(*last_run);
        Namespace ns(cs, [idx] { return "run ending at " + std::to_string(idx); });
        AllocatedBit cur = current_run[0];
        for (std::size_t k = 1; k < current_run.size(); ++k) {
          Namespace ns2(cs, [k] { return "and " + std::to_string(k); });
          CUZK_ASSIGN_OR_RETURN(cur, AllocatedBit::bit_and(cs, cur, current_run[k]));
        }
        last_run = cur;
        current_run.clear();
      }
      Namespace ns(cs, [idx] { return "bit " + std::to_string(idx); });
      CUZK_ASSIGN_OR_RETURN(AllocatedBit bit,
                            AllocatedBit::alloc_conditionally(cs, abit(i), *last_run));
      result.push_back(bit);
    }
    ++idx;
  }
  LC lc;
  Fr coeff = Fr::one();
  for (auto it = result.rbegin(); it != result.rend(); ++it) {
    lc.add(coeff, it->variable());
    coeff = coeff.dbl();
  }
  lc.sub(var_);
  cs.enforce("unpacking constraint", LC(), LC(), lc);
  std::vector<Boolean> out;
  for (auto it = result.rbegin(); it != result.rend(); ++it) out.push_back(Boolean::from(*it));
  return out;
}

Result<AllocatedNum> AllocatedNum::add(ConstraintSystem& cs, const AllocatedNum& other) const {
  auto v = both(value_, other.value_, [](const Fr& a, const Fr& b) { return a + b; });
  CUZK_ASSIGN_OR_RETURN(Variable c, cs.alloc("sum num", [&] { return v; }));
  cs.enforce("addition constraint", LC(var_) + other.var_, LC(Variable::one()), LC(c));
  return AllocatedNum(c, v);
}

Result<AllocatedNum> AllocatedNum::mul(ConstraintSystem& cs, const AllocatedNum& other) const {
  auto v = both(value_, other.value_, [](const Fr& a, const Fr& b) { return a * b; });
  CUZK_ASSIGN_OR_RETURN(Variable c, cs.alloc("product num", [&] { return v; }));
  cs.enforce("multiplication constraint", LC(var_), LC(other.var_), LC(c));
  return AllocatedNum(c, v);
}

Result<AllocatedNum> AllocatedNum::square(ConstraintSystem& cs) const {
  std::optional<Fr> v;
  if (value_) v = value_->square();
  CUZK_ASSIGN_OR_RETURN(Variable c, cs.alloc("squared num", [&] { return v; }));
  cs.enforce("squaring constraint", LC(var_), LC(var_), LC(c));
  return AllocatedNum(c, v);
}

Result<AllocatedNum> AllocatedNum::inverse(ConstraintSystem& cs) const {
  std::optional<Fr> v;
  if (value_ && !value_->is_zero()) v = value_->inverse_vartime();
  CUZK_ASSIGN_OR_RETURN(Variable c, cs.alloc("inverse num", [&]() -> Result<Fr> {
    if (!value_) return Status(Errc::invalid_argument, "value missing");
    if (!v) return Status(Errc::invalid_argument, "inverse of zero");
    return *v;
  }));
  cs.enforce("inverse constraint", LC(var_), LC(c), LC(Variable::one()));
  return AllocatedNum(c, v);
}

Status AllocatedNum::assert_nonzero(ConstraintSystem& cs) const {
  CUZK_ASSIGN_OR_RETURN(Variable inv, cs.alloc("ephemeral inverse", [&]() -> Result<Fr> {
    if (!value_) return Status(Errc::invalid_argument, "value missing");
    if (value_->is_zero()) return Status(Errc::invalid_argument, "division by zero");
    return value_->inverse_vartime();
  }));
  cs.enforce("nonzero assertion constraint", LC(var_), LC(inv), LC(Variable::one()));
  return {};
}

Result<std::pair<AllocatedNum, AllocatedNum>> AllocatedNum::conditionally_reverse(
    ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b, const Boolean& condition) {
  auto sel = [&](bool swap_first) -> std::optional<Fr> {
    auto c = condition.value();
    if (!c) return std::nullopt;
    return (*c == swap_first) ? b.value_ : a.value_;
  };
  Result<AllocatedNum> c_r = Status();
  {
    Namespace ns(cs, "conditional reversal result 1");
    c_r = alloc(cs, sel(true));
  }
  if (!c_r) return c_r.status();
  cs.enforce("first conditional reversal", LC(a.var_) - b.var_, condition.lc(),
             LC(a.var_) - c_r->var_);
  Result<AllocatedNum> d_r = Status();
  {
    Namespace ns(cs, "conditional reversal result 2");
    d_r = alloc(cs, sel(false));
  }
  if (!d_r) return d_r.status();
  cs.enforce("second conditional reversal", LC(b.var_) - a.var_, condition.lc(),
             LC(b.var_) - d_r->var_);
  return std::make_pair(*c_r, *d_r);
}

Result<AllocatedNum> pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a,
                          const AllocatedNum& b) {
  std::optional<Fr> v;
  if (auto c = condition.value()) v = *c ? a.value() : b.value();
  Result<AllocatedNum> c_r = Status();
  {
    Namespace ns(cs, "pick result");
    c_r = AllocatedNum::alloc(cs, v);
  }
  if (!c_r) return c_r;
  cs.enforce(
      "pick", [&] { return LC(b.variable()) - a.variable(); }, [&] { return condition.lc(); },
      [&] { return LC(b.variable()) - c_r->variable(); });
  return c_r;
}

void enforce_equal(ConstraintSystem& cs, const char* name, const AllocatedNum& a,
                   const AllocatedNum& b) {
  cs.enforce(name, LC(a.variable()), LC(Variable::one()), LC(b.variable()));
}

Num Num::add_bool_with_coeff(const Boolean& bit, const Fr& coeff) const {
  Num r;
  r.lc_ = lc_;
  r.lc_.add(bit.lc(coeff));
  if (value_ && bit.value()) {
    r.value_ = *bit.value() ? *value_ + coeff : *value_;
  } else {
    r.value_ = std::nullopt;
  }
  return r;
}

Num Num::add(const Num& o) const {
  Num r;
  r.lc_ = lc_;
  r.lc_.add(o.lc_);
  r.value_ = both(value_, o.value_, [](const Fr& a, const Fr& b) { return a + b; });
  return r;
}

Num Num::scale(const Fr& s) const {
  Num r;
  r.lc_ = lc_.scaled(s);
  if (value_)
    r.value_ = *value_ * s;
  else
    r.value_ = std::nullopt;
  return r;
}

}  // namespace cuzk
