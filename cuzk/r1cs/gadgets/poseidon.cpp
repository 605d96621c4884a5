#include "cuzk/r1cs/gadgets/poseidon.hpp"

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

class LegacyCircuit {
 public:
  LegacyCircuit(ConstraintSystem& cs, const PoseidonConstants& c)
      : cs_(cs), c_(c), want_(cs.wants_constraints()) {}

  Result<AllocatedNum> hash(const Fr& tag, std::span<const AllocatedNum> preimage) {
    els_.push_back(Elt::constant(tag, want_));
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
  Result<AllocatedNum> ensure_allocated(const Elt& e) {
    if (e.allocated) return AllocatedNum(e.var, e.value);
    Result<AllocatedNum> v = Status();
    {
      Namespace ns(cs_, "allocate for Elt::Num");
      v = AllocatedNum::alloc(cs_, e.value);
    }
    if (!v) return v;
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
      res = AllocatedNum::alloc(cs_, val);
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
      l2 = l->square(cs_);
    }
    if (!l2) return l2.status();
    {
      Namespace ns(cs_, "l^4");
      l4 = l2->square(cs_);
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
        l2 = AllocatedNum::alloc(cs_, sq);
      }
      if (!l2) return l2.status();
      LC s(l.variable());
      s.add_merged(pre, Variable::one());
      cs_.enforce("squared sum constraint", s, s, l2->variable());
    }
    Result<AllocatedNum> l4 = Status();
    {
      Namespace ns(cs_, "l^4");
      l4 = l2->square(cs_);
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
          els_[0] = Elt::constant(pow5(*els_[0].value + pre[0]) + post[0], want_);
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
      if (want_) {
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
      if (want_) {
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
  std::vector<Elt> els_;
  std::size_t offset_ = 0;
  unsigned round_ = 0;
};

}  // namespace

Result<AllocatedNum> poseidon_hash_circuit(ConstraintSystem& cs, const PoseidonConstants& c,
                                           const Fr& tag, std::span<const AllocatedNum> preimage) {
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
  return circuit.hash(tag, preimage);
}

}  // namespace cuzk
