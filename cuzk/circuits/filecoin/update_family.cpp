#include "cuzk/circuits/filecoin/update_family.hpp"

#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/circuits/filecoin/update_witness.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_verify.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace {

std::vector<fc::ParameterSet> update_sets() {
  std::vector<fc::ParameterSet> out;
  for (fc::SectorSize s : fc::kSectorSizes) out.push_back(fc::update_parameters(s));
  return out;
}

// A 32-byte commitment field, below r.
Result<fc::Bytes32> commitment_of(const std::string& bytes, const char* field) {
  if (bytes.size() != 32)
    return Status(Errc::invalid_argument,
                  bytes.empty() ? std::string(field) + " is missing (32 bytes)"
                                : std::string(field) + " has " + std::to_string(bytes.size()) +
                                      " bytes, not 32");
  fc::Bytes32 c;
  std::copy(bytes.begin(), bytes.end(), c.begin());
  auto fr = fc::fr_from_bytes32(c, field);
  if (!fr) return fr.status();
  return c;
}

}  // namespace

Result<std::shared_ptr<SnapJob>> parse_snap_request(const JobRequest& req) {
  auto proof = fc::update_proof_by_number(req.registered_proof);
  if (!proof) return proof.status().with_context("registered_proof");
  if (req.sector_size != 0 && req.sector_size != fc::sector_bytes(proof->size))
    return Status(Errc::invalid_argument, "sector_size " + std::to_string(req.sector_size) +
                                              " is not " + proof->name + "'s " +
                                              std::to_string(fc::sector_bytes(proof->size)));
  auto job = std::make_shared<SnapJob>();
  job->pub.proof = *proof;
  // h: the request's (one of the size's allowed values, storage-proofs-update constants.rs `hs`),
  // or h_default when 0, as filecoin-proofs' update API always uses.
  const fc::SnapParams sp = fc::snap_params(proof->size);
  job->pub.h = req.update_h != 0 ? req.update_h : sp.h_default;
  if (!sp.h_allowed(job->pub.h))
    return Status(Errc::invalid_argument, "update_h " + std::to_string(req.update_h) +
                                              " is not allowed for " + proof->name +
                                              " (allowed: " + std::to_string(sp.hs[0]) + ".." +
                                              std::to_string(sp.hs[5]) + "; 0 = h_default " +
                                              std::to_string(sp.h_default) + ")");
  for (auto [dst, bytes, field] :
       {std::tuple{&job->pub.comm_r_old, &req.comm_r_old, "comm_r_old"},
        std::tuple{&job->pub.comm_d_new, &req.comm_d_new, "comm_d_new"},
        std::tuple{&job->pub.comm_r_new, &req.comm_r_new, "comm_r_new"}}) {
    auto c = commitment_of(*bytes, field);
    if (!c) return c.status();
    *dst = *c;
  }
  if (req.vanilla_proofs.size() != proof->partitions)
    return Status(Errc::invalid_argument,
                  "vanilla_proofs: " + std::to_string(req.vanilla_proofs.size()) +
                      " partition proofs, " + proof->name + " has " +
                      std::to_string(proof->partitions) +
                      (proof->partitions == 1 ? " partition" : " partitions"));
  for (std::size_t k = 0; k < req.vanilla_proofs.size(); ++k) {
    const std::string& b = req.vanilla_proofs[k];
    auto p = fc::read_snap_partition_proof(
        std::span(reinterpret_cast<const std::uint8_t*>(b.data()), b.size()));
    if (!p) return p.status().with_context("vanilla_proofs[" + std::to_string(k) + "]");
    job->proofs.push_back(std::move(*p));
  }
  return job;
}

UpdateFamily::UpdateFamily(FilecoinFamilyOptions opt)
    : FilecoinFamily(std::move(opt), update_sets()) {}

Result<PartitionPlan> UpdateFamily::plan(const JobRequest& req) {
  if (!options().overrides.empty())
    return Status(Errc::invalid_argument,
                  "porep_id and api_version overrides do not apply to SnapDeals (its circuit, "
                  "vanilla proofs and public inputs depend on neither)");
  auto job = parse_snap_request(req);
  if (!job) return job.status();
  const fc::ParameterSet set = parameter_set((*job)->pub);
  CUZK_RETURN_IF_ERROR(require_key(set));
  const SnapPublicData& pub = (*job)->pub;
  const fc::SnapPublic spub{pub.comm_r_old, pub.comm_d_new, pub.comm_r_new, pub.h};
  CUZK_RETURN_IF_ERROR(
      fc::verify_snap_vanilla(pub.proof, spub, (*job)->proofs).with_context("vanilla_proofs"));
  const unsigned partitions = partition_count(pub);
  return plan_for(set, partitions, std::shared_ptr<const SnapJob>(std::move(*job)));
}

Result<std::shared_ptr<const SnapJob>> UpdateFamily::job_of(const JobRequest& req,
                                                            const PartitionPlan& plan) {
  return parsed_job_or<SnapJob>(plan, [&] { return parse_snap_request(req); });
}

Result<UpdatePublic> UpdateFamily::partition_public(const SnapJob& j, std::uint32_t k) const {
  if (k >= j.proofs.size())
    return Status(Errc::out_of_range, "partition " + std::to_string(k) + ": the update has " +
                                          std::to_string(j.proofs.size()) + " partitions");
  return update_public(fc::sector_nodes(j.pub.proof.size), k, j.pub.h, j.pub.comm_r_old,
                       j.pub.comm_d_new, j.pub.comm_r_new);
}

Status UpdateFamily::witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                             std::vector<Fr>& z, const CancelFlag& cancel) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  const SnapJob& j = **job;
  auto pub = partition_public(j, k);
  if (!pub) return pub.status();
  UpdateCircuit circuit(*pub, &j.proofs[k]);
  return synthesize_witness(circuit, plan, k, z, cancel);
}

Status UpdateFamily::compact_witness(const JobRequest& req, const PartitionPlan& plan,
                                     std::uint32_t k, CompactWitness& out,
                                     const CancelFlag& cancel) {
  const std::string where = "partition " + std::to_string(k) + " compact witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  auto job = job_of(req, plan);
  if (!job) return job.status();
  const SnapJob& j = **job;
  auto pub = partition_public(j, k);
  if (!pub) return pub.status();
  // On this thread (the engine's synthesis worker), as PorepFamily: the engine runs partitions
  // side by side, and one thread's scratch is what compact_witness_peak_bytes counts. The cancel
  // flag is polled before each challenge.
  ThreadPool inline_pool(1);
  auto w = update_partition_compact_witness(*pub, j.proofs[k], inline_pool, {.cancel = &cancel});
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  if (!w) return w.status().with_context(where);
  if (w->num_variables() != plan.columns)
    return Status(Errc::size_mismatch, where + ": " + std::to_string(w->num_variables()) +
                                           " variables, the circuit has " +
                                           std::to_string(plan.columns) + " columns");
  out = std::move(*w);
  return {};
}

std::uint64_t UpdateFamily::compact_witness_peak_bytes(const PartitionPlan& plan,
                                                       const CompactWitnessBound& b) {
  auto set = set_of(plan.key_id);
  if (!set) return FilecoinFamily::compact_witness_peak_bytes(plan, b);
  auto l = update_witness_layout(fc::snap_params(set->size).nodes);
  if (!l) return FilecoinFamily::compact_witness_peak_bytes(plan, b);
  return parts_peak_bytes(*l, b, 1);
}

Result<std::vector<Fr>> UpdateFamily::public_inputs(const JobRequest& req,
                                                    const PartitionPlan& plan, std::uint32_t k) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  return partition_public_inputs((*job)->pub, k);
}

Result<std::unique_ptr<Circuit>> UpdateFamily::blank_circuit(const fc::ParameterSet& set) const {
  const fc::SnapParams p = fc::snap_params(set.size);
  UpdatePublic pub;
  pub.nodes = p.nodes;
  pub.k = 0;
  pub.h = p.h_default;
  return std::unique_ptr<Circuit>(new UpdateCircuit(pub));
}

}  // namespace cuzk::circuits::filecoin
