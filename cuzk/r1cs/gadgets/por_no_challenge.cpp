#include "cuzk/r1cs/gadgets/por_no_challenge.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/insertion.hpp"

namespace cuzk {
namespace {

unsigned log2_exact(unsigned a) {
  unsigned k = 0;
  while ((1u << k) < a) ++k;
  return k;
}

// The arity of each level of a path of |levels| levels: the last one or two are sub / top.
Result<std::vector<unsigned>> level_arities(const TreeArities& a, std::size_t levels) {
  const auto pow2 = [](unsigned x) { return x != 0 && (x & (x - 1)) == 0; };
  if (!pow2(a.base) || (a.sub && !pow2(a.sub)) || (a.top && !pow2(a.top)) || (a.top && !a.sub))
    return Status(Errc::invalid_argument, "PoR: arities must be powers of two, top needs sub");
  const std::size_t extra = (a.sub ? 1 : 0) + (a.top ? 1 : 0);
  if (levels < extra)
    return Status(Errc::size_mismatch,
                  "PoR: " + std::to_string(levels) + " path levels for a tree with sub/top levels");
  std::vector<unsigned> out(levels - extra, a.base);
  if (a.sub) out.push_back(a.sub);
  if (a.top) out.push_back(a.top);
  return out;
}

}  // namespace

Status por_no_challenge_input(ConstraintSystem& cs, MerkleHash hash, const TreeArities& arities,
                              std::span<const AllocatedBit> bits, const AllocatedNum& leaf,
                              std::span<const std::vector<AllocatedNum>> path,
                              const AllocatedNum& root) {
  CUZK_ASSIGN_OR_RETURN(std::vector<unsigned> level, level_arities(arities, path.size()));
  std::size_t want_bits = 0;
  for (unsigned a : level) want_bits += log2_exact(a);
  if (want_bits != bits.size())
    return Status(Errc::invalid_argument, "PoR: " + std::to_string(bits.size()) +
                                              " challenge bits for a path of " +
                                              std::to_string(want_bits) + " index bits");
  AllocatedNum cur = leaf;
  std::size_t next_bit = 0;
  for (std::size_t h = 0; h < path.size(); ++h) {
    if (path[h].size() + 1 != level[h])
      return Status(Errc::size_mismatch, "PoR: level " + std::to_string(h) + " has " +
                                             std::to_string(path[h].size()) + " siblings, arity " +
                                             std::to_string(level[h]));
    std::vector<Boolean> index;
    for (unsigned j = 0; j < log2_exact(level[h]); ++j)
      index.push_back(Boolean::from(bits[next_bit++]));
    Result<std::vector<AllocatedNum>> preimage = Status();
    {
      Namespace ns(cs, [h] { return "merkle proof insert (height=" + std::to_string(h) + ")"; });
      preimage = insert(cs, cur, index, path[h]);
    }
    if (!preimage) return preimage.status();
    Namespace ns(cs, [h] { return "merkle proof hash (height=" + std::to_string(h) + ")"; });
    CUZK_ASSIGN_OR_RETURN(cur, merkle_node_circuit(cs, hash, *preimage));
  }
  enforce_equal(cs, "calculated root == provided root", cur, root);
  return {};
}

Fr por_root_native(MerkleHash hash, const TreeArities& arities, std::uint64_t index, const Fr& leaf,
                   std::span<const std::vector<Fr>> path) {
  const std::vector<unsigned> level = level_arities(arities, path.size()).value();
  Fr cur = leaf;
  for (std::size_t h = 0; h < path.size(); ++h) {
    const unsigned a = level[h];
    const std::uint64_t pos = index % a;
    index /= a;
    std::vector<Fr> kids;
    std::size_t s = 0;
    for (unsigned p = 0; p < a; ++p) kids.push_back(p == pos ? cur : path[h][s++]);
    cur = merkle_node_native(hash, kids);
  }
  return cur;
}

}  // namespace cuzk
