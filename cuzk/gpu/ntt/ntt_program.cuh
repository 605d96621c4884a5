// The GPU NTT as a program of passes (host description, shared with a CPU emulation in the tests).
//
// A pass runs stages [s0, s0 + S) of a radix-2 transform on tiles of 2^(S+l) elements: 2^S points of
// a sub-transform at stride 2^s0 times 2^l adjacent sub-transforms, so global accesses come in runs
// of 2^l elements. Stage s pairs i and i + 2^s (bit s of i clear) with the twiddle
// ω_{2^(s+1)}^(i mod 2^s) = ω_n^((i mod 2^s)·2^(log n − 1 − s)):
//   DIT (decimation in time, stages rising): bit-reversed in, natural out; (u + w·v, u − w·v).
//   DIF (decimation in frequency, stages falling): natural in, bit-reversed out; (u + v, (u − v)·w).
// Stage 0 has w = 1 and no multiplication. Each pass reads and writes its tiles in place (tiles are
// disjoint), except a gather (DIT's first pass reading in[rev(i)]) or a scatter (DIF's last pass
// writing out[rev(i)]), which go between two buffers unless one tile is the whole transform.
//
// Scalings are folded into a pass's load or store as c·g^idx (a constant c when g = 1): coset shift,
// n^{-1}, the vanishing polynomial's 1/Z. The H step composes iNTT as DIF (natural → bit-reversed)
// with the coset NTT as DIT (bit-reversed → natural): no permutation between them; only its last
// iNTT permutes (a scatter), and its pointwise (a·b − c) is the load of that iNTT's first pass.
// The iNTT's last pass and the coset NTT's first pass work on the same contiguous tiles: they run
// as one round-trip step, so a vector goes to the coset in 2·passes − 1 passes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuzk/ff/fr.hpp"

#ifdef __CUDACC__
#define CUZK_NTT_HD __host__ __device__ __forceinline__
#else
#define CUZK_NTT_HD inline
#endif

namespace cuzk::gpu {

/// Tile shape of the passes (bench-tunable). Default: tiles of 2^11 (64 KiB of shared memory),
/// runs of at least 4 elements (128 bytes): 2^27 in 3 passes (11 + 8 + 8 stages).
struct NttTuning {
  int log_tile = 10;    ///< elements per thread block, log2 (9–11)
  int min_log_run = 1;  ///< adjacent sub-transforms per tile in the strided passes, log2 (≥ 1)
  bool legacy = false;  ///< the first kernels (gather DIT, 4 passes at 2^27, separate scalings)
  /// The bellperson H step with c taken to the coset as bellperson does (7 transforms: the slow
  /// twin of plan_h_program's 6).
  bool h_c_coset = false;
};

struct NttPass {
  int s0 = 0, S = 0, l = 0;
};

/// The passes of a DIT transform of 2^log_n in stage order (a DIF runs them in reverse): the first
/// covers the low stages with contiguous tiles (l = 0), the others split the rest evenly into passes
/// of at most log_tile − min_log_run stages, each with as long runs as the tile allows.
inline std::vector<NttPass> plan_dit_passes(unsigned log_n, const NttTuning& t) {
  std::vector<NttPass> passes;
  const int lg = static_cast<int>(log_n);
  const int first = std::min(t.log_tile, lg);
  passes.push_back({0, first, 0});
  const int rest = lg - first;
  if (rest <= 0) return passes;
  const int per = t.log_tile - t.min_log_run;
  const int count = (rest + per - 1) / per;
  int s0 = first;
  for (int p = 0; p < count; ++p) {
    const int S = (lg - s0 + (count - p) - 1) / (count - p);
    passes.push_back({s0, S, std::min(s0, t.log_tile - S)});
    s0 += S;
  }
  return passes;
}

CUZK_NTT_HD std::uint64_t bit_reverse(std::uint64_t i, unsigned log_n) {
  if (log_n == 0) return 0;
#ifdef __CUDA_ARCH__
  return __brevll(i) >> (64 - log_n);
#else
  std::uint64_t r = 0;
  for (unsigned b = 0; b < log_n; ++b) r |= ((i >> b) & 1) << (log_n - 1 - b);
  return r;
#endif
}

/// Where tile |block| sits: its high index bits and its first sub-transform (powers of two only).
struct NttTileOrigin {
  std::uint64_t hi, lo_base;
};
CUZK_NTT_HD NttTileOrigin tile_origin(const NttPass& p, std::uint64_t block) {
  const int lg = p.s0 - p.l;  // log2 of the tiles side by side in the low bits
  return {block >> lg, (block & ((std::uint64_t{1} << lg) - 1)) << p.l};
}

/// Global index of element |e| of the tile at |o|.
CUZK_NTT_HD std::uint64_t tile_element_index(const NttPass& p, const NttTileOrigin& o, int e) {
  return (o.hi << (p.s0 + p.S)) | (static_cast<std::uint64_t>(e >> p.l) << p.s0) |
         (o.lo_base + static_cast<std::uint64_t>(e & ((1 << p.l) - 1)));
}

/// Butterfly |t| (< 2^(S+l−1)) of the pass's stage s0 + k: its two tile slots and twiddle index.
struct NttButterfly {
  int ia, ib;
  std::uint64_t tw;
};
CUZK_NTT_HD NttButterfly tile_butterfly(const NttPass& p, unsigned log_n, const NttTileOrigin& o,
                                        int k, int t) {
  const int m = 1 << k;
  const int lo = t & ((1 << p.l) - 1);
  const int bf = t >> p.l;
  const int i_mid = ((bf >> k) << (k + 1)) | (bf & (m - 1));
  const std::uint64_t j = (static_cast<std::uint64_t>(i_mid & (m - 1)) << p.s0) |
                          (o.lo_base + static_cast<std::uint64_t>(lo));
  const int ia = (i_mid << p.l) | lo;
  return {ia, ia + (m << p.l), j << (static_cast<int>(log_n) - 1 - (p.s0 + k))};
}

/// Where a pass's elements come from.
enum class NttLoad : std::uint8_t {
  plain,    ///< in[i]
  gather,   ///< in[rev(i)] (DIT's first pass on natural input)
  product,  ///< in[i]·in_b[i], minus in_c[i] when given (the H step's pointwise)
};
/// Where they go.
enum class NttStore : std::uint8_t {
  plain,        ///< out[i] = v
  scatter,      ///< out[rev(i)] = v (DIF's last pass to natural output)
  combine,      ///< out[i] = out[i]·v − aux[i] (snarkjs's pointwise after the last coset NTT)
  scatter_sub,  ///< out[rev(i)] = v − aux[i] (the bellperson H step's last store: H = Q − C)
};

/// The factor c·g^idx applied on load or store; idx is the element's index i or rev(i).
struct NttScale {
  enum class Kind : std::uint8_t { none, constant, powers };
  Kind kind = Kind::none;
  bool rev_index = false;
  Fr c = Fr::one(), g = Fr::one();
  static NttScale constant(const Fr& c) { return {Kind::constant, false, c, Fr::one()}; }
  static NttScale powers(const Fr& c, const Fr& g, bool rev) { return {Kind::powers, rev, c, g}; }
};

/// One pass of a program; buffers are numbered (0, 1, 2: the caller's vectors; 3: scratch).
struct NttStep {
  NttPass pass;
  bool dif = false;
  bool inverse = false;  ///< twiddles ω^{-j}
  NttLoad load = NttLoad::plain;
  NttStore store = NttStore::plain;
  int in = 0, in_b = -1, in_c = -1, out = 0, aux = -1;
  NttScale load_scale, store_scale;
  /// A round trip on one tile (dif, s0 = 0, l = 0): the iNTT's last stages (DIF on ω^{-1}), then
  /// |mid_scale| (index as the load's), then the coset NTT's first stages (DIT on ω) on the same
  /// tile: the pass between the two transforms is saved.
  bool round_trip = false;
  NttScale mid_scale;
};

/// Tiles (thread blocks) of a pass over 2^log_n elements.
inline std::uint64_t pass_blocks(const NttPass& p, unsigned log_n) {
  return std::uint64_t{1} << (log_n - static_cast<unsigned>(p.S + p.l));
}

/// One transform of buffer 0 (natural in and out), scratch 3; as poly/ntt.hpp's modes:
/// forward = DIT with a gather first pass (coset: × g^i on load), inverse = the same on ω^{-1} with
/// n^{-1} (coset: n^{-1}·g^{-i}) on the last store.
inline std::vector<NttStep> plan_ntt_program(unsigned log_n, bool inverse, bool coset, const Fr& g,
                                             const NttTuning& t) {
  const auto passes = plan_dit_passes(log_n, t);
  const Fr n_inv = Fr::from_u64(std::uint64_t{1} << log_n).inverse();
  const bool single = passes.size() == 1;
  std::vector<NttStep> steps;
  for (std::size_t p = 0; p < passes.size(); ++p) {
    NttStep s;
    s.pass = passes[p];
    s.inverse = inverse;
    const bool first = p == 0, last = p + 1 == passes.size();
    s.in = first || single ? 0 : 3;
    s.out = last ? 0 : 3;
    if (first) s.load = NttLoad::gather;
    if (first && coset && !inverse) s.load_scale = NttScale::powers(Fr::one(), g, true);
    if (last && inverse)
      s.store_scale =
          coset ? NttScale::powers(n_inv, g.inverse(), false) : NttScale::constant(n_inv);
    steps.push_back(s);
  }
  return steps;
}

/// iNTT (DIF, in place) then coset NTT (DIT, in place, n^{-1}·g^i between them) of buffer |x|, the
/// low stages of both in one round-trip step (2·passes − 1 steps); the iNTT's first pass loads
/// |first_load| from |in|, |in_b| when that is not plain.
inline void append_to_coset(std::vector<NttStep>& steps, const std::vector<NttPass>& passes, int x,
                            const Fr& n_inv, const Fr& g, NttLoad first_load = NttLoad::plain,
                            int in = -1, int in_b = -1) {
  for (std::size_t p = passes.size(); p-- > 0;) {
    NttStep s;
    s.pass = passes[p], s.dif = true, s.inverse = true, s.in = x, s.out = x;
    if (p + 1 == passes.size() && first_load != NttLoad::plain)
      s.load = first_load, s.in = in, s.in_b = in_b;
    if (p == 0) s.round_trip = true, s.mid_scale = NttScale::powers(n_inv, g, true);
    steps.push_back(s);
  }
  for (std::size_t p = 1; p < passes.size(); ++p) {
    NttStep s;
    s.pass = passes[p], s.in = x, s.out = x;
    steps.push_back(s);
  }
}

/// The bellperson H step (FORMATS.md §2.2) on buffers a = 0, b = 1, c = 2 (consumed); h (natural
/// order) ends in buffer 0. bellperson takes a, b and c to the coset g·⟨ω⟩ and h = iNTT_coset of
/// (A·B − C)/Z there (7 transforms; NttTuning::h_c_coset). Here C is not taken there: Z is the
/// constant g^n − 1 on the coset and the coset iNTT is linear and inverts the coset NTT of C
/// (degree < n), so
///   h = (g^n − 1)^{-1}·(iNTT_coset(A·B on the coset) − C's coefficients),
/// the same field elements for any a, b, c, in 6 transforms: a and b to the coset, c's iNTT alone
/// (its coefficients bit-reversed in place, times n^{-1}·(g^n − 1)^{-1} on its last store), then
/// the iNTT of a·b (the product the load of its first pass, into b) whose last pass scatters
/// n^{-1}·(g^n − 1)^{-1}·g^{-i}·v − c[rev(i)] into a. No separate pointwise or scaling pass.
inline std::vector<NttStep> plan_h_program(unsigned log_n, const Fr& g, const NttTuning& t) {
  const auto passes = plan_dit_passes(log_n, t);
  const std::uint64_t n = std::uint64_t{1} << log_n;
  const Fr n_inv = Fr::from_u64(n).inverse();
  std::vector<NttStep> steps;
  const Fr zinv = (g.pow_u64(n) - Fr::one()).inverse();
  const bool single = passes.size() == 1;
  if (!t.h_c_coset) {
    for (int x = 0; x < 2; ++x) append_to_coset(steps, passes, x, n_inv, g);
    for (std::size_t p = passes.size(); p-- > 0;) {  // c's iNTT, bit-reversed out
      NttStep s;
      s.pass = passes[p], s.dif = true, s.inverse = true, s.in = 2, s.out = 2;
      if (p == 0) s.store_scale = NttScale::constant(n_inv * zinv);
      steps.push_back(s);
    }
    for (std::size_t p = passes.size(); p-- > 0;) {  // a·b's coset iNTT, minus c, into a
      NttStep s;
      s.pass = passes[p], s.dif = true, s.inverse = true, s.in = 1, s.out = 1;
      if (p + 1 == passes.size()) s.load = NttLoad::product, s.in = 0, s.in_b = 1;
      if (p == 0) {
        s.store = NttStore::scatter_sub, s.out = 0, s.aux = 2;
        s.store_scale = NttScale::powers(n_inv * zinv, g.inverse(), true);
      }
      steps.push_back(s);
    }
    return steps;
  }
  for (int x = 0; x < 3; ++x) append_to_coset(steps, passes, x, n_inv, g);
  for (std::size_t p = passes.size(); p-- > 0;) {
    NttStep s;
    s.pass = passes[p], s.dif = true, s.inverse = true, s.in = 2, s.out = 2;
    if (p + 1 == passes.size()) s.load = NttLoad::product, s.in = 0, s.in_b = 1, s.in_c = 2;
    if (p == 0) {
      s.store = NttStore::scatter;
      s.out = 0;
      if (!single) s.in = 2;
      s.store_scale = NttScale::powers(n_inv * zinv, g.inverse(), true);
    }
    steps.push_back(s);
  }
  return steps;
}

/// snarkjs's H step on buffers a = 0, b = 1, c = 2 with coset shift |shift| (ffjs roots): c ← a∘b
/// (the load of c's first pass: c's input is not read), each to the coset, and a ← a·b − c in the
/// store of b's last pass: a holds (A·B − C)(shift·ω^j), natural order. 6 transforms.
inline std::vector<NttStep> plan_h_snarkjs_program(unsigned log_n, const Fr& shift,
                                                   const NttTuning& t) {
  const auto passes = plan_dit_passes(log_n, t);
  const Fr n_inv = Fr::from_u64(std::uint64_t{1} << log_n).inverse();
  std::vector<NttStep> steps;
  append_to_coset(steps, passes, 2, n_inv, shift, NttLoad::product, 0, 1);
  append_to_coset(steps, passes, 0, n_inv, shift);
  append_to_coset(steps, passes, 1, n_inv, shift);
  steps.back().store = NttStore::combine;
  steps.back().out = 0;
  steps.back().aux = 2;
  return steps;
}

}  // namespace cuzk::gpu
