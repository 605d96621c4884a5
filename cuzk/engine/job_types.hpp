// Value types shared by the engine, the journal and the server: proof kinds and priorities (the
// numbering of cuzk.v1, REFERENCE-CUZK.md §1), a job request as the engine sees it, job states,
// and the per-job timings and outcome returned to AwaitProof.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::engine {

/// cuzk.v1.ProofKind; unspecified means "a registered circuit named by circuit_id".
enum class ProofKind : std::uint32_t {
  unspecified = 0,
  porep_seal_commit = 1,
  snap_deals_update = 2,
  window_post_partition = 3,
  winning_post = 4,
};

/// cuzk.v1.Priority; larger is more urgent. unspecified resolves to the kind's default.
enum class Priority : std::uint32_t {
  unspecified = 0,
  low = 1,
  normal = 2,
  high = 3,
  critical = 4
};

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

/// A job as submitted (SubmitProofRequest without the transport). Journaled verbatim.
struct JobRequest {
  std::string request_id;
  ProofKind kind = ProofKind::unspecified;
  std::string circuit_id;            ///< field 100: a registered circuit ("bench-20", a circom id)
  std::uint32_t num_partitions = 0;  ///< field 101: partitions for bench types (0 = default)
  Priority priority = Priority::unspecified;
  std::uint64_t sector_size = 0;
  std::uint64_t registered_proof = 0;
  std::string vanilla_proof;                ///< bytes: C1 JSON, .wtns, or a bench seed
  std::vector<std::string> vanilla_proofs;  ///< bytes per sector / partition
  std::uint64_t sector_number = 0;
  std::uint64_t miner_id = 0;
  std::string randomness;
  std::uint32_t partition_index = 0;
  std::string comm_r_old, comm_r_new, comm_d_new;

  /// Bytes held in memory by this request (charged while the job is queued).
  std::uint64_t payload_bytes() const {
    std::uint64_t n = vanilla_proof.size() + randomness.size() + comm_r_old.size() +
                      comm_r_new.size() + comm_d_new.size();
    for (const auto& v : vanilla_proofs) n += v.size();
    return n;
  }
};

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
