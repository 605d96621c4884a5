#include "cuzk/groth16/setup.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ff/batch_invert.hpp"
#include "cuzk/groth16/column_evaluations.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The counts setup reads from either form of the circuit.
struct CircuitCounts {
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint64_t columns() const { return num_inputs + num_aux; }
};

// Step 3 and 4: the scalars of every query from u, v, w, multiplied chunk by chunk and handed to
// the sink in the .params order.
class KeyEmitter {
 public:
  KeyEmitter(const CircuitCounts& cc, const Domain& dom, const ColumnEvaluations& e,
             const Trapdoor& td, const SetupOptions& opt, ThreadPool& pool, FixedBaseExecutor& fb,
             KeySink& sink, SetupStats& st)
      : cc_(cc),
        dom_(dom),
        e_(e),
        td_(td),
        opt_(opt),
        pool_(pool),
        fb_(fb),
        sink_(sink),
        st_(st),
        snark_(opt.layout == KeyLayout::snarkjs),
        chunk_(std::max<std::size_t>(opt.chunk, 1)) {
    Fr inv[2] = {td.gamma, td.delta};
    batch_invert_vartime(std::span<Fr>(inv));
    gamma_inv_ = inv[0];
    delta_inv_ = inv[1];
  }

  Status run() {
    if (!snark_) CUZK_RETURN_IF_ERROR(check_l_nonzero());
    CUZK_RETURN_IF_ERROR(verifying_key());
    CUZK_RETURN_IF_ERROR(h_query());
    // l: (β·u + α·v + w)/δ of the aux columns.
    CUZK_RETURN_IF_ERROR(stream(KeyQuery::l, cc_.num_aux, [&](std::uint64_t off, std::span<Fr> s) {
      parallel_fill(s, [&](std::size_t i) { return lc(cc_.num_inputs + off + i) * delta_inv_; });
    }));
    // a, b_g1, b_g2: u, v, v of every column (snarkjs) or of those whose polynomial is non-zero.
    CUZK_RETURN_IF_ERROR(filtered(KeyQuery::a, e_.u));
    CUZK_RETURN_IF_ERROR(filtered(KeyQuery::b_g1, e_.v));
    CUZK_RETURN_IF_ERROR(filtered(KeyQuery::b_g2, e_.v));
    const auto t = Clock::now();
    Status s = sink_.finish();
    st_.sink += since(t);
    return s;
  }

 private:
  // β·u_i + α·v_i + w_i.
  Fr lc(std::uint64_t i) const { return td_.beta * e_.u[i] + td_.alpha * e_.v[i] + e_.w[i]; }

  // s[i] = f(i) on the pool, in pieces of 2^14.
  template <class F>
  void parallel_fill(std::span<Fr> s, F&& f) {
    constexpr std::size_t kPiece = std::size_t{1} << 14;
    pool_.parallel_for((s.size() + kPiece - 1) / kPiece, [&](std::size_t p) {
      const std::size_t b = p * kPiece, end = std::min(s.size(), b + kPiece);
      for (std::size_t i = b; i < end; ++i) s[i] = f(i);
    });
  }

  // An aux column in no constraint would get the identity as its l point, which bellperson's
  // reader rejects: refused before the sink receives anything.
  Status check_l_nonzero() {
    const auto t = Clock::now();
    std::atomic<std::uint64_t> first{cc_.num_aux};
    constexpr std::size_t kPiece = std::size_t{1} << 16;
    pool_.parallel_for((cc_.num_aux + kPiece - 1) / kPiece, [&](std::size_t p) {
      const std::uint64_t b = p * kPiece, end = std::min<std::uint64_t>(cc_.num_aux, b + kPiece);
      for (std::uint64_t j = b; j < end; ++j) {
        if (!lc(cc_.num_inputs + j).is_zero()) continue;
        std::uint64_t cur = first.load();
        while (j < cur && !first.compare_exchange_weak(cur, j)) {
        }
        return;
      }
    });
    st_.scalars += since(t);
    if (first.load() < cc_.num_aux)
      return Status(Errc::invalid_argument,
                    "aux variable " + std::to_string(first.load()) +
                        " is unconstrained (its l point would be the identity)");
    return {};
  }

  Status verifying_key() {
    const auto t = Clock::now();
    std::vector<Fr> g1s = {td_.alpha, td_.beta, td_.delta};
    for (std::uint64_t i = 0; i < cc_.num_inputs; ++i) g1s.push_back(lc(i) * gamma_inv_);
    const std::vector<Fr> g2s = {td_.beta, td_.gamma, td_.delta};
    st_.scalars += since(t);
    std::vector<G1Affine> p1(g1s.size());
    std::vector<G2Affine> p2(g2s.size());
    const auto t1 = Clock::now();
    CUZK_RETURN_IF_ERROR(fb_.g1_many(g1s, p1));
    CUZK_RETURN_IF_ERROR(fb_.g2_many(g2s, p2));
    st_.fixed_base += since(t1);
    CUZK_RETURN_IF_ERROR(spot_check<G1Curve>("the verifying key", g1s, p1));
    CUZK_RETURN_IF_ERROR(spot_check<G2Curve>("the verifying key", g2s, p2));
    VerifyingKey vk;
    vk.alpha_g1 = p1[0];
    vk.beta_g1 = p1[1];
    vk.delta_g1 = p1[2];
    vk.beta_g2 = p2[0];
    vk.gamma_g2 = p2[1];
    vk.delta_g2 = p2[2];
    vk.ic.assign(p1.begin() + 3, p1.end());
    const auto t2 = Clock::now();
    Status s = sink_.verifying_key(vk, opt_.layout, dom_.size());
    st_.sink += since(t2);
    return s;
  }

  // bellperson: h[i] = τ^i·Z(τ)/δ for i < n − 1; snarkjs: h[j] = L^{(2n)}_{2j+1}(τ)/δ for j < n.
  Status h_query() {
    const std::uint64_t n = dom_.size();
    if (snark_) {
      auto d2 = Domain::from_log_size(dom_.log_size() + 1, {.roots = RootFamily::ffjs});
      if (!d2.ok()) return d2.status();
      const auto t = Clock::now();
      std::vector<Fr> lag2(2 * n);
      CUZK_RETURN_IF_ERROR(d2->lagrange_at(td_.tau, lag2, pool_));
      st_.scalars += since(t);
      return stream(KeyQuery::h, n, [&](std::uint64_t off, std::span<Fr> s) {
        parallel_fill(s, [&](std::size_t i) { return lag2[2 * (off + i) + 1] * delta_inv_; });
      });
    }
    const Fr start = dom_.evaluate_vanishing(td_.tau) * delta_inv_;
    return stream(KeyQuery::h, n - 1, [&](std::uint64_t off, std::span<Fr> s) {
      constexpr std::size_t kPiece = std::size_t{1} << 14;
      pool_.parallel_for((s.size() + kPiece - 1) / kPiece, [&](std::size_t p) {
        const std::size_t b = p * kPiece, end = std::min(s.size(), b + kPiece);
        fill_powers(s.subspan(b, end - b), td_.tau, start * td_.tau.pow_u64(off + b));
      });
    });
  }

  // The query of |poly|'s values: all of them (snarkjs) or the non-zero ones in column order.
  Status filtered(KeyQuery q, const std::vector<Fr>& poly) {
    if (snark_)
      return stream(q, poly.size(), [&](std::uint64_t off, std::span<Fr> s) {
        std::copy_n(poly.begin() + static_cast<std::ptrdiff_t>(off), s.size(), s.begin());
      });
    const auto t = Clock::now();
    std::uint64_t count = 0;
    for (const Fr& x : poly) count += !x.is_zero();
    st_.scalars += since(t);
    std::size_t cursor = 0;  // next column to look at
    return stream(q, count, [&](std::uint64_t, std::span<Fr> s) {
      for (std::size_t i = 0; i < s.size(); ++cursor)
        if (!poly[cursor].is_zero()) s[i++] = poly[cursor];
    });
  }

  // Query |q| of |count| points: fill(offset, scalars) writes the scalars of one chunk, the
  // executor multiplies them, the sink takes the points.
  Status stream(KeyQuery q, std::uint64_t count,
                const std::function<void(std::uint64_t, std::span<Fr>)>& fill) {
    const bool g2 = q == KeyQuery::b_g2;
    auto t = Clock::now();
    CUZK_RETURN_IF_ERROR(sink_.begin_query(q, count));
    st_.sink += since(t);
    std::vector<Fr> s;
    std::vector<G1Affine> p1;
    std::vector<G2Affine> p2;
    for (std::uint64_t off = 0; off < count; off += chunk_) {
      const std::size_t len =
          static_cast<std::size_t>(std::min<std::uint64_t>(chunk_, count - off));
      s.resize(len);
      t = Clock::now();
      fill(off, s);
      st_.scalars += since(t);
      t = Clock::now();
      if (g2) {
        p2.resize(len);
        CUZK_RETURN_IF_ERROR(fb_.g2_many(s, p2));
      } else {
        p1.resize(len);
        CUZK_RETURN_IF_ERROR(fb_.g1_many(s, p1));
      }
      st_.fixed_base += since(t);
      CUZK_RETURN_IF_ERROR(g2 ? spot_check<G2Curve>(kQueryNames[static_cast<int>(q)], s, p2)
                              : spot_check<G1Curve>(kQueryNames[static_cast<int>(q)], s, p1));
      t = Clock::now();
      CUZK_RETURN_IF_ERROR(g2 ? sink_.append_g2(p2) : sink_.append_g1(p1));
      st_.sink += since(t);
    }
    return {};
  }

  static constexpr const char* kQueryNames[] = {"h", "l", "a", "b_g1", "b_g2"};

  // The first and last points of an executor call recomputed on the CPU (wNAF, ≈ 0.1 ms each in
  // G1): a device that computes wrong points fails the setup instead of writing a bad key.
  template <class C>
  Status spot_check(const char* what, std::span<const Fr> ks, std::span<const Affine<C>> pts) {
    if (ks.empty()) return {};
    for (std::size_t i : {std::size_t{0}, ks.size() - 1}) {
      const Affine<C> want = mul_vartime(Affine<C>::generator(), ks[i]).to_affine_vartime();
      if (!(pts[i] == want))
        return Status(Errc::device_failure, "fixed-base executor " + fb_.name() + ": point " +
                                                std::to_string(i) + " of a chunk of " + what +
                                                " differs from the CPU's");
    }
    return {};
  }

  const CircuitCounts& cc_;
  const Domain& dom_;
  const ColumnEvaluations& e_;
  const Trapdoor& td_;
  const SetupOptions& opt_;
  ThreadPool& pool_;
  FixedBaseExecutor& fb_;
  KeySink& sink_;
  SetupStats& st_;
  bool snark_;
  std::size_t chunk_;
  Fr gamma_inv_, delta_inv_;
};

// Checks, steps 1 and 2 (|columns|(lag, pool) evaluates u, v, w from the form), then the key.
template <class Columns>
Status setup_from(const CircuitCounts& cc, const Trapdoor& td, KeySink& sink,
                  const SetupOptions& opt, Columns&& columns) {
  const auto t0 = Clock::now();
  SetupStats local;
  SetupStats& st = opt.stats != nullptr ? *opt.stats : local;
  st = {};
  ThreadPool serial(1);
  ThreadPool& pool = opt.pool != nullptr ? *opt.pool : serial;
  if (td.tau.is_zero() || td.alpha.is_zero() || td.beta.is_zero() || td.gamma.is_zero() ||
      td.delta.is_zero())
    return Status(Errc::invalid_argument, "trapdoor values must be non-zero");
  if (cc.num_inputs == 0) return Status(Errc::invalid_argument, "the circuit has no ONE input");
  const bool snark = opt.layout == KeyLayout::snarkjs;
  const RootFamily roots = snark ? RootFamily::ffjs : RootFamily::bellman;
  auto dom = Domain::for_size(std::max<std::uint64_t>(cc.num_constraints, 2), {.roots = roots});
  if (!dom.ok()) return dom.status();
  if (dom->evaluate_vanishing(td.tau).is_zero())
    return Status(Errc::invalid_argument, "tau lies in the evaluation domain");

  // Steps 1 and 2; the Lagrange basis is freed before the points are computed.
  ColumnEvaluations e;
  {
    auto t = Clock::now();
    std::vector<Fr> lag(dom->size());
    CUZK_RETURN_IF_ERROR(dom->lagrange_at(td.tau, lag, pool));
    st.lagrange = since(t);
    t = Clock::now();
    Result<ColumnEvaluations> r = columns(std::span<const Fr>(lag), pool);
    if (!r.ok()) return r.status();
    e = std::move(*r);
    st.columns = since(t);
  }

  // Steps 3 and 4. The CPU executor's windows from the point counts, as before the executor.
  std::unique_ptr<FixedBaseExecutor> cpu;
  FixedBaseExecutor* fb = opt.fixed_base;
  if (fb == nullptr) {
    std::uint64_t nz_u = 0, nz_v = 0;
    for (std::uint64_t i = 0; i < cc.columns(); ++i) {
      nz_u += snark || !e.u[i].is_zero();
      nz_v += snark || !e.v[i].is_zero();
    }
    const std::uint64_t g1_count = cc.columns() + nz_u + nz_v + dom->size() + 3;
    cpu = make_cpu_fixed_base(pool, g1_count, nz_v + 3);
    fb = cpu.get();
  }
  KeyEmitter emit(cc, *dom, e, td, opt, pool, *fb, sink, st);
  Status s = emit.run();
  st.total = since(t0);
  return s;
}

CircuitCounts counts_of(const R1csMatrices& m) {
  return {m.num_inputs, m.num_aux, m.num_constraints};
}
CircuitCounts counts_of(const CompactR1cs& c) {
  return {c.num_inputs, c.num_aux, c.num_constraints};
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

Status setup_into(const R1csMatrices& m, const Trapdoor& td, KeySink& sink,
                  const SetupOptions& opt) {
  CUZK_RETURN_IF_ERROR(m.validate());
  return setup_from(counts_of(m), td, sink, opt, [&](std::span<const Fr> lag, ThreadPool&) {
    return column_evaluations(m, lag);
  });
}

Status setup_into(const CompactR1cs& c, const Trapdoor& td, KeySink& sink,
                  const SetupOptions& opt) {
  CUZK_RETURN_IF_ERROR(c.validate());
  return setup_from(counts_of(c), td, sink, opt, [&](std::span<const Fr> lag, ThreadPool& pool) {
    return column_evaluations(c, lag, pool);
  });
}

Result<ProvingKey> setup_with_trapdoor(const R1csMatrices& m, const Trapdoor& td,
                                       const SetupOptions& opt) {
  ProvingKeyCollector sink;
  CUZK_RETURN_IF_ERROR(setup_into(m, td, sink, opt));
  return sink.take();
}

Result<ProvingKey> setup_with_trapdoor(const CompactR1cs& c, const Trapdoor& td,
                                       const SetupOptions& opt) {
  ProvingKeyCollector sink;
  CUZK_RETURN_IF_ERROR(setup_into(c, td, sink, opt));
  return sink.take();
}

Result<ProvingKey> setup(const R1csMatrices& m, Rng& rng, const SetupOptions& opt) {
  const Trapdoor td = random_trapdoor(rng);
  return setup_with_trapdoor(m, td, opt);
}

}  // namespace cuzk
