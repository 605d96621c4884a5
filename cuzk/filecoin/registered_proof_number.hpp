// The registered proofs by number, as a cuzk.v1 SubmitProofRequest carries them in
// registered_proof (REFERENCE-CUZK.md §1, §7): the values of Go's abi.RegisteredSealProof /
// RegisteredPoStProof / RegisteredUpdateProof (filecoin-ffi's #[repr] enums), mapped to
// filecoin-proofs-api's proofs as filecoin-ffi and Curio's cuzk map them:
//   seal     0–4 StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5–9 V1_1,
//            10–14 V1_1_Feat_SyntheticPoRep, 15–19 V1_2_Feat_NonInteractivePoRep (the table's ids)
//   PoSt     0–4 StackedDrgWinning{size}V1, 5–9 StackedDrgWindow{size}V1,
//            10–14 Go's StackedDrgWindow{size}V1_1 = filecoin-proofs-api's V1_2 (the
//            grindability fix: the same circuit, another challenge index rule)
//   update   0–4 StackedDrg{size}V1 (SnapDeals)
// Sizes in each block in the order 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB.
#pragma once

#include <cstdint>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin {

/// The seal proof numbered |number|; invalid_argument naming the number and the range.
Result<SealProof> seal_proof_by_number(std::uint64_t number);
/// The PoSt proof numbered |number| (10–14 are the V1_2 Window proofs).
Result<PostProof> post_proof_by_number(std::uint64_t number);
/// The update proof numbered |number|.
Result<UpdateProof> update_proof_by_number(std::uint64_t number);

/// The number of a PoSt proof (the inverse of post_proof_by_number).
std::uint64_t post_proof_number(const PostProof& proof);
/// The number of an update proof.
std::uint64_t update_proof_number(const UpdateProof& proof);

}  // namespace cuzk::filecoin
