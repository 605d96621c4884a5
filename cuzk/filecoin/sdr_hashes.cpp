#include "cuzk/filecoin/sdr_hashes.hpp"

#include <cassert>

#include "cuzk/hash/poseidon.hpp"

namespace cuzk::filecoin {

Fr column_hash(std::span<const Fr> rows) {
  assert(rows.size() == 2 || rows.size() == 11);
  return hash::poseidon_hash_merkle(*hash::poseidon_constants(static_cast<unsigned>(rows.size())),
                                    rows);
}

Fr comm_r_of(const Fr& comm_c, const Fr& comm_r_last) {
  const Fr pair[2] = {comm_c, comm_r_last};
  return hash::poseidon_hash_merkle(*hash::poseidon_constants(2), pair);
}

}  // namespace cuzk::filecoin
