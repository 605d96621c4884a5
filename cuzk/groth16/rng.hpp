// Randomness for setup (toxic waste) and proving (r, s) and batch verification (z_j). Passed in,
// never global (STYLE.md rule 9): OsRng reads the kernel's CSPRNG (getrandom); SeededRng is a
// deterministic xoshiro256** stream for tests and benchmarks only (not cryptographic).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/ff/fr.hpp"

namespace cuzk {

/// A source of random bytes.
class Rng {
 public:
  virtual ~Rng() = default;
  /// Fills |out| with random bytes.
  virtual void fill(std::span<std::uint8_t> out) = 0;
  /// A random 64-bit word.
  std::uint64_t next_u64() {
    std::uint8_t b[8];
    fill(b);
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | b[i];
    return v;
  }
};

/// The operating system's CSPRNG (getrandom(2), /dev/urandom fallback).
class OsRng final : public Rng {
 public:
  void fill(std::span<std::uint8_t> out) override;
};

/// xoshiro256** seeded through splitmix64: reproducible streams for tests and benchmarks.
class SeededRng final : public Rng {
 public:
  explicit SeededRng(std::uint64_t seed);
  void fill(std::span<std::uint8_t> out) override;
  std::uint64_t next();

 private:
  std::uint64_t s_[4];
};

/// A uniform element of Fr (rejection sampling of 255-bit integers: ≤ 2 draws on average).
Fr random_fr(Rng& rng);
/// A uniform non-zero element of Fr.
Fr random_nonzero_fr(Rng& rng);

}  // namespace cuzk
