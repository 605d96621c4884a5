#include "cuzk/r1cs/witness_slice_cs.hpp"

#include <string>

namespace cuzk {

WitnessSliceConstraintSystem::WitnessSliceConstraintSystem(std::span<Fr> aux,
                                                           std::uint32_t first_aux,
                                                           std::span<Fr> inputs,
                                                           std::uint32_t first_input,
                                                           bool fast_paths)
    : aux_(aux), inputs_(inputs), first_aux_(first_aux), first_input_(first_input) {
  skip_constraints_ = true;
  fast_witness_ = fast_paths;
}

Result<Variable> WitnessSliceConstraintSystem::alloc_aux_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) {
    return v.status().with_context("aux variable " + std::to_string(first_aux_ + next_aux_) + " '" +
                                   name() + "'");
  }
  if (next_aux_ >= aux_.size()) {
    overflow_ = true;
    return Status(Errc::out_of_range, "aux variable " + std::to_string(first_aux_ + next_aux_) +
                                          " '" + name() + "' beyond its slice of " +
                                          std::to_string(aux_.size()));
  }
  aux_[next_aux_] = *v;
  return Variable::aux(static_cast<std::uint32_t>(first_aux_ + next_aux_++));
}

Result<Variable> WitnessSliceConstraintSystem::alloc_input_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) {
    return v.status().with_context("input variable " + std::to_string(first_input_ + next_input_) +
                                   " '" + name() + "'");
  }
  if (next_input_ >= inputs_.size()) {
    overflow_ = true;
    return Status(Errc::out_of_range,
                  "input variable " + std::to_string(first_input_ + next_input_) + " '" + name() +
                      "' beyond its slice of " + std::to_string(inputs_.size()));
  }
  inputs_[next_input_] = *v;
  return Variable::input(static_cast<std::uint32_t>(first_input_ + next_input_++));
}

ConstraintSystem::AuxBlock WitnessSliceConstraintSystem::alloc_aux_block(std::size_t n) {
  if (!fast_witness_) return {};
  const auto first = static_cast<std::uint32_t>(first_aux_ + next_aux_);
  Fr* values = nullptr;
  if (next_aux_ + n > aux_.size()) {
    overflow_ = true;  // written to scratch, reported by finish_slice
    scratch_.resize(n);
    values = scratch_.data();
  } else {
    values = aux_.data() + next_aux_;
  }
  next_aux_ += n;
  return {values, first};
}

Status WitnessSliceConstraintSystem::finish_slice() const {
  if (!overflow_ && next_aux_ == aux_.size() && next_input_ == inputs_.size()) return {};
  return Status(Errc::out_of_range,
                "witness slice: " + std::to_string(next_aux_) + " aux and " +
                    std::to_string(next_input_) + " inputs allocated, the slice holds " +
                    std::to_string(aux_.size()) + " and " + std::to_string(inputs_.size()));
}

}  // namespace cuzk
