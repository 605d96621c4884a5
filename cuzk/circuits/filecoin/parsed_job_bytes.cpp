// The host bytes a parsed Filecoin job holds (ParsedJob::bytes): every vector's capacity and
// every string's heap buffer, walked through the nested vanilla-proof structures, plus the job
// object itself. The engine charges them to the input budget beside the request's bytes
// (engine/admission.cpp make_input): a 32 GiB C1 parses into about as many bytes as its JSON.
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace {

// A string's heap buffer (none while it fits the small-string buffer inside the object).
std::uint64_t heap(const std::string& s) {
  return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}

template <class T>
std::uint64_t heap(const std::vector<T>& v);

std::uint64_t heap(const fc::Bytes32&) { return 0; }
std::uint64_t heap(const fc::PathElement& e) { return heap(e.hashes); }
std::uint64_t heap(const fc::MerkleProof& p) {
  return heap(p.base_path) + heap(p.sub_path) + heap(p.top_path);
}
std::uint64_t heap(const fc::ColumnProof& c) {
  return heap(c.column.rows) + heap(c.inclusion_proof);
}
std::uint64_t heap(const fc::LabelingProof& l) { return heap(l.parents); }
std::uint64_t heap(const fc::PorepChallengeProof& p) {
  return heap(p.comm_d_proofs) + heap(p.comm_r_last_proof) + heap(p.replica_column_proofs.c_x) +
         heap(p.replica_column_proofs.drg_parents) + heap(p.replica_column_proofs.exp_parents) +
         heap(p.labeling_proofs) + heap(p.encoding_proof);
}
std::uint64_t heap(const fc::PostSectorProof& p) { return heap(p.inclusion_proofs); }
std::uint64_t heap(const fc::FallbackPoStSectorProof& p) { return heap(p.sectors); }
std::uint64_t heap(const fc::SnapChallengeProof& p) {
  return heap(p.proof_r_old) + heap(p.proof_d_new) + heap(p.proof_r_new);
}
std::uint64_t heap(const fc::SnapPartitionProof& p) {
  return heap(p.apex_leafs) + heap(p.challenge_proofs);
}
std::uint64_t heap(const fc::PostPublicSector&) { return 0; }

template <class T>
std::uint64_t heap(const std::vector<T>& v) {
  std::uint64_t n = v.capacity() * sizeof(T);
  for (const T& e : v) n += heap(e);
  return n;
}

}  // namespace

std::uint64_t PorepJob::bytes() const {
  return sizeof(*this) + heap(pub.proof.name) + heap(c1.registered_proof) + heap(c1.vanilla_proofs);
}

std::uint64_t WindowPostJob::bytes() const {
  return sizeof(*this) + heap(pub.proof.name) + heap(pub.sectors) + heap(vanilla);
}

std::uint64_t WinningPostJob::bytes() const {
  return sizeof(*this) + heap(pub.proof.name) + heap(vanilla);
}

std::uint64_t SnapJob::bytes() const { return sizeof(*this) + heap(pub.proof.name) + heap(proofs); }

}  // namespace cuzk::circuits::filecoin
