#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/merkle_prove.hpp"

#include <string>
#include <utility>

#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/sdr_hashes.hpp"

namespace cuzk::filecoin {

namespace fs = std::filesystem;

Result<PostSector> load_post_sector(const fs::path& dir, const PostProof& proof, ThreadPool& pool) {
  auto info = read_sector_info(dir);
  if (!info.ok()) return info.status().with_context(dir.string());
  if (info->size != proof.size)
    return Status(Errc::invalid_argument,
                  dir.string() + ": a " + std::string(sector_size_name(info->size)) +
                      " sector, but " + proof.name + " proves " +
                      std::string(sector_size_name(proof.size)) + " sectors");
  const std::uint64_t nodes = sector_nodes(info->size);
  auto replica = read_node_file(dir / kReplicaFile, nodes);
  if (!replica.ok()) return replica.status();
  std::vector<Fr> leaves;
  leaves.reserve(nodes);
  for (std::uint64_t v = 0; v < nodes; ++v) {
    auto f = fr_from_node((*replica)[v]);
    if (!f.ok())
      return Status(Errc::out_of_range, (dir / kReplicaFile).string() + ": node " +
                                            std::to_string(v) + " is not below r");
    leaves.push_back(*f);
  }
  replica->clear();
  replica->shrink_to_fit();
  auto tree = PoseidonTree::build(std::move(leaves), tree_shape(info->size), pool);
  if (!tree.ok()) return tree.status().with_context(dir.string() + ": tree_r_last");
  const Node root = node_from_fr(tree->root());
  if (root != info->comm_r_last)
    return Status(Errc::unsatisfied, dir.string() + ": the replica's tree_r_last root " +
                                         to_hex(root) + " is not sector.json's comm_r_last " +
                                         to_hex(info->comm_r_last));
  auto comm_c = fr_from_bytes32(info->comm_c, dir.string() + ": comm_c");
  if (!comm_c.ok()) return comm_c.status();
  const Node comm_r = node_from_fr(comm_r_of(*comm_c, tree->root()));
  if (comm_r != info->comm_r)
    return Status(Errc::unsatisfied, dir.string() +
                                         ": Poseidon2(comm_c, comm_r_last) = " + to_hex(comm_r) +
                                         " is not sector.json's comm_r " + to_hex(info->comm_r));
  return PostSector{std::move(*info), std::move(*tree)};
}

Result<FallbackPoStSectorProof> post_sector_vanilla_proof(
    const PostSector& sector, std::span<const std::uint64_t> challenges) {
  PostSectorProof sp;
  sp.inclusion_proofs.reserve(challenges.size());
  for (std::size_t n = 0; n < challenges.size(); ++n) {
    if (challenges[n] >= sector.tree_r_last.leaves())
      return Status(Errc::out_of_range, "sector " + std::to_string(sector.info.id.sector_id) +
                                            ", challenge " + std::to_string(n) + ": leaf " +
                                            std::to_string(challenges[n]) +
                                            " is past the sector's " +
                                            std::to_string(sector.tree_r_last.leaves()) + " nodes");
    sp.inclusion_proofs.push_back(poseidon_tree_proof(sector.tree_r_last, challenges[n]));
  }
  sp.comm_c = sector.info.comm_c;
  sp.comm_r_last = sector.info.comm_r_last;
  FallbackPoStSectorProof out;
  out.sector_id = sector.info.id.sector_id;
  out.comm_r = sector.info.comm_r;
  out.sectors.push_back(std::move(sp));
  return out;
}

Result<std::vector<FallbackPoStSectorProof>> window_post_vanilla_proofs(
    const PostProof& proof, const Bytes32& randomness, std::span<const PostSector> sectors) {
  if (proof.kind != PostKind::window)
    return Status(Errc::invalid_argument, proof.name + " is not a WindowPoSt proof");
  if (sectors.empty()) return Status(Errc::invalid_argument, proof.name + ": no sectors");
  std::vector<FallbackPoStSectorProof> out;
  out.reserve(sectors.size());
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const std::vector<std::uint64_t> challenges =
        post_sector_challenges(proof, randomness, sectors[i].info.id.sector_id, i);
    auto p = post_sector_vanilla_proof(sectors[i], challenges);
    if (!p.ok()) return p.status();
    out.push_back(std::move(*p));
  }
  return out;
}

Result<WinningVanilla> winning_post_vanilla_proof(const PostProof& proof, const Bytes32& randomness,
                                                  const Bytes32& prover_id,
                                                  std::span<const PostSector> sectors) {
  if (proof.kind != PostKind::winning)
    return Status(Errc::invalid_argument, proof.name + " is not a WinningPoSt proof");
  auto chosen =
      winning_post_sector_challenges(randomness, prover_id, sectors.size(), proof.sector_count);
  if (!chosen.ok()) return chosen.status();
  WinningVanilla out;
  out.sector_index = (*chosen)[0];
  const PostSector& s = sectors[out.sector_index];
  const std::vector<std::uint64_t> challenges =
      post_sector_challenges(proof, randomness, s.info.id.sector_id, 0);
  auto p = post_sector_vanilla_proof(s, challenges);
  if (!p.ok()) return p.status();
  out.proof = std::move(*p);
  return out;
}

Result<std::vector<PostSectorProof>> window_post_partition_proof(
    const PostProof& proof, std::span<const FallbackPoStSectorProof> vanilla, std::uint64_t k) {
  auto positions = window_post_partition_sectors(vanilla.size(), proof.sector_count, k);
  if (!positions.ok()) return positions.status();
  std::vector<PostSectorProof> out;
  out.reserve(positions->size());
  for (std::uint64_t pos : *positions) {
    if (vanilla[pos].sectors.size() != 1)
      return Status(Errc::invalid_argument, "sector " + std::to_string(vanilla[pos].sector_id) +
                                                ": " + std::to_string(vanilla[pos].sectors.size()) +
                                                " SectorProofs, expected 1");
    out.push_back(vanilla[pos].sectors[0]);
  }
  return out;
}

}  // namespace cuzk::filecoin
