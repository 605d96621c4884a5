// Microbenchmark ops for `cuzk microbench`. Each op prepares its inputs outside the timed region,
// runs once to warm up, then |repeats| timed runs; the median is reported.
#include "cuzk/cli/microbench.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <random>

#include <time.h>

#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/batch_affine.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/gadgets/gadget_bench.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {
namespace {

using Clock = std::chrono::steady_clock;

/// CPU time of the whole process (all threads, user + system).
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct OpContext {
  std::uint64_t n;
  unsigned threads;
  Backend* backend = nullptr;  ///< set for bulk ops (uses_threads)
  ThreadPool* pool = nullptr;
  std::mt19937_64 rng{0x5eed};
  /// Set by an op whose timed body consumes its inputs: restores them before every run, untimed.
  std::function<void()> before_each{};
};

/// An op: prepares state for n, returns the timed body.
using OpFactory = std::function<std::function<void()>(OpContext&)>;

struct OpInfo {
  unsigned default_log_n;
  OpFactory make;
  bool uses_threads = false;  ///< per-element ops run on one thread whatever --threads says
  unsigned min_log_n = 1;
};

template <class F>
F random_field(std::mt19937_64& rng) {
  typename F::Repr c{};
  for (auto& w : c) w = rng();
  return F::from_limbs_reduce(c);
}

template <class T>
void keep(const T& v) {
  asm volatile("" : : "r"(&v) : "memory");
}

G1Affine random_g1(std::mt19937_64& rng) {
  return mul(G1Jacobian::generator(), random_field<Fr>(rng)).to_affine();
}
G2Affine random_g2(std::mt19937_64& rng) {
  return mul(G2Jacobian::generator(), random_field<Fr>(rng)).to_affine();
}

/// n distinct points P0 + i·Q (one mixed addition each, then one batch normalisation): cheap to
/// make at 2^20 and as good as random points for timing an MSM.
template <class Jac, class Aff>
std::vector<Aff> point_run(std::uint64_t n, const Aff& p0, const Aff& q) {
  std::vector<Jac> jac(n);
  Jac acc = Jac::from_affine(p0);
  for (std::uint64_t i = 0; i < n; ++i) {
    jac[i] = acc;
    acc.add_mixed(q);
  }
  return batch_to_affine_vartime(std::span<const Jac>(jac));
}

std::vector<Fr> random_scalars(std::uint64_t n, std::mt19937_64& rng, double zero_one_fraction) {
  std::vector<Fr> s(n);
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& v : s) {
    const double x = u(rng);
    if (x < zero_one_fraction / 2)
      v = Fr::zero();
    else if (x < zero_one_fraction)
      v = Fr::one();
    else
      v = random_field<Fr>(rng);
  }
  return s;
}

/// A timed body that stops the benchmark on a backend error (reported once, after the run).
struct BulkError {
  std::string message;
};

void check(const Status& st) {
  if (!st.ok()) throw BulkError{st.to_string()};
}

template <class G>
std::function<void()> msm_op(OpContext& c, double zero_one_fraction) {
  std::vector<Fr> scalars = random_scalars(c.n, c.rng, zero_one_fraction);
  BasesId id;
  if constexpr (std::is_same_v<G, G1Affine>) {
    auto bases = point_run<G1Jacobian, G1Affine>(c.n, random_g1(c.rng), random_g1(c.rng));
    auto r = c.backend->load_bases_g1(bases);
    check(r.status());
    id = *r;
  } else {
    auto bases = point_run<G2Jacobian, G2Affine>(c.n, random_g2(c.rng), random_g2(c.rng));
    auto r = c.backend->load_bases_g2(bases);
    check(r.status());
    id = *r;
  }
  return [backend = c.backend, id, scalars = std::move(scalars)]() {
    if constexpr (std::is_same_v<G, G1Affine>) {
      auto r = backend->msm_g1(id, scalars, {});
      check(r.status());
      keep(*r);
    } else {
      auto r = backend->msm_g2(id, scalars, {});
      check(r.status());
      keep(*r);
    }
  };
}

std::function<void()> ntt_op(OpContext& c, bool coset) {
  auto v = std::make_shared<std::vector<Fr>>(c.n);
  for (auto& x : *v) x = random_field<Fr>(c.rng);
  return [backend = c.backend, v, coset]() {
    check(backend->ntt(*v, {.direction = NttDirection::forward, .coset = coset}));
  };
}

std::function<void()> h_op(OpContext& c) {
  auto src = std::make_shared<std::vector<Fr>>(3 * c.n);
  for (auto& x : *src) x = random_field<Fr>(c.rng);
  auto work = std::make_shared<std::vector<Fr>>(3 * c.n);
  auto h = std::make_shared<std::vector<Fr>>(c.n - 1);
  const std::uint64_t n = c.n;
  return [backend = c.backend, src, work, h, n]() {
    std::copy(src->begin(), src->end(), work->begin());  // compute_h consumes its inputs
    std::span<Fr> w(*work);
    check(backend->compute_h({w.subspan(0, n), w.subspan(n, n), w.subspan(2 * n, n)}, *h));
  };
}

/// The benchmark circuit at 2^K constraints, synthesised the classic way (recording every
/// enforce and evaluating a, b, c there, as bellperson's ProvingAssignment).
std::function<void()> synth_classic_op(OpContext& c) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(c.n));
  auto circuit = std::make_shared<BenchCircuit>(BenchCircuitParams{.log_rows = k});
  check(circuit->prepare());
  return [circuit, n = c.n]() {
    RecordingConstraintSystem cs({.with_values = true,
                                  .record_matrices = false,
                                  .evaluate_abc = true,
                                  .reserve_constraints = n});
    check(synthesize_circuit(*circuit, cs));
    keep(cs.recording().c.data());
  };
}

/// synth-classic with its vectors (witness, a, b, c) reused from the previous run, as synth-pce
/// reuses its own: the comparison with no fresh pages on either side. (On the shared VM a first
/// touch of a fresh page costs about 10 µs, which is most of synth-classic's time.)
std::function<void()> synth_classic_reuse_op(OpContext& c) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(c.n));
  auto circuit = std::make_shared<BenchCircuit>(BenchCircuitParams{.log_rows = k});
  check(circuit->prepare());
  auto storage = std::make_shared<Recording>();
  return [circuit, storage, n = c.n]() {
    RecordingConstraintSystem cs({.with_values = true,
                                  .record_matrices = false,
                                  .evaluate_abc = true,
                                  .reserve_constraints = n},
                                 std::move(*storage));
    check(synthesize_circuit(*circuit, cs));
    *storage = cs.take();
    keep(storage->c.data());
  };
}

/// What the PCE ops share, made outside the timed region: the bench circuit at 2^K rows, its
/// matrices, schedule and compiled plan (once per topology), a, b, c sized to the rows, and the
/// witness buffer each run hands to the next.
struct PceOpSetup {
  std::shared_ptr<BenchCircuit> circuit;
  std::shared_ptr<R1csMatrices> m;
  std::shared_ptr<PceSchedule> sched;
  std::shared_ptr<PcePlan> plan;
  std::shared_ptr<AbcVectors> v;
  std::shared_ptr<std::vector<Fr>> z;
};

PceOpSetup make_pce_op_setup(OpContext& c, ThreadPool& pool) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(c.n));
  PceOpSetup su;
  su.circuit = std::make_shared<BenchCircuit>(BenchCircuitParams{.log_rows = k});
  check(su.circuit->prepare());
  auto r = generate_bench_r1cs(pool, {.log_rows = k}, false);
  check(r.status());
  su.m = std::make_shared<R1csMatrices>(std::move(r->matrices));
  su.sched = std::make_shared<PceSchedule>(pce_schedule(*su.m));
  su.plan = std::make_shared<PcePlan>(pce_plan(*su.m));
  su.v = std::make_shared<AbcVectors>();
  su.v->a.resize(su.m->num_constraints);
  su.v->b.resize(su.m->num_constraints);
  su.v->c.resize(su.m->num_constraints);
  su.z = std::make_shared<std::vector<Fr>>();
  return su;
}

/// The same circuit as witness-only synthesis + PCE SpMV producing the same a, b, c (the
/// matrices are recorded once, outside the timed region, as the engine caches them). a, b, c and
/// the witness buffer are reused from one run to the next (the witness system builds z in the
/// previous run's vector), as a prover does from proof to proof.
/// The SpMV runs from the compiled plan (pce_plan, built once per topology outside the timed
/// region); synth-pce-csr walks the CSR rows instead (the path before the plan, same a, b, c).
std::function<void()> synth_pce_op(OpContext& c, ThreadPool& pool, bool use_plan = true) {
  const PceOpSetup su = make_pce_op_setup(c, pool);
  const auto& [circuit, m, sched, plan, v, z] = su;
  const PceOptions opt{.plan = use_plan ? plan.get() : nullptr};
  return [circuit, m, plan, opt, v, z, &pool]() {
    WitnessConstraintSystem cs({.reserve_aux = m->num_aux, .num_inputs_hint = m->num_inputs},
                               std::move(*z));
    check(synthesize_circuit(*circuit, cs));
    *z = cs.take_assignment();
    check(pce_evaluate_into(pool, *m, *z, v->a, v->b, v->c, opt));
    keep(v->c.data());
  };
}

/// synth-pce on one thread with the SpMV fused into synthesis (PceStream, not concurrent): each
/// batch of 64-row blocks is evaluated from the plan as soon as the columns it reads are assigned,
/// while they are still in cache. Same a, b, c as synth-pce.
std::function<void()> synth_pce_fused_op(OpContext& c) {
  ThreadPool setup_pool(1);
  const PceOpSetup su = make_pce_op_setup(c, setup_pool);
  const auto& [circuit, m, sched, plan, v, z] = su;
  return [circuit, m, sched, plan, v, z]() {
    PceStream stream(*m, *sched, v->a, v->b, v->c, {.plan = plan.get()});
    WitnessConstraintSystem cs(
        {.reserve_aux = m->num_aux, .num_inputs_hint = m->num_inputs, .stream = &stream},
        std::move(*z));
    check(synthesize_circuit(*circuit, cs));
    *z = cs.take_assignment();
    check(stream.finish(*z));
    keep(v->c.data());
  };
}

/// synth-pce as a two-thread pipeline (synthesize_pce): the pool's second thread evaluates the
/// 64-row blocks whose columns are already assigned while this thread goes on synthesising, and
/// both finish the rest. With --threads 1: synthesis then SpMV on one thread (= synth-pce).
std::function<void()> synth_pce_pipe_op(OpContext& c, ThreadPool& pool) {
  const PceOpSetup su = make_pce_op_setup(c, pool);
  const auto& [circuit, m, sched, plan, v, z] = su;
  return [circuit, m, sched, plan, v, z, &pool]() {
    auto w = synthesize_pce(pool, *circuit, *m, *sched, v->a, v->b, v->c, std::move(*z),
                            {.plan = plan.get()});
    check(w.status());
    *z = std::move(*w);
    keep(v->c.data());
  };
}

/// |count| points made of a run of |distinct| distinct points repeated (an MSM's time does not
/// depend on which points it adds; distinct runs cost CPU time at 2^27).
template <class Jac, class Aff>
std::vector<Aff> repeated_points(std::size_t count, std::size_t distinct, std::mt19937_64& rng) {
  const Aff p0 = mul(Jac::generator(), random_field<Fr>(rng)).to_affine();
  const Aff q = mul(Jac::generator(), random_field<Fr>(rng)).to_affine();
  const auto run =
      point_run<Jac, Aff>(std::min<std::size_t>(std::max<std::size_t>(count, 1), distinct), p0, q);
  std::vector<Aff> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = run[i % run.size()];
  return out;
}

/// The device part of one partition of the benchmark circuit at 2^K rows (its PoRep statistics:
/// mostly 0/1 witness, A density ≈ 99.7 %, B ≈ 25 %): prove_with_abc, i.e. the H step and the A,
/// B_G1, B_G2, L and H MSMs with bellperson's densities plus the (small) assembly. The query bases
/// (repeated random points of the key's sizes) are resident before timing; a, b, c and z are on
/// the host at the start of each run, so their upload counts. Each run's stage times go to stderr.
/// |stepwise|: the step-wise Backend calls (compute_h + eight MSMs) instead of one prove_partition.
std::function<void()> partition_op(OpContext& c, bool stepwise) {
  const unsigned k = static_cast<unsigned>(std::countr_zero(c.n));
  auto r = generate_bench_r1cs(*c.pool, {.log_rows = k});
  check(r.status());
  auto circuit = std::make_shared<BenchR1cs>(std::move(*r));
  auto z = std::make_shared<std::vector<Fr>>(circuit->assignment());
  const R1csMatrices& m = circuit->matrices;
  auto abc0 = pce_evaluate(*c.pool, m, *z);
  check(abc0.status());
  auto pk = std::make_shared<ProvingKey>();
  pk->layout = KeyLayout::bellperson;
  pk->domain_size = std::bit_ceil(m.num_constraints);
  const std::size_t distinct = std::size_t{1} << 14;
  pk->h = repeated_points<G1Jacobian, G1Affine>(pk->domain_size - 1, distinct, c.rng);
  pk->l = repeated_points<G1Jacobian, G1Affine>(m.num_aux, distinct, c.rng);
  pk->a = repeated_points<G1Jacobian, G1Affine>(m.num_inputs + m.a_aux_density.count(), distinct,
                                                c.rng);
  const std::size_t nb = m.b_input_density.count() + m.b_aux_density.count();
  pk->b_g1 = repeated_points<G1Jacobian, G1Affine>(nb, distinct, c.rng);
  pk->b_g2 = repeated_points<G2Jacobian, G2Affine>(nb, distinct / 4, c.rng);
  pk->vk.ic = repeated_points<G1Jacobian, G1Affine>(m.num_inputs, distinct, c.rng);
  pk->vk.alpha_g1 = random_g1(c.rng), pk->vk.beta_g1 = random_g1(c.rng),
  pk->vk.delta_g1 = random_g1(c.rng);
  pk->vk.beta_g2 = random_g2(c.rng), pk->vk.gamma_g2 = random_g2(c.rng),
  pk->vk.delta_g2 = random_g2(c.rng);
  check(check_key_matches(*pk, m));
  auto key = ResidentKey::load(*c.backend, *pk);
  check(key.status());
  std::shared_ptr<ResidentKey> resident = std::move(*key);
  auto src = std::make_shared<AbcVectors>(std::move(*abc0));
  auto work = std::make_shared<AbcVectors>();
  c.before_each = [src, work]() { *work = *src; };
  return [circuit, z, pk, resident, work, pool = c.pool, stepwise]() {
    ProveTimings t;
    SeededRng rng(7);
    auto p = prove_with_abc(*pool, *resident, circuit->matrices, std::move(*work), *z,
                            {.rng = &rng, .timings = &t, .stepwise = stepwise});
    check(p.status());
    keep(*p);
    std::fprintf(
        stderr,
        "partition%s: h %.1f ms, msm a %.1f, b_g1 %.1f, b_g2 %.1f, l %.1f, h %.1f, upload %.1f, "
        "backend call %.1f, assemble %.1f, total %.1f ms\n",
        stepwise ? "-steps" : "", t.h * 1e3, t.msm_a * 1e3, t.msm_b1 * 1e3, t.msm_b2 * 1e3,
        t.msm_l * 1e3, t.msm_h * 1e3, t.upload * 1e3, t.partition * 1e3, t.assemble * 1e3,
        t.total * 1e3);
  };
}

const std::map<std::string, OpInfo>& registry() {
  static const std::map<std::string, OpInfo> ops = {
      {"fp-mul",
       {20,
        [](OpContext& c) {
          Fp a = random_field<Fp>(c.rng), b = random_field<Fp>(c.rng);
          return std::function<void()>([a, b, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) a = a * b;  // dependent chain
            keep(a);
          });
        }}},
      {"fr-mul",
       {20,
        [](OpContext& c) {
          Fr a = random_field<Fr>(c.rng), b = random_field<Fr>(c.rng);
          return std::function<void()>([a, b, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) a = a * b;
            keep(a);
          });
        }}},
      {"fp-inv",
       {12,
        [](OpContext& c) {
          Fp a = random_field<Fp>(c.rng);
          return std::function<void()>([a, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) a = a.inverse_vartime() + Fp::one();
            keep(a);
          });
        }}},
      {"g1-add-mixed",
       {16,
        [](OpContext& c) {
          G1Jacobian acc = G1Jacobian::from_affine(random_g1(c.rng));
          G1Affine q = random_g1(c.rng);
          return std::function<void()>([acc, q, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) acc.add_mixed(q);
            keep(acc);
          });
        }}},
      {"g1-double",
       {16,
        [](OpContext& c) {
          G1Jacobian acc = G1Jacobian::from_affine(random_g1(c.rng));
          return std::function<void()>([acc, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) acc.dbl();
            keep(acc);
          });
        }}},
      {"g2-add-mixed",
       {14,
        [](OpContext& c) {
          G2Jacobian acc = G2Jacobian::from_affine(random_g2(c.rng));
          G2Affine q = random_g2(c.rng);
          return std::function<void()>([acc, q, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) acc.add_mixed(q);
            keep(acc);
          });
        }}},
      {"g1-mul",
       {8,
        [](OpContext& c) {
          G1Jacobian p = G1Jacobian::from_affine(random_g1(c.rng));
          Fr k = random_field<Fr>(c.rng);
          return std::function<void()>([p, k, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) p = mul(p, k);
            keep(p);
          });
        }}},
      {"g2-mul",
       {6,
        [](OpContext& c) {
          G2Jacobian p = G2Jacobian::from_affine(random_g2(c.rng));
          Fr k = random_field<Fr>(c.rng);
          return std::function<void()>([p, k, n = c.n]() mutable {
            for (std::uint64_t i = 0; i < n; ++i) p = mul(p, k);
            keep(p);
          });
        }}},
      // Checked decompression (square root + subgroup test), n distinct points.
      {"g1-decompress",
       {10,
        [](OpContext& c) {
          auto pts = point_run<G1Jacobian, G1Affine>(c.n, random_g1(c.rng), random_g1(c.rng));
          std::vector<G1Compressed> enc;
          for (const auto& p : pts) enc.push_back(to_compressed(p));
          return std::function<void()>([enc]() {
            for (const auto& e : enc) {
              auto r = g1_from_compressed(e);
              check(r.status());
              keep(*r);
            }
          });
        }}},
      {"pairing",
       {4,
        [](OpContext& c) {
          G1Affine p = random_g1(c.rng);
          G2Affine q = random_g2(c.rng);
          return std::function<void()>([p, q, n = c.n]() {
            for (std::uint64_t i = 0; i < n; ++i) keep(pairing(p, q));
          });
        }}},
      {"multi-pairing-4",
       {3,
        [](OpContext& c) {
          std::vector<G1Affine> ps;
          std::vector<G2Affine> qs;
          for (int i = 0; i < 4; ++i) {
            ps.push_back(random_g1(c.rng));
            qs.push_back(random_g2(c.rng));
          }
          return std::function<void()>([ps, qs, n = c.n]() {
            for (std::uint64_t i = 0; i < n; ++i) {
              auto f =
                  multi_miller_loop(std::span<const G1Affine>(ps), std::span<const G2Affine>(qs));
              keep(final_exponentiation(f.value()));
            }
          });
        }}},
      {"ntt", {16, [](OpContext& c) { return ntt_op(c, false); }, true}},
      {"coset-ntt", {16, [](OpContext& c) { return ntt_op(c, true); }, true}},
      {"h-compute", {16, [](OpContext& c) { return h_op(c); }, true}},
      {"synth-classic", {16, [](OpContext& c) { return synth_classic_op(c); }, true, 10}},
      {"synth-classic-reuse",
       {16, [](OpContext& c) { return synth_classic_reuse_op(c); }, true, 10}},
      {"synth-pce", {16, [](OpContext& c) { return synth_pce_op(c, *c.pool); }, true, 10}},
      {"synth-pce-csr",
       {16, [](OpContext& c) { return synth_pce_op(c, *c.pool, false); }, true, 10}},
      {"synth-pce-fused", {16, [](OpContext& c) { return synth_pce_fused_op(c); }, true, 10}},
      {"synth-pce-pipe",
       {16, [](OpContext& c) { return synth_pce_pipe_op(c, *c.pool); }, true, 10}},
      {"partition", {16, [](OpContext& c) { return partition_op(c, false); }, true, 10}},
      {"partition-steps", {16, [](OpContext& c) { return partition_op(c, true); }, true, 10}},
      // n gadget instances (sha256: 45,386 constraints each; poseidon arity 8: 505 each).
      {"sha256-gadget",
       {2,
        [](OpContext& c) {
          return std::function<void()>(
              [n = c.n]() { check(run_sha256_gadget({.n = n}).status()); });
        }}},
      {"poseidon-gadget",
       {8,
        [](OpContext& c) {
          return std::function<void()>(
              [n = c.n]() { check(run_poseidon_gadget({.n = n}).status()); });
        }}},
      {"msm-g1", {16, [](OpContext& c) { return msm_op<G1Affine>(c, 0.0); }, true}},
      {"msm-g2", {14, [](OpContext& c) { return msm_op<G2Affine>(c, 0.0); }, true}},
      // ≈70 % of scalars 0 or 1, the rest random: a Filecoin witness (REFERENCE-CUZK.md §5).
      {"msm-g1-filecoin-mix", {16, [](OpContext& c) { return msm_op<G1Affine>(c, 0.7); }, true}},
  };
  return ops;
}

}  // namespace

std::string MicrobenchResult::to_json() const {
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      R"({"op":"%s","n":%llu,"threads":%u,"backend":"%s","seconds":%.9g,"cpu_seconds":%.9g})",
      op.c_str(), static_cast<unsigned long long>(n), threads, backend.c_str(), seconds,
      cpu_seconds);
  return buf;
}

std::vector<std::string> microbench_ops() {
  std::vector<std::string> names;
  for (const auto& [name, info] : registry()) names.push_back(name);
  return names;
}

Result<MicrobenchResult> run_microbench(const MicrobenchOptions& o) {
  auto it = registry().find(o.op);
  if (it == registry().end())
    return Status(Errc::invalid_argument, "unknown microbench op '" + o.op + "'");
  const OpInfo& info = it->second;
  if (o.threads == 0) return Status(Errc::invalid_argument, "--threads must be at least 1");
  if (!info.uses_threads && o.backend != "cpu")
    return Status(Errc::invalid_argument,
                  "op '" + o.op + "' has no implementation on backend '" + o.backend + "'");
  const unsigned log_n = o.log_n ? o.log_n : info.default_log_n;
  if (log_n > 40 || log_n < info.min_log_n || (info.uses_threads && log_n > 32))
    return Status(Errc::invalid_argument,
                  "--log-n " + std::to_string(log_n) + " is out of range for " + o.op);
  ThreadPool pool(o.threads);
  std::unique_ptr<Backend> backend;
  if (info.uses_threads) {
    auto b = make_backend(o.backend, pool);
    if (!b) return b.status();
    backend = std::move(*b);
  }
  OpContext ctx{std::uint64_t{1} << log_n, o.threads, backend.get(), &pool};
  std::vector<double> times, cpu;
  try {
    auto body = info.make(ctx);
    if (ctx.before_each) ctx.before_each();
    body();  // warm-up
    for (unsigned r = 0; r < std::max(1u, o.repeats); ++r) {
      if (ctx.before_each) ctx.before_each();
      const double c0 = process_cpu_seconds();
      auto t0 = Clock::now();
      body();
      times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      cpu.push_back(process_cpu_seconds() - c0);
    }
  } catch (const BulkError& e) {
    return Status(Errc::device_failure, o.op + " on " + o.backend + ": " + e.message);
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  MicrobenchResult res{o.op,
                       ctx.n,
                       info.uses_threads ? o.threads : 1u,
                       o.backend,
                       times[times.size() / 2],
                       cpu[cpu.size() / 2]};
  return res;
}

}  // namespace cuzk
