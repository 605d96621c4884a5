#include "cuzk/circuits/filecoin/post_circuit.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"

namespace cuzk::circuits::filecoin {
namespace {

using cuzk::filecoin::fr_from_bytes32;
using cuzk::filecoin::MerkleProof;
using cuzk::filecoin::PathElement;

// Levels of each kind of a tree_r_last path: base levels, then one sub and one top level where
// the shape has them (storage-proofs-core base_path_length).
struct PathLevels {
  unsigned base = 0, sub = 0, top = 0;
  unsigned total() const { return base + sub + top; }
  // Siblings over all levels.
  unsigned siblings(const TreeShape& s) const {
    return base * (s.base - 1) + sub * (s.sub ? s.sub - 1 : 0) + top * (s.top ? s.top - 1 : 0);
  }
};

Result<PathLevels> path_levels(const PostCircuitParams& p) {
  auto base = cuzk::filecoin::base_levels(p.shape, p.nodes);
  if (!base.ok()) return base.status();
  return PathLevels{*base, p.shape.sub ? 1u : 0u, p.shape.top ? 1u : 0u};
}

// The sectors of partition k: [k·sector_count, min((k+1)·sector_count, n)) (`chunks().nth(k)`).
Result<std::span<const PostPublicSector>> partition_sectors(const PostCircuitParams& params,
                                                            const PostCircuitPublic& pub) {
  if (params.sector_count == 0)
    return Status(Errc::invalid_argument, "PoSt circuit: sector_count is 0");
  const std::uint64_t first = pub.partition * params.sector_count;
  if (pub.partition >= pub.sectors.size() || first >= pub.sectors.size())
    return Status(Errc::invalid_argument,
                  "partition " + std::to_string(pub.partition) + ": the PoSt has " +
                      std::to_string(pub.sectors.size()) + " sectors, " +
                      std::to_string(params.sector_count) + " per partition");
  const std::uint64_t count =
      std::min<std::uint64_t>(params.sector_count, pub.sectors.size() - first);
  return std::span<const PostPublicSector>(pub.sectors).subspan(first, count);
}

}  // namespace

Result<PostCircuitParams> post_circuit_params(const PostProof& proof) {
  PostCircuitParams p;
  p.shape = cuzk::filecoin::tree_shape(proof.size);
  p.nodes = cuzk::filecoin::sector_nodes(proof.size);
  p.api = proof.api;
  if (proof.challenge_count == 0 || proof.sector_count == 0)
    return Status(Errc::invalid_argument, proof.name + ": no challenges or sectors");
  if (proof.kind == cuzk::filecoin::PostKind::window) {
    p.challenge_count = proof.challenge_count;
    p.sector_count = proof.sector_count;
    return p;
  }
  // winning_post_setup_params: the sector count must divide the challenge count.
  if (proof.challenge_count % proof.sector_count != 0)
    return Status(Errc::invalid_argument,
                  proof.name + ": sector count " + std::to_string(proof.sector_count) +
                      " does not divide challenge count " + std::to_string(proof.challenge_count));
  p.sector_count = proof.challenge_count / proof.sector_count;
  p.challenge_count = proof.challenge_count / p.sector_count;
  return p;
}

PostCircuitPublic winning_post_public(const PostCircuitParams& params, const Bytes32& randomness,
                                      const Bytes32& prover_id, const PostPublicSector& sector) {
  PostCircuitPublic pub;
  pub.randomness = randomness;
  pub.prover_id = prover_id;
  pub.sectors.assign(params.sector_count, sector);
  pub.partition = 0;
  return pub;
}

Result<std::vector<Fr>> post_public_inputs(const PostCircuitParams& params,
                                           const PostCircuitPublic& pub) {
  auto sectors = partition_sectors(params, pub);
  if (!sectors.ok()) return sectors.status();
  return post_partition_public_inputs(params, pub.randomness, *sectors, pub.partition);
}

Result<std::vector<Fr>> post_partition_public_inputs(const PostCircuitParams& params,
                                                     const Bytes32& randomness,
                                                     std::span<const PostPublicSector> sectors,
                                                     std::uint64_t partition) {
  if (sectors.empty() || sectors.size() > params.sector_count)
    return Status(Errc::invalid_argument,
                  "partition " + std::to_string(partition) + ": " + std::to_string(sectors.size()) +
                      " sectors, a partition has 1.." + std::to_string(params.sector_count));
  std::vector<Fr> inputs;
  const std::size_t per_sector = 1 + params.challenge_count;
  inputs.reserve(per_sector * params.sector_count);
  for (std::size_t i = 0; i < sectors.size(); ++i) {
    const PostPublicSector& s = sectors[i];
    auto comm_r = fr_from_bytes32(s.comm_r, "sector " + std::to_string(s.sector_id) + " comm_r");
    if (!comm_r.ok()) return comm_r.status().with_context("partition " + std::to_string(partition));
    inputs.push_back(*comm_r);
    const std::uint64_t sector_index = partition * params.sector_count + i;
    for (unsigned n = 0; n < params.challenge_count; ++n) {
      const std::uint64_t ci =
          cuzk::filecoin::post_challenge_index(params.api, sector_index, params.challenge_count, n);
      inputs.push_back(Fr::from_u64(
          cuzk::filecoin::post_leaf_challenge(randomness, s.sector_id, ci, params.nodes)));
    }
  }
  // "duplicate last one if too little sectors available"
  while (inputs.size() < per_sector * params.sector_count)
    inputs.insert(inputs.end(), inputs.end() - static_cast<std::ptrdiff_t>(per_sector),
                  inputs.end());
  return inputs;
}

Result<std::vector<PostSectorProof>> winning_post_circuit_proofs(
    const PostCircuitParams& params, const FallbackPoStSectorProof& proof) {
  const std::string what = "WinningPoSt proof of sector " + std::to_string(proof.sector_id);
  if (proof.sectors.size() != 1)
    return Status(Errc::invalid_argument, what + ": " + std::to_string(proof.sectors.size()) +
                                              " SectorProofs, WinningPoSt has 1");
  const PostSectorProof& sp = proof.sectors[0];
  if (params.challenge_count != 1)
    return Status(Errc::invalid_argument, what + ": the circuit's sectors have " +
                                              std::to_string(params.challenge_count) +
                                              " challenges, WinningPoSt's have 1");
  if (sp.inclusion_proofs.size() != params.sector_count)
    return Status(Errc::invalid_argument, what + ": " + std::to_string(sp.inclusion_proofs.size()) +
                                              " inclusion proofs, the circuit takes " +
                                              std::to_string(params.sector_count));
  std::vector<PostSectorProof> out;
  out.reserve(params.sector_count);
  for (const MerkleProof& p : sp.inclusion_proofs)
    out.push_back(PostSectorProof{{p}, sp.comm_c, sp.comm_r_last});
  return out;
}

PostCircuit::PostCircuit(const PostCircuitParams& params) : params_(params) {}

Result<PostCircuit> PostCircuit::create(const PostCircuitParams& params,
                                        const PostCircuitPublic& pub,
                                        std::span<const PostSectorProof> proofs) {
  const std::string part = "partition " + std::to_string(pub.partition);
  auto sectors = partition_sectors(params, pub);
  if (!sectors.ok()) return sectors.status();
  auto levels = path_levels(params);
  if (!levels.ok()) return levels.status().with_context(part);
  if (proofs.size() != params.sector_count)
    return Status(Errc::size_mismatch, part + ": " + std::to_string(proofs.size()) +
                                           " sector proofs, the circuit takes " +
                                           std::to_string(params.sector_count));
  PostCircuit c(params);
  c.sectors_.resize(params.sector_count);
  const unsigned nsib = levels->siblings(params.shape);
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    const PostPublicSector& ps = (*sectors)[std::min(i, sectors->size() - 1)];
    const PostSectorProof& sp = proofs[i];
    SectorValues& v = c.sectors_[i];
    const std::string where = part + ", circuit sector " + std::to_string(i) + " (sector " +
                              std::to_string(ps.sector_id) + ")";
    auto decode = [&where](const Bytes32& b, const std::string& field, Fr& out) -> Status {
      auto x = fr_from_bytes32(b, field);
      if (!x.ok()) return x.status().with_context(where);
      out = *x;
      return {};
    };
    CUZK_RETURN_IF_ERROR(decode(ps.comm_r, "comm_r", v.comm_r));
    CUZK_RETURN_IF_ERROR(decode(sp.comm_c, "comm_c", v.comm_c));
    CUZK_RETURN_IF_ERROR(decode(sp.comm_r_last, "comm_r_last", v.comm_r_last));
    if (sp.inclusion_proofs.size() != params.challenge_count)
      return Status(Errc::size_mismatch, where + ": " + std::to_string(sp.inclusion_proofs.size()) +
                                             " inclusion proofs, " +
                                             std::to_string(params.challenge_count) +
                                             " challenges");
    v.leaves.resize(params.challenge_count);
    v.siblings.resize(static_cast<std::size_t>(params.challenge_count) * nsib);
    v.index.resize(static_cast<std::size_t>(params.challenge_count) * levels->total());
    Fr* sib = v.siblings.data();
    std::uint8_t* idx = v.index.data();
    for (unsigned n = 0; n < params.challenge_count; ++n) {
      const MerkleProof& mp = sp.inclusion_proofs[n];
      const std::string name = "inclusion_proofs[" + std::to_string(n) + "]";
      Status shape = cuzk::filecoin::check_merkle_shape(mp, params.shape, params.nodes, name);
      if (!shape.ok()) return shape.with_context(where);
      CUZK_RETURN_IF_ERROR(decode(mp.leaf, name + ".leaf", v.leaves[n]));
      for (const auto* path : {&mp.base_path, &mp.sub_path, &mp.top_path}) {
        for (std::size_t l = 0; l < path->size(); ++l) {
          const PathElement& e = (*path)[l];
          for (std::size_t j = 0; j < e.hashes.size(); ++j)
            CUZK_RETURN_IF_ERROR(decode(
                e.hashes[j], name + " level " + std::to_string(l) + " hash " + std::to_string(j),
                *sib++));
          *idx++ = static_cast<std::uint8_t>(e.index);
        }
      }
    }
  }
  return c;
}

Status PostCircuit::synthesize(ConstraintSystem& cs) {
  // synthesize_default; synthesize_extendable (bellperson's ProvingAssignment) builds the same
  // variables and constraints in the same order, chunk by chunk.
  Namespace outer(cs, "outer namespace");
  for (unsigned i = 0; i < params_.sector_count; ++i)
    CUZK_RETURN_IF_ERROR(synthesize_sector_scope(cs, i));
  return {};
}

Status PostCircuit::synthesize_circuit_sector(ConstraintSystem& cs, unsigned i) const {
  if (i >= params_.sector_count)
    return Status(Errc::out_of_range, "circuit sector " + std::to_string(i) + " of " +
                                          std::to_string(params_.sector_count));
  Namespace outer(cs, "outer namespace");
  return synthesize_sector_scope(cs, i);
}

Status PostCircuit::synthesize_sector_scope(ConstraintSystem& cs, unsigned i) const {
  Namespace ns(cs, [i] { return "sector_" + std::to_string(i); });
  return synthesize_sector(cs, has_values() ? &sectors_[i] : nullptr)
      .with_context("circuit sector " + std::to_string(i));
}

Status PostCircuit::synthesize_sector(ConstraintSystem& cs, const SectorValues* v) const {
  auto levels = path_levels(params_);
  if (!levels.ok()) return levels.status();
  // A value of this sector, or none (blank circuit).
  auto value = [v](Fr SectorValues::*field) -> std::optional<Fr> {
    if (v == nullptr) return std::nullopt;
    return v->*field;
  };
  auto alloc = [&cs](const char* name, std::optional<Fr> x) -> Result<AllocatedNum> {
    Namespace ns(cs, name);
    return AllocatedNum::alloc(cs, x);
  };
  // 1. comm_r = H(comm_c ‖ comm_r_last), comm_r public.
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r_last,
                        alloc("comm_r_last", value(&SectorValues::comm_r_last)));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_c, alloc("comm_c", value(&SectorValues::comm_c)));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r, alloc("comm_r", value(&SectorValues::comm_r)));
  {
    Namespace ns(cs, "comm_r_input");
    CUZK_RETURN_IF_ERROR(comm_r.inputize(cs));
  }
  Result<AllocatedNum> hash = Status();
  {
    Namespace ns(cs, "H_comm_c_comm_r_last");
    const std::array<AllocatedNum, 2> preimage = {comm_c, comm_r_last};
    hash = poseidon_hash_circuit(cs, *poseidon_constants(2), poseidon_merkle_tag(2), preimage);
  }
  if (!hash.ok()) return hash.status();
  enforce_equal(cs, "enforce_comm_c_comm_r_last_hash_comm_r", comm_r, *hash);

  // 2. One PoR per challenge, the leaf private, the root comm_r_last, the leaf index public.
  MerklePath path =
      blank_merkle_path(params_.shape.base, levels->base, params_.shape.sub, params_.shape.top);
  const unsigned nsib = levels->siblings(params_.shape);
  for (unsigned n = 0; n < params_.challenge_count; ++n) {
    Namespace ns(cs, [n] { return "challenge_inclusion_" + std::to_string(n); });
    if (v != nullptr) {
      const Fr* sib = v->siblings.data() + static_cast<std::size_t>(n) * nsib;
      const std::uint8_t* idx = v->index.data() + static_cast<std::size_t>(n) * levels->total();
      for (auto* lvls : {&path.base, &path.sub, &path.top}) {
        for (MerklePathLevel& lv : *lvls) {
          for (auto& s : lv.siblings) s = *sib++;
          lv.index = *idx++;
        }
      }
    }
    std::optional<Fr> leaf_value;
    if (v != nullptr) leaf_value = v->leaves[n];
    CUZK_ASSIGN_OR_RETURN(AllocatedNum leaf, alloc("value", leaf_value));
    CUZK_RETURN_IF_ERROR(por_with_root(cs, MerkleHash::poseidon, leaf, path, comm_r_last));
  }
  return {};
}

}  // namespace cuzk::circuits::filecoin
