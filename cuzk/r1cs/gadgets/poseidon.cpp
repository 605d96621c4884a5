#include "cuzk/r1cs/gadgets/poseidon.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/poseidon_witness.hpp"

namespace cuzk {

namespace {
using Matrix = std::vector<std::vector<Fr>>;

Fr pow5(const Fr& x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}
}  // namespace

std::size_t poseidon_circuit_constraints(const PoseidonConstants& c) {
  const std::size_t rounds = c.width * c.full_rounds + c.partial_rounds;
  return 3 * (rounds - 1) + (rounds - c.arity);
}

namespace {

// neptune's Elt: an allocated number or a linear combination with its value. When the system
// ignores constraints (witness generation) the LCs are not built; only values and the
// allocation order remain. The LCs are kept normalized (lc.hpp: add_merged, add_scaled), as
// bellpepper's LinearCombination keeps its terms merged: a round's LC is a merge of the previous
// round's, O(its distinct terms), where appending would repeat every term of every earlier round
// (a partial round's S-box input had (width − 1)·(width + round) terms to sort).
struct Elt {
  bool allocated = false;
  Variable var;
  std::optional<Fr> value;
  LC lc;  // for !allocated (kept empty when !want)

  static Elt constant(const Fr& v, bool want) {
    Elt e;
    e.value = v;
    if (want) e.lc.add_merged(v, Variable::one());
    return e;
  }
  static Elt from(const AllocatedNum& n) {
    Elt e;
    e.allocated = true;
    e.var = n.variable();
    e.value = n.value();
    return e;
  }
  LC as_lc() const { return allocated ? LC(var) : lc; }
};

// The LCs one hash materialises (ensure_allocated's LC·1 = v constraints, in order), over the
// hash's own variables numbered from its first allocation: aux(j) is the j-th variable the hash
// allocates; ONE is ONE. They depend on the constants and the tag only — the preimage never
// reaches them (every element is an S-box output after the first round) — so they are computed
// once per (constants, tag) and, for every later hash, shifted to its first variable: a monotone
// renaming, so each LC stays normalized and its coefficients are the same bytes.
struct LcTemplate {
  std::vector<LC> lcs;
};

class LegacyCircuit {
 public:
  LegacyCircuit(ConstraintSystem& cs, const PoseidonConstants& c)
      : cs_(cs), c_(c), want_(cs.wants_constraints()), build_lcs_(want_) {}

  /// Materialised LCs from |t| instead of building the round LCs (want_ systems only).
  void use_template(const LcTemplate* t) {
    tmpl_ = t;
    build_lcs_ = want_ && t == nullptr;
  }
  /// Appends each materialised LC, renumbered as in LcTemplate, to |out|.
  void capture_into(LcTemplate* out) { capture_ = out; }

  Result<AllocatedNum> hash(const Fr& tag, std::span<const AllocatedNum> preimage) {
    els_.push_back(Elt::constant(tag, build_lcs_));
    for (const AllocatedNum& n : preimage) els_.push_back(Elt::from(n));
    const unsigned half = c_.full_rounds / 2;
    {
      Namespace ns(cs_, "first round");
      CUZK_RETURN_IF_ERROR(full_round(true, false));
    }
    for (unsigned i = 1; i < half; ++i) {
      Namespace ns(cs_, [i] { return "initial full round " + std::to_string(i); });
      CUZK_RETURN_IF_ERROR(full_round(false, false));
    }
    for (unsigned i = 0; i < c_.partial_rounds; ++i) {
      Namespace ns(cs_, [i] { return "partial round " + std::to_string(i); });
      CUZK_RETURN_IF_ERROR(partial_round());
    }
    for (unsigned i = 0; i + 1 < half; ++i) {
      Namespace ns(cs_, [i] { return "final full round " + std::to_string(i); });
      CUZK_RETURN_IF_ERROR(full_round(false, false));
    }
    {
      Namespace ns(cs_, "terminal full round");
      CUZK_RETURN_IF_ERROR(full_round(false, true));
    }
    Namespace ns(cs_, "hash result");
    return ensure_allocated(els_[1]);
  }

 private:
  // Every variable the hash allocates goes through here: with a template or a capture, the
  // hash's variables must be consecutive aux variables (as every constraint system numbers them);
  // anything else is an error, never a silently different constraint.
  Result<AllocatedNum> allocated(Result<AllocatedNum> v) {
    if (!v || (tmpl_ == nullptr && capture_ == nullptr)) return v;
    const Variable x = v->variable();
    if (allocs_ == 0) first_aux_ = x.index;
    if (!x.is_aux() || x.index != first_aux_ + allocs_)
      return Status(Errc::invalid_argument,
                    "Poseidon circuit: the constraint system allocated variable " +
                        std::to_string(x.index) + " out of sequence");
    ++allocs_;
    return v;
  }

  // aux(j) → aux(j + shift) for every aux term (shift = 0 − first aux when capturing).
  LC renumbered(const LC& lc, std::uint32_t shift) const {
    LC out;
    out.reserve(lc.size());
    for (const Term& t : lc.terms())
      out.add(t.coeff, t.var.is_aux() ? Variable::aux(t.var.index + shift) : t.var);
    return out;
  }

  Result<AllocatedNum> ensure_allocated(const Elt& e) {
    if (e.allocated) return AllocatedNum(e.var, e.value);
    Result<AllocatedNum> v = Status();
    {
      Namespace ns(cs_, "allocate for Elt::Num");
      v = allocated(AllocatedNum::alloc(cs_, e.value));
    }
    if (!v) return v;
    if (tmpl_ != nullptr) {
      if (next_lc_ >= tmpl_->lcs.size())
        return Status(Errc::invalid_argument, "Poseidon circuit: LC template too short");
      const LC lc = renumbered(tmpl_->lcs[next_lc_++], first_aux_);
      cs_.enforce("enforce num allocation preserves lc", lc, Variable::one(), v->variable());
      return v;
    }
    if (capture_ != nullptr) {
      LC lc = e.lc;
      lc.normalize();
      for (const Term& t : lc.terms())  // only ONE and the hash's own variables may appear
        if (t.var.is_input() ? t.var.index != 0 : t.var.index < first_aux_)
          return Status(Errc::invalid_argument, "Poseidon circuit: a preimage variable in an LC");
      capture_->lcs.push_back(renumbered(lc, 0u - first_aux_));
    }
    cs_.enforce("enforce num allocation preserves lc", e.lc, Variable::one(), v->variable());
    return v;
  }

  // res = (b + pre)·a + post; constraint (b + pre)·a = res − post.
  Result<AllocatedNum> mul_sum(const AllocatedNum& a, const AllocatedNum& b, const Fr* pre,
                               const Fr* post) {
    std::optional<Fr> val;
    if (a.value() && b.value()) {
      Fr x = *b.value();
      if (pre) x += *pre;
      x *= *a.value();
      if (post) x += *post;
      val = x;
    }
    Result<AllocatedNum> res = Status();
    {
      Namespace ns(cs_, "mul_sum");
      res = allocated(AllocatedNum::alloc(cs_, val));
    }
    if (!res) return res;
    if (want_) {
      LC la(b.variable());
      if (pre) la.add_merged(*pre, Variable::one());
      LC lcc(res->variable());
      if (post) lcc.add_merged(-*post, Variable::one());
      cs_.enforce(post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                       : (pre ? "mul sum constraint pre-add" : "mul sum constraint"),
                  la, a.variable(), lcc);
    } else {
      cs_.enforce("mul sum constraint", LC(), LC(), LC());
    }
    return res;
  }

  Result<Elt> quintic_s_box(const Elt& e, const Fr* post) {
    Result<AllocatedNum> l = Status();
    {
      Namespace ns(cs_, "S-box input");
      l = ensure_allocated(e);
    }
    if (!l) return l.status();
    Result<AllocatedNum> l2 = Status(), l4 = Status();
    {
      Namespace ns(cs_, "l^2");
      l2 = allocated(l->square(cs_));
    }
    if (!l2) return l2.status();
    {
      Namespace ns(cs_, "l^4");
      l4 = allocated(l2->square(cs_));
    }
    if (!l4) return l4.status();
    Namespace ns(cs_, "(l4 * l) + rk)");
    CUZK_ASSIGN_OR_RETURN(AllocatedNum l5, mul_sum(*l4, *l, nullptr, post));
    return Elt::from(l5);
  }

  Result<Elt> quintic_s_box_pre_add(const Elt& e, const Fr& pre, const Fr& post) {
    // e is an allocated preimage element here (no constraint from ensure_allocated).
    CUZK_ASSIGN_OR_RETURN(AllocatedNum l, ensure_allocated(e));
    std::optional<Fr> sq;
    if (l.value()) sq = (*l.value() + pre).square();
    Result<AllocatedNum> l2 = Status();
    {
      Namespace ns(cs_, "(l+rk)^2");
      {
        Namespace ns2(cs_, "squared sum");
        l2 = allocated(AllocatedNum::alloc(cs_, sq));
      }
      if (!l2) return l2.status();
      LC s(l.variable());
      s.add_merged(pre, Variable::one());
      cs_.enforce("squared sum constraint", s, s, l2->variable());
    }
    Result<AllocatedNum> l4 = Status();
    {
      Namespace ns(cs_, "l^4");
      l4 = allocated(l2->square(cs_));
    }
    if (!l4) return l4.status();
    Namespace ns(cs_, "l4 * (l + rk)");
    CUZK_ASSIGN_OR_RETURN(AllocatedNum l5, mul_sum(*l4, l, &pre, &post));
    return Elt::from(l5);
  }

  Status full_round(bool first, bool last) {
    const unsigned t = c_.width;
    std::size_t off = offset_;
    const Fr* pre = nullptr;
    if (first) {
      pre = &c_.compressed[off];
      off += t;
    }
    const Fr* post = nullptr;
    if (first || !last) {
      post = &c_.compressed[off];
      off += t;
    }
    for (unsigned i = 0; i < t; ++i) {
      if (first) {
        if (i == 0) {
          // The tag's S-box is a constant: (tag + k)^5 + k′.
          els_[0] = Elt::constant(pow5(*els_[0].value + pre[0]) + post[0], build_lcs_);
        } else {
          Namespace ns(cs_, [i] { return "quintic s-box " + std::to_string(i); });
          CUZK_ASSIGN_OR_RETURN(els_[i], quintic_s_box_pre_add(els_[i], pre[i], post[i]));
        }
      } else {
        Namespace ns(cs_, [i] { return "quintic s-box " + std::to_string(i); });
        CUZK_ASSIGN_OR_RETURN(els_[i], quintic_s_box(els_[i], post ? &post[i] : nullptr));
      }
    }
    offset_ = off;
    product_mds();
    return {};
  }

  Status partial_round() {
    const Fr* key = &c_.compressed[offset_++];
    Namespace ns(cs_, "solitary quintic s-box");
    CUZK_ASSIGN_OR_RETURN(els_[0], quintic_s_box(els_[0], key));
    product_mds();
    return {};
  }

  // Σ scalars[i]·els[i] as an LC element.
  Elt scalar_product(const std::vector<Elt>& els, const Fr* scalars) const {
    Elt r;
    std::optional<Fr> v = Fr::zero();
    for (std::size_t i = 0; i < els.size(); ++i) {
      if (v && els[i].value)
        *v += *els[i].value * scalars[i];
      else
        v = std::nullopt;
      if (build_lcs_) {
        if (els[i].allocated)
          r.lc.add_merged(scalars[i], els[i].var);
        else
          r.lc.add_scaled(els[i].lc, scalars[i]);
      }
    }
    r.value = v;
    return r;
  }

  void product_with_matrix(const Matrix& m) {
    const unsigned t = c_.width;
    std::vector<Elt> out;
    out.reserve(t);
    std::vector<Fr> col(t);
    for (unsigned j = 0; j < t; ++j) {
      for (unsigned i = 0; i < t; ++i) col[i] = m[i][j];
      out.push_back(scalar_product(els_, col.data()));
    }
    els_ = std::move(out);
  }

  void product_sparse(const PoseidonConstants::Sparse& m) {
    const unsigned t = c_.width;
    std::vector<Elt> out;
    out.reserve(t);
    out.push_back(scalar_product(els_, m.w_hat.data()));
    for (unsigned j = 1; j < t; ++j) {
      // els[j] (an LC) + v_rest[j−1]·els[0]
      Elt r;
      const Elt& a = els_[j];
      const Elt& z = els_[0];
      if (a.value && z.value) r.value = *a.value + *z.value * m.v_rest[j - 1];
      if (build_lcs_) {
        r.lc = a.as_lc();
        if (z.allocated)
          r.lc.add_merged(m.v_rest[j - 1], z.var);
        else
          r.lc.add_scaled(z.lc, m.v_rest[j - 1]);
      }
      out.push_back(std::move(r));
    }
    els_ = std::move(out);
  }

  void product_mds() {
    const unsigned half = c_.full_rounds / 2;
    const unsigned sparse_offset = half - 1;
    if (round_ == sparse_offset) {
      product_with_matrix(c_.pre_sparse);
    } else if (round_ > sparse_offset && round_ < half + c_.partial_rounds) {
      product_sparse(c_.sparse[round_ - sparse_offset - 1]);
    } else {
      product_with_matrix(c_.mds);
    }
    ++round_;
  }

  ConstraintSystem& cs_;
  const PoseidonConstants& c_;
  const bool want_;
  bool build_lcs_;  // the round LCs are built (want_, no template)
  std::vector<Elt> els_;
  std::size_t offset_ = 0;
  unsigned round_ = 0;
  const LcTemplate* tmpl_ = nullptr;
  LcTemplate* capture_ = nullptr;
  std::size_t next_lc_ = 0;      // next template LC
  std::uint32_t first_aux_ = 0;  // the hash's first variable
  std::uint32_t allocs_ = 0;     // variables allocated so far
};

// A system that only numbers variables, for capturing a template.
class NumberingCs final : public ConstraintSystem {
 public:
  Result<Variable> alloc_aux_fn(NameFn, ValueFn) override { return Variable::aux(aux_++); }
  Result<Variable> alloc_input_fn(NameFn, ValueFn) override {
    return Status(Errc::invalid_argument, "no inputs here");
  }
  void enforce_lc(NameFn, const LC&, const LC&, const LC&) override {}
  void push_scope(NameFn) override {}
  void pop_scope() override {}
  Status finish() override { return {}; }
  std::size_t num_inputs() const override { return 1; }
  std::size_t num_aux() const override { return aux_; }
  std::size_t num_constraints() const override { return 0; }

 private:
  std::uint32_t aux_ = 0;
};

// The template of (c, tag), captured on first use; null when |c| is not one of the shared
// constants (poseidon_constants) or too many tags are cached already (then LCs are built).
// Cost: one hash with built LCs per (arity, tag); memory ≈ 40 B per term (about 0.3 MB for
// arity 8), a handful of tags in the Filecoin circuits.
const LcTemplate* lc_template(const PoseidonConstants& c, const Fr& tag) {
  constexpr std::size_t kMaxTemplates = 64;
  struct Entry {
    const PoseidonConstants* c;
    Fr tag;
    std::unique_ptr<const LcTemplate> t;
  };
  static std::mutex mu;
  static std::vector<Entry> cache;
  if (&c != poseidon_constants(c.arity)) return nullptr;
  std::lock_guard lock(mu);
  for (const Entry& e : cache)
    if (e.c == &c && fr_eq(e.tag, tag)) return e.t.get();
  if (cache.size() >= kMaxTemplates) return nullptr;
  NumberingCs cs;
  std::vector<AllocatedNum> pre;
  for (unsigned i = 0; i < c.arity; ++i) {
    auto v = AllocatedNum::alloc(cs, std::nullopt);
    if (!v) return nullptr;
    pre.push_back(*v);
  }
  auto t = std::make_unique<LcTemplate>();
  LegacyCircuit capture(cs, c);
  capture.capture_into(t.get());
  if (!capture.hash(tag, pre)) return nullptr;
  cache.push_back({&c, tag, std::move(t)});
  return cache.back().t.get();
}

}  // namespace

Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                           const Fr& tag, std::span<const AllocatedNum> preimage,
                                           const PoseidonCircuitOptions& opt) {
  if (preimage.size() != c.arity) {
    return Status(Errc::size_mismatch, "Poseidon preimage of " + std::to_string(preimage.size()) +
                                           " elements for arity " + std::to_string(c.arity));
  }
  if (cs.fast_witness() && c.width <= 12) {
    // The native twin (poseidon_witness.hpp) once every value is known; a missing value takes
    // the generic path, which names it.
    bool known = true;
    for (const AllocatedNum& x : preimage) known &= x.value().has_value();
    if (known) return poseidon_hash_witness(cs, c, tag, preimage);
  }
  LegacyCircuit circuit(cs, c);
  if (cs.wants_constraints() && opt.lc_templates) circuit.use_template(lc_template(c, tag));
  return circuit.hash(tag, preimage);
}

}  // namespace cuzk
