#include "cuzk/hash/poseidon.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

namespace cuzk::hash {
namespace {

#include "cuzk/hash/poseidon_constants.inc"

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

}  // namespace cuzk::hash
