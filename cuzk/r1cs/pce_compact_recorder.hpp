// CompactRecorder: a constraint system that records a circuit straight into CompactR1cs
// (pce_compact.hpp), streaming: the plain matrices never exist, so the 32 GiB PoRep partition
// (130 M rows, ≈ 28 GB as CSR) records in a few hundred MB. The rules and their cost are in
// pce_compact_recorder.cpp.
#pragma once

#include <cstdint>
#include <memory>

#include "cuzk/base/status.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk {

struct CompactOptions {
  /// A scope with at least this many rows (nested ones included) becomes a template: its content
  /// is numbered relative to the scope and kept once per distinct content. Smaller scopes stay
  /// rows of their parent.
  std::uint64_t min_template_rows = 32;
  /// A template of at most this many rows is one block (its nested templates expanded into it);
  /// a larger one is walked: its nested templates are placed one by one and its own rows grouped
  /// into run blocks of at most this many rows.
  std::uint64_t max_block_rows = std::uint64_t{1} << 15;
  /// In a walked template, a nested block below this many rows joins the surrounding run instead
  /// of being a segment of its own (a segment costs a gather and a kernel call).
  std::uint64_t min_segment_rows = 256;
};

/// What recording found, for benchmarks and tests.
struct CompactRecordStats {
  std::uint64_t templates = 0;          ///< distinct scope contents kept
  std::uint64_t template_uses = 0;      ///< scopes recorded as a use of a template
  std::uint64_t template_rows = 0;      ///< rows held directly by the templates (their own rows)
  std::uint64_t run_blocks = 0;         ///< blocks made of a walked template's own rows
  std::uint64_t run_rows = 0;           ///< rows of the circuit evaluated in run blocks
  std::uint64_t peak_buffer_words = 0;  ///< largest recording buffer (open scopes' content)
};

class CompactRecorder final : public ConstraintSystem {
 public:
  explicit CompactRecorder(const CompactOptions& opt = {});
  ~CompactRecorder() override;
  CompactRecorder(const CompactRecorder&) = delete;
  CompactRecorder& operator=(const CompactRecorder&) = delete;

  /// Values are never asked for (the form depends on the topology only).
  Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) override;
  Result<Variable> alloc_input_fn(NameFn name, ValueFn value) override;
  void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) override;
  /// Scopes delimit the candidate templates; their names are never asked for.
  void push_scope(NameFn name) override;
  void pop_scope() override;
  Status finish() override;

  std::size_t num_inputs() const override;
  std::size_t num_aux() const override;
  std::size_t num_constraints() const override;

  /// The compact form (finalized); call once after finish().
  Result<CompactR1cs> take();
  const CompactRecordStats& stats() const;

  /// The recording state (pce_compact_recorder.cpp).
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

/// Synthesizes |circuit| (no values) into a CompactRecorder, finish() included.
Result<CompactR1cs> record_compact(Circuit& circuit, const CompactOptions& opt = {},
                                   CompactRecordStats* stats = nullptr);

}  // namespace cuzk
