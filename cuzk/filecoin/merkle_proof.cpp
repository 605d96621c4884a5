#include "cuzk/filecoin/merkle_proof.hpp"

#include "cuzk/hash/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

std::string_view merkle_proof_kind_name(MerkleProofKind k) {
  switch (k) {
    case MerkleProofKind::single:
      return "Single";
    case MerkleProofKind::sub:
      return "Sub";
    case MerkleProofKind::top:
      return "Top";
  }
  return "?";
}

MerkleProofKind merkle_proof_kind(const TreeShape& shape) {
  if (shape.top) return MerkleProofKind::top;
  if (shape.sub) return MerkleProofKind::sub;
  return MerkleProofKind::single;
}

namespace {

// Names of the paths of |kind| as serde names them.
const char* base_name(MerkleProofKind k) {
  return k == MerkleProofKind::single ? "path" : "base_proof";
}

struct PathPart {
  const InclusionPath* path;
  const char* name;
  unsigned arity;
  unsigned levels;
};

std::string level_name(std::string_view proof, const char* path, std::size_t level) {
  return std::string(proof) + "." + path + "[" + std::to_string(level) + "]";
}

}  // namespace

Result<unsigned> base_levels(const TreeShape& shape, std::uint64_t leaves) {
  const std::uint64_t per_tree = leaves / shape.base_trees();
  if (shape.base < 2 || per_tree * shape.base_trees() != leaves || per_tree == 0)
    return Status(Errc::invalid_argument,
                  "tree " + shape.name() + " cannot hold " + std::to_string(leaves) + " leaves");
  unsigned levels = 0;
  std::uint64_t n = 1;
  while (n < per_tree) {
    n *= shape.base;
    ++levels;
  }
  if (n != per_tree)
    return Status(Errc::invalid_argument, "tree " + shape.name() + ": " + std::to_string(per_tree) +
                                              " leaves per base tree is not a power of " +
                                              std::to_string(shape.base));
  return levels;
}

Status check_merkle_shape(const MerkleProof& p, const TreeShape& shape, std::uint64_t leaves,
                          std::string_view name) {
  const MerkleProofKind want = merkle_proof_kind(shape);
  if (p.kind != want)
    return Status(Errc::size_mismatch, std::string(name) + ": a " +
                                           std::string(merkle_proof_kind_name(p.kind)) +
                                           " proof where a tree " + shape.name() + " has " +
                                           std::string(merkle_proof_kind_name(want)));
  auto levels = base_levels(shape, leaves);
  if (!levels.ok()) return levels.status().with_context(name);
  const PathPart parts[] = {
      {&p.base_path, base_name(p.kind), shape.base, *levels},
      {&p.sub_path, "sub_proof", shape.sub, shape.sub ? 1u : 0u},
      {&p.top_path, "top_proof", shape.top, shape.top ? 1u : 0u},
  };
  for (const PathPart& part : parts) {
    if (part.path->size() != part.levels)
      return Status(Errc::size_mismatch,
                    std::string(name) + "." + part.name + ": " + std::to_string(part.path->size()) +
                        " levels, the tree has " + std::to_string(part.levels));
    for (std::size_t l = 0; l < part.path->size(); ++l) {
      const PathElement& e = (*part.path)[l];
      if (e.hashes.size() + 1 != part.arity)
        return Status(Errc::size_mismatch, level_name(name, part.name, l) +
                                               ".hashes: " + std::to_string(e.hashes.size()) +
                                               " siblings, arity " + std::to_string(part.arity) +
                                               " needs " + std::to_string(part.arity - 1));
      if (e.index >= part.arity)
        return Status(Errc::out_of_range, level_name(name, part.name, l) +
                                              ".index: " + std::to_string(e.index) +
                                              " is not below arity " + std::to_string(part.arity));
    }
  }
  return {};
}

std::uint64_t path_index(const MerkleProof& p, const TreeShape& shape) {
  std::uint64_t index = 0, scale = 1;
  for (const PathElement& e : p.base_path) {
    index += e.index * scale;
    scale *= shape.base;
  }
  for (const PathElement& e : p.sub_path) {
    index += e.index * scale;
    scale *= shape.sub;
  }
  for (const PathElement& e : p.top_path) index += e.index * scale;
  return index;
}

namespace {

// Folds |hash_level| over every level of |p|: current = hash(siblings with current at index).
template <class HashLevel>
Result<Bytes32> fold_root(const MerkleProof& p, std::string_view name, HashLevel hash_level) {
  Bytes32 current = p.leaf;
  const std::pair<const InclusionPath*, const char*> parts[] = {
      {&p.base_path, base_name(p.kind)}, {&p.sub_path, "sub_proof"}, {&p.top_path, "top_proof"}};
  for (const auto& [path, pname] : parts)
    for (std::size_t l = 0; l < path->size(); ++l) {
      const PathElement& e = (*path)[l];
      if (e.index > e.hashes.size())
        return Status(Errc::out_of_range,
                      level_name(name, pname, l) + ".index: " + std::to_string(e.index) +
                          " is past the " + std::to_string(e.hashes.size()) + " siblings");
      auto next = hash_level(current, e, level_name(name, pname, l));
      if (!next.ok()) return next.status();
      current = *next;
    }
  return current;
}

}  // namespace

Result<Bytes32> poseidon_root(const MerkleProof& p, std::string_view name) {
  auto leaf = fr_from_bytes32(p.leaf, std::string(name) + ".leaf");
  if (!leaf.ok()) return leaf.status();
  std::vector<Fr> nodes;
  return fold_root(p, name,
                   [&](const Bytes32& current, const PathElement& e,
                       const std::string& where) -> Result<Bytes32> {
                     const unsigned arity = static_cast<unsigned>(e.hashes.size() + 1);
                     const hash::PoseidonConstants* c = hash::poseidon_constants(arity);
                     if (!c)
                       return Status(Errc::invalid_argument,
                                     where + ": no Poseidon of arity " + std::to_string(arity));
                     nodes.clear();
                     for (std::size_t i = 0; i < e.hashes.size(); ++i) {
                       if (i == e.index) nodes.push_back(*fr_from_bytes32(current, "node"));
                       auto h = fr_from_bytes32(e.hashes[i],
                                                where + ".hashes[" + std::to_string(i) + "]");
                       if (!h.ok()) return h.status();
                       nodes.push_back(*h);
                     }
                     if (e.index == e.hashes.size())
                       nodes.push_back(*fr_from_bytes32(current, "node"));
                     return bytes32_from_fr(hash::poseidon_hash_merkle(*c, nodes));
                   });
}

Result<Bytes32> sha256_root(const MerkleProof& p, std::string_view name) {
  return fold_root(p, name,
                   [&](const Bytes32& current, const PathElement& e,
                       const std::string& where) -> Result<Bytes32> {
                     if (e.hashes.size() != 1)
                       return Status(Errc::size_mismatch,
                                     where + ".hashes: " + std::to_string(e.hashes.size()) +
                                         " siblings in a binary SHA-256 tree");
                     hash::Sha256 h;
                     const Bytes32& left = e.index == 0 ? current : e.hashes[0];
                     const Bytes32& right = e.index == 0 ? e.hashes[0] : current;
                     h.update(left);
                     h.update(right);
                     Bytes32 d = h.finish();
                     d[31] &= 0x3f;
                     return d;
                   });
}

namespace {

Status read_path(BincodeReader& r, InclusionPath& out) {
  std::uint64_t n = 0;
  CUZK_RETURN_IF_ERROR(r.length(n, 16));  // an element: u64 count + u64 index at least
  out.assign(n, {});
  for (std::uint64_t l = 0; l < n; ++l) {
    BincodeReader::Field f(r, "", static_cast<std::int64_t>(l));
    PathElement& e = out[l];
    std::uint64_t h = 0;
    {
      BincodeReader::Field fh(r, "hashes");
      CUZK_RETURN_IF_ERROR(r.length(h, 32));
      e.hashes.resize(h);
      for (std::uint64_t i = 0; i < h; ++i) {
        BincodeReader::Field fi(r, "", static_cast<std::int64_t>(i));
        CUZK_RETURN_IF_ERROR(r.bytes32(e.hashes[i]));
      }
    }
    BincodeReader::Field fi(r, "index");
    CUZK_RETURN_IF_ERROR(r.u64(e.index));
  }
  return {};
}

void write_path(BincodeWriter& w, const InclusionPath& path) {
  w.u64(path.size());
  for (const PathElement& e : path) {
    w.u64(e.hashes.size());
    for (const Bytes32& h : e.hashes) w.bytes32(h);
    w.u64(e.index);
  }
}

}  // namespace

Status read_merkle_proof(BincodeReader& r, MerkleProof& out) {
  std::uint32_t variant = 0;
  {
    BincodeReader::Field f(r, "data");
    const std::size_t at = r.offset();
    CUZK_RETURN_IF_ERROR(r.u32(variant));
    if (variant > 2) {
      return r.error_at(
          at, Errc::bad_encoding,
          "ProofData variant " + std::to_string(variant) + " (known: 0 Single, 1 Sub, 2 Top)");
    }
  }
  out = MerkleProof{};
  out.kind = static_cast<MerkleProofKind>(variant);
  auto path = [&](const char* name, InclusionPath& p) {
    BincodeReader::Field f(r, name);
    return read_path(r, p);
  };
  auto node = [&](const char* name, Bytes32& b) {
    BincodeReader::Field f(r, name);
    return r.bytes32(b);
  };
  if (out.kind == MerkleProofKind::single) {
    CUZK_RETURN_IF_ERROR(node("root", out.root));
    CUZK_RETURN_IF_ERROR(node("leaf", out.leaf));
    return path("path", out.base_path);
  }
  CUZK_RETURN_IF_ERROR(path("base_proof", out.base_path));
  CUZK_RETURN_IF_ERROR(path("sub_proof", out.sub_path));
  if (out.kind == MerkleProofKind::top) CUZK_RETURN_IF_ERROR(path("top_proof", out.top_path));
  CUZK_RETURN_IF_ERROR(node("root", out.root));
  return node("leaf", out.leaf);
}

void write_merkle_proof(BincodeWriter& w, const MerkleProof& p) {
  w.u32(static_cast<std::uint32_t>(p.kind));
  if (p.kind == MerkleProofKind::single) {
    w.bytes32(p.root);
    w.bytes32(p.leaf);
    write_path(w, p.base_path);
    return;
  }
  write_path(w, p.base_path);
  write_path(w, p.sub_path);
  if (p.kind == MerkleProofKind::top) write_path(w, p.top_path);
  w.bytes32(p.root);
  w.bytes32(p.leaf);
}

}  // namespace cuzk::filecoin
