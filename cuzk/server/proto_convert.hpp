// cuzk.v1 messages ⇄ engine value types: the whole translation of a SubmitProof request and of an
// AwaitProof answer, kept apart from the gRPC service so that a fuzz target (fuzz/submit_request.cpp)
// drives the same conversion without a server.
#pragma once

#include "cuzk/engine/job_types.hpp"
#include "cuzk/server/prover.pb.h"

namespace cuzk::server {

/// A SubmitProofRequest as the engine sees it (enums cast as they come: Engine::submit checks them).
/// The bytes fields are moved out of |m|, not copied.
engine::JobRequest from_proto(::cuzk::v1::SubmitProofRequest& m);
/// Fills an AwaitProofResponse from a job outcome.
void to_proto(const engine::JobOutcome& o, ::cuzk::v1::AwaitProofResponse* m);

}  // namespace cuzk::server
