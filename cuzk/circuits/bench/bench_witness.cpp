#include "cuzk/circuits/bench/bench_witness.hpp"

#include <cstring>
#include <string>

#include "cuzk/r1cs/lc.hpp"

namespace cuzk::circuits {
namespace {

constexpr char kMagic[8] = {'c', 'u', 'z', 'k',
                            'f', 'a', 'k', 'e'};  // the bench client's input tag

std::uint64_t splitmix(std::uint64_t s) {
  std::uint64_t z = s + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One row of one matrix evaluated over the known values; the (single) unknown column noted.
struct RowEval {
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  Fr acc = Fr::zero();
  std::uint64_t unknown = kNone;
  Fr ucoeff = Fr::zero();
  bool two_unknowns = false;
};

void eval_row(const SparseMatrix& s, std::size_t r, std::uint64_t& g, const std::vector<Fr>& z,
              const std::vector<std::uint8_t>& known, RowEval& out) {
  out = RowEval{};
  for (std::uint64_t e = s.row_ptr[r]; e < s.row_ptr[r + 1]; ++e) {
    const std::uint32_t w = s.col[e];
    const std::uint32_t c = SparseMatrix::column_of(w);
    const CoeffKind kind = SparseMatrix::kind_of(w);
    const Fr* coeff = kind == CoeffKind::general ? &s.coeffs[s.gen_idx[g++]] : nullptr;
    if (!known[c]) {
      if (out.unknown != RowEval::kNone && out.unknown != c) out.two_unknowns = true;
      out.unknown = c;
      out.ucoeff = kind == CoeffKind::plus_one    ? Fr::one()
                   : kind == CoeffKind::minus_one ? kFrMinusOne
                                                  : *coeff;
      continue;
    }
    switch (kind) {
      case CoeffKind::plus_one:
        out.acc += z[c];
        break;
      case CoeffKind::minus_one:
        out.acc -= z[c];
        break;
      default:
        if (!z[c].is_zero()) out.acc += *coeff * z[c];
        break;
    }
  }
}

}  // namespace

Result<BenchWitness> solve_bench_witness(const R1csMatrices& m, std::uint64_t seed,
                                         const CancelFlag* cancel, std::vector<Fr> storage) {
  const std::uint64_t cols = m.num_columns();
  BenchWitness out;
  out.z = std::move(storage);
  out.z.assign(cols, Fr::zero());
  std::vector<std::uint8_t> known(cols, 0);
  if (cols == 0 || m.num_inputs == 0)
    return Status(Errc::invalid_argument, "circuit without the ONE variable");
  out.z[0] = Fr::one();
  known[0] = 1;
  std::uint64_t ga = 0, gb = 0, gc = 0;
  RowEval a, b, c;
  for (std::size_t r = 0; r < m.num_constraints; ++r) {
    if (cancel && (r & 0xffff) == 0 && cancel->load(std::memory_order_relaxed))
      return Status(Errc::cancelled, "witness cancelled");
    eval_row(m.a, r, ga, out.z, known, a);
    eval_row(m.b, r, gb, out.z, known, b);
    eval_row(m.c, r, gc, out.z, known, c);
    std::uint64_t f = RowEval::kNone;
    bool bad = a.two_unknowns || b.two_unknowns || c.two_unknowns;
    for (const RowEval* e : {&a, &b, &c}) {
      if (e->unknown == RowEval::kNone) continue;
      if (f != RowEval::kNone && f != e->unknown) bad = true;
      f = e->unknown;
    }
    if (bad)
      return Status(Errc::unsatisfied, "row " + std::to_string(r) + " has two unknown variables");
    if (f != RowEval::kNone) {
      if (a.unknown == f || b.unknown == f) {
        // A boolean: the bit is free; the row's check below confirms the shape.
        const Fr bit =
            (splitmix(seed ^ (0xd1b54a32d192ed03ULL * (f + 1))) & 1) ? Fr::one() : Fr::zero();
        out.z[f] = bit;
        if (a.unknown == f) a.acc += a.ucoeff * bit;
        if (b.unknown == f) b.acc += b.ucoeff * bit;
        if (c.unknown == f) c.acc += c.ucoeff * bit;
      } else {
        // c_rest + coeff·z_f = a·b
        const Fr v = a.acc * b.acc - c.acc;
        if (fr_is_one(c.ucoeff))
          out.z[f] = v;
        else if (fr_is_minus_one(c.ucoeff))
          out.z[f] = -v;
        else
          out.z[f] = v * c.ucoeff.inverse_vartime();
        c.acc += c.ucoeff * out.z[f];
      }
      known[f] = 1;
    }
    if (!fr_eq(a.acc * b.acc, c.acc))
      return Status(Errc::unsatisfied, "row " + std::to_string(r) + " does not hold after solving");
  }
  for (std::uint64_t i = 0; i < cols; ++i)
    if (!known[i])
      return Status(Errc::unsatisfied,
                    "variable " + std::to_string(i) + " occurs in no row that fixes it");
  out.public_inputs.assign(out.z.begin() + 1,
                           out.z.begin() + static_cast<std::ptrdiff_t>(m.num_inputs));
  return out;
}

Result<std::uint64_t> bench_job_seed(const JobRequest& req) {
  const std::string& b = req.vanilla_proof;
  if (b.empty()) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : req.request_id) h = (h ^ ch) * 0x100000001b3ULL;
    return h;
  }
  if (b.size() != 16 || std::memcmp(b.data(), kMagic, 8) != 0)
    return Status(Errc::bad_encoding,
                  "bench input must be empty or \"cuzkfake\" ‖ u64 seed (16 bytes), got " +
                      std::to_string(b.size()) + " bytes");
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i)
    seed |= std::uint64_t(static_cast<unsigned char>(b[8 + i])) << (8 * i);
  return seed;
}

std::uint64_t bench_partition_seed(std::uint64_t job_seed, std::uint32_t k) {
  return splitmix(job_seed * 0x2545f4914f6cdd1dULL +
                  0x9e3779b97f4a7c15ULL * (std::uint64_t{k} + 1));
}

}  // namespace cuzk::circuits
