// The public parameters of a SnapDeals update (EmptySectorUpdate, the SHA-256 TreeD variant that
// filecoin-proofs' update API uses; storage-proofs-update constants.rs and vanilla.rs
// `PublicParams::from_sector_size`; FORMATS.md §4.2), and the three Poseidon "gen randomness"
// hashes of the update: arity 2, Strength::Standard, domain tag Custom(1) (constants.rs
// HASH_TYPE_GEN_RANDOMNESS = HashType::Custom(CType::Arbitrary(1)), i.e. 1·2^40 in state[0]):
//   phi       = H(comm_d_new, comm_r_old)                              (vanilla.rs `phi`)
//   rho(high) = H(phi, high)          high = the h top bits of a node index (vanilla.rs `rho`)
//   digest(j) = H(comm_r_new, j)      j counts digests across all partitions (challenges.rs)
// Sizes are in 32-byte nodes n (a power of two):
//   partitions          1 (n ≤ 2^8), 2 (≤ 2^10), 4 (≤ 2^19), else 16
//   challenges          10 per partition (n ≤ 2^19), else 86
//   apex leaves         8 per partition (n ≤ 2^8), else 128
//   hs (allowed h)      [1;6] for n ≤ 2^10, else [7, 8, 9, 10, 11, 12]; h_default = hs[3]
//                       (filecoin-proofs api/update.rs uses h_default; the circuit takes
//                       h_select = 2^index of h in hs)
// Challenges of partition k (challenges.rs `Challenges::new`): each draws
// b = log2(n) − log2(partitions) bits from the little-endian bits of a digest, 254 / b challenges
// per digest, ⌈challenges / (254 / b)⌉ digests per partition starting at digest k·that; the
// partition index k is put above the b bits, so partition k challenges nodes [k·n/P, (k+1)·n/P).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

struct SnapParams {
  std::uint64_t nodes = 0;
  unsigned challenge_bit_len = 0;  ///< log2(nodes): height of tree_d
  unsigned partitions = 0;
  unsigned partition_bit_len = 0;  ///< log2(partitions)
  unsigned challenges = 0;         ///< per partition
  unsigned apex_leaves = 0;        ///< per partition
  unsigned apex_leaf_bit_len = 0;  ///< log2(apex_leaves)
  std::array<unsigned, 6> hs{};    ///< the h values the circuit allows
  unsigned h_default = 0;

  /// tree_d row that holds the apex leaves: challenge_bit_len − partition_bit_len −
  /// apex_leaf_bit_len levels above the leaves.
  unsigned apex_leafs_height() const {
    return challenge_bit_len - partition_bit_len - apex_leaf_bit_len;
  }
  /// Whether |h| is one of hs.
  bool h_allowed(unsigned h) const;
};

/// The parameters of a sector of |nodes| nodes (a power of two ≥ 8); invalid_argument otherwise.
Result<SnapParams> snap_params(std::uint64_t nodes);
/// The parameters of a sector size.
SnapParams snap_params(SectorSize size);

/// The circuit's k_and_h_select public input: k | (2^index(h in hs) << partition_bit_len);
/// invalid_argument when h is not allowed or k ≥ partitions.
Result<std::uint64_t> snap_k_and_h_select(const SnapParams& p, unsigned k, unsigned h);

/// Poseidon arity 2 with the Custom(1) tag of |a|, |b|.
Fr snap_gen_randomness(const Fr& a, const Fr& b);
/// phi = H(comm_d_new, comm_r_old).
Fr snap_phi(const Fr& comm_d_new, const Fr& comm_r_old);
/// rho = H(phi, high).
Fr snap_rho(const Fr& phi, std::uint64_t high);
/// The right shift that leaves the h high bits of a node index: log2(nodes) − h.
unsigned snap_high_shift(const SnapParams& p, unsigned h);

/// The challenges (node indices) of partition |k| for |comm_r_new|; k < partitions.
std::vector<std::uint64_t> snap_challenges(const SnapParams& p, const Fr& comm_r_new, unsigned k);

}  // namespace cuzk::filecoin
