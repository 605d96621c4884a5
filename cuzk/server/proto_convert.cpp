#include "cuzk/server/proto_convert.hpp"

namespace cuzk::server {

namespace pb = ::cuzk::v1;

engine::JobRequest from_proto(pb::SubmitProofRequest& m) {
  engine::JobRequest r;
  r.request_id = m.request_id();
  r.kind = static_cast<engine::ProofKind>(m.proof_kind());
  r.circuit_id = m.circuit_id();
  r.num_partitions = m.num_partitions();
  r.priority = static_cast<engine::Priority>(m.priority());
  r.sector_size = m.sector_size();
  r.registered_proof = m.registered_proof();
  r.vanilla_proof.swap(*m.mutable_vanilla_proof());
  // The parse wrote into a string reserved for the whole message (the server's parse_request): a
  // field much smaller than that gives the rest back.
  if (r.vanilla_proof.capacity() > 2 * r.vanilla_proof.size() + 4096)
    r.vanilla_proof.shrink_to_fit();
  r.vanilla_proofs.resize(static_cast<std::size_t>(m.vanilla_proofs_size()));
  for (int i = 0; i < m.vanilla_proofs_size(); ++i)
    r.vanilla_proofs[static_cast<std::size_t>(i)].swap(*m.mutable_vanilla_proofs(i));
  r.sector_number = m.sector_number();
  r.miner_id = m.miner_id();
  r.randomness.swap(*m.mutable_randomness());
  r.partition_index = m.partition_index();
  r.comm_r_old.swap(*m.mutable_comm_r_old());
  r.comm_r_new.swap(*m.mutable_comm_r_new());
  r.comm_d_new.swap(*m.mutable_comm_d_new());
  r.update_h = m.update_h();
  return r;
}

void to_proto(const engine::JobOutcome& o, pb::AwaitProofResponse* m) {
  m->set_job_id(o.job_id);
  m->set_status(static_cast<pb::AwaitProofResponse::Status>(o.status));
  m->set_proof(o.proof);
  m->set_error_message(o.error);
  m->set_queue_wait_ms(o.timings.queue_wait_ms);
  m->set_srs_load_ms(o.timings.srs_load_ms);
  m->set_synthesis_ms(o.timings.synthesis_ms);
  m->set_gpu_compute_ms(o.timings.gpu_compute_ms);
  m->set_total_ms(o.timings.total_ms);
}

}  // namespace cuzk::server
