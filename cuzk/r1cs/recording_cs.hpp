// RecordingConstraintSystem: extracts A, B, C as CSR matrices once per circuit topology, with
// bellperson's density bitmaps (a variable is dense in A or B when it appears there with a
// non-zero merged coefficient). With values it also records the full witness; with evaluate_abc
// it computes a[k] = ⟨A_k,z⟩, b[k], c[k] at every enforce, which is bellperson's classic
// ProvingAssignment path.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk {

struct RecordingOptions {
  bool with_values = false;     ///< call the value closures and keep the witness
  bool record_matrices = true;  ///< keep A, B, C (off for the classic proving path: the
                                ///< Recording then holds counts and density bitmaps only)
  bool evaluate_abc = false;    ///< needs with_values: a, b, c per constraint
  std::size_t reserve_constraints = 0;
};

/// The result of recording: matrices (if recorded), the witness and a, b, c (if computed).
struct Recording {
  R1csMatrices matrices;
  std::vector<Fr> inputs, aux;
  std::vector<Fr> a, b, c;
  /// Non-zero terms of A, B, C after merging (input constraints included), counted whether or
  /// not the matrices are kept: with record_matrices off this is a counting system (bellperson's
  /// BenchCS plus nnz and densities) for circuits too large to record.
  std::uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
};

class RecordingConstraintSystem final : public ConstraintSystem {
 public:
  explicit RecordingConstraintSystem(const RecordingOptions& opt = {});
  /// Same, reusing the vectors of a previous take() (cleared, their capacity kept), so that proof
  /// after proof writes to memory already mapped instead of faulting in fresh pages.
  RecordingConstraintSystem(const RecordingOptions& opt, Recording&& storage);

  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override;
  void push_scope(NameFn) override {}
  void pop_scope() override {}
  Status finish() override;

  std::size_t num_inputs() const override { return num_inputs_; }
  std::size_t num_aux() const override { return num_aux_; }
  std::size_t num_constraints() const override { return num_constraints_; }

  /// Moves the recording out; call after finish().
  Recording take() { return std::move(rec_); }
  const Recording& recording() const { return rec_; }

 private:
  // Aux columns carry this flag until finish() knows num_inputs.
  static constexpr std::uint32_t kAuxFlag = 1u << 29;
  void add_row(const LC& a, const LC& b, const LC& c);
  void init();

  RecordingOptions opt_;
  Recording rec_;
  std::uint64_t num_inputs_ = 1, num_aux_ = 0, num_constraints_ = 0;
  bool finished_ = false;
};

}  // namespace cuzk
