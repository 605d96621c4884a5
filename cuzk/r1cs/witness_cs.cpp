#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk {

WitnessConstraintSystem::WitnessConstraintSystem(const WitnessOptions& opt) : opt_(opt) {
  inputs_.push_back(Fr::one());
  aux_.reserve(opt.reserve_aux);
}

std::string WitnessConstraintSystem::path(const std::string& leaf) const {
  std::string s;
  for (const std::string& p : scopes_) s += p + "/";
  if (!opt_.track_names && depth_ > 0) s = "(" + std::to_string(depth_) + " scopes untracked)/";
  return s + leaf;
}

Result<Variable> WitnessConstraintSystem::alloc_aux_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) {
    return v.status().with_context("aux variable " + std::to_string(aux_.size()) + " '" + path(name()) + "'");
  }
  aux_.push_back(*v);
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Result<Variable> WitnessConstraintSystem::alloc_input_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) {
    return v.status().with_context("input variable " + std::to_string(inputs_.size()) + " '" + path(name()) +
                                   "'");
  }
  inputs_.push_back(*v);
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

void WitnessConstraintSystem::push_scope(NameFn name) {
  ++depth_;
  if (opt_.track_names) scopes_.push_back(name());
}

void WitnessConstraintSystem::pop_scope() {
  if (depth_ > 0) --depth_;
  if (opt_.track_names && !scopes_.empty()) scopes_.pop_back();
}

Status WitnessConstraintSystem::finish() {
  finished_ = true;
  return {};
}

std::vector<Fr> WitnessConstraintSystem::assignment() const {
  std::vector<Fr> z;
  z.reserve(inputs_.size() + aux_.size());
  z.insert(z.end(), inputs_.begin(), inputs_.end());
  z.insert(z.end(), aux_.begin(), aux_.end());
  return z;
}

}  // namespace cuzk
