#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"

#include <utility>

namespace cuzk {
namespace {

template <class T>
std::vector<T> reverse_bytes(std::vector<T> bits, const T& zero) {
  while (bits.size() % 8 != 0) bits.push_back(zero);
  for (std::size_t k = 0; k < bits.size(); k += 8) {
    for (std::size_t i = 0; i < 4; ++i) {
      T lo = bits[k + i];
      bits[k + i] = bits[k + 7 - i];
      bits[k + 7 - i] = lo;
    }
  }
  return bits;
}

}  // namespace

std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
  return reverse_bytes(std::move(bits), Boolean::constant(false));
}

std::vector<bool> reverse_bit_numbering_native(std::vector<bool> bits) {
  return reverse_bytes<bool>(std::move(bits), false);
}

}  // namespace cuzk
