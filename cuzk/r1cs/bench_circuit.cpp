#include "cuzk/r1cs/bench_circuit.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <thread>

namespace cuzk {
namespace {

constexpr std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Coefficient codes: 0 → +1, 1 → −1, 2 + e → 2^e. A constant (a function-local static cost a
// guard test on every value the circuit computes: ≈ 3 % of witness-only synthesis).
struct CoeffTable {
  std::array<Fr, 66> v;
  constexpr CoeffTable() : v{} {
    v[0] = Fr::one();
    v[1] = kFrMinusOne;
    Fr p = Fr::one();
    for (int e = 0; e < 64; ++e, p = p + p) v[2 + e] = p;
  }
};
constexpr CoeffTable kCoeffTable{};
constexpr const CoeffTable& coeffs() { return kCoeffTable; }

enum class OpType : std::uint8_t { boolean, xor_, add, mul, pack };

struct Op {
  OpType type;
  Variable fresh;  // the variable this row allocates (an input for pack)
  Variable x, y;   // xor: a, b; mul: x, y
  std::uint32_t na = 0, nc = 0;
  std::array<Variable, 32> av;
  std::array<std::uint8_t, 32> acode;
  std::array<Variable, 8> cv;
  std::array<std::uint8_t, 8> ccode;
};

// The structural stream: which row comes next and which variables it reads.
class OpStream {
 public:
  explicit OpStream(const BenchCircuitParams& p)
      : rng_(p.seed * 0x2545f4914f6cdd1dULL + 1), num_public_(p.num_public) {
    const std::uint64_t rows = p.rows != 0 ? p.rows : std::uint64_t{1} << p.log_rows;
    circuit_rows_ = rows - (1 + p.num_public);
    kind_.reserve(circuit_rows_);
  }
  std::uint64_t circuit_rows() const { return circuit_rows_; }
  std::uint64_t num_aux() const { return kind_.size(); }

  void next(Op& op) {
    const std::uint64_t row = row_++;
    if (row < kWarmup || bits_in_b_.size() < 2) {
      boolean(op);
    } else if (packed_ < num_public_) {
      pack(op);
    } else {
      const std::uint64_t r = rnd(100);
      if (r < 21) {
        boolean(op);
      } else if (r < 64) {
        xor_(op);
      } else if (r < 84) {
        add(op);
      } else {
        mul(op);
      }
    }
  }

 private:
  static constexpr std::uint64_t kWarmup = 64;
  static constexpr std::uint64_t kWindow = 4096;
  enum : std::uint8_t { kFull = 0, kBit = 1, kBitInB = 2, kSink = 3 };

  // Uniform in [0, n) by multiply-high (Lemire), avoiding a 64-bit division per draw.
  std::uint64_t rnd(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(splitmix64(rng_)) * n) >> 64);
  }
  Variable fresh_aux(std::uint8_t kind) {
    kind_.push_back(kind);
    return Variable::aux(static_cast<std::uint32_t>(kind_.size() - 1));
  }
  // A recent variable (locality like a real circuit), sometimes any.
  // Sinks (outputs that only ever appear in C, ≈ 0.3 % of aux as in PoRep) are never picked.
  Variable recent_any() {
    const std::uint64_t n = kind_.size();
    for (;;) {
      std::uint64_t j;
      if (rnd(64) == 0) {
        j = rnd(n);
      } else {
        const std::uint64_t lo = n > kWindow ? n - kWindow : 0;
        j = lo + rnd(n - lo);
      }
      if (kind_[j] != kSink) return Variable::aux(static_cast<std::uint32_t>(j));
    }
  }
  Variable recent_bit_in_b() {
    const std::uint64_t n = bits_in_b_.size();
    const std::uint64_t lo = n > kWindow / 4 ? n - kWindow / 4 : 0;
    return Variable::aux(bits_in_b_[lo + rnd(n - lo)]);
  }
  Variable recent_bit() {
    const std::uint64_t n = bits_.size();
    const std::uint64_t lo = n > kWindow / 2 ? n - kWindow / 2 : 0;
    return Variable::aux(bits_[lo + rnd(n - lo)]);
  }
  static Variable pop(std::vector<std::uint32_t>& v) {
    Variable x = Variable::aux(v.back());
    v.pop_back();
    return x;
  }
  std::uint8_t random_code() {
    const std::uint64_t r = rnd(10);
    if (r < 5) return 0;
    if (r < 7) return 1;
    return static_cast<std::uint8_t>(3 + rnd(62));  // 2^1 .. 2^62
  }

  void boolean(Op& op) {
    op.type = OpType::boolean;
    op.fresh = fresh_aux(kBitInB);
    bits_in_b_.push_back(op.fresh.index);
    bits_.push_back(op.fresh.index);
  }
  void pack(Op& op) {
    op.type = OpType::pack;
    op.fresh = Variable::input(1 + packed_++);
    op.na = 32;
    op.nc = 0;
    const std::uint64_t n = bits_in_b_.size();
    for (std::uint32_t i = 0; i < 32; ++i) {
      op.av[i] = Variable::aux(bits_in_b_[(n - 1 - i) % n]);
      op.acode[i] = static_cast<std::uint8_t>(i == 0 ? 0 : 2 + i);
    }
  }
  void xor_(Op& op) {
    op.type = OpType::xor_;
    op.x = pending_bits_.empty() ? recent_bit() : pop(pending_bits_);
    op.y = recent_bit_in_b();
    op.fresh = fresh_aux(kBit);
    bits_.push_back(op.fresh.index);
    pending_bits_.push_back(op.fresh.index);
  }
  void add(Op& op) {
    op.type = OpType::add;
    op.na = static_cast<std::uint32_t>(3 + rnd(9));  // 3..11, mean 7
    for (std::uint32_t i = 0; i < op.na; ++i) {
      if (!pending_full_.empty() && i < op.na / 2) {
        op.av[i] = pop(pending_full_);
      } else if (!pending_bits_.empty() && i < op.na / 2 + 2) {
        op.av[i] = pop(pending_bits_);
      } else {
        op.av[i] = recent_any();
      }
      op.acode[i] = random_code();
    }
    op.nc = static_cast<std::uint32_t>(1 + rnd(5));  // 1..5 others, mean 3, + the fresh term
    for (std::uint32_t j = 0; j < op.nc; ++j) {
      op.cv[j] = recent_any();
      op.ccode[j] = random_code();
    }
    if (rnd(1000) < 15) {
      op.fresh = fresh_aux(kSink);
    } else {
      op.fresh = fresh_aux(kFull);
      pending_full_.push_back(op.fresh.index);
    }
  }
  void mul(Op& op) {
    op.type = OpType::mul;
    if (!pending_full_.empty()) {
      op.x = pop(pending_full_);
    } else {
      op.x = recent_any();
    }
    const bool square = rnd(4) == 0;
    op.y = square ? op.x : recent_bit_in_b();
    const bool bit = !square && kind_[op.x.index] != kFull;
    op.fresh = fresh_aux(bit ? kBit : kFull);
    if (bit) {
      bits_.push_back(op.fresh.index);
      pending_bits_.push_back(op.fresh.index);
    } else {
      pending_full_.push_back(op.fresh.index);
    }
  }

  std::uint64_t rng_;
  std::uint32_t num_public_;
  std::uint64_t circuit_rows_ = 0, row_ = 0;
  std::uint32_t packed_ = 0;
  std::vector<std::uint8_t> kind_;
  std::vector<std::uint32_t> bits_in_b_, bits_, pending_bits_, pending_full_;
};

// Limb-wise tests (std::array == goes through memcmp here).
inline bool same(const Fr& a, const Fr& b) {
  return ((a.l[0] ^ b.l[0]) | (a.l[1] ^ b.l[1]) | (a.l[2] ^ b.l[2]) | (a.l[3] ^ b.l[3])) == 0;
}
inline bool is_zero_fast(const Fr& a) { return (a.l[0] | a.l[1] | a.l[2] | a.l[3]) == 0; }
inline bool is_one_fast(const Fr& a) { return same(a, Fr::one()); }

// acc += coeff(code) · v, without multiplying for ±1 or for v ∈ {0, 1}.
inline void add_term(Fr& acc, std::uint8_t code, const Fr& v, const CoeffTable& t) {
  if (code == 0) {
    acc += v;
  } else if (code == 1) {
    acc -= v;
  } else if (is_one_fast(v)) {
    acc += t.v[code];
  } else if (!is_zero_fast(v)) {
    acc += t.v[code] * v;
  }
}

// Values: a boolean's bit comes from a stateless hash of (seed, index); every other value follows.
struct Values {
  std::uint64_t seed;
  const Fr* inputs;
  const Fr* aux;
  const Fr& at(Variable v) const { return v.is_input() ? inputs[v.index] : aux[v.index]; }
  Fr value(const Op& op) const {
    const CoeffTable& t = coeffs();
    switch (op.type) {
      case OpType::boolean: {
        std::uint64_t s = seed ^ (0xd1b54a32d192ed03ULL * (op.fresh.index + 1));
        return (splitmix64(s) & 1) ? Fr::one() : Fr::zero();
      }
      case OpType::xor_:
        return same(at(op.x), at(op.y)) ? Fr::zero() : Fr::one();
      case OpType::mul:
        return at(op.x) * at(op.y);
      case OpType::pack:
      case OpType::add: {
        Fr s = Fr::zero();
        for (std::uint32_t i = 0; i < op.na; ++i) add_term(s, op.acode[i], at(op.av[i]), t);
        Fr c = Fr::zero();
        for (std::uint32_t j = 0; j < op.nc; ++j) add_term(c, op.ccode[j], at(op.cv[j]), t);
        return s - c;
      }
    }
    return Fr::zero();
  }
};

// The row of |op| as three LCs.
void build_lcs(const Op& op, LC& a, LC& b, LC& c) {
  const CoeffTable& t = coeffs();
  a = LC();
  b = LC();
  c = LC();
  switch (op.type) {
    case OpType::boolean:
      a.add(Variable::one()).sub(op.fresh);
      b.add(op.fresh);
      break;
    case OpType::xor_:
      a.add(t.v[3], op.x);
      b.add(op.y);
      c.add(op.x).add(op.y).sub(op.fresh);
      break;
    case OpType::mul:
      a.add(op.x);
      b.add(op.y);
      c.add(op.fresh);
      break;
    case OpType::pack:
    case OpType::add:
      for (std::uint32_t i = 0; i < op.na; ++i) a.add(t.v[op.acode[i]], op.av[i]);
      b.add(Variable::one());
      for (std::uint32_t j = 0; j < op.nc; ++j) c.add(t.v[op.ccode[j]], op.cv[j]);
      c.add(op.fresh);
      break;
  }
}

// Var encoding in the program: bit 31 = input.
constexpr std::uint32_t enc(Variable v) { return v.is_input() ? (v.index | 0x80000000u) : v.index; }
constexpr Variable dec(std::uint32_t w) {
  return (w & 0x80000000u) ? Variable::input(w & 0x7fffffffu) : Variable::aux(w);
}

}  // namespace

// The op stream recorded: per row a header (type | na << 8 | nc << 16), its variables
// (fresh, then x, y or the A and C operands) and, for add/pack, the coefficient codes.
struct BenchProgram {
  std::vector<std::uint32_t> hdr, vars;
  std::vector<std::uint8_t> codes;
  std::uint64_t num_aux = 0;

  static BenchProgram compile(const BenchCircuitParams& p) {
    BenchProgram g;
    OpStream ops(p);
    const std::uint64_t rows = ops.circuit_rows();
    g.hdr.reserve(rows);
    g.vars.reserve(rows * 4);
    g.codes.reserve(rows * 2);
    Op op;
    for (std::uint64_t r = 0; r < rows; ++r) {
      ops.next(op);
      const bool lin = op.type == OpType::add || op.type == OpType::pack;
      g.hdr.push_back(static_cast<std::uint32_t>(op.type) |
                      (lin ? (op.na << 8) | (op.nc << 16) : 0));
      g.vars.push_back(enc(op.fresh));
      if (op.type == OpType::xor_ || op.type == OpType::mul) {
        g.vars.push_back(enc(op.x));
        g.vars.push_back(enc(op.y));
      } else if (lin) {
        for (std::uint32_t i = 0; i < op.na; ++i) {
          g.vars.push_back(enc(op.av[i]));
          g.codes.push_back(op.acode[i]);
        }
        for (std::uint32_t j = 0; j < op.nc; ++j) {
          g.vars.push_back(enc(op.cv[j]));
          g.codes.push_back(op.ccode[j]);
        }
      }
    }
    g.num_aux = ops.num_aux();
    return g;
  }

  // Replays row after row; |vi| and |ci| are the cursors into vars and codes.
  struct Cursor {
    std::uint64_t row = 0, vi = 0, ci = 0;
  };
  void decode(Cursor& c, Op& op) const {
    const std::uint32_t h = hdr[c.row++];
    op.type = static_cast<OpType>(h & 0xff);
    op.fresh = dec(vars[c.vi++]);
    if (op.type == OpType::xor_ || op.type == OpType::mul) {
      op.x = dec(vars[c.vi++]);
      op.y = dec(vars[c.vi++]);
    } else if (op.type == OpType::add || op.type == OpType::pack) {
      op.na = (h >> 8) & 0xff;
      op.nc = (h >> 16) & 0xff;
      for (std::uint32_t i = 0; i < op.na; ++i) {
        op.av[i] = dec(vars[c.vi++]);
        op.acode[i] = codes[c.ci++];
      }
      for (std::uint32_t j = 0; j < op.nc; ++j) {
        op.cv[j] = dec(vars[c.vi++]);
        op.ccode[j] = codes[c.ci++];
      }
    }
  }
};

namespace {

Status check_params(const BenchCircuitParams& p) {
  if (p.rows != 0) {
    if (p.rows < 256 || p.rows > (std::uint64_t{1} << 27)) {
      return Status(Errc::invalid_argument,
                    "benchmark circuit of " + std::to_string(p.rows) + " rows outside 256..2^27");
    }
  } else if (p.log_rows < 10 || p.log_rows > 27) {
    return Status(Errc::invalid_argument,
                  "benchmark circuit size 2^" + std::to_string(p.log_rows) + " outside 2^10..2^27");
  }
  if (p.num_public > 64)
    return Status(Errc::invalid_argument, "benchmark circuit takes at most 64 public inputs");
  return {};
}

}  // namespace

std::vector<Fr> BenchR1cs::assignment() const {
  std::vector<Fr> z;
  z.reserve(inputs.size() + aux.size());
  z.insert(z.end(), inputs.begin(), inputs.end());
  z.insert(z.end(), aux.begin(), aux.end());
  return z;
}

Result<BenchR1cs> generate_bench_r1cs(ThreadPool& pool, const BenchCircuitParams& p,
                                      bool with_witness) {
  CUZK_RETURN_IF_ERROR(check_params(p));
  const BenchProgram prog = BenchProgram::compile(p);
  const std::uint64_t rows = prog.hdr.size();
  const std::uint64_t ni = 1 + p.num_public;
  BenchR1cs out;
  R1csMatrices& m = out.matrices;

  // Witness: sequential (each value depends on earlier ones), on its own thread.
  auto witness = [&] {
    out.inputs.assign(ni, Fr::zero());
    out.inputs[0] = Fr::one();
    out.aux.reserve(prog.num_aux);
    Op op;
    BenchProgram::Cursor cur;
    for (std::uint64_t r = 0; r < rows; ++r) {
      prog.decode(cur, op);
      Values vals{p.seed, out.inputs.data(), out.aux.data()};
      const Fr v = vals.value(op);
      if (op.fresh.is_input()) {
        out.inputs[op.fresh.index] = v;
      } else {
        out.aux.push_back(v);
      }
    }
  };
  std::thread witness_thread;
  if (with_witness) witness_thread = std::thread(witness);

  // Matrices: chunks of whole 64-row blocks, each from its cursor, merged in order.
  const std::uint64_t chunk_rows =
      std::max<std::uint64_t>(1 << 14, (rows / (pool.size() * 4) + 63) / 64 * 64);
  const std::uint64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
  std::vector<BenchProgram::Cursor> starts(chunks);
  {
    BenchProgram::Cursor cur;
    for (std::uint64_t r = 0; r < rows; ++r) {
      if (r % chunk_rows == 0) starts[r / chunk_rows] = cur;
      const std::uint32_t h = prog.hdr[r];
      const auto type = static_cast<OpType>(h & 0xff);
      const std::uint64_t terms = ((h >> 8) & 0xff) + ((h >> 16) & 0xff);
      cur.row = r + 1;
      if (type == OpType::xor_ || type == OpType::mul) {
        cur.vi += 3;
      } else if (type == OpType::add || type == OpType::pack) {
        cur.vi += 1 + terms;
        cur.ci += terms;
      } else {
        cur.vi += 1;
      }
    }
  }
  // Column of a variable: inputs are allocated up front here, so num_inputs is known.
  auto column = [ni](Variable v) {
    return v.is_input() ? v.index : static_cast<std::uint32_t>(ni + v.index);
  };
  std::vector<std::array<SparseMatrix, 3>> parts(chunks);
  pool.parallel_for(chunks, [&](std::size_t i) {
    BenchProgram::Cursor cur = starts[i];
    const std::uint64_t end = std::min(rows, (i + 1) * chunk_rows);
    auto& [pa, pb, pc] = parts[i];
    pa.col.reserve((end - cur.row) * 5 / 2);
    pc.col.reserve((end - cur.row) * 9 / 4);
    Op op;
    LC a, b, c;
    while (cur.row < end) {
      prog.decode(cur, op);
      build_lcs(op, a, b, c);
      a.normalize();
      b.normalize();
      c.normalize();
      pa.append_row(a.terms(), column);
      pb.append_row(b.terms(), column);
      pc.append_row(c.terms(), column);
    }
  });
  for (auto& part : parts) {
    m.a.append_rows_from(part[0]);
    m.b.append_rows_from(part[1]);
    m.c.append_rows_from(part[2]);
    part = {};
  }
  for (std::uint64_t i = 0; i < ni; ++i) {
    const Term t{Variable::input(static_cast<std::uint32_t>(i)), Fr::one()};
    m.a.append_row(std::span<const Term>(&t, 1), column);
    m.b.append_empty_row();
    m.c.append_empty_row();
  }
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) s->rebuild_blocks();
  m.num_inputs = ni;
  m.num_aux = prog.num_aux;
  m.num_constraints = rows + ni;
  m.compute_density();
  if (witness_thread.joinable()) witness_thread.join();
  return out;
}

Result<BenchR1cs> generate_bench_r1cs(const BenchCircuitParams& p, bool with_witness) {
  ThreadPool pool(1);
  return generate_bench_r1cs(pool, p, with_witness);
}

BenchCircuit::BenchCircuit(const BenchCircuitParams& p) : p_(p) {}
BenchCircuit::~BenchCircuit() = default;

Status BenchCircuit::prepare() {
  CUZK_RETURN_IF_ERROR(check_params(p_));
  if (!program_) program_ = std::make_unique<BenchProgram>(BenchProgram::compile(p_));
  return {};
}

Status BenchCircuit::synthesize(ConstraintSystem& cs) {
  CUZK_RETURN_IF_ERROR(prepare());
  const BenchProgram& prog = *program_;
  const std::uint64_t rows = prog.hdr.size();
  inputs_.assign(1 + p_.num_public, Fr::zero());
  inputs_[0] = Fr::one();
  // The circuit's own copy of its values, written in place (sized once, kept across proofs; an
  // out-of-line push_back per value was ≈ 8 % of witness-only synthesis).
  if (aux_.size() < prog.num_aux) aux_.resize(prog.num_aux);
  std::size_t naux = 0;
  Op op;
  LC a, b, c;
  BenchProgram::Cursor cur;
  for (std::uint64_t r = 0; r < rows; ++r) {
    prog.decode(cur, op);
    // The value closure computes from the circuit's own copies (as a gadget keeps its values).
    auto value = [&]() -> Fr {
      Values vals{p_.seed, inputs_.data(), aux_.data()};
      return vals.value(op);
    };
    auto name = [&] { return "row " + std::to_string(r); };
    if (op.fresh.is_input()) {
      auto v = cs.alloc_input(name, [&]() -> Fr {
        Fr x = value();
        inputs_[op.fresh.index] = x;
        return x;
      });
      if (!v) return v.status();
      if (*v != op.fresh)
        return Status(Errc::invalid_argument, "bench circuit: input numbering diverged");
    } else {
      auto v = cs.alloc(name, [&]() -> Fr {
        Fr x = value();
        aux_[naux++] = x;
        return x;
      });
      if (!v) return v.status();
      if (*v != op.fresh)
        return Status(Errc::invalid_argument, "bench circuit: aux numbering diverged");
    }
    cs.enforce(
        name,
        [&](LC) {
          build_lcs(op, a, b, c);
          return a;
        },
        [&](LC) { return b; }, [&](LC) { return c; });
  }
  return {};
}

}  // namespace cuzk
