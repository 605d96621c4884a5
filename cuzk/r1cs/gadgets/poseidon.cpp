#include "cuzk/r1cs/gadgets/poseidon.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {
namespace {

#include "cuzk/r1cs/gadgets/poseidon_constants.inc"

using Matrix = std::vector<std::vector<Fr>>;

Matrix mat_mul(const Matrix& a, const Matrix& b) {
  const std::size_t n = a.size();
  Matrix r(n, std::vector<Fr>(n, Fr::zero()));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) r[i][j] += a[i][k] * b[k][j];
  return r;
}

std::vector<Fr> mat_vec(const Matrix& m, const std::vector<Fr>& v) {
  std::vector<Fr> r(m.size(), Fr::zero());
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < v.size(); ++j) r[i] += m[i][j] * v[j];
  return r;
}

// Gauss–Jordan inverse; the matrices here (Cauchy and its minors) are invertible.
Matrix mat_inv(Matrix a) {
  const std::size_t n = a.size();
  Matrix inv(n, std::vector<Fr>(n, Fr::zero()));
  for (std::size_t i = 0; i < n; ++i) inv[i][i] = Fr::one();
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t p = col;
    while (a[p][col].is_zero()) ++p;
    std::swap(a[p], a[col]);
    std::swap(inv[p], inv[col]);
    const Fr s = a[col][col].inverse_vartime();
    for (std::size_t j = 0; j < n; ++j) {
      a[col][j] *= s;
      inv[col][j] *= s;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i == col || a[i][col].is_zero()) continue;
      const Fr f = a[i][col];
      for (std::size_t j = 0; j < n; ++j) {
        a[i][j] -= f * a[col][j];
        inv[i][j] -= f * inv[col][j];
      }
    }
  }
  return inv;
}

std::unique_ptr<PoseidonConstants> derive(unsigned arity, std::span<const Limbs<4>> rc_limbs,
                                          unsigned r_p) {
  auto c = std::make_unique<PoseidonConstants>();
  const unsigned t = arity + 1;
  c->arity = arity;
  c->width = t;
  c->partial_rounds = r_p;
  for (const Limbs<4>& l : rc_limbs) c->round_constants.push_back(Fr::from_canonical_unchecked(l));
  c->mds.assign(t, std::vector<Fr>(t));
  for (unsigned i = 0; i < t; ++i)
    for (unsigned j = 0; j < t; ++j) c->mds[i][j] = Fr::from_u64(i + j + t).inverse_vartime();
  const Matrix minv = mat_inv(c->mds);
  const unsigned half = c->full_rounds / 2;
  auto rc = [&](unsigned r) {
    return std::vector<Fr>(c->round_constants.begin() + r * t,
                           c->round_constants.begin() + (r + 1) * t);
  };
  // Compressed constants (FORMATS.md §3.7).
  auto push = [&](const std::vector<Fr>& v) {
    c->compressed.insert(c->compressed.end(), v.begin(), v.end());
  };
  push(rc(0));
  for (unsigned r = 1; r < half; ++r) push(mat_vec(minv, rc(r)));
  std::vector<Fr> acc = rc(half + r_p);
  std::vector<Fr> partial;
  for (unsigned r = half + r_p; r-- > half;) {
    std::vector<Fr> v = mat_vec(minv, acc);
    partial.push_back(v[0]);
    v[0] = Fr::zero();
    const std::vector<Fr> k = rc(r);
    for (unsigned i = 0; i < t; ++i) acc[i] = k[i] + v[i];
  }
  push(mat_vec(minv, acc));
  c->compressed.insert(c->compressed.end(), partial.rbegin(), partial.rend());
  for (unsigned r = half + r_p + 1; r < c->full_rounds + r_p; ++r) push(mat_vec(minv, rc(r)));
  // Sparse factorisation: cur = M′·M″, cur ← M·M′, R_P times; P = the last cur.
  Matrix cur = c->mds;
  std::vector<PoseidonConstants::Sparse> rev;
  for (unsigned p = 0; p < r_p; ++p) {
    Matrix mhat(t - 1, std::vector<Fr>(t - 1));
    std::vector<Fr> w(t - 1);
    for (unsigned i = 1; i < t; ++i) {
      w[i - 1] = cur[i][0];
      for (unsigned j = 1; j < t; ++j) mhat[i - 1][j - 1] = cur[i][j];
    }
    const std::vector<Fr> what = mat_vec(mat_inv(mhat), w);
    PoseidonConstants::Sparse s;
    s.w_hat.push_back(cur[0][0]);
    s.w_hat.insert(s.w_hat.end(), what.begin(), what.end());
    s.v_rest.assign(cur[0].begin() + 1, cur[0].end());
    rev.push_back(std::move(s));
    Matrix mprime(t, std::vector<Fr>(t, Fr::zero()));
    mprime[0][0] = Fr::one();
    for (unsigned i = 1; i < t; ++i)
      for (unsigned j = 1; j < t; ++j) mprime[i][j] = mhat[i - 1][j - 1];
    cur = mat_mul(c->mds, mprime);
  }
  c->pre_sparse = cur;
  c->sparse.assign(rev.rbegin(), rev.rend());
  return c;
}

Fr pow5(const Fr& x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}

// state ← state × m (result[j] = Σ_i state[i]·m[i][j]).
void mix(std::vector<Fr>& s, const Matrix& m) {
  std::vector<Fr> r(s.size(), Fr::zero());
  for (std::size_t j = 0; j < s.size(); ++j)
    for (std::size_t i = 0; i < s.size(); ++i) r[j] += s[i] * m[i][j];
  s = std::move(r);
}

void mix_sparse(std::vector<Fr>& s, const PoseidonConstants::Sparse& m) {
  Fr s0 = Fr::zero();
  for (std::size_t i = 0; i < s.size(); ++i) s0 += s[i] * m.w_hat[i];
  for (std::size_t j = 1; j < s.size(); ++j) s[j] += m.v_rest[j - 1] * s[0];
  s[0] = s0;
}

std::vector<Fr> initial_state(const PoseidonConstants& c, const Fr& tag,
                              std::span<const Fr> preimage) {
  std::vector<Fr> s(c.width, Fr::zero());
  s[0] = tag;
  for (std::size_t i = 0; i < preimage.size() && i < c.arity; ++i) s[1 + i] = preimage[i];
  return s;
}

}  // namespace

const PoseidonConstants* poseidon_constants(unsigned arity) {
  static std::once_flag once[4];
  static std::unique_ptr<PoseidonConstants> table[4];
  switch (arity) {
    case 2:
      std::call_once(once[0], [] { table[0] = derive(2, kPoseidonRoundConstantsT3, 55); });
      return table[0].get();
    case 4:
      std::call_once(once[1], [] { table[1] = derive(4, kPoseidonRoundConstantsT5, 56); });
      return table[1].get();
    case 8:
      std::call_once(once[2], [] { table[2] = derive(8, kPoseidonRoundConstantsT9, 57); });
      return table[2].get();
    case 11:
      std::call_once(once[3], [] { table[3] = derive(11, kPoseidonRoundConstantsT12, 57); });
      return table[3].get();
    default:
      return nullptr;
  }
}

Fr poseidon_merkle_tag(unsigned arity) { return Fr::from_u64((std::uint64_t{1} << arity) - 1); }
Fr poseidon_constant_length_tag(std::uint64_t length) {
  return Fr::from_canonical_unchecked(Limbs<4>{0, length, 0, 0});
}
Fr poseidon_custom_tag(std::uint64_t id) {
  return Fr::from_u64(id) * Fr::from_u64(std::uint64_t{1} << 40);
}

Fr poseidon_hash_reference(const PoseidonConstants& c, const Fr& tag,
                           std::span<const Fr> preimage) {
  std::vector<Fr> s = initial_state(c, tag, preimage);
  const unsigned half = c.full_rounds / 2, t = c.width;
  for (unsigned r = 0; r < c.full_rounds + c.partial_rounds; ++r) {
    for (unsigned i = 0; i < t; ++i) s[i] += c.round_constants[r * t + i];
    if (r < half || r >= half + c.partial_rounds) {
      for (Fr& x : s) x = pow5(x);
    } else {
      s[0] = pow5(s[0]);
    }
    mix(s, c.mds);  // M symmetric: M·s = s × M
  }
  return s[1];
}

Fr poseidon_hash(const PoseidonConstants& c, const Fr& tag, std::span<const Fr> preimage) {
  std::vector<Fr> s = initial_state(c, tag, preimage);
  const unsigned half = c.full_rounds / 2, t = c.width;
  std::size_t off = 0;
  for (unsigned i = 0; i < t; ++i) s[i] += c.compressed[off++];
  for (unsigned r = 0; r < half; ++r) {
    for (Fr& x : s) x = pow5(x);
    for (unsigned i = 0; i < t; ++i) s[i] += c.compressed[off++];
    mix(s, r + 1 == half ? c.pre_sparse : c.mds);
  }
  for (unsigned p = 0; p < c.partial_rounds; ++p) {
    s[0] = pow5(s[0]) + c.compressed[off++];
    mix_sparse(s, c.sparse[p]);
  }
  for (unsigned r = 0; r < half; ++r) {
    for (Fr& x : s) x = pow5(x);
    if (r + 1 < half) {
      for (unsigned i = 0; i < t; ++i) s[i] += c.compressed[off++];
    }
    mix(s, c.mds);
  }
  return s[1];
}

std::size_t poseidon_circuit_constraints(const PoseidonConstants& c) {
  const std::size_t rounds = c.width * c.full_rounds + c.partial_rounds;
  return 3 * (rounds - 1) + (rounds - c.arity);
}

namespace {

// neptune's Elt: an allocated number or a linear combination with its value. When the system
// ignores constraints (witness generation) the LCs are not built; only values and the
// allocation order remain.
struct Elt {
  bool allocated = false;
  Variable var;
  std::optional<Fr> value;
  LC lc;  // for !allocated (kept empty when !want)

  static Elt constant(const Fr& v, bool want) {
    Elt e;
    e.value = v;
    if (want) e.lc.add(v, Variable::one());
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
      if (pre) la.add(*pre, Variable::one());
      LC lcc(res->variable());
      if (post) lcc.add(-*post, Variable::one());
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
      LC s = LC(l.variable()) + Term{Variable::one(), pre};
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
          r.lc.add(scalars[i], els[i].var);
        else
          r.lc.add(els[i].lc.scaled(scalars[i]));
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
          r.lc.add(m.v_rest[j - 1], z.var);
        else
          r.lc.add(z.lc.scaled(m.v_rest[j - 1]));
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
  LegacyCircuit circuit(cs, c);
  return circuit.hash(tag, preimage);
}

}  // namespace cuzk
