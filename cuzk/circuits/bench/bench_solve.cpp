#include "cuzk/circuits/bench/bench_solve.hpp"

#include <emmintrin.h>

#include <string>

#include "cuzk/ff/fr_accumulate.hpp"
#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/sparse_row.hpp"

namespace cuzk::circuits {
namespace {

// The boolean draw of solve_bench_witness (bench_witness.cpp): bit of variable f for |seed|.
std::uint64_t splitmix(std::uint64_t s) {
  std::uint64_t z = s + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
bool bench_bit(std::uint64_t seed, std::uint64_t f) {
  return splitmix(seed ^ (0xd1b54a32d192ed03ULL * (f + 1))) & 1;
}

}  // namespace

Result<std::shared_ptr<const BenchSolvePlan>> bench_solve_plan(const R1csMatrices& m) {
  const std::uint64_t cols = m.num_columns();
  if (cols == 0 || m.num_inputs == 0)
    return Status(Errc::invalid_argument, "circuit without the ONE variable");
  if (cols > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range, "too many columns for a solve plan");
  auto plan = std::make_shared<BenchSolvePlan>();
  plan->fixed.assign(m.num_constraints, 0);
  plan->kind.assign(m.num_constraints, BenchSolvePlan::kCheck);
  std::vector<std::uint8_t> known(cols, 0);
  known[0] = 1;
  std::uint64_t gc = 0;
  for (std::size_t r = 0; r < m.num_constraints; ++r) {
    constexpr std::uint64_t kNone = ~std::uint64_t{0};
    std::uint64_t f = kNone;
    bool in_ab = false, bad = false;
    for (const SparseMatrix* s : {&m.a, &m.b, &m.c}) {
      for (std::uint64_t e = s->row_ptr[r]; e < s->row_ptr[r + 1]; ++e) {
        const std::uint32_t c = SparseMatrix::column_of(s->col[e]);
        if (known[c]) continue;
        if (f != kNone && f != c) bad = true;
        f = c;
        in_ab |= s != &m.c;
      }
    }
    if (bad)
      return Status(Errc::unsatisfied, "row " + std::to_string(r) + " has two unknown variables");
    // The C coefficient of f (for a solved row) and the running general index of C.
    std::uint8_t kind = BenchSolvePlan::kCheck;
    Fr coeff = Fr::zero();
    for (std::uint64_t e = m.c.row_ptr[r]; e < m.c.row_ptr[r + 1]; ++e) {
      const std::uint32_t w = m.c.col[e];
      const CoeffKind k = SparseMatrix::kind_of(w);
      const Fr* gen = k == CoeffKind::general ? &m.c.coeffs[m.c.gen_idx[gc++]] : nullptr;
      if (f == kNone || in_ab || SparseMatrix::column_of(w) != f) continue;
      kind = k == CoeffKind::plus_one    ? BenchSolvePlan::kPlusOne
             : k == CoeffKind::minus_one ? BenchSolvePlan::kMinusOne
                                         : BenchSolvePlan::kGeneral;
      if (gen) coeff = *gen;
    }
    if (f == kNone) continue;
    if (in_ab) kind = BenchSolvePlan::kBoolean;
    if (kind == BenchSolvePlan::kGeneral) {
      if (coeff.is_zero())
        return Status(Errc::unsatisfied, "row " + std::to_string(r) + " has a zero coefficient");
      plan->c_inverse.push_back(coeff.inverse_vartime());
    }
    plan->fixed[r] = static_cast<std::uint32_t>(f);
    plan->kind[r] = kind;
    known[f] = 1;
  }
  for (std::uint64_t i = 0; i < cols; ++i)
    if (!known[i])
      return Status(Errc::unsatisfied,
                    "variable " + std::to_string(i) + " occurs in no row that fixes it");
  return std::shared_ptr<const BenchSolvePlan>(std::move(plan));
}

Status solve_bench_partition(const R1csMatrices& m, const BenchSolvePlan& plan, std::uint64_t seed,
                             const CancelFlag* cancel, std::vector<Fr>& z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c) {
  z.resize(m.num_columns());
  return solve_bench_partition(m, plan, seed, cancel, std::span<Fr>(z), a, b, c);
}

Status solve_bench_partition(const R1csMatrices& m, const BenchSolvePlan& plan, std::uint64_t seed,
                             const CancelFlag* cancel, std::span<Fr> z, std::span<Fr> a,
                             std::span<Fr> b, std::span<Fr> c) {
  const std::size_t rows = m.num_constraints;
  if (plan.kind.size() != rows || a.size() != rows || b.size() != rows || c.size() != rows)
    return Status(Errc::size_mismatch, "solve plan or a/b/c sized for another circuit");
  if (z.size() != m.num_columns())
    return Status(Errc::size_mismatch, "witness sized for another circuit");
  z[0] = Fr::one();
  Fr* zp = z.data();
  const bool nt =
      (reinterpret_cast<std::uintptr_t>(a.data()) | reinterpret_cast<std::uintptr_t>(b.data()) |
       reinterpret_cast<std::uintptr_t>(c.data())) %
          16 ==
      0;
  std::uint64_t ga = 0, gb = 0, gc = 0, gi = 0;
  for (std::size_t r = 0; r < rows; ++r) {
    if (cancel && (r & 0xffff) == 0 && cancel->load(std::memory_order_relaxed))
      return Status(Errc::cancelled, "witness cancelled");
    const std::uint8_t kind = plan.kind[r];
    const std::uint32_t f = plan.fixed[r];
    Fr av, bv, cv;
    if (kind <= BenchSolvePlan::kBoolean) {
      if (kind == BenchSolvePlan::kBoolean) zp[f] = bench_bit(seed, f) ? Fr::one() : Fr::zero();
      av = row_dot<true>(m.a, r, zp, ga);
      bv = row_dot<true>(m.b, r, zp, gb);
      cv = row_dot<true>(m.c, r, zp, gc);
      if (!fr_eq(av * bv, cv))
        return Status(Errc::unsatisfied,
                      "row " + std::to_string(r) + " does not hold after solving");
    } else {
      // c_rest + coeff·z_f = a·b, with z_f still 0 in the dot products.
      zp[f] = Fr::zero();
      av = row_dot<true>(m.a, r, zp, ga);
      bv = row_dot<true>(m.b, r, zp, gb);
      const Fr rest = row_dot<true>(m.c, r, zp, gc);
      cv = av * bv;
      Fr d = cv;
      fr_acc_sub(d, rest);
      if (kind == BenchSolvePlan::kPlusOne)
        zp[f] = d;
      else if (kind == BenchSolvePlan::kMinusOne)
        zp[f] = -d;
      else
        zp[f] = d * plan.c_inverse[gi++];
    }
    if (nt) {
      store_nt(&a[r], av);
      store_nt(&b[r], bv);
      store_nt(&c[r], cv);
    } else {
      a[r] = av;
      b[r] = bv;
      c[r] = cv;
    }
  }
  if (nt) _mm_sfence();
  return {};
}

}  // namespace cuzk::circuits
