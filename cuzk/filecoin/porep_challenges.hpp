// The PoRep challenges: which sector nodes a C1 proves, per partition (storage-proofs-porep
// stacked/vanilla/challenges.rs; counts from filecoin-proofs constants.rs and parameters.rs
// `select_challenges`). Every scheme maps a 256-bit little-endian integer X to a node
//   c = (X mod (nodes − 1)) + 1          (node 0 is never challenged)
// and numbers the challenges of partition k as j = k·per_partition + i, i < per_partition:
//   interactive      X = SHA-256(replica_id ‖ seed ‖ u32le(j))
//   non-interactive  X = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖
//                    u32le(j))        (the seed is not used)
//   synthetic        the synthetic challenge s_t, t < S = min(nodes, 2^18), is X = bytes
//                    [32t, 32t + 32) of ChaCha20(key_gen, nonce "synth-porep\0") with key_gen =
//                    BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Generation" of
//                    replica_id ‖ comm_r; challenge j is s_t with t = u32le(bytes [4j, 4j + 4) of
//                    ChaCha20(key_sel, same nonce)) mod S, key_sel = BLAKE2b-256 keyed
//                    "filecoin.io|PoRep|1|Synthetic|1|Selection" of replica_id ‖ seed.
// ChaCha20 is RFC 8439's (32-bit block counter from 0, 96-bit nonce). replica_id and comm_r are
// their 32 stored bytes (Fr little-endian).
// Counts: per_partition = ceil(minimum / partitions); interactive and synthetic: minimum 2 or 176,
// partitions 1 or 10 (2 / 18 per partition); non-interactive: minimum 26 or 2253, partitions 13 or
// 126 (2 / 18 per partition) — test sizes / 32 and 64 GiB.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// How many challenges a registered seal proof's C1 holds and how they are drawn.
struct PorepChallengeConfig {
  PorepScheme scheme = PorepScheme::interactive;
  std::uint64_t nodes = 0;
  unsigned partitions = 0;
  unsigned per_partition = 0;
};
PorepChallengeConfig porep_challenge_config(const SealProof& proof);

/// (LE integer of |x| mod (nodes − 1)) + 1 (challenges.rs `bigint_to_challenge`); nodes ≥ 2.
std::uint64_t challenge_from_bytes(const Node& x, std::uint64_t nodes);

/// Interactive challenges of partition |k|.
std::vector<std::uint64_t> interactive_challenges(std::uint64_t nodes, const Node& replica_id,
                                                  const Node& seed, unsigned per_partition,
                                                  unsigned k);
/// Non-interactive challenges of partition |k|.
std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t nodes, const Node& replica_id,
                                                      const Node& comm_r, unsigned per_partition,
                                                      unsigned k);

/// Synthetic PoRep's generator of synthetic challenges (challenges.rs `SynthChallengeGenerator`).
class SynthChallenges {
 public:
  /// The default count min(nodes, 2^18) when |count| is 0.
  SynthChallenges(std::uint64_t nodes, const Node& replica_id, const Node& comm_r,
                  std::uint64_t count = 0);
  std::uint64_t count() const { return count_; }
  /// Synthetic challenge |t| (t < count()).
  std::uint64_t challenge(std::uint64_t t) const;
  /// The synthetic indexes that partition |k|'s porep challenges select.
  std::vector<std::uint64_t> partition_indexes(const Node& seed, unsigned per_partition,
                                               unsigned k) const;
  /// Partition |k|'s porep challenges: challenge(partition_indexes(...)[i]).
  std::vector<std::uint64_t> partition_challenges(const Node& seed, unsigned per_partition,
                                                  unsigned k) const;

 private:
  std::uint64_t nodes_, count_;
  Node replica_id_;
  std::array<std::uint8_t, 32> key_gen_;
};

/// The challenges of partition |k| under |config|'s scheme (the seed is unused by NI, comm_r by
/// interactive).
std::vector<std::uint64_t> porep_challenges(const PorepChallengeConfig& config,
                                            const Node& replica_id, const Node& comm_r,
                                            const Node& seed, unsigned k);

/// RFC 8439 ChaCha20 keystream bytes [offset, offset + out.size()) for |key| and |nonce|.
void chacha20_keystream(const std::array<std::uint8_t, 32>& key,
                        const std::array<std::uint8_t, 12>& nonce, std::uint64_t offset,
                        std::span<std::uint8_t> out);
/// BLAKE2b with a 32-byte digest keyed with |key| (≤ 64 bytes) over |data|.
std::array<std::uint8_t, 32> blake2b256_keyed(std::span<const std::uint8_t> key,
                                              std::span<const std::uint8_t> data);

}  // namespace cuzk::filecoin
