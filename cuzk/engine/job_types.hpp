// Value types shared by the engine, the journal and the server: proof kinds, priorities and the
// job request (defined with the circuit families, circuits/job_request.hpp), job states, and the
// per-job timings and outcome returned to AwaitProof.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/circuits/job_request.hpp"

namespace cuzk::engine {

using circuits::JobRequest;
using circuits::Priority;
using circuits::ProofKind;

constexpr int kNumPriorities = 5;

/// The reference daemon's default per kind: Winning → CRITICAL, Window → HIGH, others NORMAL.
constexpr Priority default_priority(ProofKind k) {
  switch (k) {
    case ProofKind::winning_post:
      return Priority::critical;
    case ProofKind::window_post_partition:
      return Priority::high;
    default:
      return Priority::normal;
  }
}

std::string_view proof_kind_name(ProofKind k);
std::string_view priority_name(Priority p);

/// Life of a job. queued → running → one of the terminal states.
enum class JobState : std::uint32_t {
  queued = 0,
  running = 1,
  completed = 2,
  failed = 3,
  cancelled = 4
};

constexpr bool is_terminal(JobState s) {
  return s == JobState::completed || s == JobState::failed || s == JobState::cancelled;
}
std::string_view job_state_name(JobState s);

/// Timings reported by AwaitProof (milliseconds). synthesis and gpu are sums over partitions.
struct JobTimings {
  std::uint64_t queue_wait_ms = 0;  ///< submit → first partition admitted
  std::uint64_t srs_load_ms = 0;    ///< time the job's GPU stages waited for the key
  std::uint64_t synthesis_ms = 0;
  std::uint64_t gpu_compute_ms = 0;
  std::uint64_t total_ms = 0;  ///< submit → terminal state
};

/// What AwaitProof answers. timeout is not a job state: the wait ended first.
enum class AwaitStatus : std::uint32_t {
  unknown = 0,
  completed = 1,
  failed = 2,
  cancelled = 3,
  timeout = 4
};

struct JobOutcome {
  std::string job_id;
  AwaitStatus status = AwaitStatus::unknown;
  std::string proof;  ///< partition proofs concatenated in partition order
  std::string error;
  JobTimings timings;
};

using Clock = std::chrono::steady_clock;

}  // namespace cuzk::engine
