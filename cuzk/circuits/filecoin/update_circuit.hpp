// EmptySectorUpdate (SnapDeals), the SHA-256 TreeD variant filecoin-proofs' update API proves:
// one partition of rust-fil-proofs storage-proofs-update circuit.rs `EmptySectorUpdateCircuit`,
// constraint for constraint (docs/filecoin/circuit-update.md; FORMATS.md §4.2). Order:
//   1. k_and_h_select: alloc, inputize; its low log2(P) + 6 bits ("k_and_h_select_bit_i") and
//      (Σ 2^i·b_i)·1 = k_and_h_select; partition = pack_bits(partition bits)
//   2. comm_r_old, comm_d_new, comm_r_new: alloc, inputize each
//   3. phi = H_custom1(comm_d_new, comm_r_old)
//   4. private: comm_c, root_r_old, root_r_new, the apex leaves, the partition path siblings
//   5. Poseidon2(comm_c, root_r_old) = comm_r_old, Poseidon2(comm_c, root_r_new) = comm_r_new
//   6. apex_por(apex leaves, partition bits, partition path, comm_d_new)
//   7. gen_challenge_bits(comm_r_new, partition): log2(n) − log2(P) random bits per challenge,
//      then per challenge c (bits = random bits ‖ partition bits):
//        c_high (h selected by h_select), rho = H_custom1(phi, c_high); leaf_r_old, leaf_d_new;
//        leaf_r_new = leaf_r_old + leaf_d_new·rho; PoR(tree_r_old, leaf_r_old) and
//        PoR(tree_r_new, leaf_r_new) to root_r_old / root_r_new (Poseidon, the sector's shape);
//        apex_leaf = select(apex leaves, the apex bits of c); PoR(tree_d, leaf_d_new) of the
//        levels below the apex leaves, to apex_leaf — all PoRs on c's bits, none allocated.
// Public inputs (4 + ONE, compound.rs generate_public_inputs):
//   [k | (h_select << log2 P), comm_r_old, comm_d_new, comm_r_new].
// Sizes: 2^5 … 2^10 nodes (upstream's test sizes, tree_r shapes of constants.rs
// validate_tree_r_shape), 2^18 (8 MiB), 2^19, 2^24 (512 MiB), 2^30 (32 GiB), 2^31 (64 GiB).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::circuits::filecoin {

using cuzk::filecoin::SectorSize;
using cuzk::filecoin::SnapParams;
using cuzk::filecoin::SnapPartitionProof;
using cuzk::filecoin::TreeShape;

/// The tree_r shape (base-sub-top) storage-proofs-update requires for |nodes| (constants.rs
/// validate_tree_r_shape); invalid_argument for other node counts.
Result<TreeShape> update_tree_shape(std::uint64_t nodes);

/// The public data of one partition proof.
struct UpdatePublic {
  std::uint64_t nodes = 0;  ///< sector nodes (a size update_tree_shape knows)
  unsigned k = 0;           ///< partition index
  unsigned h = 0;           ///< the encoding's h (one of the size's hs)
  Fr comm_r_old = Fr::zero(), comm_d_new = Fr::zero(), comm_r_new = Fr::zero();
};

/// Public data from 32-byte values (Fr little-endian); out_of_range names a value ≥ r.
Result<UpdatePublic> update_public(std::uint64_t nodes, unsigned k, unsigned h,
                                   const cuzk::filecoin::Bytes32& comm_r_old,
                                   const cuzk::filecoin::Bytes32& comm_d_new,
                                   const cuzk::filecoin::Bytes32& comm_r_new);

/// The circuit's public inputs, without ONE, from public data alone (compound.rs
/// generate_public_inputs / circuit.rs PublicInputs::to_vec); invalid_argument for k ≥
/// partitions, an h the size does not allow or an unknown size.
Result<std::vector<Fr>> update_public_inputs(const UpdatePublic& pub);

/// One partition of EmptySectorUpdateCircuit.
class UpdateCircuit final : public Circuit {
 public:
  /// |vanilla| is partition pub.k's proof as the data side parses it (snap_vanilla_proof.hpp);
  /// without it the circuit synthesizes for setup and asks for no value. It must outlive the
  /// circuit.
  explicit UpdateCircuit(const UpdatePublic& pub, const SnapPartitionProof* vanilla = nullptr)
      : pub_(pub), vanilla_(vanilla) {}

  /// Errors (before any allocation): an unknown size, k or h out of range, and — with the vanilla
  /// proof — wrong counts (apex leaves, challenge proofs), a proof not of the tree's shape, a value
  /// not below r, or a partition path that differs between challenges (upstream asserts these),
  /// each naming the partition, the challenge and the field.
  Status synthesize(ConstraintSystem& cs) override;

 private:
  UpdatePublic pub_;
  const SnapPartitionProof* vanilla_;
};

}  // namespace cuzk::circuits::filecoin
