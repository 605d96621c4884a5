// Commit phase 1 (C1): the PoRep vanilla proofs of a sealed sector for a seed, as
// storage-proofs-porep stacked/vanilla/proof.rs `prove_layers` / `prove_layers_generate` and
// filecoin-proofs `seal_commit_phase1` make them (porep_vanilla_proof.hpp for the types). For each
// partition k and each challenge c of porep_challenges(k):
//   comm_d_proofs        tree_d path of data node c (Single, binary SHA-256)
//   comm_r_last_proof    tree_r_last path of replica node c (the sector's shape)
//   replica_column_proofs
//     c_x                Column { c, [label_1[c], …, label_L[c]] } and its tree_c path
//     drg_parents        the same for the 6 base parents of c, in graph order
//     exp_parents        the same for the 8 expander parents
//   labeling_proofs[ℓ−1] { parents, layer_index ℓ, node c }: parents are the 37 labels the label of
//                        c hashes (ℓ = 1: the base parents' layer-1 labels cycled; ℓ > 1: the base
//                        parents' layer-ℓ and the expander parents' layer-(ℓ−1) labels cycled)
//   encoding_proof       the last labeling proof's fields again
// Synthetic PoRep stores its proofs for all synthetic challenges at PreCommit and picks the seed's
// selection at C1; the picked proofs are these same proofs of the selected nodes, so they are made
// here directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"
#include "cuzk/filecoin/porep_vanilla_proof.hpp"
#include "cuzk/filecoin/poseidon_tree.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/sector_dir.hpp"

namespace cuzk::filecoin {

/// A sealed sector with everything C1 reads: its public data and the seal's products (labels,
/// tree_d rows, tree_c, tree_r_last; SealResult::replica may be empty).
struct SealedSector {
  SectorInfo info;
  SealResult sealed;
};

/// Reads a sector directory (sector_dir.hpp): sector.json, the label layers, tree_d; tree_c is
/// rebuilt from the layers' column hashes and tree_r_last from the replica, and their roots must
/// be sector.json's comm_c and comm_r_last.
Result<SealedSector> load_sealed_sector(const std::filesystem::path& dir, ThreadPool& pool);

/// The registered seal proof of |info| with its porep_id and API version (which sector.json may
/// override).
Result<SealProof> sector_seal_proof(const SectorInfo& info);

/// The C1 output of |sector| for |seed|. |partitions| limits the partitions proved (upstream
/// always proves all; a smaller count is for tests and timing) and must not exceed the proof's.
Result<SealCommitPhase1Output> build_commit1(const SealedSector& sector, const Node& seed,
                                             ThreadPool& pool,
                                             std::optional<unsigned> partitions = std::nullopt);

}  // namespace cuzk::filecoin
