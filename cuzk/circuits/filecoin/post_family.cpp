#include "cuzk/circuits/filecoin/post_family.hpp"

#include <set>

#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/post_witness.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace {

const char* kind_name(fc::PostKind k) {
  return k == fc::PostKind::winning ? "WinningPoSt" : "WindowPoSt";
}

std::vector<fc::ParameterSet> post_sets(fc::PostKind kind) {
  std::vector<fc::ParameterSet> out;
  for (fc::SectorSize s : fc::kSectorSizes) out.push_back(fc::post_parameters(kind, s));
  return out;
}

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The request's registered PoSt proof, of |kind|, and its sector size; an api_version override
// replaces the proof's (the challenge rule), a porep_id override is refused (PoSt has none).
Result<fc::PostProof> post_proof_of(const JobRequest& req, fc::PostKind kind,
                                    const ProofOverrides& overrides) {
  if (overrides.porep_id)
    return Status(Errc::invalid_argument, "a porep_id override does not apply to PoSt");
  auto proof = fc::post_proof_by_number(req.registered_proof);
  if (!proof) return proof.status().with_context("registered_proof");
  if (overrides.api_version) proof->api = *overrides.api_version;
  if (proof->kind != kind)
    return Status(Errc::invalid_argument,
                  "registered_proof " + std::to_string(req.registered_proof) + " is " +
                      proof->name + ", not a " + kind_name(kind) + " proof");
  if (req.sector_size != 0 && req.sector_size != fc::sector_bytes(proof->size))
    return Status(Errc::invalid_argument, "sector_size " + std::to_string(req.sector_size) +
                                              " is not " + proof->name + "'s " +
                                              std::to_string(fc::sector_bytes(proof->size)));
  return proof;
}

// The 32-byte randomness, below r (upstream's as_safe_commitment).
Result<fc::Bytes32> randomness_of(const JobRequest& req) {
  if (req.randomness.size() != 32)
    return Status(
        Errc::invalid_argument,
        req.randomness.empty()
            ? std::string("randomness is missing (32 bytes)")
            : "randomness has " + std::to_string(req.randomness.size()) + " bytes, not 32");
  fc::Bytes32 r;
  std::copy(req.randomness.begin(), req.randomness.end(), r.begin());
  auto fr = fc::fr_from_bytes32(r, "randomness");
  if (!fr) return fr.status();
  return r;
}

Result<fc::FallbackPoStSectorProof> read_vanilla(const JobRequest& req, std::size_t i) {
  auto p = fc::read_post_sector_proof(bytes_of(req.vanilla_proofs[i]));
  if (!p) return p.status().with_context("vanilla_proofs[" + std::to_string(i) + "]");
  return p;
}

}  // namespace

Result<std::shared_ptr<WindowPostJob>> parse_window_post_request(const JobRequest& req,
                                                                 const ProofOverrides& overrides) {
  auto proof = post_proof_of(req, fc::PostKind::window, overrides);
  if (!proof) return proof.status();
  auto randomness = randomness_of(req);
  if (!randomness) return randomness.status();
  if (req.vanilla_proofs.empty())
    return Status(Errc::invalid_argument,
                  "vanilla_proofs: none (one FallbackPoStSectorProof per sector of the partition)");
  if (req.vanilla_proofs.size() > proof->sector_count)
    return Status(Errc::invalid_argument,
                  "vanilla_proofs: " + std::to_string(req.vanilla_proofs.size()) + " sectors, a " +
                      proof->name + " partition has at most " +
                      std::to_string(proof->sector_count));
  auto job = std::make_shared<WindowPostJob>();
  job->pub.proof = *proof;
  job->pub.randomness = *randomness;
  job->pub.prover_id = fc::prover_id_of_actor(req.miner_id);
  job->pub.partition_index = req.partition_index;
  std::set<std::uint64_t> ids;
  for (std::size_t i = 0; i < req.vanilla_proofs.size(); ++i) {
    auto p = read_vanilla(req, i);
    if (!p) return p.status();
    if (!ids.insert(p->sector_id).second)
      return Status(Errc::invalid_argument, "vanilla_proofs[" + std::to_string(i) + "]: sector " +
                                                std::to_string(p->sector_id) +
                                                " appears twice in the partition");
    job->pub.sectors.push_back(fc::PostPublicSector{p->sector_id, p->comm_r});
    job->vanilla.push_back(std::move(*p));
  }
  return job;
}

Result<std::shared_ptr<WinningPostJob>> parse_winning_post_request(
    const JobRequest& req, const ProofOverrides& overrides) {
  auto proof = post_proof_of(req, fc::PostKind::winning, overrides);
  if (!proof) return proof.status();
  auto randomness = randomness_of(req);
  if (!randomness) return randomness.status();
  if (req.vanilla_proofs.size() != 1)
    return Status(Errc::invalid_argument,
                  "vanilla_proofs: " + std::to_string(req.vanilla_proofs.size()) +
                      " proofs, WinningPoSt takes the challenged sector's one");
  auto p = read_vanilla(req, 0);
  if (!p) return p.status();
  // 0 is also an unset field.
  if (req.sector_number != 0 && req.sector_number != p->sector_id)
    return Status(Errc::invalid_argument,
                  "vanilla_proofs[0] is of sector " + std::to_string(p->sector_id) +
                      ", the request's sector_number is " + std::to_string(req.sector_number));
  auto job = std::make_shared<WinningPostJob>();
  job->pub.proof = *proof;
  job->pub.randomness = *randomness;
  job->pub.prover_id = fc::prover_id_of_actor(req.miner_id);
  job->pub.sector = fc::PostPublicSector{p->sector_id, p->comm_r};
  job->vanilla = std::move(*p);
  return job;
}

PostFamily::PostFamily(fc::PostKind kind, FilecoinFamilyOptions opt)
    : FilecoinFamily(std::move(opt), post_sets(kind)), kind_(kind) {}

std::string PostFamily::name() const {
  return kind_ == fc::PostKind::winning ? "filecoin-winning-post" : "filecoin-window-post";
}

std::vector<ProofKind> PostFamily::kinds() const {
  return {kind_ == fc::PostKind::winning ? ProofKind::winning_post
                                         : ProofKind::window_post_partition};
}

Result<PartitionPlan> PostFamily::plan(const JobRequest& req) {
  if (kind_ == fc::PostKind::window) {
    auto job = parse_window_post_request(req, options().overrides);
    if (!job) return job.status();
    const fc::ParameterSet set = parameter_set((*job)->pub);
    CUZK_RETURN_IF_ERROR(require_key(set));
    const WindowPostPublicData& pub = (*job)->pub;
    CUZK_RETURN_IF_ERROR(fc::verify_post_vanilla(pub.proof, pub.randomness, pub.sectors,
                                                 (*job)->vanilla, pub.partition_index)
                             .with_context("vanilla_proofs"));
    return plan_for(set, 1, std::shared_ptr<const ParsedJob>(std::move(*job)));
  }
  auto job = parse_winning_post_request(req, options().overrides);
  if (!job) return job.status();
  const fc::ParameterSet set = parameter_set((*job)->pub);
  CUZK_RETURN_IF_ERROR(require_key(set));
  const WinningPostPublicData& pub = (*job)->pub;
  CUZK_RETURN_IF_ERROR(
      fc::verify_post_vanilla(pub.proof, pub.randomness, {&pub.sector, 1}, {&(*job)->vanilla, 1})
          .with_context("vanilla_proofs"));
  return plan_for(set, 1, std::shared_ptr<const ParsedJob>(std::move(*job)));
}

Result<std::shared_ptr<const ParsedJob>> PostFamily::job_of(const JobRequest& req,
                                                            const PartitionPlan& plan) {
  if (kind_ == fc::PostKind::window)
    return parsed_job_or<ParsedJob>(
        plan, [&] { return parse_window_post_request(req, options().overrides); });
  return parsed_job_or<ParsedJob>(
      plan, [&] { return parse_winning_post_request(req, options().overrides); });
}

Result<PostCircuit> PostFamily::partition_circuit(const JobRequest& req, const PartitionPlan& plan,
                                                  std::uint32_t k) {
  if (k != 0)
    return Status(Errc::out_of_range, "partition " + std::to_string(k) + ": a " + kind_name(kind_) +
                                          " job has one partition");
  auto parsed = job_of(req, plan);
  if (!parsed) return parsed.status();
  if (const auto* w = dynamic_cast<const WindowPostJob*>(parsed->get())) {
    auto params = post_circuit_params(w->pub.proof);
    if (!params) return params.status();
    // The partition alone: its sectors are circuit sectors 0.. (the positions only enter the
    // challenged leaves, which the proofs carry).
    auto proofs = fc::window_post_partition_proof(w->pub.proof, w->vanilla, 0);
    if (!proofs) return proofs.status();
    PostCircuitPublic pub{.randomness = w->pub.randomness,
                          .prover_id = w->pub.prover_id,
                          .sectors = w->pub.sectors,
                          .partition = 0};
    return PostCircuit::create(*params, pub, *proofs);
  }
  if (const auto* w = dynamic_cast<const WinningPostJob*>(parsed->get())) {
    auto params = post_circuit_params(w->pub.proof);
    if (!params) return params.status();
    auto proofs = winning_post_circuit_proofs(*params, w->vanilla);
    if (!proofs) return proofs.status();
    const PostCircuitPublic pub =
        winning_post_public(*params, w->pub.randomness, w->pub.prover_id, w->pub.sector);
    return PostCircuit::create(*params, pub, *proofs);
  }
  return Status(Errc::invalid_argument, name() + ": the plan is not of this family");
}

Status PostFamily::witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                           std::vector<Fr>& z, const CancelFlag& cancel) {
  auto circuit = partition_circuit(req, plan, k);
  if (!circuit) return circuit.status();
  return synthesize_witness(*circuit, plan, k, z, cancel);
}

Status PostFamily::compact_witness(const JobRequest& req, const PartitionPlan& plan,
                                   std::uint32_t k, CompactWitness& out, const CancelFlag& cancel) {
  const std::string where = "partition " + std::to_string(k) + " compact witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  auto circuit = partition_circuit(req, plan, k);
  if (!circuit) return circuit.status();
  // On this thread (the engine's synthesis worker), as PorepFamily: the engine runs partitions
  // side by side, and one thread's scratch is what compact_witness_peak_bytes counts. The cancel
  // flag is polled before each circuit sector.
  ThreadPool inline_pool(1);
  auto w = post_partition_compact_witness(*circuit, inline_pool, {.cancel = &cancel});
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  if (!w) return w.status().with_context(where);
  if (w->num_variables() != plan.columns)
    return Status(Errc::size_mismatch, where + ": " + std::to_string(w->num_variables()) +
                                           " variables, the circuit has " +
                                           std::to_string(plan.columns) + " columns");
  out = std::move(*w);
  return {};
}

std::uint64_t PostFamily::compact_witness_peak_bytes(const PartitionPlan& plan,
                                                     const CompactWitnessBound& b) {
  auto set = set_of(plan.key_id);
  if (!set) return FilecoinFamily::compact_witness_peak_bytes(plan, b);
  for (const fc::PostProof& p : fc::post_proofs()) {
    if (p.kind != kind_ || p.size != set->size) continue;
    auto params = post_circuit_params(p);
    if (!params) break;
    auto l = post_witness_layout(*params);
    if (!l) break;
    return parts_peak_bytes(*l, b, 1);
  }
  return FilecoinFamily::compact_witness_peak_bytes(plan, b);
}

Result<std::vector<Fr>> PostFamily::public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                                  std::uint32_t k) {
  auto parsed = job_of(req, plan);
  if (!parsed) return parsed.status();
  if (const auto* w = dynamic_cast<const WindowPostJob*>(parsed->get()))
    return partition_public_inputs(w->pub, k);
  if (const auto* w = dynamic_cast<const WinningPostJob*>(parsed->get()))
    return partition_public_inputs(w->pub, k);
  return Status(Errc::invalid_argument, name() + ": the plan is not of this family");
}

Result<std::unique_ptr<Circuit>> PostFamily::blank_circuit(const fc::ParameterSet& set) const {
  for (const fc::PostProof& p : fc::post_proofs()) {
    if (p.kind != kind_ || p.size != set.size) continue;
    auto params = post_circuit_params(p);
    if (!params) return params.status();
    return std::unique_ptr<Circuit>(new PostCircuit(*params));
  }
  return Status(Errc::not_found, std::string("no ") + kind_name(kind_) + " proof of " +
                                     std::string(fc::sector_size_name(set.size)));
}

}  // namespace cuzk::circuits::filecoin
