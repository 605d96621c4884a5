// PCE SpMV against its slow twin (spmv_naive) on random R1CS with mixed coefficient kinds and
// witnesses, and against the classic recorded path (a, b, c evaluated at every enforce) on the
// benchmark circuit at sizes that are not powers of two.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <thread>

#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {
using cuzk::test::random_fr;

// Random matrices: rows of 0..6 terms with +1, −1, small and full-width coefficients, repeats.
R1csMatrices random_r1cs(std::mt19937_64& rng, std::uint32_t rows, std::uint32_t ni,
                         std::uint32_t na) {
  R1csMatrices m;
  m.num_inputs = ni;
  m.num_aux = na;
  auto column = [ni](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  for (std::uint32_t k = 0; k < rows; ++k) {
    for (SparseMatrix* s : {&m.a, &m.b, &m.c}) {
      LC lc;
      const int terms = static_cast<int>(rng() % 7);
      for (int t = 0; t < terms; ++t) {
        const std::uint64_t j = rng() % (ni + na);
        const Variable v = j < ni ? Variable::input(static_cast<std::uint32_t>(j))
                                  : Variable::aux(static_cast<std::uint32_t>(j - ni));
        Fr coeff;
        switch (rng() % 4) {
          case 0:
            coeff = Fr::one();
            break;
          case 1:
            coeff = kFrMinusOne;
            break;
          case 2:
            coeff = Fr::from_u64(rng() % 5);
            break;  // zero coefficients get dropped
          default:
            coeff = random_fr(rng);
            break;
        }
        lc.add(coeff, v);
      }
      lc.normalize();
      s->append_row(lc.terms(), column);
    }
  }
  m.num_constraints = rows;
  m.compute_density();
  return m;
}

TEST(Pce, MatchesNaiveOnRandomMatrices) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool3(3);
  for (int iter = 0; iter < 6; ++iter) {
    const auto rows = static_cast<std::uint32_t>(1 + rng() % 3000);
    const auto ni = static_cast<std::uint32_t>(1 + rng() % 5);
    const auto na = static_cast<std::uint32_t>(1 + rng() % 2000);
    R1csMatrices m = random_r1cs(rng, rows, ni, na);
    ASSERT_TRUE(m.validate().ok()) << m.validate().to_string();
    std::vector<Fr> z(ni + na);
    for (Fr& v : z) {
      const auto r = rng() % 3;
      v = r == 0 ? Fr::zero() : (r == 1 ? Fr::one() : random_fr(rng));
    }
    const AbcVectors want = spmv_naive(m, z);
    for (bool fast : {false, true}) {
      for (bool shapes : {false, true}) {
        for (ThreadPool* pool : {&pool1, &pool3}) {
          // Non-temporal stores on (threshold 0) and off, whatever the size.
          const std::size_t nt = pool == &pool1 ? 0 : SIZE_MAX;
          auto got = pce_evaluate(*pool, m, z,
                                  {.boolean_fast_path = fast,
                                   .row_shapes = shapes,
                                   .min_rows_per_task = 64,
                                   .nt_store_min_rows = nt});
          ASSERT_TRUE(got.ok());
          EXPECT_EQ(got->a, want.a) << "seed=" << seed << " rows=" << rows << " fast=" << fast
                                    << " shapes=" << shapes << " nt=" << nt;
          EXPECT_EQ(got->b, want.b) << "seed=" << seed;
          EXPECT_EQ(got->c, want.c) << "seed=" << seed;
        }
      }
    }
  }
}

// The per-row shape dispatch on the benchmark circuit (its rows are mostly of the recognised
// boolean / xor / mul forms, random matrices rarely are) against the slow twin, for witnesses
// of bits and of random values (the general terms' 0 / 1 / other cases).
TEST(Pce, RowShapesMatchNaiveOnBenchCircuit) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (int iter = 0; iter < 3; ++iter) {
    const std::uint64_t rows = 1000 + rng() % 9000;
    auto r = generate_bench_r1cs({.rows = rows, .seed = seed + iter});
    ASSERT_TRUE(r.ok());
    std::vector<Fr> z = r->assignment();
    if (iter == 2)
      for (std::size_t j = 1; j < z.size(); ++j) z[j] = rng() % 2 ? random_fr(rng) : z[j];
    const AbcVectors want = spmv_naive(r->matrices, z);
    for (bool fast : {false, true}) {
      for (bool shapes : {false, true}) {
        auto got = pce_evaluate(pool, r->matrices, z,
                                {.boolean_fast_path = fast,
                                 .row_shapes = shapes,
                                 .nt_store_min_rows = iter == 1 ? 0 : SIZE_MAX});
        ASSERT_TRUE(got.ok());
        EXPECT_EQ(got->a, want.a) << "seed=" << seed << " rows=" << rows << " fast=" << fast
                                  << " shapes=" << shapes;
        EXPECT_EQ(got->b, want.b) << "seed=" << seed << " rows=" << rows << " fast=" << fast
                                  << " shapes=" << shapes;
        EXPECT_EQ(got->c, want.c) << "seed=" << seed << " rows=" << rows << " fast=" << fast
                                  << " shapes=" << shapes;
      }
    }
  }
}

// Outputs only 8-byte aligned (spans into a larger buffer at an odd offset): the non-temporal
// path needs 16-byte alignment and must fall back, with the same results.
TEST(Pce, MisalignedOutputsFallBack) {
  auto r = generate_bench_r1cs({.rows = 3000, .seed = 11});
  ASSERT_TRUE(r.ok());
  ThreadPool pool(1);
  const std::vector<Fr> z = r->assignment();
  const std::size_t n = r->matrices.num_constraints;
  std::vector<std::uint64_t> raw(3 * 4 * n + 8);
  std::uint64_t* base =
      raw.data() + (reinterpret_cast<std::uintptr_t>(raw.data()) % 16 == 0 ? 1 : 0);
  auto* f = reinterpret_cast<Fr*>(base);
  std::span<Fr> a(f, n), b(f + n, n), c(f + 2 * n, n);
  ASSERT_TRUE(pce_evaluate_into(pool, r->matrices, z, a, b, c, {.nt_store_min_rows = 0}).ok());
  const AbcVectors want = spmv_naive(r->matrices, z);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), want.a.begin()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), want.b.begin()));
  EXPECT_TRUE(std::equal(c.begin(), c.end(), want.c.begin()));
}

// Matrices with no entry at all in C (snarkjs's layout) or trailing empty rows: nothing may be
// read past a matrix's entries (the SpMV prefetches ahead), results equal the slow twin.
TEST(Pce, EmptyMatricesAndTrailingEmptyRows) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool(1);
  for (int iter = 0; iter < 4; ++iter) {
    const auto rows = static_cast<std::uint32_t>(1 + rng() % 700);
    R1csMatrices m = random_r1cs(rng, rows, 2, 300);
    m.c = SparseMatrix{};
    for (std::uint32_t k = 0; k < rows; ++k) m.c.append_empty_row();
    // Trailing empty rows in A and B too.
    const std::uint32_t extra = static_cast<std::uint32_t>(rng() % 20);
    for (std::uint32_t k = 0; k < extra; ++k) {
      m.a.append_empty_row();
      m.b.append_empty_row();
      m.c.append_empty_row();
    }
    m.num_constraints = rows + extra;
    for (SparseMatrix* x : {&m.a, &m.b, &m.c}) x->rebuild_blocks();
    m.compute_density();
    ASSERT_TRUE(m.validate().ok()) << m.validate().to_string();
    std::vector<Fr> z(m.num_columns());
    for (Fr& v : z) v = rng() % 2 ? Fr::one() : random_fr(rng);
    const AbcVectors want = spmv_naive(m, z);
    for (bool shapes : {false, true}) {
      auto got = pce_evaluate(pool, m, z,
                              {.row_shapes = shapes, .nt_store_min_rows = iter % 2 ? 0 : SIZE_MAX});
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(got->a, want.a) << "seed=" << seed << " rows=" << rows << " extra=" << extra;
      EXPECT_EQ(got->b, want.b) << "seed=" << seed;
      EXPECT_EQ(got->c, want.c) << "seed=" << seed;
    }
  }
}

TEST(Pce, RejectsWrongSizes) {
  auto r = generate_bench_r1cs({.rows = 300, .seed = 5});
  ASSERT_TRUE(r.ok());
  ThreadPool pool(1);
  std::vector<Fr> z = r->assignment();
  z.pop_back();
  auto got = pce_evaluate(pool, r->matrices, z);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Errc::size_mismatch);
}

// PCE (witness-only synthesis + SpMV over recorded matrices) == classic (evaluate at enforce).
TEST(Pce, MatchesClassicPathOnBenchCircuit) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  ThreadPool pool(2);
  for (int iter = 0; iter < 3; ++iter) {
    const std::uint64_t rows = 1000 + rng() % 9000;  // not a power of two
    BenchCircuit circuit({.rows = rows,
                          .seed = seed + iter,
                          .num_public = static_cast<std::uint32_t>(1 + rng() % 6)});
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(circuit, setup).ok());
    const R1csMatrices m = setup.take().matrices;

    RecordingConstraintSystem classic(
        {.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, classic).ok());
    const Recording c = classic.take();
    EXPECT_EQ(c.matrices.a_aux_density, m.a_aux_density);
    EXPECT_EQ(c.matrices.b_aux_density, m.b_aux_density);
    EXPECT_EQ(c.matrices.b_input_density, m.b_input_density);

    WitnessConstraintSystem wcs({.num_inputs_hint = m.num_inputs});
    ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
    const std::vector<Fr> z = wcs.take_assignment();
    auto abc = pce_evaluate(pool, m, z);
    ASSERT_TRUE(abc.ok());
    ASSERT_EQ(abc->a.size(), rows);
    EXPECT_EQ(abc->a, c.a) << "seed=" << seed << " rows=" << rows;
    EXPECT_EQ(abc->b, c.b) << "seed=" << seed << " rows=" << rows;
    EXPECT_EQ(abc->c, c.c) << "seed=" << seed << " rows=" << rows;
    EXPECT_TRUE(abc_satisfied(*abc));
    // The compiled plan: every form, with and without the 0/1 path and non-temporal stores.
    const PcePlan plan = pce_plan(m);
    EXPECT_GT(
        plan.rows_by_form[0] * plan.rows_by_form[1] * plan.rows_by_form[2] * plan.rows_by_form[3],
        0u);
    for (int o = 0; o < 4; ++o) {
      auto got = pce_evaluate(pool, m, z,
                              {.boolean_fast_path = (o & 1) != 0,
                               .nt_store_min_rows = (o & 2) ? 0 : SIZE_MAX,
                               .plan = &plan});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(got->a == c.a && got->b == c.b && got->c == c.c)
          << "plan seed=" << seed << " o=" << o;
    }
  }
}

// Fused PCE (PceStream fed by the witness system during synthesis) == classic, bit for bit, with
// the witness buffer recycled from one proof to the next; most rows are evaluated during synthesis.
TEST(Pce, StreamMatchesClassicPathOnBenchCircuit) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  std::vector<Fr> storage;
  for (int iter = 0; iter < 3; ++iter) {
    const std::uint64_t rows = 1000 + rng() % 9000;
    BenchCircuit circuit({.rows = rows,
                          .seed = seed + iter,
                          .num_public = static_cast<std::uint32_t>(1 + rng() % 6)});
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(circuit, setup).ok());
    const R1csMatrices m = setup.take().matrices;
    const PceSchedule sched = pce_schedule(m);

    RecordingConstraintSystem classic(
        {.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, classic).ok());
    const Recording want = classic.take();

    // Concurrent: a helper thread evaluates the ready blocks; with no reservation the witness
    // buffer grows mid-synthesis and the helper must be stopped first (before_grow).
    for (int mode = 0; mode < 4; ++mode) {
      const bool fast = mode % 2 == 0, concurrent = mode >= 2;
      for (int variant = 0; variant < 4; ++variant) {
        const std::size_t reserve = variant % 2 ? static_cast<std::size_t>(m.num_aux) : 0;
        const bool direct = variant >= 2;
        AbcVectors got;
        got.a.assign(rows, Fr::one());  // stale contents must all be overwritten
        got.b.assign(rows, Fr::one());
        got.c.assign(rows, Fr::one());
        PceStream stream(
            m, sched, got.a, got.b, got.c,
            {.boolean_fast_path = fast, .nt_store_min_rows = fast ? std::size_t{0} : SIZE_MAX},
            concurrent);
        if (reserve == 0) storage = {};
        // Concurrent: a helper thread runs beside synthesis (with the inline appends of
        // direct_alloc or through the virtual path, alternately).
        std::thread helper;
        if (concurrent) helper = std::thread([&stream] { stream.run_helper(); });
        {
          WitnessConstraintSystem wcs({.reserve_aux = reserve,
                                       .num_inputs_hint = m.num_inputs,
                                       .stream = &stream,
                                       .direct_alloc = direct},
                                      std::move(storage));
          ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
          EXPECT_GT(stream.rows_streamed(), rows / 2) << "seed=" << seed;
          storage = wcs.take_assignment();
        }
        const Status fin = stream.finish(storage);
        if (helper.joinable()) helper.join();
        ASSERT_TRUE(fin.ok());
        EXPECT_EQ(got.a, want.a) << "seed=" << seed << " rows=" << rows << " fast=" << fast
                                 << " concurrent=" << concurrent << " reserve=" << reserve
                                 << " direct=" << direct;
        EXPECT_EQ(got.b, want.b) << "seed=" << seed << " rows=" << rows
                                 << " concurrent=" << concurrent;
        EXPECT_EQ(got.c, want.c) << "seed=" << seed << " rows=" << rows
                                 << " concurrent=" << concurrent;
      }
    }
  }
}

// The classic system reusing a previous recording's vectors gives the same a, b, c and densities
// as a fresh one, also after recording a larger circuit into the same storage.
TEST(Pce, ClassicWithRecycledStorageMatchesFresh) {
  const std::uint64_t seed = std::random_device{}();
  Recording storage;
  for (std::uint64_t rows : {3000u, 1200u, 2500u}) {
    BenchCircuit circuit({.rows = rows, .seed = seed + rows});
    RecordingConstraintSystem fresh(
        {.with_values = true, .record_matrices = true, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, fresh).ok());
    const Recording want = fresh.take();
    RecordingConstraintSystem reused(
        {.with_values = true, .record_matrices = true, .evaluate_abc = true}, std::move(storage));
    ASSERT_TRUE(synthesize_circuit(circuit, reused).ok());
    storage = reused.take();
    EXPECT_EQ(storage.a, want.a) << "seed=" << seed << " rows=" << rows;
    EXPECT_EQ(storage.b, want.b) << "seed=" << seed;
    EXPECT_EQ(storage.c, want.c) << "seed=" << seed;
    EXPECT_EQ(storage.aux, want.aux) << "seed=" << seed;
    EXPECT_TRUE(storage.matrices == want.matrices) << "seed=" << seed;
  }
}

// Columns in random order (a row may read a variable allocated much later): the stream waits for
// them, and a witness system with the wrong input count does not feed it at all; both equal the
// slow twin after finish().
TEST(Pce, StreamOnRandomMatricesAndWrongHint) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  const std::uint32_t rows = 700, ni = 3, na = 500;
  R1csMatrices m = random_r1cs(rng, rows, ni, na);
  std::vector<Fr> z(ni + na);
  z[0] = Fr::one();
  for (std::size_t i = 1; i < z.size(); ++i)
    z[i] = rng() % 2 ? Fr::from_u64(rng() % 3) : random_fr(rng);
  const AbcVectors want = spmv_naive(m, z);
  const PceSchedule sched = pce_schedule(m);
  for (std::size_t hint : {std::size_t{ni}, std::size_t{1}}) {
    AbcVectors got;
    got.a.resize(rows);
    got.b.resize(rows);
    got.c.resize(rows);
    PceStream stream(m, sched, got.a, got.b, got.c);
    WitnessConstraintSystem wcs({.num_inputs_hint = hint, .stream = &stream});
    for (std::uint32_t i = 1; i < ni; ++i)
      ASSERT_TRUE(wcs.alloc_input("in", [&] { return z[i]; }).ok());
    for (std::uint32_t i = 0; i < na; ++i)
      ASSERT_TRUE(wcs.alloc("x", [&] { return z[ni + i]; }).ok());
    ASSERT_TRUE(wcs.finish().ok());
    if (hint != ni) {
      EXPECT_EQ(stream.rows_streamed(), 0u);
    }
    ASSERT_TRUE(stream.finish(wcs.take_assignment()).ok());
    EXPECT_EQ(got.a, want.a) << "seed=" << seed << " hint=" << hint;
    EXPECT_EQ(got.b, want.b) << "seed=" << seed;
    EXPECT_EQ(got.c, want.c) << "seed=" << seed;
  }
  // Wrong schedule or witness size: errors, never a silent result.
  AbcVectors v;
  v.a.resize(rows);
  v.b.resize(rows);
  v.c.resize(rows);
  PceSchedule other = sched;
  other.need_columns.pop_back();
  PceStream bad(m, other, v.a, v.b, v.c);
  EXPECT_FALSE(bad.accepts(ni));
  EXPECT_EQ(bad.finish(z).code(), Errc::size_mismatch);
  PceStream good(m, sched, v.a, v.b, v.c);
  z.pop_back();
  EXPECT_EQ(good.finish(z).code(), Errc::size_mismatch);
}

// A chain circuit whose values go through fallible closures (the witness system's virtual
// path): x_i = 2·x_{i−1} + i, enforced as (x_{i−1} + x_{i−1} + i·ONE)·ONE = x_i, with a bit
// squared every 7th row. |fail_at| < n: the value of x_fail_at is missing.
class ChainCircuit final : public Circuit {
 public:
  ChainCircuit(std::size_t n, std::size_t fail_at) : n_(n), fail_at_(fail_at) {}
  Status synthesize(ConstraintSystem& cs) override {
    Variable prev = Variable::one();
    Fr pv = Fr::one();
    for (std::size_t i = 0; i < n_; ++i) {
      const Fr v = pv + pv + Fr::from_u64(i);
      auto x = cs.alloc("x", [&]() -> Result<Fr> {
        if (i == fail_at_) return Status(Errc::invalid_argument, "value missing");
        return v;
      });
      if (!x) return x.status();
      cs.enforce("step", LC().add(prev).add(prev).add(Fr::from_u64(i), Variable::one()),
                 LC().add(Variable::one()), LC().add(*x));
      if (i % 7 == 0) {
        const Fr bit = Fr::from_u64(i % 2);
        auto b = cs.alloc("bit", [&]() -> Result<Fr> { return bit; });
        if (!b) return b.status();
        cs.enforce("bit", LC().add(*b), LC().add(*b), LC().add(*b));
      }
      prev = *x;
      pv = v;
    }
    return {};
  }

 private:
  std::size_t n_, fail_at_;
};

// The pipeline (synthesize_pce: witness synthesis with the SpMV on a pool thread) == classic, bit
// for bit, for random sizes, pools of 1, 2 and 3 threads, the witness buffer recycled, with
// stale a/b/c contents overwritten; the helper evaluates part of the rows when it has a thread.
TEST(Pce, PipelineMatchesClassicOnBenchCircuit) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  std::printf("PipelineMatchesClassicOnBenchCircuit seed=%llu\n",
              static_cast<unsigned long long>(seed));
  std::vector<Fr> storage;
  for (int iter = 0; iter < 4; ++iter) {
    const std::uint64_t rows = iter == 3 ? 40000 + rng() % 20000 : 500 + rng() % 12000;
    BenchCircuit circuit(
        {.rows = rows, .seed = seed + iter, .num_public = static_cast<std::uint32_t>(rng() % 6)});
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(circuit, setup).ok());
    const R1csMatrices m = setup.take().matrices;
    const PceSchedule sched = pce_schedule(m);
    RecordingConstraintSystem classic(
        {.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(circuit, classic).ok());
    const Recording want = classic.take();
    const PcePlan plan = pce_plan(m);
    for (std::size_t threads : {1, 2, 3}) {
      ThreadPool pool(threads);
      AbcVectors got;
      got.a.assign(rows, Fr::one());
      got.b.assign(rows, Fr::one());
      got.c.assign(rows, Fr::one());
      auto z = synthesize_pce(pool, circuit, m, sched, got.a, got.b, got.c, std::move(storage),
                              {.nt_store_min_rows = rng() % 2 ? 0 : SIZE_MAX,
                               .pipeline_min_rows = 0,
                               .plan = rng() % 2 ? &plan : nullptr});
      ASSERT_TRUE(z.ok()) << z.status().to_string() << " seed=" << seed;
      EXPECT_EQ(z->size(), m.num_columns());
      EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c)
          << "seed=" << seed << " rows=" << rows << " threads=" << threads;
      storage = std::move(*z);
    }
  }
}

// Values through fallible closures (virtual path) with the pipeline, and a missing value: the
// error comes back (no hang: the helper is released), and the next proof works.
TEST(Pce, PipelineFallibleValuesAndErrors) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  std::printf("PipelineFallibleValuesAndErrors seed=%llu\n", static_cast<unsigned long long>(seed));
  for (int iter = 0; iter < 3; ++iter) {
    const std::size_t n = 2000 + rng() % 20000;
    ChainCircuit ok_circuit(n, SIZE_MAX), bad(n, rng() % n);
    RecordingConstraintSystem setup;
    ASSERT_TRUE(synthesize_circuit(ok_circuit, setup).ok());
    const R1csMatrices m = setup.take().matrices;
    const PceSchedule sched = pce_schedule(m);
    RecordingConstraintSystem classic(
        {.with_values = true, .record_matrices = false, .evaluate_abc = true});
    ASSERT_TRUE(synthesize_circuit(ok_circuit, classic).ok());
    const Recording want = classic.take();
    for (std::size_t threads : {1, 2}) {
      ThreadPool pool(threads);
      AbcVectors got;
      got.a.resize(m.num_constraints);
      got.b.resize(m.num_constraints);
      got.c.resize(m.num_constraints);
      const PceOptions opt{.pipeline_min_rows = 0};
      auto e = synthesize_pce(pool, bad, m, sched, got.a, got.b, got.c, {}, opt);
      EXPECT_EQ(e.status().code(), Errc::invalid_argument) << "seed=" << seed;
      auto z = synthesize_pce(pool, ok_circuit, m, sched, got.a, got.b, got.c, {}, opt);
      ASSERT_TRUE(z.ok()) << "seed=" << seed;
      EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c)
          << "seed=" << seed << " n=" << n;
    }
  }
}

// xor-shaped rows (k·x)·y = x + y − w with k = 2 (evaluated as a doubling) and other k (the
// general path), bits and full values, every option: equal to the slow twin.
TEST(Pce, XorShapeAnyCoefficientMatchesNaive) {
  const std::uint64_t seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  const std::uint32_t ni = 2, na = 400, rows = 3000;
  R1csMatrices m;
  m.num_inputs = ni;
  m.num_aux = na;
  auto column = [](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  const Fr ks[] = {Fr::from_u64(2), Fr::from_u64(3), -Fr::from_u64(2), random_fr(rng)};
  for (std::uint32_t k = 0; k < rows; ++k) {
    const Variable x = Variable::aux(static_cast<std::uint32_t>(rng() % na));
    const Variable y = Variable::aux(static_cast<std::uint32_t>(rng() % na));
    Variable w = Variable::aux(static_cast<std::uint32_t>(rng() % na));
    while (w == x || w == y) w = Variable::aux(static_cast<std::uint32_t>(rng() % na));
    LC a, b, c;
    a.add(ks[rng() % 4], x);
    b.add(y);
    c.add(x).add(y).sub(w);
    for (LC* l : {&a, &b, &c}) l->normalize();
    m.a.append_row(a.terms(), column);
    m.b.append_row(b.terms(), column);
    m.c.append_row(c.terms(), column);
  }
  m.num_constraints = rows;
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
  m.compute_density();
  std::vector<Fr> z(ni + na);
  z[0] = Fr::one();
  for (std::size_t i = 1; i < z.size(); ++i)
    z[i] = rng() % 3 ? Fr::from_u64(rng() % 2) : random_fr(rng);
  const AbcVectors want = spmv_naive(m, z);
  ThreadPool pool(1);
  for (int opt = 0; opt < 8; ++opt) {
    auto got = pce_evaluate(pool, m, z,
                            {.boolean_fast_path = (opt & 1) != 0,
                             .row_shapes = (opt & 2) != 0,
                             .nt_store_min_rows = (opt & 4) ? 0 : SIZE_MAX});
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(got->a == want.a && got->b == want.b && got->c == want.c)
        << "seed=" << seed << " opt=" << opt;
  }
}

// The compiled plan against the slow twin on random matrices (rows of 0..6 terms: ±1, small
// coefficients 0..4, so 2 and 4 take the power-of-two path, full-width ones; repeated columns),
// witnesses of 0, 1 and full values; pools of 1 and 3; every option.
TEST(PcePlan, MatchesNaiveOnRandomMatrices) {
  const std::uint64_t seed = std::random_device{}();
  std::printf("PcePlan.MatchesNaiveOnRandomMatrices seed=%llu\n",
              static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  ThreadPool pool1(1), pool3(3);
  for (int iter = 0; iter < 6; ++iter) {
    const auto rows = static_cast<std::uint32_t>(1 + rng() % 3000);
    const auto ni = static_cast<std::uint32_t>(1 + rng() % 4),
               na = static_cast<std::uint32_t>(1 + rng() % 500);
    R1csMatrices m = random_r1cs(rng, rows, ni, na);
    for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
    std::vector<Fr> z(ni + na);
    z[0] = Fr::one();
    for (std::size_t i = 1; i < z.size(); ++i)
      z[i] = rng() % 3 ? Fr::from_u64(rng() % 2) : random_fr(rng);
    const AbcVectors want = spmv_naive(m, z);
    const PcePlan plan = pce_plan(m);
    std::uint64_t total = 0;
    for (auto f : plan.rows_by_form) total += f;
    EXPECT_EQ(total, rows);
    for (int o = 0; o < 8; ++o) {
      auto got = pce_evaluate(o & 4 ? pool3 : pool1, m, z,
                              {.boolean_fast_path = (o & 1) != 0,
                               .nt_store_min_rows = (o & 2) ? 0 : SIZE_MAX,
                               .plan = &plan});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(got->a == want.a && got->b == want.b && got->c == want.c)
          << "seed=" << seed << " o=" << o;
    }
  }
}

// Rows built to hit every boundary of the plan's integer sums: coefficients 2^k − 1, 2^k, −2^k
// (k = 1, 2, 62, 63), 2^64 (a general coefficient), r − 1 (the −1 kind), r − 2, random; bit
// columns (boolean constraints, xor and product outputs) and other columns holding 0, 1, 2,
// r − 1 and random values, bit columns given non-bit values (the row is evaluated again exactly);
// rows with the largest sums the linear form takes (16 positive and 16 negative terms of value
// r − 1, five 2^63 terms on r − 1), one more term (the long form), and empty matrices.
TEST(PcePlan, ClassBoundaries) {
  const std::uint64_t seed = std::random_device{}();
  std::printf("PcePlan.ClassBoundaries seed=%llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  const std::uint32_t ni = 3, nbits = 64, nfull = 64, na = nbits + nfull;
  auto column = [](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  auto pow2 = [](int k) {
    Fr p = Fr::one();
    for (int i = 0; i < k; ++i) p = p + p;
    return p;
  };
  const Fr r_minus_1 = kFrMinusOne;
  std::vector<Fr> coeffs = {Fr::one(), kFrMinusOne, Fr::zero() - Fr::from_u64(2), pow2(64),
                            random_fr(rng)};
  for (int k : {1, 2, 62, 63}) {
    coeffs.push_back(pow2(k));
    coeffs.push_back(pow2(k) - Fr::one());
    coeffs.push_back(Fr::zero() - pow2(k));
  }
  const Variable one = Variable::input(0);
  auto bit = [&](std::uint64_t i) { return Variable::aux(static_cast<std::uint32_t>(i % nbits)); };
  auto full = [&](std::uint64_t i) {
    return Variable::aux(static_cast<std::uint32_t>(nbits + i % nfull));
  };
  auto any = [&]() { return rng() % 2 ? bit(rng()) : full(rng()); };
  for (int witness_kind = 0; witness_kind < 3; ++witness_kind) {
    R1csMatrices m;
    m.num_inputs = ni;
    m.num_aux = na;
    std::uint32_t rows = 0;
    auto row = [&](LC a, LC b, LC c) {
      for (LC* l : {&a, &b, &c}) l->normalize();
      m.a.append_row(a.terms(), column);
      m.b.append_row(b.terms(), column);
      m.c.append_row(c.terms(), column);
      ++rows;
    };
    // Boolean constraints on the first half of the bit columns, both factor orders; xor and
    // product rows make the rest bit columns.
    for (std::uint32_t i = 0; i < nbits / 2; ++i) {
      LC a, b;
      a.add(one).sub(bit(i));
      b.add(bit(i));
      if (i % 2) std::swap(a, b);
      row(a, b, LC());
    }
    for (std::uint32_t i = nbits / 2; i < nbits; ++i) {
      LC a, b, c;
      if (i % 2) {
        a.add(Fr::from_u64(2), bit(i - 32));
        b.add(bit(i - 31));
        c.add(bit(i - 32)).add(bit(i - 31)).sub(bit(i));
      } else {
        a.add(bit(i - 32));
        b.add(bit(i - 31));
        c.add(bit(i));
      }
      row(a, b, c);
    }
    for (int k = 0; k < 600; ++k) {
      LC a, b, c;
      switch (k % 6) {
        case 0:  // the largest linear sums: 16 positive and 16 negative terms
          for (int t = 0; t < 16; ++t) a.add(full(t));
          for (int t = 0; t < 16; ++t) a.sub(full(16 + t));
          b.add(one);
          for (int t = 0; t < 5; ++t) c.add(pow2(63), full(40 + t));  // 15 units
          c.add(full(50));
          break;
        case 1:  // one term more than the linear form takes
          for (int t = 0; t < 17; ++t) a.add(coeffs[rng() % coeffs.size()], full(t));
          b.add(one);
          for (int t = 0; t < 17; ++t) c.sub(full(20 + t));
          break;
        case 2:  // random coefficients of every class on every kind of column
        case 3: {
          const int la = static_cast<int>(rng() % 9), lb = static_cast<int>(rng() % 4),
                    lc = static_cast<int>(rng() % 9);
          for (int t = 0; t < la; ++t) a.add(coeffs[rng() % coeffs.size()], any());
          for (int t = 0; t < lb; ++t)
            b.add(coeffs[rng() % coeffs.size()], rng() % 4 ? any() : one);
          for (int t = 0; t < lc; ++t) c.add(coeffs[rng() % coeffs.size()], any());
          break;
        }
        case 4:  // general coefficients on bit columns only (the masked path)
          for (int t = 0; t < 6; ++t) a.add(coeffs[2 + rng() % (coeffs.size() - 2)], bit(rng()));
          b.add(coeffs[2 + rng() % (coeffs.size() - 2)], one);
          c.add(bit(rng())).sub(bit(rng()));
          break;
        default:  // boolean / xor / product shapes on arbitrary columns
          a.add(one).sub(any());
          b.add(any());
          if (rng() % 2) c.add(any());
          break;
      }
      row(a, b, c);
    }
    m.num_constraints = rows;
    for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
    m.compute_density();
    ASSERT_TRUE(m.validate().ok());
    const std::vector<std::uint64_t> bits = pce_bit_columns(m);
    for (std::uint32_t i = 0; i < nbits; ++i)
      EXPECT_TRUE((bits[(ni + i) / 64] >> ((ni + i) % 64)) & 1) << "bit column " << i;
    const PcePlan plan = pce_plan(m);
    EXPECT_GT(plan.rows_by_form[3], 0u);
    EXPECT_GT(plan.rows_by_form[4], 0u);
    // Witness: 0: bits hold bits, full columns r − 1 (the largest sums); 1: full columns mixed
    // (0, 1, 2, r − 1, random); 2: as 1, and some bit columns hold 2, r − 1 or random values.
    std::vector<Fr> z(ni + na);
    z[0] = Fr::one();
    z[1] = r_minus_1;
    z[2] = Fr::from_u64(2);
    const Fr specials[] = {Fr::zero(), Fr::one(), Fr::from_u64(2), r_minus_1, random_fr(rng)};
    for (std::uint32_t i = 0; i < nbits; ++i) z[ni + i] = Fr::from_u64(rng() % 2);
    for (std::uint32_t i = 0; i < nfull; ++i)
      z[ni + nbits + i] = witness_kind == 0 ? r_minus_1 : specials[rng() % 5];
    if (witness_kind == 2)
      for (int t = 0; t < 8; ++t) z[ni + rng() % nbits] = specials[2 + rng() % 3];
    const AbcVectors want = spmv_naive(m, z);
    ThreadPool pool(2);
    for (int o = 0; o < 4; ++o) {
      auto got = pce_evaluate(pool, m, z,
                              {.boolean_fast_path = (o & 1) != 0,
                               .nt_store_min_rows = (o & 2) ? 0 : SIZE_MAX,
                               .plan = &plan});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(got->a == want.a && got->b == want.b && got->c == want.c)
          << "seed=" << seed << " witness kind " << witness_kind << " o=" << o;
    }
  }
}

// Long rows (PcePlan::big) against spmv_naive: SHA-256's packed additions, Σ ±2^e·bit over
// hundreds of terms with e from 1 to 254 (every 64-bit limb, sums carrying across limbs and past
// 2^256 and r: many terms of the same large e on bits that are all 1), mixed with ±1 terms and
// other coefficients on any value; witnesses whose bit terms hold bits, and ones where some hold
// 2, r − 1 or a random value (the row evaluated again through the CSR). long_terms on and off,
// both stores, 1 and 3 threads.
TEST(PcePlan, LongRowsOfPowerOfTwoSums) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::uint32_t ni = 2, nbits = 1500, nfull = 40, na = nbits + nfull;
  auto column = [](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  auto pow2 = [](int k) {
    Fr p = Fr::one();
    for (int i = 0; i < k; ++i) p = p + p;
    return p;
  };
  auto bit = [&](std::uint64_t i) { return Variable::aux(static_cast<std::uint32_t>(i % nbits)); };
  auto full = [&](std::uint64_t i) {
    return Variable::aux(static_cast<std::uint32_t>(nbits + i % nfull));
  };
  const Variable one = Variable::input(0);
  R1csMatrices m;
  m.num_inputs = ni;
  m.num_aux = na;
  std::uint32_t rows = 0;
  auto row = [&](LC a, LC b, LC c) {
    for (LC* l : {&a, &b, &c}) l->normalize();
    m.a.append_row(a.terms(), column);
    m.b.append_row(b.terms(), column);
    m.c.append_row(c.terms(), column);
    ++rows;
  };
  for (int k = 0; k < 300; ++k) {
    LC a, b, c;
    const std::uint32_t first = static_cast<std::uint32_t>(rng() % nbits);
    switch (k % 5) {
      case 0: {  // a packed addition: operands' bits at 2^(34j + i), the sum's bits in C
        const int lanes = 1 + static_cast<int>(rng() % 7);
        std::uint32_t at = first;
        for (int op = 0; op < 4; ++op)
          for (int j = 0; j < lanes; ++j)
            for (int i = 0; i < 32; ++i) a.add(pow2(34 * j + i), bit(at++));
        a.add(one);
        a.add(Fr::from_u64(rng()), one);
        b.add(one);
        for (int j = 0; j < lanes; ++j)
          for (int i = 0; i < 34; ++i) c.add(pow2(34 * j + i), bit(at++));
        break;
      }
      case 1:  // the largest exponents, many times: sums past 2^256 and r
        for (std::uint32_t t = 0; t < 600; ++t)
          a.add(pow2(250 + static_cast<int>(rng() % 5)), bit(first + t));
        for (std::uint32_t t = 0; t < 200; ++t) a.add(pow2(63 + static_cast<int>(t % 3)), bit(t));
        b.add(full(rng()));
        c.add(Fr::zero() - pow2(254), bit(first)).add(full(rng()));
        break;
      case 2:  // negative powers, ±1 terms and general coefficients on full values
        for (std::uint32_t t = 0; t < 40; ++t) {
          const int e = 1 + static_cast<int>(rng() % 254);
          a.add(rng() % 2 ? pow2(e) : Fr::zero() - pow2(e), bit(first + t));
        }
        for (std::uint32_t t = 0; t < 5; ++t) a.add(full(t)).sub(full(10 + t));
        a.add(random_fr(rng), full(20)).add(pow2(3) + Fr::one(), full(21));
        b.add(one).sub(bit(first));
        for (std::uint32_t t = 0; t < 30; ++t) c.add(pow2(1 + static_cast<int>(t)), full(t));
        break;
      default:  // short rows between them (other forms)
        a.add(one).sub(bit(first));
        b.add(bit(first));
        if (k % 5 == 4) c.add(full(rng()));
        break;
    }
    row(a, b, c);
  }
  m.num_constraints = rows;
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
  m.compute_density();
  ASSERT_TRUE(m.validate().ok());
  const PcePlan plan = pce_plan(m);
  EXPECT_GT(plan.rows_by_form[4], 100u);
  EXPECT_FALSE(plan.big.empty());
  ThreadPool pool1(1), pool3(3);
  for (int witness_kind = 0; witness_kind < 3; ++witness_kind) {
    // 0: bits all 1 (the largest sums); 1: random bits; 2: random bits, some holding 2, r − 1 or
    // a random value. Full columns: 0, 1, 2, r − 1 or random.
    std::vector<Fr> z(ni + na);
    z[0] = Fr::one();
    z[1] = random_fr(rng);
    for (std::uint32_t i = 0; i < nbits; ++i)
      z[ni + i] = witness_kind == 0 ? Fr::one() : Fr::from_u64(rng() % 2);
    const Fr specials[] = {Fr::zero(), Fr::one(), Fr::from_u64(2), kFrMinusOne, random_fr(rng)};
    for (std::uint32_t i = 0; i < nfull; ++i) z[ni + nbits + i] = specials[rng() % 5];
    if (witness_kind == 2)
      for (int t = 0; t < 20; ++t) z[ni + rng() % nbits] = specials[2 + rng() % 3];
    const AbcVectors want = spmv_naive(m, z);
    for (int o = 0; o < 8; ++o) {
      auto got = pce_evaluate(
          o & 4 ? pool3 : pool1, m, z,
          {.long_terms = (o & 1) != 0, .nt_store_min_rows = (o & 2) ? 0 : SIZE_MAX, .plan = &plan});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(got->a == want.a && got->b == want.b && got->c == want.c)
          << "seed=" << seed << " witness kind " << witness_kind << " o=" << o;
    }
  }
}

// Parts of ±2·w plus at most three ±1 terms (SHA-256's majority rows, A = 2w − y − z; the plan's
// kDoubleTerm parts) against spmv_naive: w a bit column or any value, both signs, 0 to 3 units,
// in rows whose other parts are short (row by row) or not (flat term lists, encoded again without
// the doubled form), and a row with 2·w and a fourth unit (not a doubled part).
TEST(PcePlan, DoubledTermParts) {
  const std::uint64_t seed = cuzk::test::fresh_seed();
  std::mt19937_64 rng(seed);
  const std::uint32_t ni = 2, na = 200;
  auto column = [](Variable v) { return v.is_input() ? v.index : ni + v.index; };
  auto var = [&]() { return Variable::aux(static_cast<std::uint32_t>(rng() % na)); };
  const Variable one = Variable::input(0);
  const Fr two = Fr::from_u64(2), minus_two = Fr::zero() - Fr::from_u64(2);
  R1csMatrices m;
  m.num_inputs = ni;
  m.num_aux = na;
  std::uint32_t rows = 0;
  auto row = [&](LC a, LC b, LC c) {
    for (LC* l : {&a, &b, &c}) l->normalize();
    m.a.append_row(a.terms(), column);
    m.b.append_row(b.terms(), column);
    m.c.append_row(c.terms(), column);
    ++rows;
  };
  // Boolean constraints make aux 0..49 bit columns (w on a bit column: the bit class).
  for (std::uint32_t i = 0; i < 50; ++i) {
    LC a, b;
    a.add(one).sub(Variable::aux(i));
    b.add(Variable::aux(i));
    row(a, b, LC());
  }
  auto doubled = [&](int units) {
    LC l;
    l.add(rng() % 2 ? two : minus_two, var());
    for (int u = 0; u < units; ++u) {
      if (rng() % 2) {
        l.add(var());
      } else {
        l.sub(var());
      }
    }
    return l;
  };
  for (int k = 0; k < 800; ++k) {
    LC a = doubled(static_cast<int>(rng() % 4)), b, c;
    switch (k % 4) {
      case 0:  // the majority row: B one term, C w − m
        b.add(var());
        c.add(var()).sub(var());
        break;
      case 1:  // doubled parts in B and C too
        b = doubled(static_cast<int>(rng() % 4));
        c = doubled(static_cast<int>(rng() % 4));
        break;
      case 2:  // another part too long for the row form: flat term lists
        b.add(one);
        for (int t = 0; t < 6; ++t) c.add(Fr::from_u64(3 + rng() % 5), var());
        break;
      default:  // four units beside the doubled term
        a.add(var());
        b.add(var());
        c.add(var());
        break;
    }
    row(a, b, c);
  }
  m.num_constraints = rows;
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
  m.compute_density();
  ASSERT_TRUE(m.validate().ok());
  const PcePlan plan = pce_plan(m);
  EXPECT_GT(plan.rows_by_form[3], 400u);
  EXPECT_FALSE(plan.lin_rows.empty());
  ThreadPool pool(2);
  // Witness 0: every value a bit (the flat lists' masked terms never fall back to the CSR);
  // 1: mostly other values.
  for (int witness_kind = 0; witness_kind < 2; ++witness_kind) {
    std::vector<Fr> z(ni + na);
    z[0] = Fr::one();
    z[1] = random_fr(rng);
    for (std::uint32_t i = 0; i < na; ++i)
      z[ni + i] = witness_kind == 0 ? Fr::from_u64(rng() % 2)
                  : rng() % 3       ? random_fr(rng)
                                    : kFrMinusOne;
    const AbcVectors want = spmv_naive(m, z);
    for (int o = 0; o < 4; ++o) {
      auto got = pce_evaluate(pool, m, z,
                              {.boolean_fast_path = (o & 1) != 0,
                               .nt_store_min_rows = (o & 2) ? 0 : SIZE_MAX,
                               .plan = &plan});
      ASSERT_TRUE(got.ok()) << got.status().to_string();
      EXPECT_TRUE(got->a == want.a && got->b == want.b && got->c == want.c)
          << "seed=" << seed << " witness kind " << witness_kind << " o=" << o;
    }
  }
}

// A plan refuses other matrices; the bench circuit's bit columns hold bits in its witness.
TEST(PcePlan, RejectsOtherMatricesAndFindsBenchBits) {
  auto r = generate_bench_r1cs({.rows = 5000, .seed = 3});
  ASSERT_TRUE(r.ok());
  auto other = generate_bench_r1cs({.rows = 5000, .seed = 4});
  ASSERT_TRUE(other.ok());
  const PcePlan plan = pce_plan(r->matrices);
  const PcePlan other_plan = pce_plan(other->matrices);
  const std::vector<Fr> z = r->assignment();
  ThreadPool pool(1);
  EXPECT_TRUE(pce_evaluate(pool, r->matrices, z, {.plan = &plan}).ok());
  auto bad = pce_evaluate(pool, r->matrices, z, {.plan = &other_plan});
  EXPECT_EQ(bad.status().code(), Errc::size_mismatch);
  const std::vector<std::uint64_t> bits = pce_bit_columns(r->matrices);
  std::size_t flagged = 0;
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (!((bits[j / 64] >> (j % 64)) & 1)) continue;
    ++flagged;
    EXPECT_TRUE(z[j].is_zero() || z[j].is_one()) << "column " << j;
  }
  EXPECT_GT(flagged, z.size() / 2);  // booleans, xor and bit-product outputs: ≈ 64 % of columns
}

// The per-block far columns (prefetched ahead; they change no result): distinct, sorted, no
// input, each read by its block and more than kFarColumns behind the block's highest column.
TEST(PcePlan, FarColumnsOfBenchCircuit) {
  auto r = generate_bench_r1cs({.rows = 40000, .seed = 5});
  ASSERT_TRUE(r.ok());
  const R1csMatrices& m = r->matrices;
  const PcePlan plan = pce_plan(m);
  const std::size_t blocks =
      (m.num_constraints + SparseMatrix::kBlockRows - 1) / SparseMatrix::kBlockRows;
  ASSERT_EQ(plan.far_off.size(), blocks + 1);
  ASSERT_EQ(plan.far_off.back(), plan.far.size());
  EXPECT_GT(plan.far.size(), 0u);  // the circuit's 1-in-64 reads of any earlier variable
  for (std::size_t blk = 0; blk < blocks; ++blk) {
    std::set<std::uint32_t> read;
    for (std::size_t k = blk * SparseMatrix::kBlockRows;
         k < std::min<std::size_t>(m.num_constraints, (blk + 1) * SparseMatrix::kBlockRows); ++k)
      for (const SparseMatrix* s : {&m.a, &m.b, &m.c})
        s->for_each_term(k, [&](std::uint32_t col, const Fr&) { read.insert(col); });
    const std::uint32_t top = read.empty() ? 0 : *read.rbegin();
    ASSERT_LE(plan.far_off[blk], plan.far_off[blk + 1]);
    ASSERT_LE(plan.far_off[blk + 1] - plan.far_off[blk], PcePlan::kMaxFar);
    for (std::uint64_t e = plan.far_off[blk]; e < plan.far_off[blk + 1]; ++e) {
      const std::uint32_t col = plan.far[e];
      EXPECT_TRUE(read.count(col)) << "block " << blk << " column " << col;
      EXPECT_GE(col, m.num_inputs);
      EXPECT_LT(std::uint64_t{col} + PcePlan::kFarColumns, top);
      if (e > plan.far_off[blk]) {
        EXPECT_LT(plan.far[e - 1], col);
      }
    }
  }
  // Evaluation with the prefetches equals the slow twin.
  const std::vector<Fr> z = r->assignment();
  ThreadPool pool(1);
  auto v = pce_evaluate(pool, m, z, {.plan = &plan});
  ASSERT_TRUE(v.ok());
  const AbcVectors naive = spmv_naive(m, z);
  EXPECT_TRUE(v->a == naive.a && v->b == naive.b && v->c == naive.c);
}

}  // namespace
}  // namespace cuzk
