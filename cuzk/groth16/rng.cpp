#include "cuzk/groth16/rng.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace cuzk {

void OsRng::fill(std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got = getrandom(out.data() + done, out.size() - done, 0);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    // getrandom unavailable: /dev/urandom; no randomness at all is unrecoverable for a prover.
    std::FILE* f = std::fopen("/dev/urandom", "rb");
    if (f == nullptr || std::fread(out.data() + done, 1, out.size() - done, f) != out.size() - done)
      std::abort();
    std::fclose(f);
    return;
  }
}

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

SeededRng::SeededRng(std::uint64_t seed) {
  for (auto& w : s_) w = splitmix64(seed);
}

std::uint64_t SeededRng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

void SeededRng::fill(std::span<std::uint8_t> out) {
  std::size_t i = 0;
  while (i < out.size()) {
    std::uint64_t v = next();
    for (int b = 0; b < 8 && i < out.size(); ++b, ++i, v >>= 8)
      out[i] = static_cast<std::uint8_t>(v);
  }
}

Fr random_fr(Rng& rng) {
  for (;;) {
    Limbs<4> l;
    for (auto& w : l) w = rng.next_u64();
    l[3] &= (std::uint64_t{1} << 63) - 1;  // 255 bits; r > 2^254, so ≥ half the draws are kept
    if (auto v = Fr::from_canonical(l)) return *v;
  }
}

Fr random_nonzero_fr(Rng& rng) {
  for (;;) {
    const Fr v = random_fr(rng);
    if (!v.is_zero()) return v;
  }
}

}  // namespace cuzk
