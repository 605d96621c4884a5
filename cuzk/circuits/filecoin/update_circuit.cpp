#include "cuzk/circuits/filecoin/update_circuit.hpp"

#include <memory>
#include <string>

#include "cuzk/circuits/filecoin/update_circuit_steps.hpp"
#include "cuzk/circuits/filecoin/update_gadgets.hpp"
#include "cuzk/filecoin/merkle_proof.hpp"
#include "cuzk/r1cs/gadgets/apex_por.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/bit_decomposition.hpp"
#include "cuzk/r1cs/gadgets/gen_randomness.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/por_no_challenge.hpp"

namespace cuzk::circuits::filecoin {
namespace {

using cuzk::filecoin::Bytes32;
using cuzk::filecoin::MerkleProof;
using Value = std::optional<Fr>;
using Siblings = std::vector<Value>;

// The values the circuit allocates, in the shapes it allocates them; all empty for setup.
struct ChallengeWitness {
  Value leaf_r_old, leaf_d_new;
  std::vector<Siblings> path_r_old, path_r_new;  // per level: arity − 1 siblings
  Siblings path_to_apex;                         // per level below the apex leaves: one sibling
};
struct Witness {
  Value k_and_h_select, comm_r_old, comm_d_new, comm_r_new;
  Value comm_c, root_r_old, root_r_new;
  Siblings apex_leaves, partition_path;
  std::vector<ChallengeWitness> challenges;
};

// Sibling counts of each tree_r level: base levels, then sub and top when present.
Result<std::vector<unsigned>> tree_r_levels(const SnapParams& p, const TreeShape& shape) {
  CUZK_ASSIGN_OR_RETURN(unsigned base, cuzk::filecoin::base_levels(shape, p.nodes));
  std::vector<unsigned> out(base, shape.base - 1);
  if (shape.sub) out.push_back(shape.sub - 1);
  if (shape.top) out.push_back(shape.top - 1);
  return out;
}

Result<Witness> blank_witness(const SnapParams& p, const TreeShape& shape) {
  CUZK_ASSIGN_OR_RETURN(std::vector<unsigned> levels, tree_r_levels(p, shape));
  Witness w;
  w.apex_leaves.resize(p.apex_leaves);
  w.partition_path.resize(p.partition_bit_len);
  ChallengeWitness c;
  for (unsigned s : levels) c.path_r_old.emplace_back(s);
  c.path_r_new = c.path_r_old;
  c.path_to_apex.resize(p.apex_leafs_height());
  w.challenges.assign(p.challenges, c);
  return w;
}

Status named(const Status& s, const std::string& where) {
  return Status(s.code(), where + ": " + s.message());
}

// The values of |v| for partition |pub.k|, with its counts and shapes checked.
Result<Witness> witness_from(const SnapParams& p, const TreeShape& shape, const UpdatePublic& pub,
                             std::uint64_t k_and_h_select, const SnapPartitionProof& v) {
  const std::string part = "update partition " + std::to_string(pub.k);
  const auto fr = [&](const Bytes32& b, const std::string& what) -> Result<Fr> {
    auto x = cuzk::filecoin::fr_from_bytes32(b, what);
    if (!x) return named(x.status(), part);
    return *x;
  };
  Witness w;
  w.k_and_h_select = Fr::from_u64(k_and_h_select);
  w.comm_r_old = pub.comm_r_old;
  w.comm_d_new = pub.comm_d_new;
  w.comm_r_new = pub.comm_r_new;
  CUZK_ASSIGN_OR_RETURN(w.comm_c, fr(v.comm_c, "comm_c"));
  if (v.apex_leafs.size() != p.apex_leaves)
    return Status(Errc::size_mismatch, part +
                                           ": apex_leafs: " + std::to_string(v.apex_leafs.size()) +
                                           " leaves, not " + std::to_string(p.apex_leaves));
  for (std::size_t i = 0; i < v.apex_leafs.size(); ++i) {
    CUZK_ASSIGN_OR_RETURN(Fr leaf, fr(v.apex_leafs[i], "apex_leafs[" + std::to_string(i) + "]"));
    w.apex_leaves.push_back(leaf);
  }
  if (v.challenge_proofs.size() != p.challenges)
    return Status(Errc::size_mismatch,
                  part + ": challenge_proofs: " + std::to_string(v.challenge_proofs.size()) +
                      " proofs, not " + std::to_string(p.challenges));
  const TreeShape binary{2, 0, 0};
  const unsigned apex_height = p.apex_leafs_height();
  const unsigned partition_from = p.challenge_bit_len - p.partition_bit_len;
  for (std::size_t i = 0; i < v.challenge_proofs.size(); ++i) {
    const auto& cp = v.challenge_proofs[i];
    const std::string where = part + ", challenge " + std::to_string(i);
    const auto check = [&](const MerkleProof& m, const TreeShape& s, const char* name) -> Status {
      Status st = cuzk::filecoin::check_merkle_shape(m, s, p.nodes, name);
      return st.ok() ? st : named(st, where);
    };
    CUZK_RETURN_IF_ERROR(check(cp.proof_r_old, shape, "proof_r_old"));
    CUZK_RETURN_IF_ERROR(check(cp.proof_d_new, binary, "proof_d_new"));
    CUZK_RETURN_IF_ERROR(check(cp.proof_r_new, shape, "proof_r_new"));
    const auto frc = [&](const Bytes32& b, const std::string& what) -> Result<Fr> {
      auto x = cuzk::filecoin::fr_from_bytes32(b, what);
      if (!x) return named(x.status(), where);
      return *x;
    };
    const auto path_values = [&](const MerkleProof& m,
                                 const char* name) -> Result<std::vector<Siblings>> {
      std::vector<Siblings> out;
      std::size_t level = 0;
      for (const auto* part_path : {&m.base_path, &m.sub_path, &m.top_path}) {
        for (const auto& e : *part_path) {
          Siblings s;
          for (std::size_t j = 0; j < e.hashes.size(); ++j) {
            CUZK_ASSIGN_OR_RETURN(
                Fr x, frc(e.hashes[j], std::string(name) + " level " + std::to_string(level) +
                                           " sibling " + std::to_string(j)));
            s.push_back(x);
          }
          out.push_back(std::move(s));
          ++level;
        }
      }
      return out;
    };
    ChallengeWitness c;
    CUZK_ASSIGN_OR_RETURN(c.leaf_r_old, frc(cp.proof_r_old.leaf, "proof_r_old.leaf"));
    CUZK_ASSIGN_OR_RETURN(c.leaf_d_new, frc(cp.proof_d_new.leaf, "proof_d_new.leaf"));
    CUZK_ASSIGN_OR_RETURN(c.path_r_old, path_values(cp.proof_r_old, "proof_r_old"));
    CUZK_ASSIGN_OR_RETURN(c.path_r_new, path_values(cp.proof_r_new, "proof_r_new"));
    CUZK_ASSIGN_OR_RETURN(std::vector<Siblings> d_path, path_values(cp.proof_d_new, "proof_d_new"));
    for (unsigned l = 0; l < apex_height; ++l) c.path_to_apex.push_back(d_path[l][0]);
    if (i == 0) {
      CUZK_ASSIGN_OR_RETURN(w.root_r_old, frc(cp.proof_r_old.root, "proof_r_old.root"));
      CUZK_ASSIGN_OR_RETURN(w.root_r_new, frc(cp.proof_r_new.root, "proof_r_new.root"));
      for (unsigned l = partition_from; l < p.challenge_bit_len; ++l)
        w.partition_path.push_back(d_path[l][0]);
    } else {
      // circuit.rs asserts that every challenge's tree_d path ends in the same partition path.
      const auto& first = v.challenge_proofs[0].proof_d_new.base_path;
      for (unsigned l = partition_from; l < p.challenge_bit_len; ++l)
        if (cp.proof_d_new.base_path[l].hashes != first[l].hashes)
          return Status(Errc::invalid_argument, where + ": proof_d_new level " + std::to_string(l) +
                                                    " (partition path) differs from challenge 0's");
    }
    w.challenges.push_back(std::move(c));
  }
  return w;
}

Result<AllocatedNum> alloc_named(ConstraintSystem& cs, const std::string& name, const Value& v) {
  Namespace ns(cs, [&] { return name; });
  return AllocatedNum::alloc(cs, v);
}

Result<AllocatedNum> alloc_input_named(ConstraintSystem& cs, const char* name,
                                       const char* input_name, const Value& v) {
  CUZK_ASSIGN_OR_RETURN(AllocatedNum x, alloc_named(cs, name, v));
  Namespace ns(cs, input_name);
  CUZK_RETURN_IF_ERROR(x.inputize(cs));
  return x;
}

// Allocates |levels| of siblings as circuit.rs names them: "{what} sibling (c_index=i,
// tree_row=r[, sibling_index=j])".
Result<std::vector<std::vector<AllocatedNum>>> alloc_path(ConstraintSystem& cs,
                                                          const std::vector<Siblings>& levels,
                                                          const char* what, std::size_t c_index,
                                                          bool name_sibling_index) {
  std::vector<std::vector<AllocatedNum>> out;
  for (std::size_t r = 0; r < levels.size(); ++r) {
    std::vector<AllocatedNum> row;
    for (std::size_t j = 0; j < levels[r].size(); ++j) {
      Namespace ns(cs, [&] {
        std::string n = std::string(what) + " sibling (c_index=" + std::to_string(c_index) +
                        ", tree_row=" + std::to_string(r);
        if (name_sibling_index) n += ", sibling_index=" + std::to_string(j);
        return n + ")";
      });
      CUZK_ASSIGN_OR_RETURN(AllocatedNum s, AllocatedNum::alloc(cs, levels[r][j]));
      row.push_back(s);
    }
    out.push_back(std::move(row));
  }
  return out;
}

std::string indexed(const char* what, std::size_t c_index) {
  return std::string(what) + " (c_index=" + std::to_string(c_index) + ")";
}

}  // namespace

Result<TreeShape> update_tree_shape(std::uint64_t nodes) {
  switch (nodes) {
    case 1u << 5:
      return TreeShape{8, 4, 0};
    case 1u << 6:
      return TreeShape{8, 0, 0};
    case 1u << 7:
      return TreeShape{8, 2, 0};
    case 1u << 8:
      return TreeShape{8, 4, 0};
    case 1u << 9:
      return TreeShape{8, 8, 0};
    case 1u << 10:
      return TreeShape{8, 8, 2};
    case 1u << 18:
      return TreeShape{8, 0, 0};
    case 1u << 19:
      return TreeShape{8, 2, 0};
    case 1u << 24:
      return TreeShape{8, 0, 0};
    case 1u << 30:
      return TreeShape{8, 8, 0};
    case 1ull << 31:
      return TreeShape{8, 8, 2};
    default:
      return Status(Errc::invalid_argument, "EmptySectorUpdate has no tree_r shape for " +
                                                std::to_string(nodes) + " nodes");
  }
}

Result<UpdatePublic> update_public(std::uint64_t nodes, unsigned k, unsigned h,
                                   const Bytes32& comm_r_old, const Bytes32& comm_d_new,
                                   const Bytes32& comm_r_new) {
  UpdatePublic pub;
  pub.nodes = nodes;
  pub.k = k;
  pub.h = h;
  CUZK_ASSIGN_OR_RETURN(pub.comm_r_old, cuzk::filecoin::fr_from_bytes32(comm_r_old, "comm_r_old"));
  CUZK_ASSIGN_OR_RETURN(pub.comm_d_new, cuzk::filecoin::fr_from_bytes32(comm_d_new, "comm_d_new"));
  CUZK_ASSIGN_OR_RETURN(pub.comm_r_new, cuzk::filecoin::fr_from_bytes32(comm_r_new, "comm_r_new"));
  return pub;
}

Result<std::vector<Fr>> update_public_inputs(const UpdatePublic& pub) {
  CUZK_RETURN_IF_ERROR(update_tree_shape(pub.nodes).status());
  CUZK_ASSIGN_OR_RETURN(SnapParams p, cuzk::filecoin::snap_params(pub.nodes));
  CUZK_ASSIGN_OR_RETURN(std::uint64_t khs, cuzk::filecoin::snap_k_and_h_select(p, pub.k, pub.h));
  return std::vector<Fr>{Fr::from_u64(khs), pub.comm_r_old, pub.comm_d_new, pub.comm_r_new};
}

namespace detail {

struct UpdateSteps::State {
  UpdatePublic pub;
  TreeShape shape;
  SnapParams p;
  Witness w;
};

Result<UpdateSteps> UpdateSteps::make(const UpdatePublic& pub, const SnapPartitionProof* vanilla) {
  auto s = std::make_shared<State>();
  s->pub = pub;
  CUZK_ASSIGN_OR_RETURN(s->shape, update_tree_shape(pub.nodes));
  CUZK_ASSIGN_OR_RETURN(s->p, cuzk::filecoin::snap_params(pub.nodes));
  if (vanilla) {
    CUZK_ASSIGN_OR_RETURN(std::uint64_t khs,
                          cuzk::filecoin::snap_k_and_h_select(s->p, pub.k, pub.h));
    CUZK_ASSIGN_OR_RETURN(s->w, witness_from(s->p, s->shape, pub, khs, *vanilla));
  } else {
    CUZK_ASSIGN_OR_RETURN(s->w, blank_witness(s->p, s->shape));
  }
  return UpdateSteps(std::move(s));
}

unsigned UpdateSteps::challenges() const { return s_->p.challenges; }

Result<UpdatePrelude> UpdateSteps::synthesize_prelude(ConstraintSystem& cs) const {
  const SnapParams& p = s_->p;
  const Witness& w = s_->w;
  UpdatePrelude out;
  // Public inputs; k and h_select bits.
  CUZK_ASSIGN_OR_RETURN(
      AllocatedNum k_and_h_select,
      alloc_input_named(cs, "k_and_h_select", "k_and_h_select (public input)", w.k_and_h_select));
  CUZK_ASSIGN_OR_RETURN(
      std::vector<AllocatedBit> khs_bits,
      low_bits_le_packed(cs, k_and_h_select, p.partition_bit_len + p.hs.size(), "k_and_h_select"));
  out.partition_bits.assign(khs_bits.begin(), khs_bits.begin() + p.partition_bit_len);
  out.h_select_bits.assign(khs_bits.begin() + p.partition_bit_len, khs_bits.end());
  const std::vector<AllocatedBit>& partition_bits = out.partition_bits;
  Result<AllocatedNum> partition = Status();
  {
    std::vector<Boolean> bits;
    for (const AllocatedBit& b : partition_bits) bits.push_back(Boolean::from(b));
    Namespace ns(cs, "pack partition bits");
    partition = pack_bits(cs, bits);
  }
  if (!partition) return partition.status();
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r_old,
                        alloc_input_named(cs, "comm_r_old", "comm_r_old_input", w.comm_r_old));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_d_new,
                        alloc_input_named(cs, "comm_d_new", "comm_d_new_input", w.comm_d_new));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_r_new,
                        alloc_input_named(cs, "comm_r_new", "comm_r_new_input", w.comm_r_new));
  Result<AllocatedNum> phi = Status();
  {
    Namespace ns(cs, "phi");
    phi = gen_randomness_circuit(cs, comm_d_new, comm_r_old);
  }
  if (!phi) return phi.status();
  out.phi = *phi;

  // Private values other than the per-challenge proofs.
  CUZK_ASSIGN_OR_RETURN(AllocatedNum comm_c, alloc_named(cs, "comm_c", w.comm_c));
  CUZK_ASSIGN_OR_RETURN(out.root_r_old, alloc_named(cs, "root_r_old", w.root_r_old));
  CUZK_ASSIGN_OR_RETURN(out.root_r_new, alloc_named(cs, "root_r_new", w.root_r_new));
  const AllocatedNum& root_r_old = out.root_r_old;
  const AllocatedNum& root_r_new = out.root_r_new;
  std::vector<AllocatedNum>& apex_leaves = out.apex_leaves;
  for (std::size_t i = 0; i < w.apex_leaves.size(); ++i) {
    CUZK_ASSIGN_OR_RETURN(AllocatedNum x,
                          alloc_named(cs, "apex_leaf_" + std::to_string(i), w.apex_leaves[i]));
    apex_leaves.push_back(x);
  }
  std::vector<AllocatedNum> partition_path;
  for (std::size_t i = 0; i < w.partition_path.size(); ++i) {
    CUZK_ASSIGN_OR_RETURN(
        AllocatedNum x,
        alloc_named(cs, "partition_path_sibling_" + std::to_string(i), w.partition_path[i]));
    partition_path.push_back(x);
  }

  // comm_r = Poseidon2(comm_c, root_r), old and new.
  for (const auto& [name, check, root, comm] :
       {std::tuple{"comm_r_old_calc", "enforce comm_r_old_calc == comm_r_old", &root_r_old,
                   &comm_r_old},
        std::tuple{"comm_r_new_calc", "enforce comm_r_new_calc == comm_r_new", &root_r_new,
                   &comm_r_new}}) {
    Result<AllocatedNum> calc = Status();
    {
      Namespace ns(cs, name);
      const AllocatedNum kids[2] = {comm_c, *root};
      calc = merkle_node_circuit(cs, MerkleHash::poseidon, kids);
    }
    if (!calc) return calc.status();
    enforce_equal(cs, check, *calc, *comm);
  }

  {
    Namespace ns(cs, "apex_gadget");
    CUZK_RETURN_IF_ERROR(apex_por(cs, apex_leaves, partition_bits, partition_path, comm_d_new));
  }

  Result<std::vector<std::vector<AllocatedBit>>> generated = Status();
  {
    Namespace ns(cs, "gen_challenge_bits");
    generated = gen_challenge_bits(cs, comm_r_new, *partition, p.challenges,
                                   p.challenge_bit_len - p.partition_bit_len);
  }
  if (!generated) return generated.status();
  out.generated = std::move(*generated);
  return out;
}

Status UpdateSteps::synthesize_challenge(ConstraintSystem& cs, unsigned i,
                                         const UpdatePrelude& pre) const {
  const SnapParams& p = s_->p;
  const TreeShape& shape = s_->shape;
  if (i >= p.challenges)
    return Status(Errc::out_of_range,
                  "challenge " + std::to_string(i) + " of " + std::to_string(p.challenges));
  const std::vector<AllocatedBit>& partition_bits = pre.partition_bits;
  const std::vector<AllocatedBit>& h_select_bits = pre.h_select_bits;
  const std::vector<AllocatedNum>& apex_leaves = pre.apex_leaves;
  const AllocatedNum& root_r_old = pre.root_r_old;
  const AllocatedNum& root_r_new = pre.root_r_new;
  const AllocatedNum& phi = pre.phi;
  const TreeArities tree_r{shape.base, shape.sub, shape.top};
  const unsigned apex_height = p.apex_leafs_height();
  const ChallengeWitness& cw = s_->w.challenges[i];
  std::vector<AllocatedBit> c_bits = pre.generated[i];
  c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());

  Result<AllocatedNum> c_high = Status();
  {
    Namespace ns(cs, [&] { return indexed("get_challenge_high_bits", i); });
    c_high = challenge_high_bits(cs, c_bits, h_select_bits, p.hs);
  }
  if (!c_high) return c_high.status();
  Result<AllocatedNum> rho = Status();
  {
    Namespace ns(cs, [&] { return indexed("rho", i); });
    rho = gen_randomness_circuit(cs, phi, *c_high);
  }
  if (!rho) return rho.status();

  CUZK_ASSIGN_OR_RETURN(AllocatedNum leaf_r_old,
                        alloc_named(cs, indexed("leaf_r_old", i), cw.leaf_r_old));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum leaf_d_new,
                        alloc_named(cs, indexed("leaf_d_new", i), cw.leaf_d_new));
  Result<AllocatedNum> leaf_r_new_r = Status();
  {
    Namespace ns(cs, [&] { return indexed("leaf_r_new", i); });
    leaf_r_new_r = label_r_new(cs, leaf_r_old, leaf_d_new, *rho);
  }
  if (!leaf_r_new_r) return leaf_r_new_r.status();
  const AllocatedNum leaf_r_new = *leaf_r_new_r;
  // circuit.rs also asserts that this value equals proof_r_new's leaf; that is a host-side
  // check which adds no constraint — PoR(tree_r_new) below fails on any other leaf.

  CUZK_ASSIGN_OR_RETURN(auto path_r_old, alloc_path(cs, cw.path_r_old, "path_r_old", i, true));
  {
    Namespace ns(cs, [&] { return indexed("por tree_r_old", i); });
    CUZK_RETURN_IF_ERROR(por_no_challenge_input(cs, MerkleHash::poseidon, tree_r, c_bits,
                                                leaf_r_old, path_r_old, root_r_old));
  }
  CUZK_ASSIGN_OR_RETURN(auto path_r_new, alloc_path(cs, cw.path_r_new, "path_r_new", i, true));
  {
    Namespace ns(cs, [&] { return indexed("por tree_r_new", i); });
    CUZK_RETURN_IF_ERROR(por_no_challenge_input(cs, MerkleHash::poseidon, tree_r, c_bits,
                                                leaf_r_new, path_r_new, root_r_new));
  }

  std::vector<Boolean> apex_bits;
  for (unsigned b = apex_height; b < apex_height + p.apex_leaf_bit_len; ++b)
    apex_bits.push_back(Boolean::from(c_bits[b]));
  Result<AllocatedNum> apex_leaf = Status();
  {
    Namespace ns(cs, [&] { return indexed("select_apex_leaf", i); });
    apex_leaf = select(cs, apex_leaves, apex_bits);
  }
  if (!apex_leaf) return apex_leaf.status();

  std::vector<Siblings> to_apex;
  for (const Value& s : cw.path_to_apex) to_apex.push_back({s});
  CUZK_ASSIGN_OR_RETURN(auto path_to_apex, alloc_path(cs, to_apex, "path_to_apex_leaf", i, false));
  Namespace ns(cs, [&] { return indexed("por to_apex_leaf", i); });
  const std::span<const AllocatedBit> low(c_bits.data(), apex_height);
  CUZK_RETURN_IF_ERROR(por_no_challenge_input(cs, MerkleHash::sha256, TreeArities{2, 0, 0}, low,
                                              leaf_d_new, path_to_apex, *apex_leaf));
  return {};
}

}  // namespace detail

Status UpdateCircuit::synthesize(ConstraintSystem& cs) {
  CUZK_ASSIGN_OR_RETURN(detail::UpdateSteps steps, detail::UpdateSteps::make(pub_, vanilla_));
  CUZK_ASSIGN_OR_RETURN(detail::UpdatePrelude prelude, steps.synthesize_prelude(cs));
  for (unsigned i = 0; i < steps.challenges(); ++i)
    CUZK_RETURN_IF_ERROR(steps.synthesize_challenge(cs, i, prelude));
  return {};
}

}  // namespace cuzk::circuits::filecoin
