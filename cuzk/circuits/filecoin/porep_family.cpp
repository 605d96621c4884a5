#include "cuzk/circuits/filecoin/porep_family.hpp"

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_witness.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace {

std::vector<fc::ParameterSet> porep_sets() {
  std::vector<fc::ParameterSet> out;
  for (fc::SectorSize s : fc::kSectorSizes) out.push_back(fc::porep_parameters(s));
  return out;
}

// |proof| with the overrides that are set.
fc::SealProof with_overrides(fc::SealProof proof, const ProofOverrides& o) {
  if (o.porep_id) proof.porep_id = *o.porep_id;
  if (o.api_version) proof.api = *o.api_version;
  return proof;
}

}  // namespace

Result<std::shared_ptr<PorepJob>> parse_porep_request(const JobRequest& req,
                                                      const ProofOverrides& overrides) {
  if (req.vanilla_proof.empty())
    return Status(Errc::invalid_argument,
                  "vanilla_proof is empty: a POREP_SEAL_COMMIT request carries the C1 envelope");
  fc::CurioC1Request header;
  auto c1 = fc::read_curio_c1(req.vanilla_proof, &header);
  if (!c1) return c1.status().with_context("vanilla_proof (C1 envelope)");
  auto proof = fc::seal_proof(c1->registered_proof);
  if (!proof) return proof.status().with_context("the C1's registered_proof");
  // 0 is also an unset field: the C1 names the proof.
  if (req.registered_proof != 0 && req.registered_proof != proof->id) {
    auto named = fc::seal_proof_by_number(req.registered_proof);
    return Status(Errc::invalid_argument, "registered_proof " +
                                              std::to_string(req.registered_proof) +
                                              (named ? " (" + named->name + ")" : std::string()) +
                                              " is not the C1's seal proof " + proof->name + " (" +
                                              std::to_string(proof->id) + ")");
  }
  if (req.sector_size != 0 && req.sector_size != fc::sector_bytes(proof->size))
    return Status(Errc::invalid_argument, "sector_size " + std::to_string(req.sector_size) +
                                              " is not the C1's: " + proof->name + " has " +
                                              std::to_string(fc::sector_bytes(proof->size)) +
                                              "-byte sectors");
  if (c1->vanilla_size != proof->size)
    return Status(Errc::invalid_argument, "the C1's vanilla proofs are of " +
                                              std::string(fc::sector_size_name(c1->vanilla_size)) +
                                              " sectors, its " + proof->name + " of " +
                                              std::string(fc::sector_size_name(proof->size)));
  if (header.sector_num != req.sector_number)
    return Status(Errc::invalid_argument, "sector_number " + std::to_string(req.sector_number) +
                                              " is not the C1 envelope's SectorNum " +
                                              std::to_string(header.sector_num));
  auto job = std::make_shared<PorepJob>();
  job->pub.proof = with_overrides(*proof, overrides);
  job->pub.prover_id = fc::prover_id_of_actor(req.miner_id);
  job->pub.sector_id = req.sector_number;
  job->pub.ticket = c1->ticket;
  job->pub.seed = c1->seed;
  job->pub.comm_d = c1->comm_d;
  job->pub.comm_r = c1->comm_r;
  const fc::Bytes32 want = porep_replica_id(job->pub);
  if (want != c1->replica_id && overrides.porep_id && *overrides.porep_id != proof->porep_id) {
    PorepPublicData own = job->pub;
    own.proof = *proof;
    if (porep_replica_id(own) == c1->replica_id)
      return Status(Errc::invalid_argument,
                    "the C1's replica_id is derived with porep_id " + fc::to_hex(proof->porep_id) +
                        " (its registered proof " + proof->name +
                        "'s), not with the porep_id override " + fc::to_hex(*overrides.porep_id));
  }
  if (want != c1->replica_id)
    return Status(Errc::invalid_argument,
                  "the C1 is not of sector " + std::to_string(req.sector_number) + " of miner " +
                      std::to_string(req.miner_id) + ": its replica_id " +
                      fc::to_hex(c1->replica_id) + " is not " + fc::to_hex(want) +
                      " (from prover_id, sector_number, the C1's ticket and comm_d, porep_id)");
  job->c1 = std::move(*c1);
  return job;
}

PorepFamily::PorepFamily(FilecoinFamilyOptions opt)
    : FilecoinFamily(std::move(opt), porep_sets()) {}

Result<PartitionPlan> PorepFamily::plan(const JobRequest& req) {
  const ProofOverrides& overrides = options().overrides;
  auto job = parse_porep_request(req, overrides);
  if (!job) return job.status();
  const fc::ParameterSet set = parameter_set((*job)->pub);
  CUZK_RETURN_IF_ERROR(require_key(set));
  const fc::PorepPublicInputs pub{.replica_id = (*job)->c1.replica_id,
                                  .comm_d = (*job)->pub.comm_d,
                                  .comm_r = (*job)->pub.comm_r,
                                  .seed = (*job)->pub.seed};
  if (Status s = fc::verify_porep_vanilla((*job)->pub.proof, pub, (*job)->c1); !s.ok()) {
    // An api_version override that gives another graph than the C1's proof: name both when the
    // vanilla proofs fit the C1's own proof.
    auto own = fc::seal_proof((*job)->c1.registered_proof);
    if (own && overrides.api_version && *overrides.api_version != own->api) {
      own->porep_id = (*job)->pub.proof.porep_id;
      if (fc::verify_porep_vanilla(*own, pub, (*job)->c1).ok())
        return Status(Errc::invalid_argument,
                      "the C1's vanilla proofs are of api version " +
                          std::string(fc::api_version_name(own->api)) + " (its registered proof " +
                          own->name + "'s), not of the api_version override " +
                          std::string(fc::api_version_name(*overrides.api_version)));
    }
    return s.with_context("vanilla_proof (C1 vanilla proofs)");
  }
  const unsigned partitions = partition_count((*job)->pub);
  return plan_for(set, partitions, std::shared_ptr<const PorepJob>(std::move(*job)));
}

Result<std::shared_ptr<const PorepJob>> PorepFamily::job_of(const JobRequest& req,
                                                            const PartitionPlan& plan) {
  return parsed_job_or<PorepJob>(plan,
                                 [&] { return parse_porep_request(req, options().overrides); });
}

Result<PorepPartitionCircuit> PorepFamily::partition_circuit(const JobRequest& req,
                                                             const PartitionPlan& plan,
                                                             std::uint32_t k) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  const PorepJob& j = **job;
  return porep_partition_from_c1(
      j.pub.proof, {.comm_d = j.pub.comm_d, .comm_r = j.pub.comm_r, .seed = j.pub.seed}, j.c1, k);
}

Status PorepFamily::witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                            std::vector<Fr>& z, const CancelFlag& cancel) {
  auto pc = partition_circuit(req, plan, k);
  if (!pc) return pc.status();
  PorepCircuit circuit(pc->shape, pc->pub, pc->priv);
  return synthesize_witness(circuit, plan, k, z, cancel);
}

Status PorepFamily::compact_witness(const JobRequest& req, const PartitionPlan& plan,
                                    std::uint32_t k, CompactWitness& out,
                                    const CancelFlag& cancel) {
  const std::string where = "partition " + std::to_string(k) + " compact witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  auto pc = partition_circuit(req, plan, k);
  if (!pc) return pc.status();
  // On this thread (the engine's synthesis worker): the engine runs partitions side by side, and
  // one thread's scratch is what compact_witness_peak_bytes counts.
  ThreadPool inline_pool(1);
  return take_compact_witness(
      porep_partition_compact_witness(pc->shape, pc->pub, pc->priv, inline_pool), plan, k, cancel,
      out);
}

std::uint64_t PorepFamily::compact_witness_peak_bytes(const PartitionPlan& plan,
                                                      const CompactWitnessBound& b) {
  auto set = set_of(plan.key_id);
  if (!set) return CircuitFamily::compact_witness_peak_bytes(plan, b);
  for (const fc::SealProof& p : fc::seal_proofs()) {
    if (p.size != set->size) continue;
    auto l = porep_witness_layout(porep_circuit_shape(p));
    if (!l) break;
    return porep_compact_witness_peak_bytes(*l, b, 1);
  }
  return CircuitFamily::compact_witness_peak_bytes(plan, b);
}

Result<std::vector<Fr>> PorepFamily::public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                                   std::uint32_t k) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  return partition_public_inputs((*job)->pub, k);
}

Result<std::unique_ptr<Circuit>> PorepFamily::blank_circuit(const fc::ParameterSet& set) const {
  // Every seal proof of a size has the same circuit (porep_circuit_test OneShapePerSectorSize).
  for (const fc::SealProof& p : fc::seal_proofs())
    if (p.size == set.size)
      return std::unique_ptr<Circuit>(new PorepCircuit(porep_circuit_shape(p)));
  return Status(Errc::not_found, "no seal proof of " + std::string(fc::sector_size_name(set.size)));
}

}  // namespace cuzk::circuits::filecoin
