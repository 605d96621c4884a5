// Variable: a wire of an R1CS in bellman's two index spaces. Input(0) is ONE (value 1, allocated
// before synthesis); inputs and aux are each numbered in allocation order (FORMATS.md §2.1). In
// the matrices the column of Input(i) is i and the column of Aux(j) is num_inputs + j.
#pragma once

#include <compare>
#include <cstdint>

namespace cuzk {

/// A variable of a constraint system: an index in the input or the aux space.
struct Variable {
  enum class Kind : std::uint8_t { input = 0, aux = 1 };

  std::uint32_t index = 0;
  Kind kind = Kind::input;

  /// Input(0), the constant 1.
  static constexpr Variable one() { return {0, Kind::input}; }
  static constexpr Variable input(std::uint32_t i) { return {i, Kind::input}; }
  static constexpr Variable aux(std::uint32_t j) { return {j, Kind::aux}; }
  constexpr bool is_input() const { return kind == Kind::input; }
  constexpr bool is_aux() const { return kind == Kind::aux; }
  /// Inputs before aux, then by index (bellpepper's merge order).
  constexpr std::uint64_t order_key() const {
    return (static_cast<std::uint64_t>(kind) << 32) | index;
  }
  friend constexpr bool operator==(Variable a, Variable b) = default;
  friend constexpr auto operator<=>(Variable a, Variable b) {
    return a.order_key() <=> b.order_key();
  }
};

}  // namespace cuzk
