#include "cuzk/server/grpc_server.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/support/server_interceptor.h>
#include <cerrno>
#include <cstring>

#include "cuzk/engine/config.hpp"
#include "cuzk/server/proto_convert.hpp"
#include "cuzk/server/prover.grpc.pb.h"

namespace cuzk::server {
namespace {

namespace pb = ::cuzk::v1;
using engine::Engine;

grpc::Status to_grpc(const Status& s) {
  grpc::StatusCode code;
  switch (s.code()) {
    case Errc::ok:
      return grpc::Status::OK;
    case Errc::bad_encoding:
    case Errc::not_on_curve:
    case Errc::not_in_subgroup:
    case Errc::out_of_range:
    case Errc::size_mismatch:
    case Errc::truncated:
    case Errc::invalid_argument:
      code = grpc::StatusCode::INVALID_ARGUMENT;
      break;
    case Errc::not_found:
      code = grpc::StatusCode::NOT_FOUND;
      break;
    case Errc::unimplemented:
      code = grpc::StatusCode::UNIMPLEMENTED;
      break;
    case Errc::out_of_memory:
      code = grpc::StatusCode::RESOURCE_EXHAUSTED;
      break;
    case Errc::cancelled:
      code = grpc::StatusCode::UNAVAILABLE;
      break;
    default:
      code = grpc::StatusCode::INTERNAL;
      break;
  }
  return grpc::Status(code, s.to_string());
}

// The client a pending-job limit applies to: the "cuzk-client" metadata when given, else the
// peer address without its port (one TCP host, or every unix-socket caller together).
std::string client_of(grpc::ServerContext* ctx) {
  auto md = ctx->client_metadata();
  auto it = md.find("cuzk-client");
  if (it != md.end()) return std::string(it->second.data(), it->second.size());
  std::string peer = ctx->peer();
  if (peer.rfind("ipv4:", 0) == 0 || peer.rfind("ipv6:", 0) == 0) {
    auto colon = peer.rfind(':');
    if (colon != std::string::npos && colon > 5) peer = peer.substr(0, colon);
  }
  return peer;
}

class Service final : public pb::ProvingEngine::Service {
 public:
  explicit Service(Engine& e) : e_(e) {}

  grpc::Status SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                           pb::SubmitProofResponse* resp) override {
    auto r = e_.submit(from_proto(*req), client_of(ctx));
    if (!r) return to_grpc(r.status());
    resp->set_job_id(r->job_id);
    resp->set_queue_position(r->queue_position);
    resp->set_existing(r->existing);
    return grpc::Status::OK;
  }

  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                          pb::AwaitProofResponse* resp) override {
    return await(ctx, req->job_id(), req->timeout_ms(), resp);
  }

  grpc::Status Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req,
                     pb::ProveResponse* resp) override {
    if (!req->has_submit())
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "Prove needs a submit message");
    auto r = e_.submit(from_proto(req->submit()), client_of(ctx));
    if (!r) return to_grpc(r.status());
    return await(ctx, r->job_id, 0, resp->mutable_result());
  }

  grpc::Status CancelProof(grpc::ServerContext*, const pb::CancelProofRequest* req,
                           pb::CancelProofResponse* resp) override {
    auto r = e_.cancel(req->job_id());
    if (!r) return to_grpc(r.status());
    resp->set_was_running(*r);
    return grpc::Status::OK;
  }

  grpc::Status GetStatus(grpc::ServerContext*, const pb::GetStatusRequest*,
                         pb::GetStatusResponse* resp) override {
    auto s = e_.status();
    for (auto& d : s.devices) {
      auto* g = resp->add_gpus();
      g->set_ordinal(static_cast<std::uint32_t>(d.info.ordinal));
      g->set_name(d.info.name);
      g->set_vram_total_bytes(d.info.vram_total_bytes);
      g->set_vram_free_bytes(d.info.vram_free_bytes);
      std::string jobs;
      for (auto& j : d.current_jobs) jobs += (jobs.empty() ? "" : ",") + j;
      g->set_current_job_id(jobs);
      g->set_current_proof_kind(d.current_circuit);
      g->set_busy_seconds(d.busy_seconds);
      g->set_busy_any_seconds(d.busy_any_seconds);
      g->set_partitions_proved(d.partitions_proved);
      g->set_workers(d.workers);
      g->set_vram_arena_used_bytes(d.vram.arena_used);
      g->set_vram_srs_bytes(d.vram.keys_bytes);
      g->set_vram_srs_keys(d.vram.keys);
      g->set_partitions_assigned(d.assigned);
      g->set_partitions_depth(d.depth);
      g->set_partitions_taken(d.partitions_taken);
      g->set_pinned_host_total_bytes(d.vram.pinned_total);
      g->set_pinned_host_used_bytes(d.vram.pinned_used);
      g->set_streamed_bases_bytes(d.vram.streamed_bytes);
    }
    for (auto& k : s.keys) {
      auto* m = resp->add_loaded_srs();
      m->set_circuit_id(k.key_id);
      m->set_tier(k.loaded              ? pb::SRSStatus::HOT
                  : k.tier == "loading" ? pb::SRSStatus::WARM
                                        : pb::SRSStatus::COLD);
      m->set_host_bytes(k.host_bytes);
      m->set_mapped_bytes(k.mapped_bytes);
      m->set_path(k.path);
      for (auto& c : k.devices) {
        auto* v = m->add_vram();
        v->set_ordinal(static_cast<std::uint32_t>(c.device));
        v->set_bytes(c.bytes);
        v->set_pins(c.pins);
        v->set_host_bytes(c.host_bytes);
        v->set_pinned_bytes(c.pinned_bytes);
      }
      m->set_size_bytes(k.size_bytes);
      m->set_ref_count(k.ref_count);
      m->set_tier_name(k.tier);
      m->set_load_ms(k.load_ms);
      m->set_idle_seconds(k.idle_seconds);
    }
    for (auto& q : s.queues) {
      auto* m = resp->add_queues();
      m->set_proof_kind(q.kind);
      m->set_pending(q.queued_jobs);
      m->set_in_progress(q.running_jobs);
    }
    resp->set_total_proofs_completed(s.completed);
    resp->set_total_proofs_failed(s.failed);
    resp->set_total_proofs_cancelled(s.cancelled);
    resp->set_uptime_seconds(static_cast<std::uint64_t>(s.uptime_seconds));
    resp->set_pinned_memory_bytes(s.memory_used);
    resp->set_pinned_memory_limit_bytes(s.memory_limit);
    resp->set_memory_peak_bytes(s.memory_peak);
    resp->set_memory_critical_headroom_bytes(s.memory_headroom);
    resp->set_process_rss_bytes(s.process_rss);
    resp->set_process_peak_rss_bytes(s.process_peak_rss);
    auto* p = resp->mutable_pipeline();
    p->set_awaiting_admission(s.partitions_awaiting_admission);
    p->set_awaiting_synthesis(s.partitions_awaiting_synthesis);
    p->set_synthesizing(s.partitions_synthesizing);
    p->set_awaiting_device(s.partitions_awaiting_device);
    p->set_on_device(s.partitions_on_device);
    p->set_finalizing_jobs(s.jobs_finalizing);
    return grpc::Status::OK;
  }

  grpc::Status GetMetrics(grpc::ServerContext*, const pb::GetMetricsRequest*,
                          pb::GetMetricsResponse* resp) override {
    resp->set_prometheus_text(e_.metrics_text());
    return grpc::Status::OK;
  }

  grpc::Status PreloadSRS(grpc::ServerContext*, const pb::PreloadSrsRequest* req,
                          pb::PreloadSrsResponse* resp) override {
    auto r = e_.preload(req->circuit_id());
    if (!r) return to_grpc(r.status());
    resp->set_already_loaded(r->already_loaded);
    resp->set_load_time_ms(r->load_ms);
    return grpc::Status::OK;
  }

  grpc::Status EvictSRS(grpc::ServerContext*, const pb::EvictSrsRequest* req,
                        pb::EvictSrsResponse* resp) override {
    auto r = e_.evict(req->circuit_id());
    if (!r) {
      if (r.status().code() == Errc::not_found) {
        // Not loaded (or unknown circuit): nothing to free. Unknown ids are still an error.
        if (r.status().message().find("no registered circuit") != std::string::npos)
          return to_grpc(r.status());
        resp->set_was_loaded(false);
        resp->set_freed_bytes(0);
        return grpc::Status::OK;
      }
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, r.status().to_string());
    }
    resp->set_was_loaded(true);
    resp->set_freed_bytes(*r);
    return grpc::Status::OK;
  }

 private:
  // Waits in slices so a client that goes away (or a deadline) stops the wait.
  grpc::Status await(grpc::ServerContext* ctx, const std::string& id, std::uint64_t timeout_ms,
                     pb::AwaitProofResponse* resp) {
    // timeout_ms is a client's u64: beyond ten years it means "no timeout" (a deadline past the
    // clock's range would wrap to the past and time out at once).
    constexpr std::uint64_t kMaxTimeoutMs = 10ull * 365 * 24 * 3600 * 1000;
    if (timeout_ms > kMaxTimeoutMs) timeout_ms = 0;
    auto deadline = engine::Clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      auto slice = std::chrono::milliseconds(250);
      if (timeout_ms) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - engine::Clock::now());
        if (left.count() <= 0) left = std::chrono::milliseconds(1);
        slice = std::min(slice, left);
      }
      auto r = e_.await(id, slice);
      if (!r) return to_grpc(r.status());
      bool timed_out = r->status == engine::AwaitStatus::timeout;
      if (!timed_out || (timeout_ms && engine::Clock::now() >= deadline)) {
        to_proto(*r, resp);
        return grpc::Status::OK;
      }
      if (ctx->IsCancelled()) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
    }
  }

  Engine& e_;
};

// A request that does not parse is answered by gRPC's protobuf layer before any handler runs,
// with INTERNAL and an empty message (proto3 has no initialization errors to name). Every status
// our handlers send has a message (to_grpc), so an empty INTERNAL (or "No payload") at
// PRE_SEND_STATUS is that case: rewritten to INVALID_ARGUMENT naming the method.
class ParseErrorInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit ParseErrorInterceptor(grpc::experimental::ServerRpcInfo* info)
      : method_(info->method() ? info->method() : "?") {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    using grpc::experimental::InterceptionHookPoints;
    if (m->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status st = m->GetSendStatus();
      if (st.error_code() == grpc::StatusCode::INTERNAL &&
          (st.error_message().empty() || st.error_message() == "No payload"))
        m->ModifySendStatus(grpc::Status(
            grpc::StatusCode::INVALID_ARGUMENT,
            "the request to " + method_ +
                " does not parse as its protobuf message (truncated, wrong field types or not "
                "protobuf)"));
    }
    m->Proceed();
  }

 private:
  std::string method_;
};

class ParseErrorInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new ParseErrorInterceptor(info);
  }
};

Status prepare_unix_socket(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  if (!S_ISSOCK(st.st_mode))
    return Status(Errc::invalid_argument, path + " exists and is not a socket");
  // A stale socket (no one accepting) is removed; a live one means another daemon.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
  bool live = ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
  ::close(fd);
  if (live) return Status(Errc::invalid_argument, "another process is serving on " + path);
  ::unlink(path.c_str());
  return {};
}

std::string unix_path(const std::string& addr) {
  if (addr.rfind("unix://", 0) == 0) return addr.substr(7);
  if (addr.rfind("unix:", 0) == 0) return addr.substr(5);
  return {};
}

}  // namespace

std::string normalize_tcp_address(const std::string& in) {
  std::string a = in.rfind("tcp://", 0) == 0 ? in.substr(6) : in;
  if (!a.empty() && a[0] == ':') a = "127.0.0.1" + a;
  return a;
}

struct GrpcServer::Impl {
  std::unique_ptr<Service> service;
  std::unique_ptr<grpc::Server> server;
  std::vector<int> ports;
  std::vector<std::unique_ptr<int>> port_slots;
  std::vector<std::string> sockets;
};

GrpcServer::GrpcServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

GrpcServer::~GrpcServer() { shutdown(0); }

const std::vector<int>& GrpcServer::tcp_ports() const { return impl_->ports; }

void GrpcServer::shutdown(std::uint64_t deadline_ms) {
  if (!impl_ || !impl_->server) return;
  impl_->server->Shutdown(std::chrono::system_clock::now() +
                          std::chrono::milliseconds(deadline_ms));
  impl_->server->Wait();
  impl_->server.reset();
  for (auto& s : impl_->sockets) ::unlink(s.c_str());
}

Result<std::unique_ptr<GrpcServer>> GrpcServer::start(engine::Engine& engine,
                                                      const ServerOptions& opt) {
  if (opt.listen.empty()) return Status(Errc::invalid_argument, "no listen address");
  auto impl = std::make_unique<Impl>();
  impl->service = std::make_unique<Service>(engine);
  grpc::ServerBuilder b;
  b.SetMaxReceiveMessageSize(static_cast<int>(opt.max_message_bytes));
  b.SetMaxSendMessageSize(static_cast<int>(opt.max_message_bytes));
  b.RegisterService(impl->service.get());
  {
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> f;
    f.push_back(std::make_unique<ParseErrorInterceptorFactory>());
    b.experimental().SetInterceptorCreators(std::move(f));
  }
  std::shared_ptr<grpc::ServerCredentials> tcp_creds = grpc::InsecureServerCredentials();
  if (!opt.tls.cert_pem.empty()) {
    grpc::SslServerCredentialsOptions so;
    so.pem_key_cert_pairs.push_back({opt.tls.key_pem, opt.tls.cert_pem});
    if (!opt.tls.client_ca_pem.empty()) {
      so.pem_root_certs = opt.tls.client_ca_pem;
      so.client_certificate_request =
          opt.tls.require_client_cert ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                                      : GRPC_SSL_REQUEST_CLIENT_CERTIFICATE_AND_VERIFY;
    }
    tcp_creds = grpc::SslServerCredentials(so);
  }
  std::vector<std::pair<std::string, std::string>> sockets;  // path, original
  for (const auto& a : opt.listen) {
    CUZK_RETURN_IF_ERROR(engine::check_listen_address(a));
    std::string path = unix_path(a);
    if (!path.empty()) {
      CUZK_RETURN_IF_ERROR(prepare_unix_socket(path));
      b.AddListeningPort("unix:" + path, grpc::InsecureServerCredentials());
      sockets.emplace_back(path, a);
    } else {
      impl->port_slots.push_back(std::make_unique<int>(0));
      b.AddListeningPort(normalize_tcp_address(a), tcp_creds, impl->port_slots.back().get());
    }
  }
  // The socket file is created by bind(); the umask makes it 0600 from the first moment.
  mode_t old = ::umask(0177);
  impl->server = b.BuildAndStart();
  ::umask(old);
  if (!impl->server)
    return Status(Errc::io_error, "cannot bind the listen addresses (in use, or no permission)");
  for (auto& s : impl->port_slots) {
    if (*s == 0) {
      impl->server->Shutdown();
      return Status(Errc::io_error, "cannot bind a TCP listen address");
    }
    impl->ports.push_back(*s);
  }
  for (auto& [path, orig] : sockets) {
    impl->sockets.push_back(path);
    mode_t mode = 0600;
    if (!opt.socket_group.empty()) {
      struct group* g = ::getgrnam(opt.socket_group.c_str());
      if (!g)
        return Status(Errc::invalid_argument,
                      "unknown group '" + opt.socket_group + "' for the socket");
      if (::chown(path.c_str(), static_cast<uid_t>(-1), g->gr_gid) != 0)
        return Status(Errc::io_error, "chown " + path + ": " + std::strerror(errno));
      mode = 0660;
    }
    if (::chmod(path.c_str(), mode) != 0)
      return Status(Errc::io_error, "chmod " + path + ": " + std::strerror(errno));
  }
  return std::unique_ptr<GrpcServer>(new GrpcServer(std::move(impl)));
}

}  // namespace cuzk::server
