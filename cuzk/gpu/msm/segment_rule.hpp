// The size of the GPU MSM's accumulation segments (pippenger_impl.cuh: a thread adds the sorted
// (bucket, point) pairs of one segment; a bucket that crosses segments is summed from its pieces by
// the fix-up kernel). Pure host arithmetic, shared by the device code and its CPU test
// (segment_rule_test.cpp); GpuMsmConfig::segment_pairs = 0 selects it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

/// The segment the rule aims at for buckets of |average| pairs: twice that, a power of two in
/// [128, 1024]. A bucket that crosses segments costs the fix-up one full addition a piece (at 256
/// pairs a bucket and 128-pair segments, 17.3 ms at 2^27; 5.3 ms at 512, docs/perf/gpu.md
/// "Segment size").
constexpr std::uint32_t segment_target(std::size_t average) {
  std::uint32_t s = 128;
  while (s < 1024 && s < 2 * average) s *= 2;
  return s;
}

/// Sorted pairs a bucket holds on average (0 with no buckets).
constexpr std::size_t average_bucket(std::size_t pairs, std::size_t buckets) {
  return buckets == 0 ? 0 : pairs / buckets;
}

/// The accumulation's segment for |pairs| sorted pairs over |buckets| buckets with |resident|
/// threads (segments) resident at once (0 taken as 1): |requested| when not 0; else
/// w = ⌊pairs / (resident·T)⌋ whole waves of segments of ⌈pairs / (resident·w)⌉ ∈ [T, 2T] pairs
/// (T = segment_target), or max(128, ⌈pairs / resident⌉) under one wave of T. (Rounding the
/// segment up leaves the waves short by less than 1/(T + 1) of their work.) Every thread adds its
/// segment's pairs, so a last wave a fraction f full leaves (1 − f) of a wave's time idle: 0.3 of
/// 20.7 waves at 512 pairs cost the 2^27 accumulation 1.4 %, measured.
constexpr std::uint32_t segment_pairs_for(std::size_t pairs, std::size_t buckets,
                                          std::size_t resident, std::uint32_t requested) {
  if (requested != 0) return requested;
  const std::size_t r = std::max<std::size_t>(1, resident);
  const std::size_t target = segment_target(average_bucket(pairs, buckets));
  const std::size_t waves = std::max<std::size_t>(1, pairs / (r * target));
  const std::size_t per = (pairs + r * waves - 1) / (r * waves);
  return static_cast<std::uint32_t>(std::max<std::size_t>(128, per));
}

/// The smallest segment the rule takes for windows of |pairs| sorted pairs and |buckets| buckets
/// each (the segment slots are sized from it): T when one window fills a wave of T, else 128
/// (|resident| as segment_pairs_for takes it).
constexpr std::uint32_t least_segment_pairs(std::size_t pairs, std::size_t buckets,
                                            std::size_t resident, std::uint32_t requested) {
  if (requested != 0) return requested;
  const std::uint32_t target = segment_target(average_bucket(pairs, buckets));
  return pairs >= std::max<std::size_t>(1, resident) * target ? target : 128;
}

}  // namespace cuzk::gpu
