// Recording into the compact form, in two steps.
//
// 1. Templates, while synthesis runs. Rows are appended to one buffer with absolute variable
//    references. When a scope closes with at least min_template_rows rows, its part of the buffer
//    [its start, end) is rewritten relative to the scope:
//      aux j allocated inside the scope (j ≥ its first aux)  → local  j − first aux
//      ONE                                                   → ONE
//      anything else (earlier aux, any other input)          → extern k, numbered by first use
//    and looked up by content (checksum, then exact compare) among the templates kept so far;
//    the buffer part is replaced by one *use*: [template, first aux, the externs' absolute refs].
//    A closed scope's uses of nested templates are rewritten the same way (their first aux
//    relative, their externs mapped), so templates nest, and a SHA-256 compression recorded 5000
//    times is kept once, with its 64 rounds kept once each inside it. Cost: every row is written
//    and rewritten once (at its innermost template), every use once per enclosing template; the
//    buffer holds only the open scopes' content (the largest a few thousand words).
// 2. Blocks and segments, at take(). A template of at most max_block_rows rows becomes one block:
//    its nested uses expanded into its rows, columns [ONE | its locals | its externs]. The root
//    template is walked: each nested use of a block becomes a segment (its first aux and its
//    externs resolved to witness columns), each larger template is walked in turn, and the rows a
//    walked template holds itself (with its uses of blocks below min_segment_rows) are cut into
//    *runs*, each a block over [ONE | the distinct variables it reads] — built once per walked
//    template and run position, used once per use of that template.
// Measured on the PoRep partitions (docs/perf/filecoin.md "PCE, compact").
#include "cuzk/r1cs/pce_compact_recorder.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

// Buffer and template tokens. A row: [kTagRow, |A|, |B|, |C|, (ref, coefficient id) × terms].
// A use: [kTagUse, template, first aux, ref × the template's externs].
constexpr std::uint32_t kTagRow = 0;
constexpr std::uint32_t kTagUse = 1;
// Absolute refs (buffer): aux j → j; input i → kInputFlag | i.
constexpr std::uint32_t kInputFlag = 0x80000000u;
// Template refs: local j → j; extern k → kExternFlag | k; ONE → kOneRef.
constexpr std::uint32_t kExternFlag = 0x80000000u;
constexpr std::uint32_t kOneRef = 0xffffffffu;
constexpr std::uint32_t kMaxAux = 1u << 29;

struct Template {
  std::vector<std::uint32_t> tokens;
  std::uint32_t aux = 0;            // locals
  std::uint32_t ext = 0;            // externs
  std::uint64_t rows = 0;           // nested included
  std::uint32_t next = UINT32_MAX;  // next template with the same content checksum
};

struct Scope {
  std::size_t start = 0;  // buffer offset
  std::uint32_t aux = 0;  // first aux allocated inside
  std::uint64_t rows = 0;
};

// Coefficient → its id in |coeffs|, open addressing over the ids (one lookup per term of every
// row whose coefficient is not ±1: Poseidon's rows carry dozens; std::unordered_map's node chains
// cost a cache miss per probe, 20 % of the recording).
class CoeffIndex {
 public:
  // The id of |c| in |coeffs|, appended when new.
  std::uint32_t find_or_insert(const Fr& c, std::vector<Fr>& coeffs) {
    if ((coeffs.size() + 1) * 2 > slots_.size()) grow(coeffs);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(c) & mask;; i = (i + 1) & mask) {
      const std::uint32_t s = slots_[i];
      if (s == kEmpty) {
        const auto id = static_cast<std::uint32_t>(coeffs.size());
        coeffs.push_back(c);
        slots_[i] = id;
        return id;
      }
      if (fr_eq(coeffs[s], c)) return s;
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  static std::size_t hash(const Fr& f) {
    const std::uint64_t h = (f.l[0] ^ (f.l[1] * 0x9e3779b97f4a7c15ULL) ^ f.l[2] ^ (f.l[3] << 7)) *
                            0xd6e8feb86659fd93ULL;
    return static_cast<std::size_t>(h ^ (h >> 32));
  }
  void grow(const std::vector<Fr>& coeffs) {
    slots_.assign(std::max<std::size_t>(1024, slots_.size() * 2), kEmpty);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t id = 0; id < coeffs.size(); ++id) {
      std::size_t i = hash(coeffs[id]) & mask;
      while (slots_[i] != kEmpty) i = (i + 1) & mask;
      slots_[i] = id;
    }
  }
  std::vector<std::uint32_t> slots_;
};

// Absolute ref → extern number, cleared in O(1) by a generation counter (one lookup per extern
// reference of every closed scope).
class ExternMap {
 public:
  void clear() {
    if (++gen_ == 0) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      gen_ = 1;
    }
    size_ = 0;
  }
  // The number of |key|, or |fresh| (inserted) when new.
  std::uint32_t find_or_insert(std::uint32_t key, std::uint32_t fresh) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.gen != gen_) {
        s = {key, fresh, gen_};
        ++size_;
        return fresh;
      }
      if (s.key == key) return s.value;
    }
  }

 private:
  struct Slot {
    std::uint32_t key = 0, value = 0, gen = 0;
  };
  static std::size_t hash(std::uint32_t k) { return (k * 0x9e3779b1u) >> 7 ^ k; }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(std::max<std::size_t>(64, old.size() * 2), Slot{});
    const std::uint32_t g = gen_;
    size_ = 0;
    for (const Slot& s : old)
      if (s.gen == g) find_or_insert(s.key, s.value);
  }
  std::vector<Slot> slots_;
  std::uint32_t gen_ = 1;
  std::size_t size_ = 0;
};

std::size_t row_words(const std::uint32_t* p) { return 4 + 2 * std::size_t{p[1] + p[2] + p[3]}; }

}  // namespace

struct CompactRecorder::Impl {
  CompactOptions opt;
  CompactRecordStats stats;
  std::vector<std::uint32_t> buf;
  std::vector<Scope> scopes;
  std::vector<Template> templates;
  std::unordered_map<std::uint64_t, std::uint32_t> by_checksum;  // first template per checksum
  std::vector<Fr> coeffs;
  CoeffIndex coeff_index;
  std::uint64_t num_inputs = 1, num_aux = 0, num_constraints = 0;
  std::uint64_t nnz[3] = {0, 0, 0};
  DensityBitmap a_aux, b_aux, b_input;
  ExternMap externs;
  std::vector<std::uint32_t> canon, ext_abs, root_ext;
  std::uint32_t root = UINT32_MAX;
  bool finished = false, taken = false;
  Status error;

  std::uint32_t coeff_id(const Fr& c) {
    if (fr_is_one(c)) return 0;
    if (fr_is_minus_one(c)) return 1;
    return coeff_index.find_or_insert(c, coeffs);
  }

  // |l| normalized: itself when it already is (most gadgets' LCs, lc.hpp), else a normalized
  // copy in scratch[k] (its heap storage reused from row to row).
  LC scratch[3];
  const LC& normalized(const LC& l, int k) {
    if (l.is_normalized()) return l;
    scratch[k] = l;
    scratch[k].normalize();
    return scratch[k];
  }

  void add_row(const LC& a0, const LC& b0, const LC& c0) {
    const LC* lcs[3] = {&normalized(a0, 0), &normalized(b0, 1), &normalized(c0, 2)};
    for (int t = 0; t < 3; ++t) nnz[t] += lcs[t]->size();
    for (const Term& t : lcs[0]->terms())
      if (t.var.is_aux()) a_aux.set(t.var.index);
    for (const Term& t : lcs[1]->terms()) {
      if (t.var.is_aux()) {
        b_aux.set(t.var.index);
      } else {
        b_input.set(t.var.index);
      }
    }
    buf.push_back(kTagRow);
    for (const LC* l : lcs) buf.push_back(static_cast<std::uint32_t>(l->size()));
    for (const LC* l : lcs) {
      for (const Term& t : l->terms()) {
        buf.push_back(t.var.is_aux() ? t.var.index : (kInputFlag | t.var.index));
        buf.push_back(coeff_id(t.coeff));
      }
    }
    ++scopes.back().rows;
    ++num_constraints;
    stats.peak_buffer_words = std::max<std::uint64_t>(stats.peak_buffer_words, buf.size());
  }

  // Absolute ref → the closing scope's ref (see the file comment).
  std::uint32_t rel(std::uint32_t r, std::uint32_t first_aux) {
    if (r == kInputFlag) return kOneRef;
    if ((r & kInputFlag) == 0 && r >= first_aux) return r - first_aux;
    const auto fresh = static_cast<std::uint32_t>(ext_abs.size());
    const std::uint32_t k = externs.find_or_insert(r, fresh);
    if (k == fresh) ext_abs.push_back(r);
    return kExternFlag | k;
  }

  // Rewrites buf[s.start, end) relative to |s| into a template (found or new); returns its id and
  // leaves the externs' absolute refs in ext_abs.
  std::uint32_t collapse(const Scope& s) {
    canon.clear();
    ext_abs.clear();
    externs.clear();
    const std::uint32_t* p = buf.data() + s.start;
    const std::uint32_t* end = buf.data() + buf.size();
    while (p < end) {
      if (p[0] == kTagRow) {
        const std::size_t n = row_words(p);
        canon.insert(canon.end(), p, p + 4);
        for (std::size_t i = 4; i < n; i += 2) {
          canon.push_back(rel(p[i], s.aux));
          canon.push_back(p[i + 1]);
        }
        p += n;
      } else {
        const Template& child = templates[p[1]];
        canon.push_back(kTagUse);
        canon.push_back(p[1]);
        canon.push_back(p[2] - s.aux);
        for (std::uint32_t k = 0; k < child.ext; ++k) canon.push_back(rel(p[3 + k], s.aux));
        p += 3 + child.ext;
      }
    }
    const auto aux = static_cast<std::uint32_t>(num_aux - s.aux);
    const auto ext = static_cast<std::uint32_t>(ext_abs.size());
    const std::uint64_t sum = checksum64(canon.data(), canon.size() * 4, aux * 0x9e3779b9ULL + ext);
    ++stats.template_uses;
    auto [it, fresh] = by_checksum.try_emplace(sum, static_cast<std::uint32_t>(templates.size()));
    std::uint32_t* link = nullptr;
    if (!fresh) {
      for (std::uint32_t t = it->second; t != UINT32_MAX; t = templates[t].next) {
        const Template& c = templates[t];
        if (c.aux == aux && c.ext == ext && c.tokens == canon) return t;
        link = &templates[t].next;
      }
    }
    const auto id = static_cast<std::uint32_t>(templates.size());
    if (link != nullptr) *link = id;
    Template t;
    t.tokens = canon;
    t.aux = aux;
    t.ext = ext;
    t.rows = s.rows;
    templates.push_back(std::move(t));
    ++stats.templates;
    return id;
  }

  void close_scope() {
    const Scope s = scopes.back();
    scopes.pop_back();
    scopes.back().rows += s.rows;
    if (s.rows < opt.min_template_rows) return;
    const std::uint32_t id = collapse(s);
    buf.resize(s.start);
    buf.push_back(kTagUse);
    buf.push_back(id);
    buf.push_back(s.aux);
    buf.insert(buf.end(), ext_abs.begin(), ext_abs.end());
  }
};

// ---------------------------------------------------------------------------------------------
// Step 2: blocks and segments.

namespace {

// A template ref seen from the target space through a chain of uses: at each level a local j
// becomes the parent's local (use offset + j), an extern k the use's k-th ref.
struct UseMap {
  std::uint32_t local_offset = 0;
  const std::uint32_t* refs = nullptr;
  const UseMap* parent = nullptr;
};

std::uint32_t resolve(std::uint32_t r, const UseMap* m) {
  for (; m != nullptr && r != kOneRef; m = m->parent)
    r = (r & kExternFlag) ? m->refs[r & ~kExternFlag] : m->local_offset + r;
  return r;
}

class Flattener {
 public:
  Flattener(const CompactRecorder::Impl& r, CompactR1cs& out, CompactRecordStats& stats)
      : r_(r), out_(out), stats_(stats), block_of_(r.templates.size(), UINT32_MAX) {}

  void place_root() {
    std::vector<std::uint32_t> cols(r_.root_ext.size());
    for (std::size_t k = 0; k < cols.size(); ++k) cols[k] = column_of_abs(r_.root_ext[k]);
    place(r_.root, static_cast<std::uint32_t>(r_.num_inputs), cols);
  }

 private:
  struct Run {
    std::uint32_t block = 0;
    std::vector<std::uint32_t> refs;  // the walked template's refs, one per slot
  };

  std::uint32_t column_of_abs(std::uint32_t a) const {
    return (a & kInputFlag) ? (a & ~kInputFlag) : static_cast<std::uint32_t>(r_.num_inputs + a);
  }
  bool is_block(std::uint32_t t) const { return r_.templates[t].rows <= r_.opt.max_block_rows; }

  // Calls row(tokens, map) for every row of template |t| in order, its uses expanded; a row's
  // refs are |t|'s refs seen through |map| (null: |t|'s own).
  template <class F>
  void expand(std::uint32_t t, const UseMap* map, F& row) const {
    const std::vector<std::uint32_t>& tok = r_.templates[t].tokens;
    for (std::size_t p = 0; p < tok.size();) {
      if (tok[p] == kTagRow) {
        row(tok.data() + p, map);
        p += row_words(tok.data() + p);
      } else {
        const UseMap inner{tok[p + 2], tok.data() + p + 3, map};
        expand(tok[p + 1], &inner, row);
        p += 3 + r_.templates[tok[p + 1]].ext;
      }
    }
  }

  // A block from rows given by |emit|, columns from |column| (target ref → block column).
  template <class Emit, class Column>
  std::uint32_t build_block(std::uint32_t locals, Emit&& emit, Column&& column,
                            std::uint32_t* slots_out) {
    CompactBlock b;
    b.m.num_inputs = 1;
    std::vector<Term> terms;
    auto row = [&](const std::uint32_t* p, const UseMap* map) {
      const std::uint32_t* term = p + 4;
      SparseMatrix* mats[3] = {&b.m.a, &b.m.b, &b.m.c};
      for (int t = 0; t < 3; ++t) {
        terms.clear();
        for (std::uint32_t i = 0; i < p[1 + t]; ++i, term += 2) {
          const std::uint32_t col = column(resolve(term[0], map));
          terms.push_back({Variable::input(col), r_.coeffs[term[1]]});
        }
        mats[t]->append_row(terms, [](Variable v) { return v.index; });
      }
      ++b.m.num_constraints;
    };
    emit(row);
    b.locals = locals;
    b.slots = *slots_out;
    b.m.num_aux = std::uint64_t{b.locals} + b.slots;
    b.m.compute_density();
    out_.blocks.push_back(std::move(b));
    return static_cast<std::uint32_t>(out_.blocks.size() - 1);
  }

  std::uint32_t block_of(std::uint32_t t) {
    if (block_of_[t] != UINT32_MAX) return block_of_[t];
    const Template& tp = r_.templates[t];
    const std::uint32_t ext_base = 1 + tp.aux;
    std::uint32_t slots = tp.ext;
    block_of_[t] = build_block(
        tp.aux, [&](auto& row) { expand(t, nullptr, row); },
        [&](std::uint32_t ref) -> std::uint32_t {
          if (ref == kOneRef) return 0;
          return (ref & kExternFlag) ? ext_base + (ref & ~kExternFlag) : 1 + ref;
        },
        &slots);
    return block_of_[t];
  }

  void segment(std::uint32_t block, std::uint32_t aux_column, const std::uint32_t* cols,
               std::size_t n) {
    out_.segments.push_back({block, aux_column});
    out_.slots.insert(out_.slots.end(), cols, cols + n);
  }

  // Template |t| placed with its local 0 at witness column |base| and its externs at |ext|.
  void place(std::uint32_t t, std::uint32_t base, const std::vector<std::uint32_t>& ext) {
    auto column = [&](std::uint32_t ref) -> std::uint32_t {
      if (ref == kOneRef) return 0;
      return (ref & kExternFlag) ? ext[ref & ~kExternFlag] : base + ref;
    };
    if (is_block(t)) {
      segment(block_of(t), base, ext.data(), ext.size());
      return;
    }
    const std::vector<std::uint32_t>& tok = r_.templates[t].tokens;
    std::size_t run_start = SIZE_MAX;
    std::uint64_t run_rows = 0;
    std::vector<std::uint32_t> cols;
    auto flush = [&](std::size_t run_end) {
      if (run_start == SIZE_MAX) return;
      const Run& run = run_of(t, run_start, run_end);
      cols.resize(run.refs.size());
      for (std::size_t i = 0; i < cols.size(); ++i) cols[i] = column(run.refs[i]);
      segment(run.block, 0, cols.data(), cols.size());
      stats_.run_rows += run_rows;
      run_start = SIZE_MAX;
      run_rows = 0;
    };
    for (std::size_t p = 0; p < tok.size();) {
      std::uint64_t rows = 1;
      std::size_t next = 0;
      bool alone = false;
      if (tok[p] == kTagRow) {
        next = p + row_words(tok.data() + p);
      } else {
        const std::uint32_t child = tok[p + 1];
        rows = r_.templates[child].rows;
        next = p + 3 + r_.templates[child].ext;
        alone = !is_block(child) || rows >= r_.opt.min_segment_rows;
      }
      if (alone) {
        flush(p);
        const std::uint32_t child = tok[p + 1];
        std::vector<std::uint32_t> child_ext(r_.templates[child].ext);
        for (std::size_t k = 0; k < child_ext.size(); ++k) child_ext[k] = column(tok[p + 3 + k]);
        place(child, base + tok[p + 2], child_ext);
      } else {
        if (run_start != SIZE_MAX && run_rows + rows > r_.opt.max_block_rows) flush(p);
        if (run_start == SIZE_MAX) run_start = p;
        run_rows += rows;
      }
      p = next;
    }
    flush(tok.size());
  }

  // The run block of template |t|'s tokens [begin, end): columns [ONE | the refs it reads].
  const Run& run_of(std::uint32_t t, std::size_t begin, std::size_t end) {
    const std::uint64_t key = (std::uint64_t{t} << 32) | begin;
    auto [it, fresh] = runs_.try_emplace(key);
    if (!fresh) return it->second;
    Run& run = it->second;
    std::unordered_map<std::uint32_t, std::uint32_t> slot_of;
    std::uint32_t slots = 0;
    const std::vector<std::uint32_t>& tok = r_.templates[t].tokens;
    auto emit = [&](auto& row) {
      for (std::size_t p = begin; p < end;) {
        if (tok[p] == kTagRow) {
          row(tok.data() + p, nullptr);
          p += row_words(tok.data() + p);
        } else {
          const UseMap inner{tok[p + 2], tok.data() + p + 3, nullptr};
          expand(tok[p + 1], &inner, row);
          p += 3 + r_.templates[tok[p + 1]].ext;
        }
      }
    };
    auto column = [&](std::uint32_t ref) -> std::uint32_t {
      if (ref == kOneRef) return 0;
      auto [s, added] = slot_of.try_emplace(ref, slots);
      if (added) {
        run.refs.push_back(ref);
        ++slots;
      }
      return 1 + s->second;
    };
    run.block = build_block(0, emit, column, &slots);
    ++stats_.run_blocks;
    return run;
  }

  const CompactRecorder::Impl& r_;
  CompactR1cs& out_;
  CompactRecordStats& stats_;
  std::vector<std::uint32_t> block_of_;
  std::unordered_map<std::uint64_t, Run> runs_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------

CompactRecorder::CompactRecorder(const CompactOptions& opt) : impl_(std::make_unique<Impl>()) {
  impl_->opt = opt;
  impl_->opt.min_template_rows = std::max<std::uint64_t>(1, opt.min_template_rows);
  impl_->opt.max_block_rows = std::max<std::uint64_t>(1, opt.max_block_rows);
  impl_->scopes.push_back({});
  impl_->coeffs = {Fr::one(), kFrMinusOne};
  impl_->b_input.resize(1);
}

CompactRecorder::~CompactRecorder() = default;

Result<Variable> CompactRecorder::alloc_aux_fn(NameFn, ValueFn) {
  Impl& r = *impl_;
  if (r.num_aux >= kMaxAux) return Status(Errc::out_of_range, "more than 2^29 aux variables");
  const auto j = static_cast<std::uint32_t>(r.num_aux++);
  r.a_aux.resize(r.num_aux);
  r.b_aux.resize(r.num_aux);
  return Variable::aux(j);
}

Result<Variable> CompactRecorder::alloc_input_fn(NameFn, ValueFn) {
  Impl& r = *impl_;
  if (r.num_inputs >= kMaxAux) return Status(Errc::out_of_range, "more than 2^29 inputs");
  const auto i = static_cast<std::uint32_t>(r.num_inputs++);
  r.b_input.resize(r.num_inputs);
  return Variable::input(i);
}

void CompactRecorder::enforce_lc(NameFn, const LC& a, const LC& b, const LC& c) {
  impl_->add_row(a, b, c);
}

void CompactRecorder::push_scope(NameFn) {
  Impl& r = *impl_;
  r.scopes.push_back({r.buf.size(), static_cast<std::uint32_t>(r.num_aux), 0});
}

void CompactRecorder::pop_scope() {
  Impl& r = *impl_;
  if (r.scopes.size() <= 1) {
    if (r.error.ok()) r.error = Status(Errc::invalid_argument, "pop_scope without a push_scope");
    return;
  }
  r.close_scope();
}

Status CompactRecorder::finish() {
  Impl& r = *impl_;
  if (r.finished) return r.error;
  r.finished = true;
  CUZK_RETURN_IF_ERROR(r.error);
  if (r.scopes.size() != 1)
    return r.error = Status(Errc::invalid_argument,
                            std::to_string(r.scopes.size() - 1) + " scopes still open at finish");
  if (r.num_inputs + r.num_aux > SparseMatrix::kMaxColumns)
    return r.error = Status(Errc::out_of_range, "R1CS has more than 2^30 variables");
  // bellperson: for i in 0..num_inputs { enforce(input_i · 0 = 0) } after synthesis.
  for (std::uint64_t i = 0; i < r.num_inputs; ++i)
    r.add_row(LC(Variable::input(static_cast<std::uint32_t>(i))), LC(), LC());
  const Scope whole = r.scopes.back();
  r.root = r.collapse(whole);
  r.root_ext = r.ext_abs;
  r.buf.clear();
  r.buf.shrink_to_fit();
  return {};
}

std::size_t CompactRecorder::num_inputs() const { return impl_->num_inputs; }
std::size_t CompactRecorder::num_aux() const { return impl_->num_aux; }
std::size_t CompactRecorder::num_constraints() const { return impl_->num_constraints; }
const CompactRecordStats& CompactRecorder::stats() const { return impl_->stats; }

Result<CompactR1cs> CompactRecorder::take() {
  Impl& r = *impl_;
  if (!r.finished) return Status(Errc::invalid_argument, "CompactRecorder::take before finish");
  CUZK_RETURN_IF_ERROR(r.error);
  if (r.taken) return Status(Errc::invalid_argument, "CompactRecorder::take called twice");
  r.taken = true;
  CompactR1cs out;
  out.num_inputs = r.num_inputs;
  out.num_aux = r.num_aux;
  out.num_constraints = r.num_constraints;
  out.nnz_a = r.nnz[0];
  out.nnz_b = r.nnz[1];
  out.nnz_c = r.nnz[2];
  for (const Template& t : r.templates) {
    for (std::size_t p = 0; p < t.tokens.size();) {
      if (t.tokens[p] == kTagRow) {
        ++r.stats.template_rows;
        p += row_words(t.tokens.data() + p);
      } else {
        p += 3 + r.templates[t.tokens[p + 1]].ext;
      }
    }
  }
  Flattener f(r, out, r.stats);
  f.place_root();
  out.a_aux_density = std::move(r.a_aux);
  out.b_aux_density = std::move(r.b_aux);
  out.b_input_density = std::move(r.b_input);
  CUZK_RETURN_IF_ERROR(out.finalize());
  return out;
}

Result<CompactR1cs> record_compact(Circuit& circuit, const CompactOptions& opt,
                                   CompactRecordStats* stats) {
  CompactRecorder cs(opt);
  CUZK_RETURN_IF_ERROR(synthesize_circuit(circuit, cs));
  auto out = cs.take();
  if (stats != nullptr) *stats = cs.stats();
  return out;
}

}  // namespace cuzk
