#include "cuzk/server/submit.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <span>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"
#include "cuzk/server/client_channel.hpp"
#include "cuzk/server/prover.grpc.pb.h"
#include "cuzk/server/read_file.hpp"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;
namespace fc = cuzk::filecoin;

// --registered-proof as the number Go's abi gives the proof of |kind|: a decimal number as it
// is, a name through filecoin-proofs-api's tables.
Result<std::uint64_t> proof_number(const std::string& kind, const std::string& text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec == std::errc() && end == text.data() + text.size()) return n;
  if (kind == "porep") {
    auto p = fc::seal_proof(text);
    if (!p) return p.status();
    return std::uint64_t{p->id};
  }
  if (kind == "update") {
    auto p = fc::update_proof(text);
    if (!p) return p.status();
    return fc::update_proof_number(*p);
  }
  auto p = fc::post_proof(text);
  if (!p) return p.status();
  if ((p->kind == fc::PostKind::winning) != (kind == "winning"))
    return Status(Errc::invalid_argument,
                  "--registered-proof " + text + " is not a " + kind + " PoSt proof");
  return fc::post_proof_number(*p);
}

Result<std::string> bytes32_flag(const std::string& flag, const std::string& hex) {
  auto b = fc::parse_hex32(hex, flag);
  if (!b) return b.status();
  return std::string(b->begin(), b->end());
}

// The proofs in |files| one by one (a file may hold several, as post-vanilla and snap-vanilla
// write them), each as its bytes: the request carries one bincode proof per entry.
template <class Proof, class Read>
Result<std::vector<std::string>> split_proofs(const std::vector<std::string>& files, Read read) {
  std::vector<std::string> out;
  for (const std::string& path : files) {
    auto bytes = read_file(path);
    if (!bytes) return bytes.status();
    const std::span<const std::uint8_t> all(reinterpret_cast<const std::uint8_t*>(bytes->data()),
                                            bytes->size());
    fc::BincodeReader r(all);
    while (!r.at_end()) {
      const std::size_t begin = r.offset();
      Proof p;
      if (auto st = read(r, p); !st.ok()) return st.with_context(path);
      out.emplace_back(bytes->data() + begin, r.offset() - begin);
    }
  }
  if (out.empty()) return Status(Errc::invalid_argument, "--vanilla: no proofs in the files");
  return out;
}

// The C1 file as Curio's envelope: as it is when it is one, else the C1 JSON wrapped with
// --sector-id and the sector size of its registered proof.
Result<std::string> c1_envelope(const SubmitOptions& o) {
  auto text = read_file(o.c1);
  if (!text) return text.status();
  if (fc::read_curio_c1_request(*text).ok()) return text;
  auto c1 = fc::read_c1_json(*text);
  if (!c1) return c1.status().with_context(o.c1 + " (neither Curio's envelope nor a C1 JSON)");
  auto proof = fc::seal_proof(c1->registered_proof);
  if (!proof) return proof.status().with_context(o.c1);
  return fc::write_curio_c1_request({.sector_num = o.sector_id,
                                     .sector_size = fc::sector_bytes(proof->size),
                                     .phase1_out = std::move(*text)});
}

Result<pb::SubmitProofRequest> build_request(const SubmitOptions& o) {
  pb::SubmitProofRequest m;
  m.set_request_id(o.request_id);
  m.set_priority(static_cast<pb::Priority>(o.priority));
  m.set_miner_id(o.miner_id);
  m.set_sector_number(o.sector_id);
  m.set_partition_index(o.partition_index);
  m.set_update_h(o.update_h);
  if (o.registered_proof.empty() && o.kind != "porep")
    return Status(Errc::invalid_argument, "--registered-proof is required for " + o.kind);
  if (!o.registered_proof.empty()) {
    auto n = proof_number(o.kind, o.registered_proof);
    if (!n) return n.status().with_context("--registered-proof");
    m.set_registered_proof(*n);
  }
  if (!o.randomness.empty()) {
    auto r = bytes32_flag("--randomness", o.randomness);
    if (!r) return r.status();
    m.set_randomness(*r);
  }
  for (const auto& [flag, value, field] :
       {std::tuple{"--comm-r-old", &o.comm_r_old, m.mutable_comm_r_old()},
        std::tuple{"--comm-r-new", &o.comm_r_new, m.mutable_comm_r_new()},
        std::tuple{"--comm-d-new", &o.comm_d_new, m.mutable_comm_d_new()}}) {
    if (value->empty()) continue;
    auto b = bytes32_flag(flag, *value);
    if (!b) return b.status();
    *field = *b;
  }
  if (o.kind == "porep") {
    m.set_proof_kind(pb::POREP_SEAL_COMMIT);
    if (o.c1.empty()) return Status(Errc::invalid_argument, "porep needs --c1");
    auto env = c1_envelope(o);
    if (!env) return env.status();
    m.set_vanilla_proof(std::move(*env));
    return m;
  }
  if (o.vanilla.empty()) return Status(Errc::invalid_argument, o.kind + " needs --vanilla");
  Result<std::vector<std::string>> proofs = std::vector<std::string>{};
  if (o.kind == "update") {
    m.set_proof_kind(pb::SNAP_DEALS_UPDATE);
    proofs = split_proofs<fc::SnapPartitionProof>(
        o.vanilla, [](fc::BincodeReader& r, fc::SnapPartitionProof& p) {
          return fc::read_snap_partition_proof(r, p);
        });
  } else if (o.kind == "winning" || o.kind == "window") {
    m.set_proof_kind(o.kind == "winning" ? pb::WINNING_POST : pb::WINDOW_POST_PARTITION);
    proofs = split_proofs<fc::FallbackPoStSectorProof>(
        o.vanilla, [](fc::BincodeReader& r, fc::FallbackPoStSectorProof& p) {
          return fc::read_post_sector_proof(r, p);
        });
  } else {
    return Status(Errc::invalid_argument,
                  "--kind must be porep, winning, window or update, not '" + o.kind + "'");
  }
  if (!proofs) return proofs.status().with_context("--vanilla");
  for (std::string& p : *proofs) m.add_vanilla_proofs(std::move(p));
  return m;
}

std::uint64_t ms(std::chrono::steady_clock::duration d) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

}  // namespace

int run_submit(const SubmitOptions& o) {
  auto req = build_request(o);
  if (!req) {
    std::fprintf(stderr, "cuzk submit: %s\n", req.status().to_string().c_str());
    return 2;
  }
  auto channel =
      make_client_channel(ClientChannelOptions{.addr = o.addr,
                                               .tls_ca = o.tls_ca,
                                               .tls_cert = o.tls_cert,
                                               .tls_key = o.tls_key,
                                               .max_message_bytes = o.max_message_bytes});
  if (!channel) {
    std::fprintf(stderr, "cuzk submit: %s\n", channel.status().to_string().c_str());
    return 2;
  }
  auto stub = pb::ProvingEngine::NewStub(*channel);
  const auto t0 = std::chrono::steady_clock::now();
  pb::SubmitProofResponse sr;
  {
    grpc::ClientContext ctx;
    const grpc::Status st = stub->SubmitProof(&ctx, *req, &sr);
    if (!st.ok()) {
      std::fprintf(stderr, "cuzk submit: the daemon refused the request (%d): %s\n",
                   static_cast<int>(st.error_code()), st.error_message().c_str());
      return st.error_code() == grpc::StatusCode::UNAVAILABLE ? 2 : 1;
    }
  }
  std::fprintf(stderr, "cuzk submit: job %s queued (%u ahead)\n", sr.job_id().c_str(),
               sr.queue_position());
  pb::AwaitProofResponse r;
  {
    grpc::ClientContext ctx;
    pb::AwaitProofRequest ar;
    ar.set_job_id(sr.job_id());
    ar.set_timeout_ms(o.timeout_ms);
    const grpc::Status st = stub->AwaitProof(&ctx, ar, &r);
    if (!st.ok()) {
      std::fprintf(stderr, "cuzk submit: await %s: %s\n", sr.job_id().c_str(),
                   st.error_message().c_str());
      return 1;
    }
  }
  const std::uint64_t wall = ms(std::chrono::steady_clock::now() - t0);
  if (r.status() != pb::AwaitProofResponse::COMPLETED) {
    std::fprintf(stderr, "cuzk submit: job %s %s: %s\n", sr.job_id().c_str(),
                 pb::AwaitProofResponse::Status_Name(r.status()).c_str(),
                 r.error_message().c_str());
    return 1;
  }
  if (!o.out.empty()) {
    std::ofstream f(o.out, std::ios::binary);
    f.write(r.proof().data(), static_cast<std::streamsize>(r.proof().size()));
    if (!f) {
      std::fprintf(stderr, "cuzk submit: cannot write %s\n", o.out.c_str());
      return 2;
    }
  }
  std::printf(
      "{\"job_id\": \"%s\", \"status\": \"COMPLETED\", \"proof_bytes\": %zu, \"partitions\": %zu, "
      "\"out\": \"%s\", \"queue_wait_ms\": %llu, \"srs_load_ms\": %llu, \"synthesis_ms\": %llu, "
      "\"gpu_compute_ms\": %llu, \"total_ms\": %llu, \"wall_ms\": %llu}\n",
      sr.job_id().c_str(), r.proof().size(), r.proof().size() / 192, o.out.c_str(),
      static_cast<unsigned long long>(r.queue_wait_ms()),
      static_cast<unsigned long long>(r.srs_load_ms()),
      static_cast<unsigned long long>(r.synthesis_ms()),
      static_cast<unsigned long long>(r.gpu_compute_ms()),
      static_cast<unsigned long long>(r.total_ms()), static_cast<unsigned long long>(wall));
  return 0;
}

}  // namespace cuzk::server
