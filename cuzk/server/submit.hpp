// run_submit: `cuzk submit`, a client that sends one Filecoin proof request to a running daemon
// as Curio's Go client does (SubmitProof with the cuzk.v1 fields, REFERENCE-CUZK.md §1), waits
// for it (AwaitProof) and writes the proof bytes: the partitions' 192-byte proofs in order, what
// filecoin-ffi returns (docs/api.md, "Filecoin proof kinds").
//
//   porep    --c1 FILE (a C1 output JSON, wrapped into Curio's envelope with --sector-id, or the
//            envelope itself), --sector-id, --miner-id
//   winning  --vanilla FILE (the challenged sector's FallbackPoStSectorProof), --randomness,
//            --miner-id
//   window   --vanilla FILE… (the partition's sectors' proofs, several per file allowed, PoSt
//            order), --randomness, --miner-id, --partition-index
//   update   --vanilla FILE… (every partition's PartitionProof in order), --comm-r-old,
//            --comm-r-new, --comm-d-new
// --registered-proof is a filecoin-proofs-api name (StackedDrg2KiBV1_1, StackedDrgWindow2KiBV1_2)
// or the number Go's abi uses; the daemon checks every field and the vanilla proofs at submit.
// Exit: 0 the proof was written; 1 the daemon refused the request or the job failed (its message
// on stderr); 2 bad usage or an unreadable input file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::server {

struct SubmitOptions {
  std::string addr = "unix://cuzk.sock";
  std::string tls_ca, tls_cert, tls_key;
  std::string kind;              ///< porep | winning | window | update
  std::string registered_proof;  ///< a name or a number
  std::string c1;                ///< porep: the C1 file
  std::vector<std::string> vanilla;
  std::uint64_t sector_id = 0, miner_id = 0;
  std::uint32_t partition_index = 0;
  std::string randomness, comm_r_old, comm_r_new, comm_d_new;  ///< 64 hex digits each
  std::uint32_t update_h = 0;                                  ///< update: h (0 = h_default)
  std::uint32_t priority = 0;                                  ///< 0 = the kind's default
  std::string request_id;
  std::uint64_t timeout_ms = 0;
  std::string out;  ///< the proof file
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
};

int run_submit(const SubmitOptions& opt);

}  // namespace cuzk::server
