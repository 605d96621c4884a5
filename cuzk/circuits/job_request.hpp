// A proof request as circuit families and the engine see it (SubmitProofRequest without the
// transport; the numbering of cuzk.v1, REFERENCE-CUZK.md §1), and the flag long operations poll.
// The engine journals requests verbatim and re-exports these names (engine/job_types.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::circuits {

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
  /// field 33, SnapDeals: h, the high bits of a node index per rho (one of the size's allowed
  /// values, storage-proofs-update `hs`; it enters the public inputs as h_select); 0 = the size's
  /// h_default, what filecoin-proofs' update API uses.
  std::uint32_t update_h = 0;

  /// Bytes held in memory by this request (charged while the job is queued).
  std::uint64_t payload_bytes() const {
    std::uint64_t n = vanilla_proof.size() + randomness.size() + comm_r_old.size() +
                      comm_r_new.size() + comm_d_new.size();
    for (const auto& v : vanilla_proofs) n += v.size();
    return n;
  }
};

/// Set when the job is cancelled or has failed; long operations poll it and return Errc::cancelled.
using CancelFlag = std::atomic<bool>;

}  // namespace cuzk::circuits
