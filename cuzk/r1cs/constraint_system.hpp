// ConstraintSystem: the bellman-shaped interface every circuit is written against (DESIGN.md §1).
//   alloc(name, value) / alloc_input(name, value) → Variable
//   enforce(name, a, b, c)                          ⟨a,z⟩ · ⟨b,z⟩ = ⟨c,z⟩
//   push_scope / pop_scope (or the RAII Namespace)  names "outer/inner/leaf"
// Names and values are callables: a system calls them only when it needs them (setup never asks
// for values, the witness system never asks for names or LCs). Values may return Result<Fr>,
// std::optional<Fr> or Fr; a missing value while values are needed is Errc::invalid_argument
// naming the variable. ONE = Input(0) is allocated by every system's constructor; finish() appends
// bellperson's input constraints input_i · 0 = 0 for every input, after the circuit's own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/function_ref.hpp"
#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/variable.hpp"

namespace cuzk {

/// The abstract constraint system. The virtual methods take type-erased closures; the templates
/// below accept names as strings or callables and LCs as values or bellman-style closures.
class ConstraintSystem {
 public:
  using NameFn = FunctionRef<std::string()>;
  using ValueFn = FunctionRef<Result<Fr>()>;

  virtual ~ConstraintSystem() = default;

  /// Allocates the next aux variable; |value| is called only when the system needs values.
  virtual Result<Variable> alloc_aux_fn(NameFn name, ValueFn value) = 0;
  /// Allocates the next input variable (Input(0) = ONE already exists).
  virtual Result<Variable> alloc_input_fn(NameFn name, ValueFn value) = 0;
  /// Adds the constraint ⟨a,z⟩·⟨b,z⟩ = ⟨c,z⟩.
  virtual void enforce_lc(NameFn name, const LC& a, const LC& b, const LC& c) = 0;
  /// Opens a named scope; |name| is called only by systems that track names.
  virtual void push_scope(NameFn name) = 0;
  virtual void pop_scope() = 0;
  /// False for systems that ignore constraints (witness generation): enforce closures are skipped.
  virtual bool wants_constraints() const { return true; }
  /// Appends input_i · 0 = 0 for every input i (bellperson order); later calls do nothing.
  virtual Status finish() = 0;

  /// |n| new aux variables, numbered first, first + 1, …, whose values the caller writes to
  /// values[0..n) before its next call to this system (the pointer is valid until then).
  struct AuxBlock {
    Fr* values = nullptr;
    std::uint32_t first = 0;
  };
  /// Block allocation for witness fast paths: only systems with fast_witness() provide it; the
  /// others return an empty block. A fast path allocates exactly the variables, in the order and
  /// with the values, of its slow twin (the generic gadget code), and counts the constraints that
  /// twin would have skipped with count_skipped_constraints().
  virtual AuxBlock alloc_aux_block(std::size_t n) {
    (void)n;
    return {};
  }
  /// True for a witness-only system that lets gadgets compute their values natively and write
  /// them in blocks (alloc_aux_block); false for every system that records constraints or names,
  /// or that has the fast paths turned off (WitnessOptions::fast_paths).
  bool fast_witness() const { return fast_witness_; }
  /// Adds |n| to the constraint count of a system that ignores constraints (fast paths only).
  void count_skipped_constraints(std::size_t n) { skipped_constraints_ += n; }

  virtual std::size_t num_inputs() const = 0;
  virtual std::size_t num_aux() const = 0;
  /// Constraints so far, input constraints included once finish() has run.
  virtual std::size_t num_constraints() const = 0;

  template <class N, class V>
  Result<Variable> alloc(N&& name, V&& value) {
    using R = std::decay_t<std::invoke_result_t<V&>>;
    if constexpr (!std::is_same_v<R, Result<Fr>> && !std::is_same_v<R, std::optional<Fr>>) {
      // A value that cannot be missing, for a system that only collects values: stored here,
      // inlined into the circuit's code (no virtual call, closure thunk or Result<Fr>).
      if (direct_values_ != nullptr) {
        direct_values_->push_back(Fr(value()));
        const std::size_t size = direct_values_->size();
        if (size >= direct_limit_) direct_limit_reached();
        return Variable::aux(static_cast<std::uint32_t>(size - 1 - direct_offset_));
      }
    }
    auto nf = name_fn(name);
    auto vf = value_fn(value);
    return alloc_aux_fn(nf, vf);
  }
  template <class N, class V>
  Result<Variable> alloc_input(N&& name, V&& value) {
    auto nf = name_fn(name);
    auto vf = value_fn(value);
    return alloc_input_fn(nf, vf);
  }
  /// |a|, |b|, |c| are LCs, Variables, callables LC(LC) (bellman's `|lc| lc + x`) or LC().
  template <class N, class A, class B, class C>
  void enforce(N&& name, A&& a, B&& b, C&& c) {
    if (skip_constraints_ || !wants_constraints()) {
      ++skipped_constraints_;
      return;
    }
    auto nf = name_fn(name);
    decltype(auto) la = lc_ref(a);  // in bellman's order: a, then b, then c
    decltype(auto) lb = lc_ref(b);
    decltype(auto) lc = lc_ref(c);
    enforce_lc(nf, la, lb, lc);
  }
  template <class N>
  void push_scope_named(N&& name) {
    auto nf = name_fn(name);
    push_scope(nf);
  }

  /// Wraps a string-like or a callable returning one into a callable returning std::string.
  template <class N>
  static auto name_fn(N& name) {
    if constexpr (std::is_invocable_v<N&>) {
      return [&name]() -> std::string { return std::string(name()); };
    } else {
      return [&name]() -> std::string { return std::string(name); };
    }
  }
  /// Wraps a callable returning Result<Fr>, std::optional<Fr> or Fr into one returning Result<Fr>.
  template <class V>
  static auto value_fn(V& value) {
    return [&value]() -> Result<Fr> {
      using R = std::decay_t<std::invoke_result_t<V&>>;
      if constexpr (std::is_same_v<R, Result<Fr>>) {
        return value();
      } else if constexpr (std::is_same_v<R, std::optional<Fr>>) {
        std::optional<Fr> v = value();
        if (!v) return Status(Errc::invalid_argument, "value missing");
        return *v;
      } else {
        static_assert(std::is_convertible_v<R, Fr>,
                      "a value closure returns Result<Fr>, optional<Fr> or Fr");
        return Fr(value());
      }
    };
  }

 protected:
  std::size_t skipped_constraints_ = 0;  // enforce() calls a witness system skipped
  // Set by a system that only collects values (the witness system), and only while the values it
  // keeps are exactly its aux values appended in order: alloc() of a value closure returning Fr
  // (or a type convertible to it) then appends to *direct_values_ itself; aux variable j is
  // (*direct_values_)[direct_offset_ + j]. alloc_aux_fn is still what fallible closures go through.
  std::vector<Fr>* direct_values_ = nullptr;
  std::size_t direct_offset_ = 0;
  // alloc() calls direct_limit_reached() after appending when direct_values_ holds this many
  // values (a fused PCE stream's next threshold, or its capacity: the buffer must not move
  // inside push_back while a stream's helper may read it, so the system grows it in the call).
  std::size_t direct_limit_ = SIZE_MAX;
  virtual void direct_limit_reached() {}
  // Set by a system for which wants_constraints() is false: enforce() returns without a virtual call.
  bool skip_constraints_ = false;
  // Set by a system that implements alloc_aux_block (see fast_witness()).
  bool fast_witness_ = false;

 private:
  // An LC argument as it is (no copy: a long LC lives on the heap), anything else converted.
  template <class X>
  static decltype(auto) lc_ref(X& x) {
    if constexpr (std::is_same_v<std::remove_cvref_t<X>, LC>) {
      return static_cast<const LC&>(x);
    } else {
      return to_lc(x);
    }
  }
  template <class X>
  static LC to_lc(X& x) {
    if constexpr (std::is_convertible_v<X&, LC>) {
      return LC(x);
    } else if constexpr (std::is_invocable_r_v<LC, X&, LC>) {
      return x(LC());
    } else {
      static_assert(std::is_invocable_r_v<LC, X&>,
                    "an LC argument is an LC, a Variable or a closure");
      return x();
    }
  }
};

/// Opens a scope for its lifetime (bellman's `cs.namespace(|| "name")`).
class Namespace {
 public:
  template <class N>
  Namespace(ConstraintSystem& cs, N&& name) : cs_(cs) {
    cs_.push_scope_named(name);
  }
  ~Namespace() { cs_.pop_scope(); }
  Namespace(const Namespace&) = delete;
  Namespace& operator=(const Namespace&) = delete;

 private:
  ConstraintSystem& cs_;
};

/// A circuit: one definition serves setup, testing and proving.
class Circuit {
 public:
  virtual ~Circuit() = default;
  virtual Status synthesize(ConstraintSystem& cs) = 0;
};

/// circuit.synthesize(cs), then cs.finish() (the input constraints).
inline Status synthesize_circuit(Circuit& circuit, ConstraintSystem& cs) {
  CUZK_RETURN_IF_ERROR(circuit.synthesize(cs));
  return cs.finish();
}

}  // namespace cuzk
