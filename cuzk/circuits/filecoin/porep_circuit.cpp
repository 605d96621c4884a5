#include "cuzk/circuits/filecoin/porep_circuit.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "cuzk/circuits/filecoin/porep_circuit_steps.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/sdr_graph.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/column_hash.hpp"
#include "cuzk/r1cs/gadgets/create_label.hpp"
#include "cuzk/r1cs/gadgets/encode.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/reverse_bit_numbering.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;

namespace {

constexpr unsigned kDrgParents = fc::SdrGraph::kBaseDegree;       // 6
constexpr unsigned kExpParents = fc::SdrGraph::kExpansionDegree;  // 8

using detail::ChallengeWitness;
using detail::ColumnWitness;
using detail::PorepColumns;
using detail::PorepPrelude;

unsigned log2_exact(std::uint64_t n) {
  unsigned k = 0;
  while ((std::uint64_t{1} << k) < n) ++k;
  return k;
}

// Runs |f| inside the scope |name| (bellman's `f(cs.namespace(|| name))`).
template <class N, class F>
auto scoped(ConstraintSystem& cs, N&& name, F&& f) {
  Namespace ns(cs, name);
  return f();
}

// The path of |p| with values, after check_merkle_shape.
Result<MerklePath> path_of(const fc::MerkleProof& p, const fc::TreeShape& shape,
                           const std::string& name) {
  MerklePath out;
  auto levels = [&](const fc::InclusionPath& in, const char* part,
                    std::vector<MerklePathLevel>& lv) -> Status {
    for (std::size_t l = 0; l < in.size(); ++l) {
      MerklePathLevel level;
      level.index = in[l].index;
      for (std::size_t j = 0; j < in[l].hashes.size(); ++j) {
        auto x = fc::fr_from_bytes32(in[l].hashes[j], name + "." + part + "[" + std::to_string(l) +
                                                          "].hashes[" + std::to_string(j) + "]");
        if (!x) return x.status();
        level.siblings.push_back(*x);
      }
      lv.push_back(std::move(level));
    }
    return {};
  };
  out.base_arity = shape.base;
  out.sub_arity = shape.sub;
  out.top_arity = shape.top;
  const char* base = p.kind == fc::MerkleProofKind::single ? "path" : "base_proof";
  CUZK_RETURN_IF_ERROR(levels(p.base_path, base, out.base));
  CUZK_RETURN_IF_ERROR(levels(p.sub_path, "sub_proof", out.sub));
  CUZK_RETURN_IF_ERROR(levels(p.top_path, "top_proof", out.top));
  return out;
}

Result<ColumnWitness> column_of(const fc::ColumnProof& cp, const PorepCircuitShape& shape,
                                const std::string& name) {
  if (cp.column.rows.size() != shape.layers)
    return Status(Errc::size_mismatch,
                  name + ".column.rows: " + std::to_string(cp.column.rows.size()) +
                      " rows, the sector has " + std::to_string(shape.layers) + " layers");
  CUZK_RETURN_IF_ERROR(fc::check_merkle_shape(cp.inclusion_proof, shape.tree, shape.nodes,
                                              name + ".inclusion_proof"));
  ColumnWitness w;
  for (std::size_t r = 0; r < cp.column.rows.size(); ++r) {
    CUZK_ASSIGN_OR_RETURN(
        Fr x,
        fc::fr_from_bytes32(cp.column.rows[r], name + ".column.rows[" + std::to_string(r) + "]"));
    w.rows.push_back(x);
  }
  CUZK_ASSIGN_OR_RETURN(w.path, path_of(cp.inclusion_proof, shape.tree, name + ".inclusion_proof"));
  return w;
}

// The witness of one challenge from its vanilla proof (params.rs `From<VanillaProof>`): the data
// leaf is comm_d_proofs' leaf, the challenge labeling_proofs[0].node (which must be the public
// challenge), the paths those of comm_d_proofs, comm_r_last_proof and c_x's inclusion proof, the
// columns those of the 6 DRG and 8 expander parents. c_x's column and the labeling proofs' parents
// are not read: the circuit recomputes the labels from the parents' columns.
Result<ChallengeWitness> witness_of(const fc::PorepChallengeProof& p, std::uint64_t challenge,
                                    const PorepCircuitShape& shape) {
  const fc::TreeShape tree_d{2, 0, 0};
  CUZK_RETURN_IF_ERROR(
      fc::check_merkle_shape(p.comm_d_proofs, tree_d, shape.nodes, "comm_d_proofs"));
  CUZK_RETURN_IF_ERROR(
      fc::check_merkle_shape(p.comm_r_last_proof, shape.tree, shape.nodes, "comm_r_last_proof"));
  const fc::ReplicaColumnProof& rc = p.replica_column_proofs;
  CUZK_RETURN_IF_ERROR(fc::check_merkle_shape(rc.c_x.inclusion_proof, shape.tree, shape.nodes,
                                              "replica_column_proofs.c_x.inclusion_proof"));
  if (rc.drg_parents.size() != kDrgParents || rc.exp_parents.size() != kExpParents)
    return Status(Errc::size_mismatch,
                  "replica_column_proofs: " + std::to_string(rc.drg_parents.size()) +
                      " drg_parents and " + std::to_string(rc.exp_parents.size()) +
                      " exp_parents, the graph has 6 and 8");
  if (p.labeling_proofs.empty())
    return Status(Errc::size_mismatch, "labeling_proofs: empty (the challenge is its first node)");
  if (p.labeling_proofs[0].node != challenge)
    return Status(Errc::invalid_argument,
                  "labeling_proofs[0].node: " + std::to_string(p.labeling_proofs[0].node) +
                      ", the public challenge is " + std::to_string(challenge));

  ChallengeWitness w;
  CUZK_ASSIGN_OR_RETURN(Fr leaf, fc::fr_from_bytes32(p.comm_d_proofs.leaf, "comm_d_proofs.leaf"));
  w.data_leaf = leaf;
  w.challenge = challenge;
  CUZK_ASSIGN_OR_RETURN(w.comm_d_path, path_of(p.comm_d_proofs, tree_d, "comm_d_proofs"));
  CUZK_ASSIGN_OR_RETURN(w.comm_r_last_path,
                        path_of(p.comm_r_last_proof, shape.tree, "comm_r_last_proof"));
  CUZK_ASSIGN_OR_RETURN(w.comm_c_path, path_of(rc.c_x.inclusion_proof, shape.tree,
                                               "replica_column_proofs.c_x.inclusion_proof"));
  for (unsigned i = 0; i < kDrgParents; ++i) {
    CUZK_ASSIGN_OR_RETURN(
        ColumnWitness c, column_of(rc.drg_parents[i], shape,
                                   "replica_column_proofs.drg_parents[" + std::to_string(i) + "]"));
    w.drg.push_back(std::move(c));
  }
  for (unsigned i = 0; i < kExpParents; ++i) {
    CUZK_ASSIGN_OR_RETURN(
        ColumnWitness c, column_of(rc.exp_parents[i], shape,
                                   "replica_column_proofs.exp_parents[" + std::to_string(i) + "]"));
    w.exp.push_back(std::move(c));
  }
  return w;
}

// Proof::empty: blank paths (AuthPath::blank) and columns of L empty rows.
Result<ChallengeWitness> blank_witness(const PorepCircuitShape& shape) {
  CUZK_ASSIGN_OR_RETURN(unsigned levels, fc::base_levels(shape.tree, shape.nodes));
  ChallengeWitness w;
  w.comm_d_path = blank_merkle_path(2, log2_exact(shape.nodes), 0, 0);
  const MerklePath tree =
      blank_merkle_path(shape.tree.base, levels, shape.tree.sub, shape.tree.top);
  w.comm_r_last_path = tree;
  w.comm_c_path = tree;
  const ColumnWitness column{std::vector<std::optional<Fr>>(shape.layers), tree};
  w.drg.assign(kDrgParents, column);
  w.exp.assign(kExpParents, column);
  return w;
}

Status check_shape(const PorepCircuitShape& shape) {
  if (shape.nodes < 2 || (shape.nodes & (shape.nodes - 1)) != 0)
    return Status(Errc::invalid_argument,
                  "PoRep circuit: " + std::to_string(shape.nodes) + " nodes is not a power of two");
  if (shape.layers != 2 && shape.layers != 11)
    return Status(Errc::invalid_argument,
                  "PoRep circuit: " + std::to_string(shape.layers) + " layers (2 or 11)");
  if (shape.challenges == 0) return Status(Errc::invalid_argument, "PoRep circuit: no challenges");
  return fc::base_levels(shape.tree, shape.nodes).status();
}

// An allocated column: its rows (column.rs `Column::alloc`, scope "column", "column_num_row_r").
Result<std::vector<AllocatedNum>> alloc_column(ConstraintSystem& cs, const ColumnWitness& c) {
  Namespace ns(cs, "column");
  std::vector<AllocatedNum> rows;
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    Namespace nr(cs, [r] { return "column_num_row_" + std::to_string(r); });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum x, AllocatedNum::alloc(cs, c.rows[r]));
    rows.push_back(x);
  }
  return rows;
}

// A label's bits in SHA-256 byte order (to_bits_le, then reverse_bit_numbering).
Result<std::vector<Boolean>> label_bits(ConstraintSystem& cs, const AllocatedNum& x) {
  CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> le, x.to_bits_le(cs));
  return reverse_bit_numbering(std::move(le));
}

// params.rs `Proof::synthesize`, in the parts of porep_circuit_steps.hpp.

// The data leaf and its inclusion in tree_d.
Result<AllocatedNum> part_tree_d(ConstraintSystem& cs, const ChallengeWitness& w,
                                 const PorepPrelude& p) {
  CUZK_ASSIGN_OR_RETURN(AllocatedNum data_leaf, scoped(cs, "data_leaf", [&] {
                          return AllocatedNum::alloc(cs, w.data_leaf);
                        }));
  CUZK_RETURN_IF_ERROR(scoped(cs, "comm_d_inclusion", [&] {
    return por_with_root(cs, MerkleHash::sha256, data_leaf, w.comm_d_path, p.comm_d);
  }));
  return data_leaf;
}

// The parents' columns, their hashes and their inclusion in tree_c; the challenge (64 bits, one
// public input).
Result<PorepColumns> part_columns(ConstraintSystem& cs, const ChallengeWitness& w,
                                  const PorepPrelude& p) {
  auto columns = [&](const std::vector<ColumnWitness>& in, const char* kind,
                     std::vector<std::vector<AllocatedNum>>& out) -> Status {
    for (std::size_t i = 0; i < in.size(); ++i) {
      const std::string prefix = std::string(kind) + "_parent_" + std::to_string(i);
      CUZK_ASSIGN_OR_RETURN(std::vector<AllocatedNum> col,
                            scoped(cs, prefix + "_num", [&] { return alloc_column(cs, in[i]); }));
      CUZK_ASSIGN_OR_RETURN(AllocatedNum hash, scoped(cs, prefix + "_constraint",
                                                      [&] { return hash_single_column(cs, col); }));
      CUZK_RETURN_IF_ERROR(scoped(cs, prefix + "_inclusion", [&] {
        return por_with_root(cs, MerkleHash::poseidon, hash, in[i].path, p.comm_c);
      }));
      out.push_back(std::move(col));
    }
    return {};
  };
  PorepColumns c;
  CUZK_RETURN_IF_ERROR(columns(w.drg, "drg", c.drg));
  CUZK_RETURN_IF_ERROR(columns(w.exp, "exp", c.exp));
  CUZK_ASSIGN_OR_RETURN(c.challenge,
                        scoped(cs, "challenge", [&] { return UInt64::alloc(cs, w.challenge); }));
  CUZK_RETURN_IF_ERROR(
      scoped(cs, "challenge input", [&] { return c.challenge.pack_into_input(cs); }));
  return c;
}

// The label of the challenged node in |layer| (1..L).
Result<AllocatedNum> part_label(ConstraintSystem& cs, unsigned layer, const PorepPrelude& p,
                                const PorepColumns& c) {
  Namespace ns(cs, [layer] { return "labeling_" + std::to_string(layer); });
  // The parents' labels in SHA-256 byte order, named by their position (upstream's
  // "drg_parent_{n}_bits" / "exp_parent_{n}_bits" with n = parents so far).
  std::vector<std::vector<Boolean>> parents;
  auto push_bits = [&](const char* kind, const AllocatedNum& label) -> Status {
    auto name = [&] {
      return std::string(kind) + "_parent_" + std::to_string(parents.size()) + "_bits";
    };
    CUZK_ASSIGN_OR_RETURN(std::vector<Boolean> bits,
                          scoped(cs, name, [&] { return label_bits(cs, label); }));
    parents.push_back(std::move(bits));
    return {};
  };
  for (const auto& col : c.drg) CUZK_RETURN_IF_ERROR(push_bits("drg", col[layer - 1]));
  if (layer > 1) {
    // Expander parents: the previous layer's labels.
    for (const auto& col : c.exp) CUZK_RETURN_IF_ERROR(push_bits("exp", col[layer - 2]));
  }
  // Cycled to 37 as the label hash reads them: layer 1: the 6 six times and the first again;
  // later layers: the 14 twice and the first 9.
  std::vector<std::vector<Boolean>> expanded;
  expanded.reserve(kLabelParents);
  while (expanded.size() + parents.size() <= kLabelParents)
    expanded.insert(expanded.end(), parents.begin(), parents.end());
  for (std::size_t i = 0; expanded.size() < kLabelParents; ++i) expanded.push_back(parents[i]);
  return scoped(cs, "create_label", [&] {
    return create_label_circuit(cs, p.replica_id_bits, expanded, UInt32::constant(layer),
                                c.challenge);
  });
}

// The replica node label_L + data in tree_r_last; the challenged node's column (its labels) in
// tree_c.
Status part_tail(ConstraintSystem& cs, const ChallengeWitness& w, const PorepPrelude& p,
                 const AllocatedNum& data_leaf, std::span<const AllocatedNum> labels) {
  CUZK_ASSIGN_OR_RETURN(AllocatedNum encoded, scoped(cs, "encode_node", [&] {
                          return encode(cs, labels.back(), data_leaf);
                        }));
  CUZK_RETURN_IF_ERROR(scoped(cs, "comm_r_last_data_inclusion", [&] {
    return por_with_root(cs, MerkleHash::poseidon, encoded, w.comm_r_last_path, p.comm_r_last);
  }));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum column_hash, scoped(cs, "c_x_column_hash", [&] {
                          return hash_single_column(cs, labels);
                        }));
  return scoped(cs, "c_x_inclusion", [&] {
    return por_with_root(cs, MerkleHash::poseidon, column_hash, w.comm_c_path, p.comm_c);
  });
}

}  // namespace

PorepCircuitShape porep_circuit_shape(const fc::SealProof& proof) {
  return {.nodes = fc::sector_nodes(proof.size),
          .layers = fc::sdr_layers(proof.size),
          .tree = fc::tree_shape(proof.size),
          .challenges = fc::porep_challenge_config(proof).per_partition};
}

Result<PorepCircuitPublic> porep_circuit_public(const fc::SealProof& proof,
                                                const fc::Node& replica_id, const fc::Node& comm_d,
                                                const fc::Node& comm_r, const fc::Node& seed,
                                                unsigned k) {
  const fc::PorepChallengeConfig cc = fc::porep_challenge_config(proof);
  if (k >= cc.partitions)
    return Status(Errc::out_of_range, "partition " + std::to_string(k) + ": " + proof.name +
                                          " has " + std::to_string(cc.partitions) + " partitions");
  PorepCircuitPublic pub;
  CUZK_ASSIGN_OR_RETURN(pub.replica_id, fc::fr_from_bytes32(replica_id, "replica_id"));
  CUZK_ASSIGN_OR_RETURN(pub.comm_d, fc::fr_from_bytes32(comm_d, "comm_d"));
  CUZK_ASSIGN_OR_RETURN(pub.comm_r, fc::fr_from_bytes32(comm_r, "comm_r"));
  pub.challenges = fc::porep_challenges(cc, replica_id, comm_r, seed, k);
  return pub;
}

Result<std::vector<Fr>> porep_circuit_public_inputs(const fc::SealProof& proof,
                                                    const PorepCircuitPublic& pub) {
  const PorepCircuitShape shape = porep_circuit_shape(proof);
  const fc::SdrGraph graph(shape.nodes, proof.porep_id, proof.api);
  std::vector<Fr> inputs = {pub.replica_id, pub.comm_d, pub.comm_r};
  inputs.reserve(3 + 18 * pub.challenges.size());
  std::array<std::uint32_t, fc::SdrGraph::kDegree> parents;
  for (std::size_t i = 0; i < pub.challenges.size(); ++i) {
    const std::uint64_t c = pub.challenges[i];
    if (c == 0 || c >= shape.nodes)
      return Status(Errc::out_of_range, "challenge " + std::to_string(i) + ": node " +
                                            std::to_string(c) + " is outside 1.." +
                                            std::to_string(shape.nodes - 1));
    inputs.push_back(Fr::from_u64(c));  // tree_d path index
    graph.parents(c, parents);
    for (std::uint32_t p : parents) inputs.push_back(Fr::from_u64(p));  // tree_c path indexes
    inputs.push_back(Fr::from_u64(c));                                  // the challenge
    inputs.push_back(Fr::from_u64(c));                                  // tree_r_last path index
    inputs.push_back(Fr::from_u64(c));  // tree_c path index of the challenged column
  }
  return inputs;
}

Result<PorepCircuitPrivate> porep_circuit_private(const fc::SealCommitPhase1Output& c1,
                                                  unsigned k) {
  const std::string where = "partition " + std::to_string(k);
  if (k >= c1.vanilla_proofs.size())
    return Status(Errc::out_of_range, where + ": the C1 output has " +
                                          std::to_string(c1.vanilla_proofs.size()) + " partitions");
  const auto& proofs = c1.vanilla_proofs[k];
  if (proofs.empty()) return Status(Errc::size_mismatch, where + ": no vanilla proofs");
  const fc::Bytes32& comm_r_last = proofs[0].comm_r_last_proof.root;
  const fc::Bytes32& comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
  for (std::size_t i = 1; i < proofs.size(); ++i) {
    const std::string at = where + ", challenge " + std::to_string(i) + ": ";
    if (proofs[i].comm_r_last_proof.root != comm_r_last)
      return Status(
          Errc::invalid_argument,
          at + "comm_r_last_proof.root differs from challenge 0's (inconsistent comm_r_last)");
    if (proofs[i].replica_column_proofs.c_x.inclusion_proof.root != comm_c)
      return Status(Errc::invalid_argument,
                    at +
                        "replica_column_proofs.c_x.inclusion_proof.root differs from challenge 0's "
                        "(inconsistent comm_c)");
  }
  PorepCircuitPrivate priv;
  priv.partition = k;
  auto r_last = fc::fr_from_bytes32(comm_r_last, "comm_r_last_proof.root");
  if (!r_last) return r_last.status().with_context(where + ", challenge 0");
  auto c = fc::fr_from_bytes32(comm_c, "replica_column_proofs.c_x.inclusion_proof.root");
  if (!c) return c.status().with_context(where + ", challenge 0");
  priv.comm_r_last = *r_last;
  priv.comm_c = *c;
  priv.proofs = proofs;
  return priv;
}

Result<PorepPartitionCircuit> porep_partition_from_c1(const fc::SealProof& proof,
                                                      const fc::PorepPublicInputs& pub,
                                                      const fc::SealCommitPhase1Output& c1,
                                                      unsigned k) {
  CUZK_ASSIGN_OR_RETURN(PorepCircuitPublic p, porep_circuit_public(proof, c1.replica_id, pub.comm_d,
                                                                   pub.comm_r, pub.seed, k));
  CUZK_ASSIGN_OR_RETURN(PorepCircuitPrivate q, porep_circuit_private(c1, k));
  return PorepPartitionCircuit{porep_circuit_shape(proof), std::move(p), q};
}

Result<PorepPartitionCircuit> porep_partition_from_c1(const fc::SealProof& proof,
                                                      const fc::SealCommitPhase1Output& c1,
                                                      unsigned k) {
  return porep_partition_from_c1(proof, fc::porep_public_inputs(c1), c1, k);
}

namespace detail {

Result<PorepSteps> PorepSteps::make(const PorepCircuitShape& shape, const PorepCircuitPublic* pub,
                                    const PorepCircuitPrivate* priv) {
  CUZK_RETURN_IF_ERROR(check_shape(shape));
  PorepSteps steps;
  steps.shape_ = shape;
  steps.pub_ = pub;
  steps.priv_ = priv;
  // Every challenge's witness first: a malformed proof is an error before any synthesis.
  if (priv != nullptr) {
    const std::string where = "partition " + std::to_string(priv->partition);
    if (pub->challenges.size() != shape.challenges || priv->proofs.size() != shape.challenges)
      return Status(Errc::size_mismatch,
                    where + ": " + std::to_string(pub->challenges.size()) + " challenges and " +
                        std::to_string(priv->proofs.size()) + " vanilla proofs, the circuit has " +
                        std::to_string(shape.challenges));
    for (unsigned i = 0; i < shape.challenges; ++i) {
      auto w = witness_of(priv->proofs[i], pub->challenges[i], shape);
      if (!w)
        return w.status().with_context(where + ", challenge " + std::to_string(i) + " (node " +
                                       std::to_string(pub->challenges[i]) + ")");
      steps.witnesses_.push_back(std::move(*w));
    }
  } else {
    CUZK_ASSIGN_OR_RETURN(ChallengeWitness blank, blank_witness(shape));
    steps.witnesses_.assign(shape.challenges, blank);
  }
  return steps;
}

Result<PorepPrelude> PorepSteps::synthesize_prelude(ConstraintSystem& cs) const {
  const bool values = priv_ != nullptr;
  auto value = [&](const Fr& x) -> std::optional<Fr> {
    return values ? std::optional<Fr>(x) : std::nullopt;
  };
  PorepPrelude p;

  // replica_id: public, and its bits in SHA-256 byte order for the labels.
  CUZK_ASSIGN_OR_RETURN(AllocatedNum replica_id, scoped(cs, "replica_id", [&] {
                          return AllocatedNum::alloc(cs, value(pub_ ? pub_->replica_id : Fr()));
                        }));
  CUZK_RETURN_IF_ERROR(scoped(cs, "replica_id_input", [&] { return replica_id.inputize(cs); }));
  CUZK_ASSIGN_OR_RETURN(p.replica_id_bits,
                        scoped(cs, "replica_id_bits", [&] { return label_bits(cs, replica_id); }));

  // comm_d and comm_r public; comm_r_last and comm_c private.
  CUZK_ASSIGN_OR_RETURN(p.comm_d, scoped(cs, "comm_d", [&] {
                          return AllocatedNum::alloc(cs, value(pub_ ? pub_->comm_d : Fr()));
                        }));
  CUZK_RETURN_IF_ERROR(scoped(cs, "comm_d_input", [&] { return p.comm_d.inputize(cs); }));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r, scoped(cs, "comm_r", [&] {
                          return AllocatedNum::alloc(cs, value(pub_ ? pub_->comm_r : Fr()));
                        }));
  CUZK_RETURN_IF_ERROR(scoped(cs, "comm_r_input", [&] { return comm_r.inputize(cs); }));
  CUZK_ASSIGN_OR_RETURN(p.comm_r_last, scoped(cs, "comm_r_last", [&] {
                          return AllocatedNum::alloc(cs, value(priv_ ? priv_->comm_r_last : Fr()));
                        }));
  CUZK_ASSIGN_OR_RETURN(p.comm_c, scoped(cs, "comm_c", [&] {
                          return AllocatedNum::alloc(cs, value(priv_ ? priv_->comm_c : Fr()));
                        }));

  // comm_r = H(comm_c ‖ comm_r_last) (PoseidonFunction::hash2_circuit).
  CUZK_ASSIGN_OR_RETURN(AllocatedNum h, scoped(cs, "H_comm_c_comm_r_last", [&] {
                          const AllocatedNum pair[2] = {p.comm_c, p.comm_r_last};
                          return poseidon_hash_circuit(cs, *poseidon_constants(2),
                                                       poseidon_merkle_tag(2), pair);
                        }));
  enforce_equal(cs, "enforce comm_r = H(comm_c || comm_r_last)", comm_r, h);
  return p;
}

Status PorepSteps::synthesize_challenge(ConstraintSystem& cs, unsigned i,
                                        const PorepPrelude& p) const {
  Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
  const ChallengeWitness& w = witnesses_[i];
  CUZK_ASSIGN_OR_RETURN(AllocatedNum data_leaf, part_tree_d(cs, w, p));
  CUZK_ASSIGN_OR_RETURN(PorepColumns c, part_columns(cs, w, p));
  std::vector<AllocatedNum> labels;
  for (unsigned layer = 1; layer <= shape_.layers; ++layer) {
    CUZK_ASSIGN_OR_RETURN(AllocatedNum label, part_label(cs, layer, p, c));
    labels.push_back(label);
  }
  return part_tail(cs, w, p, data_leaf, labels);
}

Result<AllocatedNum> PorepSteps::synthesize_tree_d(ConstraintSystem& cs, unsigned i,
                                                   const PorepPrelude& p) const {
  Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
  return part_tree_d(cs, witnesses_[i], p);
}

Result<PorepColumns> PorepSteps::synthesize_columns(ConstraintSystem& cs, unsigned i,
                                                    const PorepPrelude& p) const {
  Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
  return part_columns(cs, witnesses_[i], p);
}

Result<AllocatedNum> PorepSteps::synthesize_label(ConstraintSystem& cs, unsigned i, unsigned layer,
                                                  const PorepPrelude& p,
                                                  const PorepColumns& c) const {
  Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
  return part_label(cs, layer, p, c);
}

Status PorepSteps::synthesize_tail(ConstraintSystem& cs, unsigned i, const PorepPrelude& p,
                                   const AllocatedNum& data_leaf,
                                   std::span<const AllocatedNum> labels) const {
  Namespace ns(cs, [i] { return "challenge_" + std::to_string(i); });
  if (labels.size() != shape_.layers)
    return Status(Errc::size_mismatch, "PoRep tail: " + std::to_string(labels.size()) +
                                           " labels, the circuit has " +
                                           std::to_string(shape_.layers) + " layers");
  return part_tail(cs, witnesses_[i], p, data_leaf, labels);
}

}  // namespace detail

Status PorepCircuit::synthesize(ConstraintSystem& cs) {
  CUZK_ASSIGN_OR_RETURN(detail::PorepSteps steps, detail::PorepSteps::make(shape_, pub_, priv_));
  CUZK_ASSIGN_OR_RETURN(detail::PorepPrelude prelude, steps.synthesize_prelude(cs));
  for (unsigned i = 0; i < steps.challenges(); ++i)
    CUZK_RETURN_IF_ERROR(steps.synthesize_challenge(cs, i, prelude));
  return {};
}

}  // namespace cuzk::circuits::filecoin
