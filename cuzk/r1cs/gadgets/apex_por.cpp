#include "cuzk/r1cs/gadgets/apex_por.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/por_no_challenge.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

namespace cuzk {
namespace {

// to_bits_le of |x| in scope |name|, padded to whole bytes, each byte most significant bit first,
// appended to |out|.
Status append_be_bytes(ConstraintSystem& cs, const char* name, const AllocatedNum& x,
                       std::vector<Boolean>& out) {
  Result<std::vector<Boolean>> le = Status();
  {
    Namespace ns(cs, name);
    le = x.to_bits_le(cs);
  }
  if (!le) return le.status();
  std::vector<Boolean> padded = std::move(*le);
  while (padded.size() % 8 != 0) padded.push_back(Boolean::constant(false));
  for (std::size_t k = 0; k < padded.size(); k += 8)
    for (int j = 7; j >= 0; --j) out.push_back(padded[k + j]);
  return {};
}

}  // namespace

Result<AllocatedNum> sha256_hash2_circuit(ConstraintSystem& cs, const AllocatedNum& a,
                                          const AllocatedNum& b) {
  std::vector<Boolean> preimage;
  CUZK_RETURN_IF_ERROR(append_be_bytes(cs, "a_bits", a, preimage));
  CUZK_RETURN_IF_ERROR(append_be_bytes(cs, "b_bits", b, preimage));
  Result<std::vector<Boolean>> be = Status();
  {
    Namespace ns(cs, "hash");
    be = sha256(cs, preimage);
  }
  if (!be) return be.status();
  std::vector<Boolean> le;
  for (std::size_t k = 0; k < be->size() && le.size() < kFrCapacity; k += 8)
    for (int j = 7; j >= 0 && le.size() < kFrCapacity; --j) le.push_back((*be)[k + j]);
  Namespace ns(cs, "pack_le");
  return pack_bits(cs, le);
}

Status apex_por(ConstraintSystem& cs, std::span<const AllocatedNum> apex_leaves,
                std::span<const AllocatedBit> partition_bits,
                std::span<const AllocatedNum> partition_path, const AllocatedNum& comm_d) {
  const std::size_t n = apex_leaves.size();
  if (n < 2 || (n & (n - 1)) != 0)
    return Status(Errc::size_mismatch,
                  "apex_por: " + std::to_string(n) + " apex leaves (a power of two ≥ 2)");
  if (partition_path.size() != partition_bits.size())
    return Status(Errc::size_mismatch, "apex_por: " + std::to_string(partition_path.size()) +
                                           " partition path levels for " +
                                           std::to_string(partition_bits.size()) + " bits");
  std::vector<AllocatedNum> row(apex_leaves.begin(), apex_leaves.end());
  for (std::size_t r = 0; row.size() > 1; ++r) {
    std::vector<AllocatedNum> next;
    for (std::size_t i = 0; i < row.size() / 2; ++i) {
      Namespace ns(cs, [r, i] {
        return "apex_tree generation hash (tree_row=" + std::to_string(r) +
               ", siblings=" + std::to_string(i) + ")";
      });
      CUZK_ASSIGN_OR_RETURN(AllocatedNum h, sha256_hash2_circuit(cs, row[2 * i], row[2 * i + 1]));
      next.push_back(h);
    }
    row = std::move(next);
  }
  std::vector<std::vector<AllocatedNum>> path;
  for (const AllocatedNum& s : partition_path) path.push_back({s});
  Namespace ns(cs, "partition-tree por");
  return por_no_challenge_input(cs, MerkleHash::sha256, TreeArities{2, 0, 0}, partition_bits,
                                row[0], path, comm_d);
}

Fr apex_root_native(std::span<const Fr> leaves) {
  std::vector<Fr> row(leaves.begin(), leaves.end());
  while (row.size() > 1) {
    std::vector<Fr> next;
    for (std::size_t i = 0; i + 1 < row.size(); i += 2) {
      const Fr kids[2] = {row[i], row[i + 1]};
      next.push_back(sha256_node_native(kids));
    }
    row = std::move(next);
  }
  return row[0];
}

}  // namespace cuzk
