#include "cuzk/engine/proof_system.hpp"

#include <algorithm>

#include "cuzk/formats/bellperson.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk::engine {

Status Groth16ProofSystem::evaluate_abc(const circuits::CircuitShape& shape,
                                        PartitionVectors& part) {
  if (!shape.has_form())
    return Status(Errc::invalid_argument,
                  "the circuit shape has neither matrices nor compact form");
  const std::uint64_t rows = shape.dims().num_constraints;
  part.take_abc(rows, std::max<std::size_t>(rows, shape.domain_size));
  if (shape.compact)
    return pce_compact_evaluate_into(pool_, *shape.compact, part.plain_z, part.abc.a, part.abc.b,
                                     part.abc.c);
  const R1csMatrices& m = *shape.matrices;
  PceOptions po;
  po.plan = shape.pce.get();
  return pce_evaluate_into(pool_, m, part.plain_z, part.abc.a, part.abc.b, part.abc.c, po);
}

Result<std::string> Groth16ProofSystem::prove(const ResidentKey& rk, const ProvingKey& key,
                                              const R1csDims& m, std::uint32_t k,
                                              PartitionVectors& part) {
  if (!part.has_abc())
    return Status(Errc::invalid_argument, "partition " + std::to_string(k) + " has no a/b/c");
  Result<Proof> proof = Status(Errc::invalid_argument, "no proof");
  ProveTimings timings;
  if (part.pinned() && part.pa.size() == key.domain_size) {
    // Pinned a, b, c, z: the device reads them by DMA; scratch afterwards, given back by release_abc().
    proof = prove_with_abc_spans(pool_, rk, m, std::span<Fr>(part.pa.data(), part.pa.size()),
                                 std::span<Fr>(part.pb.data(), part.pb.size()),
                                 std::span<Fr>(part.pc.data(), part.pc.size()), part.z(),
                                 {.timings = &timings});
  } else {
    if (part.pinned()) {  // a domain longer than the rows: extend copies in plain vectors
      part.take_abc(part.pa.size(), part.pa.size());
      std::copy_n(part.pa.data(), part.pa.size(), part.abc.a.data());
      std::copy_n(part.pb.data(), part.pb.size(), part.abc.b.data());
      std::copy_n(part.pc.data(), part.pc.size(), part.abc.c.data());
      part.pa.reset(), part.pb.reset(), part.pc.reset();
    }
    AbcVectors used;  // a/b/c come back (scratch) for the buffer pool: release_abc() gives them
    proof = prove_with_abc(pool_, rk, m, std::move(part.abc), part.z(),
                           {.timings = &timings, .used_abc = &used});
    part.abc = std::move(used);
  }
  part.uploaded = timings.upload_bytes;
  if (!proof) return proof.status().with_context("partition " + std::to_string(k));
  auto bytes = write_proofs(std::span<const Proof>(&*proof, 1));
  return std::string(bytes.begin(), bytes.end());
}

Result<std::string> Groth16ProofSystem::prove_compact(const ResidentKey& rk, const R1csDims& m,
                                                      CircuitId circuit, std::uint32_t k,
                                                      CompactPartition& part) {
  ProveTimings timings;
  auto proof = cuzk::prove_compact(pool_, rk, m, circuit, part.witness,
                                   {.timings = &timings, .host_vectors = part.host_vectors()});
  part.uploaded = timings.upload_bytes;
  if (!proof) return proof.status().with_context("partition " + std::to_string(k));
  auto bytes = write_proofs(std::span<const Proof>(&*proof, 1));
  return std::string(bytes.begin(), bytes.end());
}

Status Groth16ProofSystem::verify(const PreparedVerifyingKey& pvk, const std::string& proof,
                                  std::uint32_t partitions, const PartitionInputs& inputs) {
  auto proofs =
      parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
  if (!proofs) return proofs.status().with_context("self-verification");
  if (proofs->size() != partitions)
    return Status(Errc::size_mismatch, "self-verification: the job has " +
                                           std::to_string(partitions) + " partitions, the proof " +
                                           std::to_string(proofs->size()));
  for (std::uint32_t k = 0; k < proofs->size(); ++k) {
    auto in = inputs(k);
    if (!in) return in.status().with_context("self-verification, partition " + std::to_string(k));
    auto ok = cuzk::verify(pvk, *in, (*proofs)[k]);
    if (!ok) return ok.status().with_context("self-verification, partition " + std::to_string(k));
    if (!*ok)
      return Status(Errc::unsatisfied, "self-verification failed: partition " + std::to_string(k) +
                                           " proof does not verify");
  }
  return {};
}

}  // namespace cuzk::engine
