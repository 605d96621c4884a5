#include "cuzk/filecoin/registered_proof_number.hpp"

#include <string>

namespace cuzk::filecoin {
namespace {

std::size_t size_index(SectorSize s) {
  for (std::size_t i = 0; i < kSectorSizes.size(); ++i)
    if (kSectorSizes[i] == s) return i;
  return 0;
}

Status unknown(const char* what, std::uint64_t number, unsigned count) {
  return Status(Errc::invalid_argument, std::string("unknown registered ") + what + " proof " +
                                            std::to_string(number) + " (known: 0.." +
                                            std::to_string(count - 1) + ")");
}

}  // namespace

Result<SealProof> seal_proof_by_number(std::uint64_t number) {
  const auto& table = seal_proofs();  // in id order: the numbers are the ids
  if (number >= table.size()) return unknown("seal", number, static_cast<unsigned>(table.size()));
  return table[number];
}

Result<PostProof> post_proof_by_number(std::uint64_t number) {
  if (number >= 15) return unknown("PoSt", number, 15);
  const SectorSize size = kSectorSizes[number % 5];
  const PostKind kind = number < 5 ? PostKind::winning : PostKind::window;
  const ApiVersion api = number < 10 ? ApiVersion::v1_0_0 : ApiVersion::v1_2_0;
  for (const PostProof& p : post_proofs())
    if (p.kind == kind && p.size == size && p.api == api) return p;
  return unknown("PoSt", number, 15);
}

Result<UpdateProof> update_proof_by_number(std::uint64_t number) {
  if (number >= 5) return unknown("update", number, 5);
  for (const UpdateProof& p : update_proofs())
    if (p.size == kSectorSizes[number]) return p;
  return unknown("update", number, 5);
}

std::uint64_t post_proof_number(const PostProof& proof) {
  const std::uint64_t block = proof.kind == PostKind::winning   ? 0
                              : proof.api == ApiVersion::v1_0_0 ? 5
                                                                : 10;
  return block + size_index(proof.size);
}

std::uint64_t update_proof_number(const UpdateProof& proof) { return size_index(proof.size); }

}  // namespace cuzk::filecoin
