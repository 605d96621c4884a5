#include "cuzk/r1cs/recording_cs.hpp"

#include <string>

namespace cuzk {

RecordingConstraintSystem::RecordingConstraintSystem(const RecordingOptions& opt) : opt_(opt) {
  init();
}

RecordingConstraintSystem::RecordingConstraintSystem(const RecordingOptions& opt,
                                                     Recording&& storage)
    : opt_(opt), rec_(std::move(storage)) {
  R1csMatrices& m = rec_.matrices;
  for (SparseMatrix* s : {&m.a, &m.b, &m.c}) {
    s->row_ptr.assign(1, 0);
    s->col.clear();
    s->gen_idx.clear();
    s->coeffs.clear();
    s->block_gen.clear();
    s->rebuild_index();
  }
  for (DensityBitmap* d : {&m.a_aux_density, &m.b_aux_density, &m.b_input_density}) {
    d->words.clear();
    d->bits = 0;
  }
  m.num_inputs = m.num_aux = m.num_constraints = 0;
  for (std::vector<Fr>* v : {&rec_.inputs, &rec_.aux, &rec_.a, &rec_.b, &rec_.c}) v->clear();
  rec_.nnz_a = rec_.nnz_b = rec_.nnz_c = 0;
  init();
}

void RecordingConstraintSystem::init() {
  if (opt_.with_values) rec_.inputs.push_back(Fr::one());
  if (opt_.evaluate_abc && !opt_.with_values) opt_.evaluate_abc = false;
  rec_.matrices.b_input_density.resize(1);
  const std::size_t n = opt_.reserve_constraints;
  if (n > 0) {
    if (opt_.record_matrices) {
      for (SparseMatrix* m : {&rec_.matrices.a, &rec_.matrices.b, &rec_.matrices.c}) {
        m->row_ptr.reserve(n + 1);
      }
      rec_.matrices.a.col.reserve(n * 5 / 2);
      rec_.matrices.b.col.reserve(n);
      rec_.matrices.c.col.reserve(n * 5 / 2);
    }
    if (opt_.with_values) rec_.aux.reserve(n);
    if (opt_.evaluate_abc) {
      rec_.a.reserve(n);
      rec_.b.reserve(n);
      rec_.c.reserve(n);
    }
  }
}

Result<Variable> RecordingConstraintSystem::alloc_aux_fn(NameFn name, ValueFn value) {
  if (num_aux_ >= kAuxFlag) return Status(Errc::out_of_range, "more than 2^29 aux variables");
  if (opt_.with_values) {
    Result<Fr> v = value();
    if (!v)
      return v.status().with_context("aux variable " + std::to_string(num_aux_) + " '" + name() +
                                     "'");
    rec_.aux.push_back(*v);
  }
  const auto j = static_cast<std::uint32_t>(num_aux_++);
  rec_.matrices.a_aux_density.resize(num_aux_);
  rec_.matrices.b_aux_density.resize(num_aux_);
  return Variable::aux(j);
}

Result<Variable> RecordingConstraintSystem::alloc_input_fn(NameFn name, ValueFn value) {
  if (num_inputs_ >= kAuxFlag) return Status(Errc::out_of_range, "more than 2^29 inputs");
  if (opt_.with_values) {
    Result<Fr> v = value();
    if (!v) {
      return v.status().with_context("input variable " + std::to_string(num_inputs_) + " '" +
                                     name() + "'");
    }
    rec_.inputs.push_back(*v);
  }
  const auto i = static_cast<std::uint32_t>(num_inputs_++);
  rec_.matrices.b_input_density.resize(num_inputs_);
  return Variable::input(i);
}

void RecordingConstraintSystem::add_row(const LC& a0, const LC& b0, const LC& c0) {
  LC a = a0, b = b0, c = c0;
  a.normalize();
  b.normalize();
  c.normalize();
  R1csMatrices& m = rec_.matrices;
  rec_.nnz_a += a.terms().size();
  rec_.nnz_b += b.terms().size();
  rec_.nnz_c += c.terms().size();
  for (const Term& t : a.terms())
    if (t.var.is_aux()) m.a_aux_density.set(t.var.index);
  for (const Term& t : b.terms()) {
    if (t.var.is_aux()) {
      m.b_aux_density.set(t.var.index);
    } else {
      m.b_input_density.set(t.var.index);
    }
  }
  if (opt_.record_matrices) {
    auto column = [](Variable v) { return v.is_aux() ? (v.index | kAuxFlag) : v.index; };
    m.a.append_row(a.terms(), column);
    m.b.append_row(b.terms(), column);
    m.c.append_row(c.terms(), column);
  }
  if (opt_.evaluate_abc) {
    rec_.a.push_back(a.evaluate_unchecked(rec_.inputs, rec_.aux));
    rec_.b.push_back(b.evaluate_unchecked(rec_.inputs, rec_.aux));
    rec_.c.push_back(c.evaluate_unchecked(rec_.inputs, rec_.aux));
  }
  ++num_constraints_;
}

void RecordingConstraintSystem::enforce_lc(NameFn, const LC& a, const LC& b, const LC& c) {
  add_row(a, b, c);
}

Status RecordingConstraintSystem::finish() {
  if (finished_) return {};
  finished_ = true;
  if (num_inputs_ + num_aux_ > SparseMatrix::kMaxColumns)
    return Status(Errc::out_of_range, "R1CS has more than 2^30 variables");
  // bellperson: for i in 0..num_inputs { enforce(input_i · 0 = 0) } after synthesis.
  for (std::uint64_t i = 0; i < num_inputs_; ++i)
    add_row(LC(Variable::input(static_cast<std::uint32_t>(i))), LC(), LC());
  R1csMatrices& m = rec_.matrices;
  m.num_inputs = num_inputs_;
  m.num_aux = num_aux_;
  m.num_constraints = num_constraints_;
  if (opt_.record_matrices) {
    const auto ni = static_cast<std::uint32_t>(num_inputs_);
    for (SparseMatrix* s : {&m.a, &m.b, &m.c}) {
      for (std::uint32_t& w : s->col) {
        if (w & kAuxFlag) {
          const std::uint32_t kind = w & ~SparseMatrix::kColumnMask;
          w = kind | ((w & (kAuxFlag - 1)) + ni);
        }
      }
    }
  }
  return {};
}

}  // namespace cuzk
