// The GPU MSM's classify step (pippenger.cuh step 1) from a compact witness in VRAM instead of from
// z (issue 22 item 2): a partition made from its compact witness (gpu/partition.cuh) hands its
// z-sourced MSMs the witness's device arrays, and their 0/1/tail split is read from them
// (backend/compact_msm_split.hpp has the rule, the shared word and run helpers, and the host twin):
//   ones   one thread per 64-scalar word: the term's witness bits (a funnel shift of two bitmap
//          words) AND the density word; a warp scan of the popcounts reserves the list slots (one
//          atomic per warp), and each set bit's base index is base_offset + rank (the density's
//          word prefix plus a popcount below the bit). Without the split they go to the tail as 1;
//   tail   one thread per run value: its run by binary search over the value offsets, its variable,
//          kept when it lies in the term and takes part (the compact form has no 0 or 1 there);
//   zeros  the scalars taking part (summed by the word threads) less the ones and the tail.
// The lists are the ones classify_kernel makes from z as multisets (their order is not fixed in
// either). Bytes read per term of n scalars: n/8 of bits (n/8 more of density) and the run values
// (≈ 1.3 % of the 32 GiB PoRep's variables at 32 B), against n·32 of z.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/fr.hpp"
#include "cuzk/gpu/pce/device_compact_witness.cuh"

namespace cuzk::gpu {

/// An MSM's scalars as variables [offset, offset + n) of a compact witness in device memory (the
/// caller keeps the witness alive through the MSM). Absent (present false): the MSM classifies its
/// scalars from z.
struct MsmCompactScalars {
  bool present = false;
  const std::uint64_t* bits = nullptr;
  const std::uint32_t* run_first = nullptr;
  const std::uint32_t* run_value = nullptr;
  const Fr* values = nullptr;  ///< Montgomery form
  std::uint64_t num_variables = 0, num_values = 0;
  std::uint32_t num_runs = 0;
  std::uint64_t offset = 0;  ///< the MSM's scalar i is variable offset + i
};

/// The MSM over variables [offset, ..) of |w|.
MsmCompactScalars msm_compact_scalars(const DeviceCompactWitness& w, std::uint64_t offset);

/// The classify step's output lists (device memory, room for n entries each) and its counters
/// [0] ones, [1] tail, [2] zeros (zeroed by the caller). Tail scalars are canonical, not Montgomery.
struct MsmClassLists {
  Fr* tail_scalars = nullptr;
  std::uint32_t* tail_idx = nullptr;
  std::uint32_t* ones_idx = nullptr;
  unsigned long long* counters = nullptr;
};

/// Queues the classification of |n| scalars of |src| (offset + n ≤ num_variables) on |stream|:
/// |density| the bitmap (null: every scalar takes part) with |word_prefix| its exclusive prefix of
/// per-word popcounts, |base_offset| the first base, |bit_split| whether the ones get their own
/// list. Asynchronous; throws CudaError on a launch failure, cudaErrorInvalidValue when the n
/// variables run past the witness.
void classify_compact_device(const MsmCompactScalars& src, std::size_t n,
                             const std::uint64_t* density, const std::uint32_t* word_prefix,
                             std::size_t base_offset, bool bit_split, const MsmClassLists& out,
                             cudaStream_t stream);

}  // namespace cuzk::gpu
