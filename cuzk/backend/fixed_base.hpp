// FixedBaseExecutor: many multiplications [k_i]·G of the generator G of G1 or G2, the whole cost of
// a Groth16 setup's key points (groth16/setup.hpp). One call per chunk of scalars (setup passes a
// few million at a time), so dispatch costs nothing measurable. Results are affine in the host
// representation, [0]·G the identity; every implementation gives the same points (affine
// coordinates are unique), so keys do not depend on the executor.
//
// CpuFixedBaseExecutor: signed-window tables of G (ec/fixed_base.hpp, the window chosen from the
// expected count: w = 14 at 2^27 points, ≈ 20 mixed additions per G1 point), chunks of 4096
// points normalised with one batch inversion each, in parallel on a pool. The CUDA executor
// (gpu/fixed_base_executor.hpp) is the fast one; backend_factory makes either from a device name.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {

class FixedBaseExecutor {
 public:
  virtual ~FixedBaseExecutor() = default;
  /// out[i] = [ks[i]]·G1 generator (size_mismatch unless out.size() == ks.size()).
  virtual Status g1_many(std::span<const Fr> ks, std::span<G1Affine> out) = 0;
  /// out[i] = [ks[i]]·G2 generator.
  virtual Status g2_many(std::span<const Fr> ks, std::span<G2Affine> out) = 0;
  /// "cpu", "cuda:0", … for logs and the setup's report.
  virtual std::string name() const = 0;
};

/// The CPU executor on |pool| (which must outlive it). |g1_count| and |g2_count| are the points
/// expected in all (they choose the window widths; any count is computed correctly); the tables
/// are built on first use.
std::unique_ptr<FixedBaseExecutor> make_cpu_fixed_base(ThreadPool& pool, std::size_t g1_count,
                                                       std::size_t g2_count);

/// Window width of a CPU table for |n| multiplications: the table costs (⌈256/w⌉+1)·2^(w−1)
/// additions, each multiplication ⌈256/w⌉+1.
unsigned fixed_base_window_for(std::size_t n);

}  // namespace cuzk
