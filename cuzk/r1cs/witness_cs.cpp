#include "cuzk/r1cs/witness_cs.hpp"

#include <algorithm>

#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

WitnessConstraintSystem::WitnessConstraintSystem(const WitnessOptions& opt) : opt_(opt) { init(); }

WitnessConstraintSystem::WitnessConstraintSystem(const WitnessOptions& opt,
                                                 std::vector<Fr>&& storage)
    : opt_(opt), z_(std::move(storage)) {
  z_.clear();
  init();
}

void WitnessConstraintSystem::init() {
  slots_ = std::max<std::size_t>(1, opt_.num_inputs_hint);
  z_.reserve(slots_ + opt_.reserve_aux);
  z_.assign(slots_, Fr::zero());
  z_[0] = Fr::one();
  inputs_.push_back(Fr::one());
  skip_constraints_ = true;
  if (opt_.stream && opt_.stream->accepts(slots_)) {
    stream_ = opt_.stream;
    stream_columns_ = 0;
    stream_inputs_ = 0;
    poll_stream();
    if (opt_.direct_alloc) {
      // Inline appends too; alloc() calls back at the stream's thresholds and before growth.
      direct_values_ = &z_;
      direct_offset_ = slots_;
      set_direct_limit();
    }
  } else {
    if (opt_.direct_alloc) {
      // Nothing to do per allocation but the push: let alloc() do it inline.
      direct_values_ = &z_;
      direct_offset_ = slots_;
    }
    fast_witness_ = opt_.fast_paths;
  }
}

ConstraintSystem::AuxBlock WitnessConstraintSystem::alloc_aux_block(std::size_t n) {
  if (!fast_witness_) return {};
  const std::size_t at = z_.size();
  z_.resize(at + n);  // within the reserved capacity for a circuit of known size: no move
  return {z_.data() + at, static_cast<std::uint32_t>(at - slots_)};
}

void WitnessConstraintSystem::advance_stream() {
  // Only while the layout is (inputs ‖ aux) with every input in its slot.
  if (inputs_.size() > slots_) {
    stream_columns_ = stream_inputs_ = SIZE_MAX;
    return;
  }
  stream_->advance(z_.data(), z_.size(), inputs_.size(), stream_columns_, stream_inputs_);
}

void WitnessConstraintSystem::set_direct_limit() {
  if (direct_values_ == nullptr || stream_ == nullptr) return;
  if (z_.size() == z_.capacity()) {
    stream_->before_grow();  // z_ moves now, with no reader left; never inside alloc()'s push_back
    z_.reserve(std::max<std::size_t>(64, 2 * z_.capacity()));
  }
  // Columns reached but an input still missing: only growth needs a call (alloc_input polls).
  const bool waiting_for_inputs = z_.size() >= stream_columns_ && inputs_.size() < stream_inputs_;
  direct_limit_ = waiting_for_inputs ? z_.capacity() : std::min(stream_columns_, z_.capacity());
}

void WitnessConstraintSystem::direct_limit_reached() {
  poll_stream();
  set_direct_limit();
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
    return v.status().with_context("aux variable " + std::to_string(num_aux()) + " '" +
                                   path(name()) + "'");
  }
  if (stream_ != nullptr && z_.size() == z_.capacity()) stream_->before_grow();  // z_ may move
  z_.push_back(*v);
  if (stream_) {
    poll_stream();
    set_direct_limit();
  }
  return Variable::aux(static_cast<std::uint32_t>(z_.size() - 1 - slots_));
}

Result<Variable> WitnessConstraintSystem::alloc_input_fn(NameFn name, ValueFn value) {
  Result<Fr> v = value();
  if (!v) {
    return v.status().with_context("input variable " + std::to_string(inputs_.size()) + " '" +
                                   path(name()) + "'");
  }
  if (inputs_.size() < slots_) z_[inputs_.size()] = *v;
  inputs_.push_back(*v);
  if (stream_) {
    poll_stream();
    set_direct_limit();
  }
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
  z.reserve(inputs_.size() + num_aux());
  z.insert(z.end(), inputs_.begin(), inputs_.end());
  const std::span<const Fr> a = aux();
  z.insert(z.end(), a.begin(), a.end());
  return z;
}

WitnessConstraintSystem::~WitnessConstraintSystem() {
  if (stream_ != nullptr) stream_->before_grow();  // a concurrent stream reads z_ until stopped
}

std::vector<Fr> WitnessConstraintSystem::take_assignment() {
  // Moving z_ out keeps its buffer where a concurrent stream reads it (the caller passes it to
  // finish()); only a copy, after which z_ is overwritten, needs the stream's readers stopped.
  const bool move = inputs_.size() == slots_;
  if (stream_ != nullptr && !move) stream_->before_grow();
  std::vector<Fr> z = move ? std::move(z_) : assignment();
  z_.assign(slots_, Fr::zero());
  direct_limit_ = SIZE_MAX;  // no stream call after this
  return z;
}

}  // namespace cuzk
