// The compact PCE form (pce_compact.hpp) against its slow twin, the plain recording:
//   * random circuits of repeated scoped gadgets (nested, with inputs allocated inside, references
//     to earlier variables, merged and cancelling terms, general coefficients), recorded under
//     random thresholds: the compact form expands to exactly the plain matrices, and its SpMV
//     equals pce_evaluate and spmv_naive on a random z, on 1 and 3 threads, whole or for a
//     random range of segments;
//   * repeated gadgets are kept once (blocks fewer than the gadget uses);
//   * misuse (unbalanced scopes, take before finish) is refused with a clear error;
//   * the cache: round trip, every kind of damage (flipped bytes, truncation, trailing bytes,
//     wrong magic, stale key, missing file) named, load_or_build rebuilding and rewriting.
// Seeded (printed; CUZK_SEED replays).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using test::fresh_seed;
using test::random_fr;

// A circuit of |uses| gadget uses drawn from |kinds| kinds. A kind's structure (locals, rows,
// coefficients, which external it reads, nested kinds) comes from an RNG seeded by the kind, so
// every use of a kind records the same rows relative to it; the externals (earlier variables) a
// use reads differ per use. One kind in five is "irregular": each use draws its own structure.
class RandomGadgets final : public Circuit {
 public:
  /// |regular|: no kind is irregular, no inputs are allocated inside gadgets, and a use reads
  /// distinct aux variables in allocation order — so every use of a kind is the same template.
  RandomGadgets(std::uint64_t seed, unsigned kinds, unsigned uses, bool regular = false)
      : seed_(seed), kinds_(kinds), uses_(uses), regular_(regular) {}

  Status synthesize(ConstraintSystem& cs) override {
    std::mt19937_64 rng(seed_);
    std::vector<Variable> pool = {Variable::one()};
    for (int i = 0; i < 3; ++i) {
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc_input("in", [] { return Fr::one(); }));
      pool.push_back(x);
    }
    for (int i = 0; i < 6; ++i) {
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc("a", [] { return Fr::one(); }));
      pool.push_back(x);
    }
    for (unsigned u = 0; u < uses_; ++u) {
      const unsigned kind = static_cast<unsigned>(rng() % kinds_);
      std::vector<Variable> ext;
      if (regular_) {
        // 6 distinct aux variables (pool[4..] are aux), in allocation order.
        std::vector<std::size_t> at;
        while (at.size() < 6) {
          const std::size_t i = 4 + rng() % (pool.size() - 4);
          if (std::find(at.begin(), at.end(), i) == at.end()) at.push_back(i);
        }
        std::sort(at.begin(), at.end());
        for (std::size_t i : at) ext.push_back(pool[i]);
      } else {
        for (int i = 0; i < 6; ++i) ext.push_back(pool[rng() % pool.size()]);
      }
      const std::uint64_t kseed = kind % 5 == 4 && !regular_ ? rng() : seed_ * 31 + kind;
      std::vector<Variable> out;
      CUZK_RETURN_IF_ERROR(gadget(cs, kseed, ext, 0, out));
      pool.insert(pool.end(), out.begin(), out.end());
      if (!regular_ && rng() % 3 == 0) {  // a loose row at the top level
        cs.enforce("loose", LC(pool[rng() % pool.size()]), LC(pool[rng() % pool.size()]),
                   LC(pool[rng() % pool.size()]).add(random_fr(rng), pool[rng() % pool.size()]));
      }
    }
    return {};
  }

 private:
  // One gadget use: its structure from |kseed|, reading |ext|; appends its outputs to |out|.
  Status gadget(ConstraintSystem& cs, std::uint64_t kseed, const std::vector<Variable>& ext,
                unsigned depth, std::vector<Variable>& out) {
    std::mt19937_64 g(kseed);
    Namespace ns(cs, "gadget");
    std::vector<Variable> local;
    const unsigned nlocals = 1 + static_cast<unsigned>(g() % 12);
    const unsigned rows = static_cast<unsigned>(g() % 40);
    const Fr coeff[4] = {Fr::one(), kFrMinusOne, Fr::one() + Fr::one(), random_fr(g)};
    for (unsigned i = 0; i < nlocals; ++i) {
      if (!regular_ && g() % 9 == 0) {
        CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc_input("li", [] { return Fr::one(); }));
        local.push_back(x);
      }
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc("l", [] { return Fr::one(); }));
      local.push_back(x);
    }
    auto pick = [&]() -> Variable {
      switch (g() % 4) {
        case 0:
          return ext[g() % ext.size()];
        case 1:
          return Variable::one();
        default:
          return local[g() % local.size()];
      }
    };
    auto lc = [&]() {
      LC l;
      const unsigned n = static_cast<unsigned>(g() % 5);
      for (unsigned i = 0; i < n; ++i) l.add(coeff[g() % 4], pick());
      if (g() % 7 == 0 && n > 0) {  // a term that cancels, and one that merges
        const Variable v = pick();
        l.add(Fr::one(), v).add(kFrMinusOne, v).add(coeff[2], v);
      }
      return l;
    };
    for (unsigned r = 0; r < rows; ++r) {
      cs.enforce("row", lc(), lc(), lc());
      if (depth < 3 && g() % 8 == 0) {  // a nested gadget reading this one's locals
        std::vector<Variable> inner_ext;
        for (int i = 0; i < 4; ++i) inner_ext.push_back(pick());
        CUZK_RETURN_IF_ERROR(gadget(cs, g(), inner_ext, depth + 1, local));
      }
    }
    out.insert(out.end(), local.begin(), local.end());
    return {};
  }

  std::uint64_t seed_;
  unsigned kinds_, uses_;
  bool regular_;
};

std::vector<Fr> random_witness(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> z(n);
  z[0] = Fr::one();
  for (std::size_t i = 1; i < n; ++i) {
    const unsigned k = rng() % 3;
    z[i] = k == 0 ? Fr::zero() : k == 1 ? Fr::one() : random_fr(rng);
  }
  return z;
}

void expect_same_form(const CompactR1cs& x, const CompactR1cs& y) {
  EXPECT_EQ(x.num_inputs, y.num_inputs);
  EXPECT_EQ(x.num_aux, y.num_aux);
  EXPECT_EQ(x.num_constraints, y.num_constraints);
  EXPECT_EQ(x.nnz_a, y.nnz_a);
  EXPECT_EQ(x.nnz_b, y.nnz_b);
  EXPECT_EQ(x.nnz_c, y.nnz_c);
  ASSERT_EQ(x.blocks.size(), y.blocks.size());
  for (std::size_t i = 0; i < x.blocks.size(); ++i) {
    EXPECT_EQ(x.blocks[i].locals, y.blocks[i].locals);
    EXPECT_EQ(x.blocks[i].slots, y.blocks[i].slots);
    EXPECT_TRUE(x.blocks[i].m == y.blocks[i].m) << "block " << i;
  }
  EXPECT_EQ(x.segments, y.segments);
  EXPECT_EQ(x.slots, y.slots);
  EXPECT_EQ(x.a_aux_density, y.a_aux_density);
  EXPECT_EQ(x.b_input_density, y.b_input_density);
  EXPECT_EQ(x.b_aux_density, y.b_aux_density);
}

TEST(PceCompact, RandomCircuitsEqualThePlainRecording) {
  std::mt19937_64 rng(fresh_seed());
  ThreadPool one(1), three(3);
  for (int round = 0; round < 24; ++round) {
    SCOPED_TRACE(round);
    RandomGadgets circuit(rng(), 1 + static_cast<unsigned>(rng() % 8),
                          static_cast<unsigned>(rng() % 120));
    const std::uint64_t thresholds[] = {1, 2, 5, 16, 40, 200, 100000};
    const CompactOptions opt{.min_template_rows = thresholds[rng() % 6],
                             .max_block_rows = thresholds[rng() % 7],
                             .min_segment_rows = thresholds[rng() % 7]};
    auto compact = record_compact(circuit, opt);
    ASSERT_TRUE(compact.ok()) << compact.status().to_string();
    RecordingConstraintSystem rcs;
    ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
    const R1csMatrices plain = rcs.take().matrices;
    ASSERT_EQ(compact->num_constraints, plain.num_constraints);
    EXPECT_TRUE(compact_to_matrices(*compact) == plain);

    const std::vector<Fr> z = random_witness(rng, plain.num_columns());
    const AbcVectors naive = spmv_naive(plain, z);
    auto fast = pce_evaluate(three, plain, z);
    ASSERT_TRUE(fast.ok());
    EXPECT_TRUE(fast->a == naive.a && fast->b == naive.b && fast->c == naive.c);
    for (ThreadPool* pool : {&one, &three}) {
      for (int o = 0; o < 4; ++o) {  // every CompactSpmvOptions choice
        const std::size_t n = plain.num_constraints;
        std::vector<Fr> a(n), b(n), c(n);
        ASSERT_TRUE(pce_compact_evaluate_into(*pool, *compact, z, a, b, c,
                                              {.nt_stores = (o & 1) != 0, .long_terms = o < 2})
                        .ok());
        EXPECT_TRUE(a == naive.a && b == naive.b && c == naive.c)
            << "threads " << pool->size() << " options " << o;
      }
    }
    // A range of segments alone.
    const std::size_t segs = compact->segments.size();
    const std::size_t first = rng() % (segs + 1), last = first + rng() % (segs - first + 1);
    const std::size_t r0 = compact->row_begin[first], n = compact->row_begin[last] - r0;
    std::vector<Fr> a(n), b(n), c(n);
    ASSERT_TRUE(pce_compact_evaluate_segments(three, *compact, z, first, last, a, b, c).ok());
    for (std::size_t k = 0; k < n; ++k)
      ASSERT_TRUE(a[k] == naive.a[r0 + k] && b[k] == naive.b[r0 + k] && c[k] == naive.c[r0 + k])
          << "segments [" << first << ", " << last << ") row " << k;
  }
}

// SHA-256-like gadgets: per use, result bits with boolean constraints, a packed addition (one
// row Σ 2^(34j + i)·bit over four operands' bits: the plan's long rows, PcePlan::big), xor rows,
// majority rows (A = 2w − y − z: kDoubleTerm parts) and products, reading earlier uses' bits (the
// segments' slots). Values are random bits (the rows need not hold: only the SpMV is compared),
// or, with |broken|, some bits hold 2 (the long rows then fall back to the CSR).
class PackedAdditions final : public Circuit {
 public:
  PackedAdditions(std::uint64_t seed, unsigned uses, bool broken)
      : seed_(seed), uses_(uses), broken_(broken) {}
  Status synthesize(ConstraintSystem& cs) override {
    std::mt19937_64 rng(seed_);
    std::vector<Variable> bits;
    auto value = [&]() {
      return broken_ && rng() % 40 == 0 ? Fr::from_u64(2) : Fr::from_u64(rng() % 2);
    };
    for (int i = 0; i < 128; ++i) {
      const Fr v = value();
      CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc("in", [v] { return v; }));
      bits.push_back(x);
    }
    Fr two = Fr::one() + Fr::one();
    for (unsigned u = 0; u < uses_; ++u) {
      Namespace ns(cs, "add");
      std::vector<Variable> local;
      for (int i = 0; i < 70; ++i) {
        const Fr v = value();
        CUZK_ASSIGN_OR_RETURN(Variable x, cs.alloc("b", [v] { return v; }));
        cs.enforce("bool", LC(Variable::one()).sub(x), LC(x), LC());
        local.push_back(x);
      }
      // Operands: four runs of earlier bits (slots) in two 34-bit lanes; the sum in local bits.
      LC lhs, rhs;
      const std::size_t base = bits.size() - 128;
      for (int op = 0; op < 4; ++op)
        for (int j = 0; j < 2; ++j)
          for (int i = 0; i < 32; ++i) {
            Fr p = Fr::one();
            for (int k = 0; k < 34 * j + i + (op == 3 ? 190 : 0); ++k) p = p + p;
            lhs.add(p, bits[base + (op * 64 + j * 32 + i + u) % 128]);
          }
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 34; ++i) {
          Fr p = Fr::one();
          for (int k = 0; k < 34 * j + i; ++k) p = p + p;
          rhs.add(p, local[j * 34 + i]);
        }
      cs.enforce("packed", lhs, LC(Variable::one()), rhs);
      for (int i = 0; i < 20; ++i) {
        const Variable x = local[i], y = local[i + 20], w = local[i + 40];
        cs.enforce("xor", LC().add(two, x), LC(y), LC(x).add(Fr::one(), y).sub(w));
        cs.enforce("maj", LC().add(two, w).sub(x).sub(y), LC(local[i + 1]),
                   LC(w).sub(local[i + 2]));
        cs.enforce("and", LC(x), LC(y), LC(w));
      }
      bits.insert(bits.end(), local.begin(), local.end());
    }
    return {};
  }

 private:
  std::uint64_t seed_;
  unsigned uses_;
  bool broken_;
};

// The compact SpMV's kernels on PackedAdditions against spmv_naive of the plain recording: every
// row form of the SHA-256 blocks (boolean, xor, product, majority, packed addition) in every
// segment of the block, with every CompactSpmvOptions choice, on 1 and 3 threads.
TEST(PceCompact, PackedAdditionBlocksEqualThePlainSpmv) {
  const std::uint64_t seed = fresh_seed();
  for (bool broken : {false, true}) {
    SCOPED_TRACE(broken ? "some bits hold 2" : "bits");
    PackedAdditions circuit(seed, 24, broken);
    // Blocks of at most 256 rows: the circuit is walked, each use one segment of the block.
    auto compact = record_compact(
        circuit, {.min_template_rows = 32, .max_block_rows = 256, .min_segment_rows = 1});
    ASSERT_TRUE(compact.ok()) << compact.status().to_string();
    RecordingConstraintSystem rcs({.with_values = true, .record_matrices = true});
    ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
    auto rec = rcs.take();
    const R1csMatrices& plain = rec.matrices;
    ASSERT_TRUE(compact_to_matrices(*compact) == plain);
    std::uint64_t long_rows = 0;
    for (const CompactBlock& b : compact->blocks) long_rows += b.plan.rows_by_form[4];
    EXPECT_GT(long_rows, 0u);
    EXPECT_GE(compact->segments.size(), 24u);
    std::vector<Fr> z = rec.inputs;
    z.insert(z.end(), rec.aux.begin(), rec.aux.end());
    const AbcVectors want = spmv_naive(plain, z);
    ThreadPool one(1), three(3);
    for (ThreadPool* pool : {&one, &three}) {
      for (int o = 0; o < 4; ++o) {
        const std::size_t n = plain.num_constraints;
        std::vector<Fr> a(n), b(n), c(n);
        ASSERT_TRUE(pce_compact_evaluate_into(*pool, *compact, z, a, b, c,
                                              {.nt_stores = (o & 1) != 0, .long_terms = o < 2})
                        .ok());
        EXPECT_TRUE(a == want.a && b == want.b && c == want.c)
            << "seed " << seed << " threads " << pool->size() << " options " << o;
      }
    }
  }
}

TEST(PceCompact, RepeatedGadgetsAreKeptOnce) {
  RandomGadgets circuit(fresh_seed(), 3, 300, /*regular=*/true);
  CompactRecordStats stats;
  // A circuit of at most max_block_rows rows is kept as one block (its root template): this one
  // (300 uses) must be larger. Every kind with a row is a template (min_template_rows = 1): a kind
  // drawn with one row under a threshold of 2 went to the top-level runs, whose blocks hold every
  // use's rows (seed 17836193106917384936: kinds of 0, 1 and 7 rows, 103 block rows of 887).
  auto compact = record_compact(
      circuit, {.min_template_rows = 1, .max_block_rows = 256, .min_segment_rows = 1}, &stats);
  ASSERT_TRUE(compact.ok()) << compact.status().to_string();
  RecordingConstraintSystem rcs;
  ASSERT_TRUE(synthesize_circuit(circuit, rcs).ok());
  const R1csMatrices plain = rcs.take().matrices;
  EXPECT_TRUE(compact_to_matrices(*compact) == plain);
  if (plain.num_constraints == 0) return;  // every kind drew 0 rows: nothing to keep once
  // 300 uses of 3 kinds: a template per kind and per distinct nested gadget, blocks only for
  // the kinds.
  EXPECT_LT(stats.templates * 10, stats.template_uses);
  EXPECT_LT(compact->block_rows() * 10, plain.num_constraints);
}

TEST(PceCompact, MisuseIsRefused) {
  {
    CompactRecorder cs;
    cs.pop_scope();
    Status st = cs.finish();
    EXPECT_EQ(st.code(), Errc::invalid_argument);
    EXPECT_NE(st.to_string().find("pop_scope"), std::string::npos) << st.to_string();
  }
  {
    CompactRecorder cs;
    cs.push_scope_named("open");
    Status st = cs.finish();
    EXPECT_EQ(st.code(), Errc::invalid_argument);
    EXPECT_NE(st.to_string().find("open at finish"), std::string::npos) << st.to_string();
  }
  {
    CompactRecorder cs;
    EXPECT_EQ(cs.take().status().code(), Errc::invalid_argument);
    ASSERT_TRUE(cs.finish().ok());
    EXPECT_TRUE(cs.take().ok());
    EXPECT_EQ(cs.take().status().code(), Errc::invalid_argument);
  }
  {
    // A witness of the wrong length, outputs of the wrong length.
    RandomGadgets circuit(7, 2, 10);
    auto c = record_compact(circuit);
    ASSERT_TRUE(c.ok());
    ThreadPool pool(1);
    std::vector<Fr> z(c->num_columns() + 1), a(c->num_constraints), b(a), cc(a);
    EXPECT_EQ(pce_compact_evaluate_into(pool, *c, z, a, b, cc).code(), Errc::size_mismatch);
    z.pop_back();
    a.pop_back();
    EXPECT_EQ(pce_compact_evaluate_into(pool, *c, z, a, b, cc).code(), Errc::size_mismatch);
  }
}

// ---------------------------------------------------------------------------------------------
// The cache.

std::vector<char> read_all(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}
void write_all(const std::string& p, const std::vector<char>& d) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(d.data(), static_cast<std::streamsize>(d.size()));
}

class PceCompactCache : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = fresh_seed();
    path_ = ::testing::TempDir() + "pce_compact_cache_" + std::to_string(seed_) + ".bin";
    RandomGadgets circuit(seed_, 4, 60);
    auto c = record_compact(circuit, {.min_template_rows = 4});
    ASSERT_TRUE(c.ok()) << c.status().to_string();
    c_ = std::move(c).value();
    ASSERT_TRUE(save_compact_cache(path_, c_, kKey).ok());
  }
  void TearDown() override {
    std::remove(path_.c_str());
    std::remove((path_ + ".tmp").c_str());
  }

  static constexpr std::uint64_t kKey = 0x5eed;
  std::uint64_t seed_ = 0;
  std::string path_;
  CompactR1cs c_;
};

TEST_F(PceCompactCache, RoundTrip) {
  auto back = load_compact_cache(path_, kKey);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  expect_same_form(*back, c_);
  std::mt19937_64 rng(seed_);
  const std::vector<Fr> z = random_witness(rng, c_.num_columns());
  ThreadPool pool(2);
  const std::size_t n = c_.num_constraints;
  std::vector<Fr> a(n), b(n), c(n), a2(n), b2(n), c2(n);
  ASSERT_TRUE(pce_compact_evaluate_into(pool, c_, z, a, b, c).ok());
  ASSERT_TRUE(pce_compact_evaluate_into(pool, *back, z, a2, b2, c2).ok());
  EXPECT_TRUE(a == a2 && b == b2 && c == c2);
}

TEST_F(PceCompactCache, EveryFlippedByteIsDetected) {
  const std::vector<char> good = read_all(path_);
  std::mt19937_64 rng(seed_);
  // Every header byte, then random body bytes.
  for (std::size_t i = 0; i < good.size();
       i = i < 120 ? i + 1 : i + 1 + rng() % (good.size() / 50)) {
    std::vector<char> bad = good;
    bad[i] = static_cast<char>(bad[i] ^ (1 + rng() % 255));
    write_all(path_, bad);
    auto r = load_compact_cache(path_, kKey);
    EXPECT_FALSE(r.ok()) << "byte " << i << " of " << good.size();
  }
}

TEST_F(PceCompactCache, DamageIsNamed) {
  const std::vector<char> good = read_all(path_);
  auto expect_error = [&](const std::vector<char>& bytes, Errc code, const char* words) {
    write_all(path_, bytes);
    auto r = load_compact_cache(path_, kKey);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), code) << r.status().to_string();
    EXPECT_NE(r.status().to_string().find(words), std::string::npos) << r.status().to_string();
  };
  for (std::size_t len :
       {std::size_t{0}, std::size_t{7}, std::size_t{60}, std::size_t{200}, good.size() - 1}) {
    std::vector<char> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
    write_all(path_, cut);
    EXPECT_FALSE(load_compact_cache(path_, kKey).ok()) << "cut at " << len;
  }
  std::vector<char> longer = good;
  longer.push_back(0);
  expect_error(longer, Errc::size_mismatch, "trailing");
  std::vector<char> magic = good;
  magic[0] = 'X';
  expect_error(magic, Errc::bad_encoding, "magic");
  std::vector<char> body = good;
  body[good.size() - 9] = static_cast<char>(body[good.size() - 9] ^ 0x10);
  expect_error(body, Errc::bad_encoding, "checksum");
  write_all(path_, good);
  auto stale = load_compact_cache(path_, kKey + 1);
  ASSERT_FALSE(stale.ok());
  EXPECT_NE(stale.status().to_string().find("stale"), std::string::npos);
  auto missing = load_compact_cache(path_ + ".none", kKey);
  EXPECT_EQ(missing.status().code(), Errc::not_found);
}

TEST_F(PceCompactCache, LoadOrBuildRebuildsADamagedFile) {
  std::vector<char> bad = read_all(path_);
  bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x40);
  write_all(path_, bad);
  int builds = 0;
  auto build = [&]() -> Result<CompactR1cs> {
    ++builds;
    RandomGadgets circuit(seed_, 4, 60);
    return record_compact(circuit, {.min_template_rows = 4});
  };
  auto first = load_or_build_compact(path_, kKey, build);
  ASSERT_TRUE(first.ok()) << first.status().to_string();
  EXPECT_FALSE(first->from_cache);
  EXPECT_FALSE(first->load_error.ok());
  EXPECT_TRUE(first->save_error.ok()) << first->save_error.to_string();
  EXPECT_EQ(builds, 1);
  expect_same_form(first->compact, c_);
  auto second = load_or_build_compact(path_, kKey, build);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->from_cache) << second->load_error.to_string();
  EXPECT_EQ(builds, 1);
  expect_same_form(second->compact, c_);
}

}  // namespace
}  // namespace cuzk
