#include "cuzk/groth16/setup.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/fixed_base.hpp"
#include "cuzk/ff/batch_invert.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {

namespace {

// out[i] = [ks[i]]·table's base, in chunks of 4096 (one batch normalisation each), in parallel.
template <class C>
void fixed_base_many(const FixedBaseTable<C>& table, std::span<const Fr> ks,
                     std::span<Affine<C>> out, ThreadPool& pool) {
  constexpr std::size_t kChunk = 4096;
  const std::size_t chunks = (ks.size() + kChunk - 1) / kChunk;
  pool.parallel_for(chunks, [&](std::size_t c) {
    const std::size_t b = c * kChunk, e = std::min(ks.size(), b + kChunk);
    std::vector<Jacobian<C>> j(e - b);
    for (std::size_t i = b; i < e; ++i) j[i - b] = table.mul(ks[i]);
    auto aff = batch_to_affine_vartime<C>(j);
    std::copy(aff.begin(), aff.end(), out.begin() + static_cast<std::ptrdiff_t>(b));
  });
}

// Window width for n fixed-base multiplications: the table costs (⌈256/w⌉+1)·2^(w−1) additions.
unsigned window_for(std::size_t n) { return n < 4096 ? 8 : (n < (1u << 18) ? 12 : 14); }

// out[col] += coeff·lag[row] over every term of |mat| (the polynomial of each column at τ).
void column_evaluations(const SparseMatrix& mat, std::span<const Fr> lag, std::span<Fr> out) {
  for (std::size_t k = 0; k < mat.num_rows(); ++k)
    mat.for_each_term(k, [&](std::uint32_t col, const Fr& c) { out[col] += c * lag[k]; });
}

}  // namespace

Trapdoor random_trapdoor(Rng& rng) {
  Trapdoor t;
  for (;;) {
    t.tau = random_nonzero_fr(rng);
    // Z(τ) = τ^n − 1 ≠ 0 for every n = 2^k, k ≤ 32: τ^(2^32) ≠ 1.
    Fr p = t.tau;
    for (int i = 0; i < 32; ++i) p = p.square();
    if (!p.is_one()) break;
  }
  t.alpha = random_nonzero_fr(rng);
  t.beta = random_nonzero_fr(rng);
  t.gamma = random_nonzero_fr(rng);
  t.delta = random_nonzero_fr(rng);
  return t;
}

Result<ProvingKey> setup_with_trapdoor(const R1csMatrices& m, const Trapdoor& td,
                                       const SetupOptions& opt) {
  ThreadPool serial(1);
  ThreadPool& pool = opt.pool != nullptr ? *opt.pool : serial;
  CUZK_RETURN_IF_ERROR(m.validate());
  if (td.tau.is_zero() || td.alpha.is_zero() || td.beta.is_zero() || td.gamma.is_zero() ||
      td.delta.is_zero())
    return Status(Errc::invalid_argument, "trapdoor values must be non-zero");
  if (m.num_inputs == 0) return Status(Errc::invalid_argument, "the circuit has no ONE input");
  const bool snark = opt.layout == KeyLayout::snarkjs;
  const RootFamily roots = snark ? RootFamily::ffjs : RootFamily::bellman;
  auto dom = Domain::for_size(std::max<std::uint64_t>(m.num_constraints, 2), {.roots = roots});
  if (!dom.ok()) return dom.status();
  const std::uint64_t n = dom->size();
  const Fr z_tau = dom->evaluate_vanishing(td.tau);
  if (z_tau.is_zero()) return Status(Errc::invalid_argument, "tau lies in the evaluation domain");

  // Lagrange basis at τ, then u, v, w of every variable.
  std::vector<Fr> lag(n);
  CUZK_RETURN_IF_ERROR(dom->lagrange_at(td.tau, lag, pool));
  const std::size_t cols = m.num_columns();
  std::vector<Fr> u(cols, Fr::zero()), v(cols, Fr::zero()), w(cols, Fr::zero());
  column_evaluations(m.a, lag, u);
  column_evaluations(m.b, lag, v);
  column_evaluations(m.c, lag, w);

  ProvingKey pk;
  pk.layout = opt.layout;
  pk.domain_size = n;
  Fr inv[2] = {td.gamma, td.delta};
  batch_invert_vartime(std::span<Fr>(inv));
  const Fr gamma_inv = inv[0], delta_inv = inv[1];

  // Scalars of ic (inputs, /γ) and l (aux, /δ).
  const std::size_t ni = m.num_inputs, na = m.num_aux;
  std::vector<Fr> ic_s(ni), l_s(na);
  for (std::size_t i = 0; i < cols; ++i) {
    const Fr t = td.beta * u[i] + td.alpha * v[i] + w[i];
    if (i < ni)
      ic_s[i] = t * gamma_inv;
    else
      l_s[i - ni] = t * delta_inv;
  }
  if (!snark) {
    for (std::size_t j = 0; j < na; ++j)
      if (l_s[j].is_zero())
        return Status(Errc::invalid_argument,
                      "aux variable " + std::to_string(j) +
                          " is unconstrained (its l point would be the identity)");
  }

  // A and B queries: every variable (snarkjs) or only those with a non-zero polynomial (bellperson).
  std::vector<Fr> a_s, b_s;
  a_s.reserve(cols);
  b_s.reserve(cols);
  for (std::size_t i = 0; i < cols; ++i) {
    if (snark || !u[i].is_zero()) a_s.push_back(u[i]);
    if (snark || !v[i].is_zero()) b_s.push_back(v[i]);
  }

  // H query.
  std::vector<Fr> h_s;
  if (snark) {
    auto d2 = Domain::from_log_size(dom->log_size() + 1, {.roots = RootFamily::ffjs});
    if (!d2.ok()) return d2.status();
    std::vector<Fr> lag2(2 * n);
    CUZK_RETURN_IF_ERROR(d2->lagrange_at(td.tau, lag2, pool));
    h_s.resize(n);
    for (std::size_t j = 0; j < n; ++j) h_s[j] = lag2[2 * j + 1] * delta_inv;
  } else {
    h_s.resize(n - 1);
    fill_powers(h_s, td.tau, z_tau * delta_inv);
  }

  // Fixed-base multiplications.
  const std::size_t g1_count = ic_s.size() + l_s.size() + a_s.size() + b_s.size() + h_s.size() + 3;
  const auto g1 = FixedBaseTable<G1Curve>::build(G1Affine::generator(), window_for(g1_count));
  const auto g2 = FixedBaseTable<G2Curve>::build(G2Affine::generator(), window_for(b_s.size() + 3));
  auto g1_many = [&](const std::vector<Fr>& ks) {
    std::vector<G1Affine> out(ks.size());
    fixed_base_many<G1Curve>(g1, ks, out, pool);
    return out;
  };
  pk.vk.ic = g1_many(ic_s);
  pk.l = g1_many(l_s);
  pk.a = g1_many(a_s);
  pk.b_g1 = g1_many(b_s);
  pk.h = g1_many(h_s);
  pk.b_g2.resize(b_s.size());
  fixed_base_many<G2Curve>(g2, b_s, pk.b_g2, pool);
  const std::vector<Fr> hdr1 = {td.alpha, td.beta, td.delta}, hdr2 = {td.beta, td.gamma, td.delta};
  const auto p1 = g1_many(hdr1);
  std::vector<G2Affine> p2(3);
  fixed_base_many<G2Curve>(g2, hdr2, p2, pool);
  pk.vk.alpha_g1 = p1[0];
  pk.vk.beta_g1 = p1[1];
  pk.vk.delta_g1 = p1[2];
  pk.vk.beta_g2 = p2[0];
  pk.vk.gamma_g2 = p2[1];
  pk.vk.delta_g2 = p2[2];
  return pk;
}

Result<ProvingKey> setup(const R1csMatrices& m, Rng& rng, const SetupOptions& opt) {
  const Trapdoor td = random_trapdoor(rng);
  return setup_with_trapdoor(m, td, opt);
}

}  // namespace cuzk
