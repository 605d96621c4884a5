// Fuzz target: the SubmitProof path a client reaches without a network beneath it: the bytes are
// a protobuf cuzk.v1.SubmitProofRequest, converted as the gRPC service converts it (from_proto,
// server/proto_convert.hpp) and submitted to an Engine over the FakeProver (no delays, small
// partitions). Engine::submit validates the request; an accepted job must end (completed, failed
// or cancelled) and its outcome must convert back to a response.
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <memory>

#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/server/proto_convert.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

cuzk::engine::Engine& engine() {
  static std::unique_ptr<cuzk::engine::Engine> e = [] {
    spdlog::set_level(spdlog::level::off);  // every job logs at info
    auto fake = std::make_shared<cuzk::engine::FakeProver>(cuzk::engine::FakeProverOptions{
        .synth_ms = 0, .gpu_ms = 0, .key_load_ms = 0, .partition_bytes_override = 4096});
    auto r = cuzk::engine::Engine::create(
        {.memory_limit = std::uint64_t{1} << 30, .retention = std::chrono::milliseconds(200)},
        {fake});
    FUZZ_CHECK(r.ok());
    return std::move(*r);
  }();
  return *e;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  engine();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ::cuzk::v1::SubmitProofRequest m;
  if (!m.ParseFromArray(data, static_cast<int>(size))) return 0;
  auto s = engine().submit(cuzk::server::from_proto(m), {.identity = "uid:1", .tag = "fuzz"});
  if (!s.ok()) return 0;
  auto o = engine().await(s->job_id, std::chrono::seconds(60));
  if (!o.ok()) {
    // Pruned already (a request_id of a job that ended before this submit): not_found.
    FUZZ_CHECK(o.status().code() == cuzk::Errc::not_found && s->existing);
    return 0;
  }
  FUZZ_CHECK(o->status == cuzk::engine::AwaitStatus::completed ||
             o->status == cuzk::engine::AwaitStatus::failed ||
             o->status == cuzk::engine::AwaitStatus::cancelled);
  ::cuzk::v1::AwaitProofResponse resp;
  cuzk::server::to_proto(*o, &resp);
  FUZZ_CHECK(resp.proof() == o->proof);
  return 0;
}
