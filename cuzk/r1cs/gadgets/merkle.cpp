#include "cuzk/r1cs/gadgets/merkle.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

unsigned log2_arity(unsigned a) {
  unsigned k = 0;
  while ((1u << k) < a) ++k;
  return k;
}

Status check_arity(unsigned a, MerkleHash hash) {
  if (a == 0 || (a & (a - 1)) != 0)
    return Status(Errc::invalid_argument, "Merkle arity must be a power of two");
  if (hash == MerkleHash::sha256 && a != 2)
    return Status(Errc::invalid_argument, "SHA-256 trees are binary");
  if (hash == MerkleHash::poseidon && poseidon_constants(a) == nullptr) {
    return Status(Errc::invalid_argument, "no Poseidon constants for arity " + std::to_string(a));
  }
  return {};
}

// SubPath::synthesize: returns the node reached and appends the index bits to |bits|.
Result<AllocatedNum> sub_path(ConstraintSystem& cs, MerkleHash hash, unsigned arity,
                              std::span<const MerklePathLevel> levels, AllocatedNum cur,
                              std::vector<Boolean>& bits) {
  if (arity == 0) {
    if (!levels.empty())
      return Status(Errc::invalid_argument, "levels given for an absent sub/top tree");
    return cur;
  }
  CUZK_RETURN_IF_ERROR(check_arity(arity, hash));
  const unsigned nbits = log2_arity(arity);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const MerklePathLevel& lv = levels[i];
    if (lv.siblings.size() != arity - 1)
      return Status(Errc::size_mismatch, "Merkle level needs arity − 1 siblings");
    Namespace ns(cs, [i] { return "merkle tree hash " + std::to_string(i); });
    std::vector<Boolean> index_bits;
    for (unsigned j = 0; j < nbits; ++j) {
      Namespace nb(cs, [j] { return "index bit " + std::to_string(j); });
      std::optional<bool> b;
      if (lv.index) b = ((*lv.index >> j) & 1) != 0;
      CUZK_ASSIGN_OR_RETURN(AllocatedBit bit, AllocatedBit::alloc(cs, b));
      index_bits.push_back(Boolean::from(bit));
    }
    bits.insert(bits.end(), index_bits.begin(), index_bits.end());
    std::vector<AllocatedNum> siblings;
    for (std::size_t j = 0; j < lv.siblings.size(); ++j) {
      Namespace np(cs, [j] { return "path element " + std::to_string(j); });
      CUZK_ASSIGN_OR_RETURN(AllocatedNum s, AllocatedNum::alloc(cs, lv.siblings[j]));
      siblings.push_back(s);
    }
    CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedNum> inserted,
                          insert(cs, cur, index_bits, siblings));
    Namespace nh(cs, "computation of commitment hash");
    CUZK_ASSIGN_OR_RETURN(cur, merkle_node_circuit(cs, hash, inserted));
  }
  return cur;
}

}  // namespace

MerklePath blank_merkle_path(unsigned base_arity, std::size_t levels, unsigned sub_arity,
                             unsigned top_arity) {
  MerklePath p;
  p.base_arity = base_arity;
  p.base.assign(levels,
                MerklePathLevel{std::vector<std::optional<Fr>>(base_arity - 1), std::nullopt});
  p.sub_arity = sub_arity;
  if (sub_arity)
    p.sub.assign(1, MerklePathLevel{std::vector<std::optional<Fr>>(sub_arity - 1), std::nullopt});
  p.top_arity = top_arity;
  if (top_arity)
    p.top.assign(1, MerklePathLevel{std::vector<std::optional<Fr>>(top_arity - 1), std::nullopt});
  return p;
}

Result<AllocatedNum> merkle_node_circuit(ConstraintSystem& cs, MerkleHash hash,
                                         std::span<const AllocatedNum> children) {
  if (hash == MerkleHash::poseidon) {
    const PoseidonConstants* c = poseidon_constants(static_cast<unsigned>(children.size()));
    if (!c) return Status(Errc::invalid_argument, "no Poseidon constants for this arity");
    return poseidon_hash_circuit(cs, *c, poseidon_merkle_tag(c->arity), children);
  }
  std::vector<Boolean> bits;
  for (std::size_t i = 0; i < children.size(); ++i) {
    Result<std::vector<Boolean>> le = Status();
    {
      Namespace ns(cs, [i] { return std::to_string(i) + "_num_into_bits"; });
      le = children[i].to_bits_le(cs);
    }
    if (!le) return le.status();
    std::vector<Boolean> padded = std::move(*le);
    while (padded.size() % 8 != 0) padded.push_back(Boolean::constant(false));
    for (std::size_t k = 0; k < padded.size(); k += 8)
      for (int j = 7; j >= 0; --j) bits.push_back(padded[k + j]);
  }
  Result<std::vector<Boolean>> be = Status();
  {
    Namespace ns(cs, "hash");
    be = sha256(cs, bits);
  }
  if (!be) return be.status();
  std::vector<Boolean> le_bits;
  for (std::size_t k = 0; k < be->size() && le_bits.size() < kFrCapacity; k += 8)
    for (int j = 7; j >= 0 && le_bits.size() < kFrCapacity; --j) le_bits.push_back((*be)[k + j]);
  Namespace ns(cs, "pack_le");
  return pack_bits(cs, le_bits);
}

Result<AllocatedNum> por_compute_root(ConstraintSystem& cs, MerkleHash hash,
                                      const AllocatedNum& leaf, const MerklePath& path) {
  std::vector<Boolean> bits;
  AllocatedNum cur = leaf;
  {
    Namespace ns(cs, "base");
    CUZK_ASSIGN_OR_RETURN(cur, sub_path(cs, hash, path.base_arity, path.base, cur, bits));
  }
  {
    Namespace ns(cs, "sub");
    CUZK_ASSIGN_OR_RETURN(cur, sub_path(cs, hash, path.sub_arity, path.sub, cur, bits));
  }
  {
    Namespace ns(cs, "top");
    CUZK_ASSIGN_OR_RETURN(cur, sub_path(cs, hash, path.top_arity, path.top, cur, bits));
  }
  Namespace ns(cs, "path");
  CUZK_RETURN_IF_ERROR(pack_into_inputs(cs, bits));
  return cur;
}

Status por_with_root(ConstraintSystem& cs, MerkleHash hash, const AllocatedNum& leaf,
                     const MerklePath& path, const AllocatedNum& root) {
  CUZK_ASSIGN_OR_RETURN(AllocatedNum computed, por_compute_root(cs, hash, leaf, path));
  enforce_equal(cs, "enforce root is correct", computed, root);
  return {};
}

Status por_circuit(ConstraintSystem& cs, MerkleHash hash, std::optional<Fr> leaf,
                   const MerklePath& path, std::optional<Fr> root, bool private_root) {
  Result<AllocatedNum> value = Status();
  {
    Namespace ns(cs, "value");
    value = AllocatedNum::alloc(cs, leaf);
  }
  if (!value) return value.status();
  CUZK_ASSIGN_OR_RETURN(AllocatedNum computed, por_compute_root(cs, hash, *value, path));
  Result<AllocatedNum> rt = Status();
  {
    Namespace ns(cs, "root_value");
    rt = AllocatedNum::alloc(cs, root);
  }
  if (!rt) return rt.status();
  enforce_equal(cs, "enforce root is correct", computed, *rt);
  if (!private_root) {
    Namespace ns(cs, "root");
    CUZK_RETURN_IF_ERROR(rt->inputize(cs));
  }
  return {};
}

Fr sha256_node_native(std::span<const Fr> children) {
  std::vector<std::uint8_t> msg;
  for (const Fr& c : children) {
    std::array<std::uint8_t, 32> b;
    c.to_bytes_le(b);
    msg.insert(msg.end(), b.begin(), b.end());
  }
  std::array<std::uint8_t, 32> d = sha256_native(msg);
  d[31] &= 0x3f;
  return *Fr::from_bytes_le(d);
}

Fr merkle_node_native(MerkleHash hash, std::span<const Fr> children) {
  if (hash == MerkleHash::sha256) return sha256_node_native(children);
  return poseidon_hash_merkle(*poseidon_constants(static_cast<unsigned>(children.size())),
                              children);
}

Fr merkle_root_native(MerkleHash hash, const Fr& leaf, const MerklePath& path) {
  Fr cur = leaf;
  auto ascend = [&](unsigned arity, const std::vector<MerklePathLevel>& levels) {
    for (const MerklePathLevel& lv : levels) {
      std::vector<Fr> kids;
      std::size_t s = 0;
      for (unsigned p = 0; p < arity; ++p) kids.push_back(p == *lv.index ? cur : *lv.siblings[s++]);
      cur = merkle_node_native(hash, kids);
    }
  };
  ascend(path.base_arity, path.base);
  ascend(path.sub_arity, path.sub);
  ascend(path.top_arity, path.top);
  return cur;
}

}  // namespace cuzk
