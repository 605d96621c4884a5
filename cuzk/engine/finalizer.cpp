// The finalizer: a job's partition proofs concatenated in order and self-verified, off the device.
#include "cuzk/engine/engine.hpp"

#include "cuzk/engine/engine_parts.hpp"

namespace cuzk::engine {

void Engine::finalize_loop() {
  while (auto popped = fin_q_.pop()) {
    auto job = popped->second.job;
    auto in = std::move(popped->second.in);
    if (job->stop) continue;
    ++finalizing_;
    std::string proof;
    for (auto& p : job->parts) proof += p;
    Status st;
    if (job->plan.self_verify.value_or(opt_.self_verify)) {
      auto lease = lease_of(*job);
      auto key =
          lease
              ? lease->wait()
              : Result<std::shared_ptr<const ProvingKeyData>>(Status(Errc::cancelled, "job ended"));
      st = key ? job->prover->verify_job(**key, in->req, in->plan_for(job->plan), proof)
               : key.status();
    }
    in.reset();
    --finalizing_;
    if (st.ok()) {
      finish(job, JobState::completed, "", std::move(proof));
    } else {
      finish(job, JobState::failed, "finalize: " + st.to_string(), "");
    }
  }
}

}  // namespace cuzk::engine
