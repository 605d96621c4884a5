// WitnessConstraintSystem: runs only the value closures and collects the input and aux
// assignments; LC closures are never called and nothing is stored per constraint. Together with
// the recorded matrices and pce_evaluate() this is the PCE proving path (DESIGN.md §2).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk {

class PceStream;

struct WitnessOptions {
  /// Keep the scope path so a missing value's error names the full path (costs one string per
  /// scope); without it the error names the leaf and the variable's index.
  bool track_names = false;
  /// Expected aux count, to reserve memory once.
  std::size_t reserve_aux = 0;
  /// Expected input count (ONE included), e.g. the recorded R1csMatrices::num_inputs: the
  /// assignment is then built in place as (inputs ‖ aux) and take_assignment() copies nothing.
  std::size_t num_inputs_hint = 1;
  /// Fused PCE: blocks of rows are evaluated as soon as their columns are assigned (the values
  /// still in cache). Used only when num_inputs_hint equals the matrices' num_inputs; the caller
  /// calls stream->finish(take_assignment()) after synthesis. The stream must outlive the system.
  PceStream* stream = nullptr;
  /// Infallible value closures (returning Fr) are stored by ConstraintSystem::alloc() inline
  /// instead of through alloc_aux_fn (off: every allocation takes the virtual path; for tests of
  /// the two paths). With a stream, alloc() calls back at the stream's thresholds only.
  bool direct_alloc = true;
  /// Gadgets compute their values natively and write them in blocks (SHA-256 compressions,
  /// Poseidon, bit decompositions and packing: ConstraintSystem::fast_witness()); the same
  /// variables and values as the generic gadget code, which runs when this is off. Not used with
  /// a stream.
  bool fast_paths = true;
};

class WitnessConstraintSystem final : public ConstraintSystem {
 public:
  explicit WitnessConstraintSystem(const WitnessOptions& opt = {});
  /// Same, building the assignment in |storage| (cleared, its capacity kept): pass the vector a
  /// previous take_assignment() returned so that proof after proof reuses memory already mapped
  /// (a fresh multi-MiB buffer costs a page fault per 4 KiB on first touch).
  WitnessConstraintSystem(const WitnessOptions& opt, std::vector<Fr>&& storage);
  /// Stops a concurrent stream's helper (the stream must outlive this system).
  ~WitnessConstraintSystem() override;
  // alloc() may write to z_ through a pointer the base class holds.
  WitnessConstraintSystem(const WitnessConstraintSystem&) = delete;
  WitnessConstraintSystem& operator=(const WitnessConstraintSystem&) = delete;

  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn, const LC&, const LC&, const LC&) override { ++skipped_constraints_; }
  void push_scope(NameFn name) override;
  void pop_scope() override;
  bool wants_constraints() const override { return false; }
  Status finish() override;
  AuxBlock alloc_aux_block(std::size_t n) override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return z_.size() - slots_; }
  std::size_t num_constraints() const override {
    return skipped_constraints_ + (finished_ ? inputs_.size() : 0);
  }

  const std::vector<Fr>& inputs() const { return inputs_; }
  std::span<const Fr> aux() const { return std::span<const Fr>(z_).subspan(slots_); }
  /// The full assignment z = (inputs ‖ aux), the column order of R1csMatrices (a copy).
  std::vector<Fr> assignment() const;
  /// The full assignment, moved out without a copy when num_inputs_hint was exact; the system
  /// holds no values afterwards. With a concurrent stream, the helper may still read the moved
  /// buffer: keep the vector unchanged until the stream's finish() returned.
  std::vector<Fr> take_assignment();

 private:
  std::string path(const std::string& leaf) const;
  void init();
  // Calls the stream when z_ and inputs_ reached the counts it asked for.
  void poll_stream() {
    if (z_.size() >= stream_columns_ && inputs_.size() >= stream_inputs_) advance_stream();
  }
  void advance_stream();
  void set_direct_limit();
  void direct_limit_reached() override;

  WitnessOptions opt_;
  std::vector<std::string> scopes_;
  std::size_t depth_ = 0;
  std::vector<Fr> inputs_;
  std::vector<Fr> z_;  // z_[0, slots_) = the first inputs, then aux
  std::size_t slots_ = 1;
  bool finished_ = false;
  PceStream* stream_ = nullptr;
  std::size_t stream_columns_ = SIZE_MAX, stream_inputs_ = SIZE_MAX;
};

}  // namespace cuzk
