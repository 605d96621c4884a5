#include "cuzk/r1cs/gadgets/column_hash.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/poseidon.hpp"

namespace cuzk {
namespace {

Result<const PoseidonConstants*> column_constants(std::size_t rows) {
  if (rows != 2 && rows != 11)
    return Status(Errc::invalid_argument,
                  "column hash: unsupported column size " + std::to_string(rows) + " (2 or 11)");
  return poseidon_constants(static_cast<unsigned>(rows));
}

}  // namespace

Result<AllocatedNum> hash_single_column(ConstraintSystem& cs, std::span<const AllocatedNum> rows) {
  auto c = column_constants(rows.size());
  if (!c) return c.status();
  return poseidon_hash_circuit(cs, **c, poseidon_merkle_tag((*c)->arity), rows);
}

Result<Fr> hash_single_column_native(std::span<const Fr> rows) {
  auto c = column_constants(rows.size());
  if (!c) return c.status();
  return poseidon_hash_merkle(**c, rows);
}

}  // namespace cuzk
