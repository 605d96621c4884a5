// SDR encoding in circuit (rust-fil-proofs storage-proofs-core gadgets/encode.rs `encode` =
// constraint.rs `add`): the replica node = key + value. In scope "encode_add": a new variable
// (scope "add_num") and one constraint "sum constraint" (key + value)·1 = sum.
#pragma once

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk {

/// key + value with one constraint.
Result<AllocatedNum> encode(ConstraintSystem& cs, const AllocatedNum& key,
                            const AllocatedNum& value);

}  // namespace cuzk
