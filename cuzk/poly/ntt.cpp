// CPU NTT over Fr (ntt.hpp): four-step decomposition, radix-2 DIF sub-transforms, blocked
// bit reversal.
//
// Index algebra. n = n1·n2, input index i = j1·n2 + j2 (row j1, column j2), output index
// o = k1 + n1·k2. With ω = ω_n, ω_n1 = ω^n2, ω_n2 = ω^n1:
//   X[k1 + n1·k2] = Σ_j2 ω_n2^(j2·k2) · ω^(j2·k1) · Σ_j1 x[j1·n2 + j2] · ω_n1^(j1·k1).
// Step 1 (per column j2): DIF of length n1 over the rows; slot p then holds k1 = rev(p).
// Step 2: multiply slot (p, j2) by ω^(j2·rev(p)).   Step 3 (per row): DIF of length n2; slot q
// holds k2 = rev(q). Element (p, q) sits at p·n2 + q = rev_k(k1 + n1·k2): the whole array is in
// bit-reversed order, and one permutation finishes.
// Folded scalings: inverse → n^(-1) in step 2's start value; coset forward → g^(j1·n2) while
// gathering and g^(j2) in step 2's start; coset inverse → g^(−k1) in step 2's base, g^(−n1·k2)
// after step 3.
#include "cuzk/poly/ntt.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

namespace cuzk {
namespace {

// Domains up to 2^kDirectLog are done as one row (no column step).
constexpr unsigned kDirectLog = 10;
// Rows longer than this recurse stage by stage so the tail of the transform runs in L1.
constexpr std::size_t kL1Block = std::size_t{1} << 9;  // 16 KiB of Fr
// Column block: at least 2 columns (one 64-byte line) and at most this many buffered elements.
constexpr std::size_t kColumnBufferElems = std::size_t{1} << 14;  // 512 KiB

/// The low |bits| bits of |x| in reverse order.
inline std::uint64_t reverse_bits(std::uint64_t x, unsigned bits) {
  if (bits == 0) return 0;
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
  x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
  x = (x >> 32) | (x << 32);
  return x >> (64 - bits);
}

/// Stage twiddles of a length-2^L radix-2 transform with root |w| (primitive 2^L-th root):
/// entries [h − 1, 2h − 1) hold ω_(2h)^j, j < h, for h = 1, 2, …, 2^(L−1). 2^L − 1 entries.
std::vector<Fr> stage_table(const Fr& w, unsigned log_len) {
  const std::size_t m = std::size_t{1} << log_len;
  std::vector<Fr> t(m > 1 ? m - 1 : 0);
  if (m < 2) return t;
  const std::size_t top = m / 2;
  fill_powers(std::span<Fr>(t.data() + (top - 1), top), w);  // ω_m^j, j < m/2
  for (std::size_t h = top / 2; h >= 1; h /= 2) {
    const std::size_t stride = top / h;  // ω_(2h) = ω_m^(m/(2h))
    for (std::size_t j = 0; j < h; ++j) t[h - 1 + j] = t[top - 1 + j * stride];
  }
  return t;
}

/// One DIF stage of half-width h over x[0, 2h): (u, v) → (u + v, (u − v)·ω_(2h)^j).
inline void dif_stage(Fr* x, std::size_t h, const Fr* tw) {
  Fr* a = x;
  Fr* b = x + h;
  {
    const Fr u = a[0], v = b[0];
    a[0] = u + v;
    b[0] = u - v;
  }
  for (std::size_t j = 1; j < h; ++j) {
    const Fr u = a[j], v = b[j];
    a[j] = u + v;
    b[j] = (u - v) * tw[j];
  }
}

/// In-place radix-2 DIF of length m (natural in, bit-reversed out); |stages| from stage_table.
/// Large lengths do one stage and recurse into both halves, so the inner stages stay in cache.
void dif(Fr* x, std::size_t m, const Fr* stages) {
  if (m > kL1Block) {
    const std::size_t h = m / 2;
    dif_stage(x, h, stages + (h - 1));
    dif(x, h, stages);
    dif(x + h, h, stages);
    return;
  }
  for (std::size_t h = m / 2; h >= 1; h /= 2) {
    const Fr* tw = stages + (h - 1);
    for (std::size_t blk = 0; blk < m; blk += 2 * h) dif_stage(x + blk, h, tw);
  }
}

/// DIF of length m on |width| interleaved columns: element (r, c) at x[r·width + c]. Each twiddle
/// is loaded once per row pair and applied across the columns.
void dif_columns(Fr* x, std::size_t m, std::size_t width, const Fr* stages) {
  for (std::size_t h = m / 2; h >= 1; h /= 2) {
    const Fr* tw = stages + (h - 1);
    for (std::size_t blk = 0; blk < m; blk += 2 * h) {
      for (std::size_t j = 0; j < h; ++j) {
        Fr* a = x + (blk + j) * width;
        Fr* b = a + h * width;
        if (j == 0) {
          for (std::size_t c = 0; c < width; ++c) {
            const Fr u = a[c], v = b[c];
            a[c] = u + v;
            b[c] = u - v;
          }
        } else {
          const Fr w = tw[j];
          for (std::size_t c = 0; c < width; ++c) {
            const Fr u = a[c], v = b[c];
            a[c] = u + v;
            b[c] = (u - v) * w;
          }
        }
      }
    }
  }
}

}  // namespace

NttPlan::NttPlan(const Domain& domain) : domain_(domain) {
  const unsigned k = domain.log_size();
  log_rows_ = k <= kDirectLog ? 0 : k / 2;
  log_cols_ = k - log_rows_;
  const std::uint64_t n1 = std::uint64_t{1} << log_rows_;
  const std::uint64_t n2 = std::uint64_t{1} << log_cols_;
  for (NttDirection d : {NttDirection::forward, NttDirection::inverse}) {
    Tables& t = d == NttDirection::forward ? fwd_ : inv_;
    const Fr w = d == NttDirection::forward ? domain.omega() : domain.omega_inv();
    t.col_stages = stage_table(w.pow_u64(n2), log_rows_);
    t.row_stages = stage_table(w.pow_u64(n1), log_cols_);
    if (n1 > 1) {
      t.col_step.resize(n2);
      fill_powers(t.col_step, w);
    }
  }
  const Fr& g = domain.coset_shift();
  coset_row_in_.resize(n1);
  fill_powers(coset_row_in_, g.pow_u64(n2));
  coset_col_in_.resize(n2);
  fill_powers(coset_col_in_, g);
  // coset_out_[q] = (g^(−n1))^rev(q): fill in natural order of k2, store at slot rev(k2).
  coset_out_.resize(n2);
  const Fr step = domain.coset_shift_inv().pow_u64(n1);
  Fr f = Fr::one();
  for (std::uint64_t k2 = 0; k2 < n2; ++k2) {
    coset_out_[reverse_bits(k2, log_cols_)] = f;
    f *= step;
  }
}

std::size_t NttPlan::memory_bytes() const {
  std::size_t elems = coset_row_in_.size() + coset_col_in_.size() + coset_out_.size();
  for (const Tables* t : {&fwd_, &inv_})
    elems += t->col_stages.size() + t->row_stages.size() + t->col_step.size();
  return elems * sizeof(Fr);
}

Status ntt(std::span<Fr> values, const NttPlan& plan, const NttMode& mode, ThreadPool& pool) {
  const Domain& dom = plan.domain();
  const std::uint64_t n = dom.size();
  if (values.size() != n)
    return Status(Errc::size_mismatch, "ntt: " + std::to_string(values.size()) +
                                           " values for a domain of size " + std::to_string(n));
  const bool inverse = mode.direction == NttDirection::inverse;
  const bool coset_in = mode.coset && !inverse;
  const bool coset_out = mode.coset && inverse;
  const NttPlan::Tables& tab = plan.tables(mode.direction);
  const unsigned lr = plan.log_rows(), lc = plan.log_cols();
  const std::size_t n1 = std::size_t{1} << lr, n2 = std::size_t{1} << lc;
  Fr* x = values.data();

  // Start value of column j2's step-2 factors: n^(-1) for the inverse, g^(j2) for coset forward.
  auto column_start = [&](std::size_t j2) {
    if (coset_in) return plan.coset_col_in()[j2];
    return inverse ? dom.size_inv() : Fr::one();
  };

  if (n1 == 1) {
    // One row: scale the input in place (no column step to fold it into).
    if (coset_in || inverse) {
      pool.parallel_for(
          n2,
          [&](std::size_t b, std::size_t e) {
            for (std::size_t j = b; j < e; ++j) x[j] *= column_start(j);
          },
          4096);
    }
  } else {
    // Step 1 + 2 on blocks of |width| adjacent columns copied into a contiguous buffer.
    const std::size_t width = std::clamp<std::size_t>(kColumnBufferElems / n1, 2, 16);
    const Fr coset_base = coset_out ? dom.coset_shift_inv() : Fr::one();
    // One chunk per thread: the blocks cost the same, and each chunk allocates its buffer once.
    const std::size_t blocks = n2 / width;
    const std::size_t per_thread = (blocks + pool.size() - 1) / pool.size();
    pool.parallel_for(
        blocks,
        [&](std::size_t blk_begin, std::size_t blk_end) {
          std::vector<Fr> buf(n1 * width);
          Fr f[16][4], step[16];  // n1 ≥ 32 here, a multiple of 4
          for (std::size_t blk = blk_begin; blk < blk_end; ++blk) {
            const std::size_t c0 = blk * width;
            for (std::size_t j1 = 0; j1 < n1; ++j1) {
              const Fr* src = x + j1 * n2 + c0;
              Fr* dst = buf.data() + j1 * width;
              if (coset_in) {
                const Fr s = plan.coset_row_in()[j1];
                for (std::size_t c = 0; c < width; ++c) dst[c] = src[c] * s;
              } else {
                std::copy(src, src + width, dst);
              }
            }
            dif_columns(buf.data(), n1, width, tab.col_stages.data());
            // Slot p holds k1 = rev(p): multiply by start(j2)·β^(k1), β = ω^(±j2)·[g^(−1)]. The powers
            // run as 4 interleaved chains per column (step β^4) so the multiplications overlap.
            for (std::size_t c = 0; c < width; ++c) {
              const Fr beta = coset_out ? tab.col_step[c0 + c] * coset_base : tab.col_step[c0 + c];
              f[c][0] = column_start(c0 + c);
              for (int r = 1; r < 4; ++r) f[c][r] = f[c][r - 1] * beta;
              step[c] = beta.square().square();
            }
            for (std::size_t k1 = 0; k1 < n1; k1 += 4) {
              for (int r = 0; r < 4; ++r) {
                Fr* row = buf.data() + reverse_bits(k1 + r, lr) * width;
                for (std::size_t c = 0; c < width; ++c) row[c] *= f[c][r];
              }
              for (std::size_t c = 0; c < width; ++c)
                for (int r = 0; r < 4; ++r) f[c][r] *= step[c];
            }
            for (std::size_t p = 0; p < n1; ++p)
              std::copy(buf.data() + p * width, buf.data() + (p + 1) * width, x + p * n2 + c0);
          }
        },
        per_thread);
  }

  // Step 3: row transforms in place, then the coset-inverse factors g^(−n1·k2).
  pool.parallel_for(n1, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) {
      Fr* row = x + r * n2;
      dif(row, n2, tab.row_stages.data());
      if (coset_out) {
        const Fr* cf = plan.coset_out().data();
        for (std::size_t q = 0; q < n2; ++q) row[q] *= cf[q];
      }
    }
  });

  return bit_reverse_permute(values, pool);
}

Status ntt(std::span<Fr> values, const Domain& domain, const NttMode& mode, ThreadPool& pool) {
  return ntt(values, NttPlan(domain), mode, pool);
}

Status ntt_naive(std::span<Fr> values, const Domain& domain, const NttMode& mode) {
  const std::uint64_t n = domain.size();
  if (values.size() != n)
    return Status(Errc::size_mismatch, "ntt_naive: " + std::to_string(values.size()) +
                                           " values for a domain of size " + std::to_string(n));
  const bool inverse = mode.direction == NttDirection::inverse;
  std::vector<Fr> in(values.begin(), values.end());
  if (mode.coset && !inverse) {  // x_i·g^i
    Fr g = Fr::one();
    for (auto& v : in) {
      v *= g;
      g *= domain.coset_shift();
    }
  }
  const Fr w = inverse ? domain.omega_inv() : domain.omega();
  Fr wj = Fr::one();
  for (std::uint64_t j = 0; j < n; ++j) {
    values[j] = evaluate_polynomial(in, wj);  // Σ_i in_i·(ω^(±j))^i
    wj *= w;
  }
  if (inverse) {
    Fr s = domain.size_inv();
    for (auto& v : values) {
      v *= s;
      if (mode.coset) s *= domain.coset_shift_inv();
    }
  }
  return {};
}

Status bit_reverse_permute(std::span<Fr> values, ThreadPool& pool) {
  const std::uint64_t n = values.size();
  if (!std::has_single_bit(n))
    return Status(Errc::invalid_argument,
                  "bit_reverse_permute: length " + std::to_string(n) + " is not a power of two");
  const unsigned k = static_cast<unsigned>(std::countr_zero(n));
  Fr* x = values.data();
  constexpr unsigned t = 4;  // tiles of 2^t rows × 2^t contiguous elements (512 bytes)
  if (k < 2 * t + 2) {
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t j = reverse_bits(i, k);
      if (i < j) std::swap(x[i], x[j]);
    }
    return {};
  }
  // i = (a, m, b) with a, b of t bits and m of k − 2t bits; rev(i) = (rev(b), rev(m), rev(a)).
  // Tile m (all a, b) swaps with tile rev(m): 2 × 8 KiB touched per pair.
  const unsigned mbits = k - 2 * t;
  const unsigned hi = k - t;
  pool.parallel_for(
      std::uint64_t{1} << mbits,
      [&](std::size_t m0, std::size_t m1) {
        for (std::uint64_t m = m0; m < m1; ++m) {
          const std::uint64_t mr = reverse_bits(m, mbits);
          if (mr < m) continue;
          for (std::uint64_t a = 0; a < (1u << t); ++a) {
            const std::uint64_t ra = reverse_bits(a, t);
            for (std::uint64_t b = 0; b < (1u << t); ++b) {
              const std::uint64_t i = (a << hi) | (m << t) | b;
              const std::uint64_t j = (reverse_bits(b, t) << hi) | (mr << t) | ra;
              if (m == mr && j <= i) continue;
              std::swap(x[i], x[j]);
            }
          }
        }
      },
      64);
  return {};
}

Status pointwise_mul(std::span<Fr> a, std::span<const Fr> b, ThreadPool& pool) {
  if (a.size() != b.size())
    return Status(Errc::size_mismatch, "pointwise_mul: lengths " + std::to_string(a.size()) +
                                           " and " + std::to_string(b.size()));
  pool.parallel_for(
      a.size(),
      [&](std::size_t s, std::size_t e) {
        for (std::size_t i = s; i < e; ++i) a[i] *= b[i];
      },
      4096);
  return {};
}

void scale(std::span<Fr> a, const Fr& s, ThreadPool& pool) {
  pool.parallel_for(
      a.size(),
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) a[i] *= s;
      },
      4096);
}

Status divide_by_vanishing_on_coset(std::span<Fr> values, const Domain& domain, ThreadPool& pool) {
  if (values.size() != domain.size())
    return Status(Errc::size_mismatch,
                  "divide_by_vanishing_on_coset: " + std::to_string(values.size()) +
                      " values for a domain of size " + std::to_string(domain.size()));
  scale(values, domain.vanishing_on_coset_inv(), pool);
  return {};
}

Status ab_minus_c_over_z(std::span<Fr> a, std::span<const Fr> b, std::span<const Fr> c,
                         const Domain& domain, ThreadPool& pool) {
  const std::uint64_t n = domain.size();
  if (a.size() != n || b.size() != n || c.size() != n)
    return Status(Errc::size_mismatch, "ab_minus_c_over_z: lengths " + std::to_string(a.size()) +
                                           ", " + std::to_string(b.size()) + ", " +
                                           std::to_string(c.size()) + " for a domain of size " +
                                           std::to_string(n));
  const Fr zinv = domain.vanishing_on_coset_inv();
  pool.parallel_for(
      n,
      [&](std::size_t s, std::size_t e) {
        for (std::size_t i = s; i < e; ++i) a[i] = (a[i] * b[i] - c[i]) * zinv;
      },
      4096);
  return {};
}

Status compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                 ThreadPool& pool) {
  const std::uint64_t n = plan.domain().size();
  if (a.size() != n || b.size() != n || c.size() != n)
    return Status(Errc::size_mismatch, "compute_h: lengths " + std::to_string(a.size()) + ", " +
                                           std::to_string(b.size()) + ", " +
                                           std::to_string(c.size()) + " for a domain of size " +
                                           std::to_string(n));
  for (std::span<Fr> v : {a, b}) {
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::inverse}, pool));
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::forward, .coset = true}, pool));
  }
  CUZK_RETURN_IF_ERROR(ntt(c, plan, {.direction = NttDirection::inverse}, pool));  // coefficients
  CUZK_RETURN_IF_ERROR(pointwise_mul(a, b, pool));
  CUZK_RETURN_IF_ERROR(ntt(a, plan, {.direction = NttDirection::inverse, .coset = true}, pool));
  const Fr zinv = plan.domain().vanishing_on_coset_inv();
  pool.parallel_for(
      n,
      [&](std::size_t s, std::size_t e) {
        for (std::size_t i = s; i < e; ++i) a[i] = (a[i] - c[i]) * zinv;
      },
      4096);
  return {};
}

Status compute_h_c_on_coset(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                            ThreadPool& pool) {
  for (std::span<Fr> v : {a, b, c}) {
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::inverse}, pool));
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::forward, .coset = true}, pool));
  }
  CUZK_RETURN_IF_ERROR(ab_minus_c_over_z(a, b, c, plan.domain(), pool));
  return ntt(a, plan, {.direction = NttDirection::inverse, .coset = true}, pool);
}

Status compute_h_snarkjs(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const NttPlan& plan,
                         ThreadPool& pool) {
  const std::uint64_t n = plan.domain().size();
  if (plan.domain().roots() != RootFamily::ffjs)
    return Status(Errc::invalid_argument,
                  "compute_h_snarkjs: the plan has bellman roots, snarkjs uses the ffjs roots");
  if (a.size() != n || b.size() != n || c.size() != n)
    return Status(Errc::size_mismatch, "compute_h_snarkjs: lengths " + std::to_string(a.size()) +
                                           ", " + std::to_string(b.size()) + ", " +
                                           std::to_string(c.size()) + " for a domain of size " +
                                           std::to_string(n));
  pool.parallel_for(
      n,
      [&](std::size_t s, std::size_t e) {
        for (std::size_t i = s; i < e; ++i) c[i] = a[i] * b[i];
      },
      4096);
  for (std::span<Fr> v : {a, b, c}) {
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::inverse}, pool));
    CUZK_RETURN_IF_ERROR(ntt(v, plan, {.direction = NttDirection::forward, .coset = true}, pool));
  }
  pool.parallel_for(
      n,
      [&](std::size_t s, std::size_t e) {
        for (std::size_t i = s; i < e; ++i) a[i] = a[i] * b[i] - c[i];
      },
      4096);
  return {};
}

Status evaluate_polynomial_many(std::span<const Fr> coeffs, std::span<const Fr> points,
                                std::span<Fr> out, ThreadPool& pool) {
  if (points.size() != out.size())
    return Status(Errc::size_mismatch,
                  "evaluate_polynomial_many: " + std::to_string(points.size()) + " points, " +
                      std::to_string(out.size()) + " outputs");
  pool.parallel_for(points.size(),
                    [&](std::size_t i) { out[i] = evaluate_polynomial(coeffs, points[i]); });
  return {};
}

}  // namespace cuzk
