#include "cuzk/filecoin/post_verify.hpp"

#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {

Status verify_post_sector(const PostProof& proof, const Bytes32& randomness,
                          const PostPublicSector& sector, std::uint64_t sector_index,
                          const FallbackPoStSectorProof& vanilla) {
  const std::string where = "sector " + std::to_string(sector.sector_id);
  auto fail = [&](const std::string& what) {
    return Status(Errc::unsatisfied, where + ": " + what);
  };
  if (vanilla.sector_id != sector.sector_id)
    return fail("sector_id: the vanilla proof is for sector " + std::to_string(vanilla.sector_id));
  if (vanilla.comm_r != sector.comm_r)
    return fail("comm_r: the vanilla proof has " + to_hex(vanilla.comm_r) +
                ", the public comm_r is " + to_hex(sector.comm_r));
  if (vanilla.sectors.size() != 1)
    return fail("vanilla_proof.sectors: " + std::to_string(vanilla.sectors.size()) +
                " sector proofs, expected 1");
  const PostSectorProof& sp = vanilla.sectors[0];
  if (sp.inclusion_proofs.size() != proof.challenge_count)
    return fail("vanilla_proof.sectors[0].inclusion_proofs: " +
                std::to_string(sp.inclusion_proofs.size()) + " inclusion proofs, " + proof.name +
                " has " + std::to_string(proof.challenge_count) + " challenges");
  auto comm_c = fr_from_bytes32(sp.comm_c, "comm_c");
  if (!comm_c.ok()) return comm_c.status().with_context(where);
  auto comm_r_last = fr_from_bytes32(sp.comm_r_last, "comm_r_last");
  if (!comm_r_last.ok()) return comm_r_last.status().with_context(where);

  const TreeShape shape = tree_shape(proof.size);
  const std::uint64_t nodes = sector_nodes(proof.size);
  const std::vector<std::uint64_t> leaves =
      post_sector_challenges(proof, randomness, sector.sector_id, sector_index);
  for (std::size_t n = 0; n < leaves.size(); ++n) {
    const MerkleProof& p = sp.inclusion_proofs[n];
    const std::string at =
        where + ", challenge " + std::to_string(n) + " (leaf " + std::to_string(leaves[n]) + ")";
    const std::string name = "inclusion_proofs[" + std::to_string(n) + "]";
    Status s = check_merkle_shape(p, shape, nodes, name);
    if (!s.ok()) return Status(Errc::unsatisfied, at + ": " + s.message());
    const std::uint64_t index = path_index(p, shape);
    if (index != leaves[n])
      return Status(Errc::unsatisfied, at + ": " + name + " path index bits show leaf " +
                                           std::to_string(index) + ", not the challenged leaf");
    auto root = poseidon_root(p, name);
    if (!root.ok()) return Status(root.status().code(), at + ": " + root.status().message());
    if (*root != p.root)
      return Status(Errc::unsatisfied, at + ": " + name +
                                           ": the leaf and the path hashes do not hash to the "
                                           "proof's root (computed " +
                                           to_hex(*root) + ", root " + to_hex(p.root) + ")");
    if (p.root != sp.comm_r_last)
      return Status(Errc::unsatisfied, at + ": " + name + ".root " + to_hex(p.root) +
                                           " is not comm_r_last " + to_hex(sp.comm_r_last));
  }
  const Fr pair[2] = {*comm_c, *comm_r_last};
  const Bytes32 h = bytes32_from_fr(hash::poseidon_hash_merkle(*hash::poseidon_constants(2), pair));
  if (h != sector.comm_r)
    return fail("comm_c: Poseidon2(comm_c, comm_r_last) = " + to_hex(h) + " is not comm_r " +
                to_hex(sector.comm_r));
  return {};
}

Status verify_post_vanilla(const PostProof& proof, const Bytes32& randomness,
                           std::span<const PostPublicSector> sectors,
                           std::span<const FallbackPoStSectorProof> vanilla,
                           std::optional<std::uint64_t> partition_index) {
  if (sectors.empty()) return Status(Errc::invalid_argument, proof.name + ": no sectors");
  if (vanilla.size() != sectors.size())
    return Status(Errc::size_mismatch, proof.name + ": " + std::to_string(vanilla.size()) +
                                           " vanilla proofs for " + std::to_string(sectors.size()) +
                                           " sectors");
  std::uint64_t first = 0;
  if (proof.kind == PostKind::winning) {
    if (sectors.size() != proof.sector_count)
      return Status(Errc::size_mismatch, proof.name + ": WinningPoSt proves " +
                                             std::to_string(proof.sector_count) + " sector, got " +
                                             std::to_string(sectors.size()));
  } else if (partition_index) {
    if (sectors.size() > proof.sector_count)
      return Status(Errc::size_mismatch, proof.name + ": partition " +
                                             std::to_string(*partition_index) + " holds at most " +
                                             std::to_string(proof.sector_count) + " sectors, got " +
                                             std::to_string(sectors.size()));
    first = *partition_index * proof.sector_count;
  }
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const FallbackPoStSectorProof* match = nullptr;
    for (const FallbackPoStSectorProof& v : vanilla)
      if (v.sector_id == sectors[i].sector_id) {
        match = &v;
        break;
      }
    if (!match)
      return Status(Errc::unsatisfied,
                    "sector " + std::to_string(sectors[i].sector_id) + ": no vanilla proof has it");
    CUZK_RETURN_IF_ERROR(verify_post_sector(proof, randomness, sectors[i], first + i, *match));
  }
  return {};
}

}  // namespace cuzk::filecoin
