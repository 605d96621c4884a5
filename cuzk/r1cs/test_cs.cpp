#include "cuzk/r1cs/test_cs.hpp"

namespace cuzk {

TestConstraintSystem::TestConstraintSystem(const TestCsOptions& opt) : opt_(opt) {
  inputs_.push_back(Fr::one());
}

std::string TestConstraintSystem::full_name(const std::string& leaf) const {
  std::string s;
  for (const std::string& p : scopes_) {
    s += p;
    s += '/';
  }
  return s + leaf;
}

Result<Variable> TestConstraintSystem::alloc_aux_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) return v.status().with_context("aux variable '" + full_name(name()) + "'");
  aux_.push_back(*v);
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Result<Variable> TestConstraintSystem::alloc_input_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) return v.status().with_context("input variable '" + full_name(name()) + "'");
  inputs_.push_back(*v);
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

void TestConstraintSystem::record_failure(std::string name, const char* why) {
  first_unsatisfied_ = std::move(name) + why;
}

void TestConstraintSystem::enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) {
  ++num_constraints_;
  if (opt_.keep_names) names_.push_back(full_name(name()));
  if (first_unsatisfied_) return;
  // The path of this constraint, built only when needed.
  auto this_name = [&] { return opt_.keep_names ? names_.back() : full_name(name()); };
  auto in_range = [&](const LC& lc) {
    for (const Term& t : lc.terms()) {
      if (t.var.index >= (t.var.is_input() ? inputs_.size() : aux_.size())) return false;
    }
    return true;
  };
  if (!in_range(a) || !in_range(b) || !in_range(c)) {
    record_failure(this_name(), " (refers to an unallocated variable)");
    return;
  }
  const Fr av = a.evaluate_unchecked(inputs_, aux_);
  const Fr bv = b.evaluate_unchecked(inputs_, aux_);
  const Fr cv = c.evaluate_unchecked(inputs_, aux_);
  if (!(av * bv == cv)) record_failure(this_name(), "");
}

void TestConstraintSystem::push_scope(NameFn name) { scopes_.push_back(name()); }
void TestConstraintSystem::pop_scope() {
  if (!scopes_.empty()) scopes_.pop_back();
}

Status TestConstraintSystem::finish() {
  if (finished_) return {};
  finished_ = true;
  const std::size_t n = inputs_.size();
  num_constraints_ += n;  // input_i · 0 = 0 always holds
  if (opt_.keep_names) {
    for (std::size_t i = 0; i < n; ++i) names_.push_back("input constraint " + std::to_string(i));
  }
  return {};
}

}  // namespace cuzk
