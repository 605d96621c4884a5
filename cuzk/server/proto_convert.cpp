#include "cuzk/server/proto_convert.hpp"

namespace cuzk::server {

namespace pb = ::cuzk::v1;

engine::JobRequest from_proto(const pb::SubmitProofRequest& m) {
  engine::JobRequest r;
  r.request_id = m.request_id();
  r.kind = static_cast<engine::ProofKind>(m.proof_kind());
  r.circuit_id = m.circuit_id();
  r.num_partitions = m.num_partitions();
  r.priority = static_cast<engine::Priority>(m.priority());
  r.sector_size = m.sector_size();
  r.registered_proof = m.registered_proof();
  r.vanilla_proof = m.vanilla_proof();
  r.vanilla_proofs.assign(m.vanilla_proofs().begin(), m.vanilla_proofs().end());
  r.sector_number = m.sector_number();
  r.miner_id = m.miner_id();
  r.randomness = m.randomness();
  r.partition_index = m.partition_index();
  r.comm_r_old = m.comm_r_old();
  r.comm_r_new = m.comm_r_new();
  r.comm_d_new = m.comm_d_new();
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
