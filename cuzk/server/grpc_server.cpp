#include "cuzk/server/grpc_server.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <google/protobuf/io/zero_copy_stream.h>
#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/method_handler.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_posix.h>
#include <grpcpp/support/server_interceptor.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

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
    case Errc::unsatisfied:  // an input that fails its check (a vanilla proof): the client's
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

// The slices of a received message as a protobuf input stream that drops each slice as soon as
// the parser has moved past it (ZeroCopyInputStream: a chunk is valid only until the next call).
class SliceReader final : public google::protobuf::io::ZeroCopyInputStream {
 public:
  explicit SliceReader(grpc::ByteBuffer& bb) {
    if (!bb.Dump(&slices_).ok()) slices_.clear();
    bb.Clear();
  }
  bool Next(const void** data, int* size) override {
    if (backed_up_ > 0) {
      const grpc::Slice& s = slices_[next_ - 1];
      *data = s.begin() + (s.size() - static_cast<std::size_t>(backed_up_));
      *size = backed_up_;
      count_ += backed_up_;
      backed_up_ = 0;
      return true;
    }
    if (next_ > 0) slices_[next_ - 1] = grpc::Slice();
    while (next_ < slices_.size()) {
      const grpc::Slice& s = slices_[next_++];
      if (s.size() == 0) continue;
      *data = s.begin();
      *size = static_cast<int>(s.size());
      count_ += *size;
      return true;
    }
    return false;
  }
  void BackUp(int count) override {
    backed_up_ = count;
    count_ -= count;
  }
  bool Skip(int count) override {
    const void* d = nullptr;
    int n = 0;
    while (count > 0) {
      if (!Next(&d, &n)) return false;
      if (n > count) {
        BackUp(n - count);
        return true;
      }
      count -= n;
    }
    return true;
  }
  std::int64_t ByteCount() const override { return count_; }

 private:
  std::vector<grpc::Slice> slices_;
  std::size_t next_ = 0;  // the slice Next() returns after this one
  int backed_up_ = 0;
  std::int64_t count_ = 0;
};

// Parses |bb| (|n| bytes) into |msg|, whose SubmitProofRequest is |sub|. vanilla_proof is reserved
// for the whole message first: protobuf grows a string of more than 50 MB by doubling (a 200 MB
// input cost 300 MB while the last doubling copied); the reservation's untouched pages are not
// resident. Merge, not Parse: parsing would clear the message and drop the reservation.
template <class Msg>
bool parse_request(grpc::ByteBuffer& bb, std::uint64_t n, pb::SubmitProofRequest* sub, Msg* msg) {
  sub->mutable_vanilla_proof()->reserve(n);
  SliceReader in(bb);
  return msg->MergeFromBoundedZeroCopyStream(&in, static_cast<int>(n));
}

// The uid of each unix-socket connection. The server accepts those connections itself, reads
// the peer's credentials (SO_PEERCRED: the kernel records them at connect(); the client cannot
// choose them) and hands the connected socket to gRPC, whose peer string for it is "fd:<n>". A
// call keeps its transport, hence its fd, open, so the fd of a running call is not reused and
// the uid recorded at its accept is its caller's.
class UnixPeers {
 public:
  void set(int fd, uid_t uid) {
    std::lock_guard lock(mu_);
    uids_[fd] = uid;
  }
  std::optional<uid_t> uid_of(int fd) const {
    std::lock_guard lock(mu_);
    auto it = uids_.find(fd);
    if (it == uids_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<int, uid_t> uids_;
};

// The caller of an RPC (docs/api.md, Clients): limits and job ownership follow the connection's
// identity, never what the client says about itself. "cuzk-client" metadata is only a label.
class Identities {
 public:
  explicit Identities(const ServerOptions& opt)
      : admin_uids_(opt.admin_uids), admin_subjects_(opt.admin_subjects) {}

  engine::Caller caller_of(grpc::ServerContext* ctx) const {
    engine::Caller c = identify(ctx->peer(), ctx->auth_context().get());
    const auto& md = ctx->client_metadata();
    if (auto it = md.find("cuzk-client"); it != md.end())
      c.tag.assign(it->second.data(), it->second.size());
    return c;
  }

  engine::Caller identify(const std::string& peer, const grpc::AuthContext* auth) const {
    engine::Caller c;
    if (peer.rfind("fd:", 0) == 0) {
      int fd = -1;
      try {
        fd = std::stoi(peer.substr(3));
      } catch (...) {
      }
      if (auto uid = peers.uid_of(fd)) {
        c.identity = unix_identity(*uid);
        c.admin = *uid == ::geteuid() ||
                  std::find(admin_uids_.begin(), admin_uids_.end(), *uid) != admin_uids_.end();
      } else {
        c.identity = "unix:unknown";  // not one of ours: no one's identity, never an admin
      }
      return c;
    }
    if (auto subject = certificate_subject(auth); !subject.empty()) {
      c.identity = "x509:" + subject;
      c.admin = std::find(admin_subjects_.begin(), admin_subjects_.end(), subject) !=
                admin_subjects_.end();
      return c;
    }
    c.identity = "ip:" + peer_host(peer);
    return c;
  }

  UnixPeers peers;

 private:
  std::vector<std::uint32_t> admin_uids_;
  std::vector<std::string> admin_subjects_;
};

}  // namespace

std::string unix_identity(std::uint32_t uid) { return "uid:" + std::to_string(uid); }

std::string peer_host(const std::string& peer) {
  std::string p = peer;
  for (const char* scheme : {"ipv4:", "ipv6:"})
    if (p.rfind(scheme, 0) == 0) {
      p = p.substr(5);
      const auto colon = p.rfind(':');
      // "[::1]:5000" and "127.0.0.1:5000": the port is after the last colon (and after "]")
      if (colon != std::string::npos && (p.find(']') == std::string::npos || colon > p.find(']')))
        p = p.substr(0, colon);
      return p;
    }
  return p;
}

std::string certificate_subject(const grpc::AuthContext* auth) {
  if (!auth || !auth->IsPeerAuthenticated()) return {};
  for (const char* name : {GRPC_X509_SUBJECT_PROPERTY_NAME, GRPC_X509_CN_PROPERTY_NAME})
    for (const auto& v : auth->FindPropertyValues(name))
      if (!v.empty()) return std::string(v.data(), v.size());
  return {};
}

namespace {

using RawStreamer = grpc::ServerUnaryStreamer<grpc::ByteBuffer, grpc::ByteBuffer>;

// Method indices in cuzk.v1.ProvingEngine (the order of the rpc lines in prover.proto; the
// generated WithStreamedUnaryMethod_* classes use the same numbers).
constexpr int kSubmitProofMethod = 0;
constexpr int kProveMethod = 2;

class Service final : public pb::ProvingEngine::Service {
 public:
  // SubmitProof and Prove carry the inputs, up to max_message_bytes. They are served as
  // streamed unary methods over raw bytes (on the wire the same unary call): the handler reads
  // the message itself, charges its size to the engine's input budget before parsing it (a
  // request the budget cannot hold is refused without a copy), parses it without growth copies
  // and moves the inputs into the job.
  Service(Engine& e, const Identities& ids) : e_(e), ids_(ids) {
    MarkMethodStreamed(kSubmitProofMethod,
                       new grpc::internal::StreamedUnaryHandler<grpc::ByteBuffer, grpc::ByteBuffer>(
                           [this](grpc::ServerContext* ctx, RawStreamer* s) {
                             return submit_raw(ctx, s, /*prove=*/false);
                           }));
    MarkMethodStreamed(kProveMethod,
                       new grpc::internal::StreamedUnaryHandler<grpc::ByteBuffer, grpc::ByteBuffer>(
                           [this](grpc::ServerContext* ctx, RawStreamer* s) {
                             return submit_raw(ctx, s, /*prove=*/true);
                           }));
  }

  grpc::Status submit_raw(grpc::ServerContext* ctx, RawStreamer* stream, bool prove) {
    const char* method = prove ? "Prove" : "SubmitProof";
    grpc::ByteBuffer bb;
    if (!stream->Read(&bb))
      return grpc::Status(grpc::StatusCode::CANCELLED,
                          std::string("no ") + method + " request arrived");
    const std::uint64_t n = bb.Length();
    auto charge = e_.charge_input(n);
    if (!charge) return to_grpc(charge.status());  // the received bytes go with |bb|
    pb::ProveRequest prove_req;
    pb::SubmitProofRequest submit_req;
    pb::SubmitProofRequest* sub = prove ? prove_req.mutable_submit() : &submit_req;
    const bool parsed =
        prove ? parse_request(bb, n, sub, &prove_req) : parse_request(bb, n, sub, &submit_req);
    if (!parsed)
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                          std::string("the request to /cuzk.v1.ProvingEngine/") + method +
                              " does not parse as its protobuf message (truncated, wrong field "
                              "types or not protobuf)");
    if (prove && !prove_req.has_submit())
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "Prove needs a submit message");
    const engine::Caller caller = ids_.caller_of(ctx);
    auto r = e_.submit(from_proto(*sub), caller, std::move(*charge));
    if (!r) return to_grpc(r.status());
    grpc::ByteBuffer out;
    bool own = false;
    grpc::Status st;
    if (prove) {
      pb::ProveResponse resp;
      st = await(ctx, caller, r->job_id, 0, resp.mutable_result());
      if (!st.ok()) return st;
      st = grpc::SerializationTraits<pb::ProveResponse>::Serialize(resp, &out, &own);
    } else {
      pb::SubmitProofResponse resp;
      resp.set_job_id(r->job_id);
      resp.set_queue_position(r->queue_position);
      resp.set_existing(r->existing);
      st = grpc::SerializationTraits<pb::SubmitProofResponse>::Serialize(resp, &out, &own);
    }
    if (!st.ok()) return st;
    if (!stream->Write(out)) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
    return grpc::Status::OK;
  }

  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                          pb::AwaitProofResponse* resp) override {
    return await(ctx, ids_.caller_of(ctx), req->job_id(), req->timeout_ms(), resp);
  }

  grpc::Status CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                           pb::CancelProofResponse* resp) override {
    auto r = e_.cancel(req->job_id(), ids_.caller_of(ctx));
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
      m->set_backing_tier(k.backing);
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
    resp->set_partitions_synthesized(s.partitions_synthesized);
    resp->set_synthesis_cpu_seconds(s.synthesis_cpu_seconds);
    resp->set_partition_upload_bytes(s.partition_upload_bytes);
    resp->set_partitions_compact(s.partitions_compact);
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
  grpc::Status await(grpc::ServerContext* ctx, const engine::Caller& caller, const std::string& id,
                     std::uint64_t timeout_ms, pb::AwaitProofResponse* resp) {
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
      auto r = e_.await(id, slice, caller);
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
  const Identities& ids_;
};

// A request that does not parse (to a method other than SubmitProof and Prove, which parse their
// own) is answered by gRPC's protobuf layer before any handler runs,
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

// A listening unix socket at |path|, created mode 0600 (the umask covers bind()).
Result<int> listen_unix(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Status(Errc::io_error, "socket: " + std::string(std::strerror(errno)));
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  std::strncpy(sa.sun_path, path.c_str(), sizeof(sa.sun_path) - 1);
  const mode_t old = ::umask(0177);
  const int rc = ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  ::umask(old);
  if (rc != 0 || ::listen(fd, 128) != 0) {
    const int e = errno;
    ::close(fd);
    return Status(Errc::io_error, "cannot listen on " + path + ": " + std::strerror(e));
  }
  return fd;
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
  explicit Impl(const ServerOptions& opt) : ids(opt) {}
  ~Impl() {  // a start that failed half-way
    stop_accepting();
    if (server) {
      server->Shutdown();
      server->Wait();
      for (auto& s : sockets) ::unlink(s.c_str());
    }
    for (int fd : unix_fds) ::close(fd);
  }
  // Accepts unix-socket connections until stop: records each peer's uid, then gives the socket
  // to gRPC (non-blocking, as its endpoints expect).
  void accept_loop(int lfd) {
    while (!stopping.load()) {
      const int c = ::accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (c < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      ucred cred{};
      socklen_t len = sizeof cred;
      if (stopping.load() || ::getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        ::close(c);
        continue;
      }
      ids.peers.set(c, cred.uid);
      grpc::AddInsecureChannelFromFd(server.get(), c);
    }
  }
  void stop_accepting() {
    stopping = true;
    for (int fd : unix_fds) ::shutdown(fd, SHUT_RDWR);  // wakes accept4 (Linux)
    for (auto& t : acceptors)
      if (t.joinable()) t.join();
    acceptors.clear();
  }

  Identities ids;
  std::unique_ptr<Service> service;
  std::unique_ptr<grpc::Server> server;
  std::vector<int> ports;
  std::vector<std::unique_ptr<int>> port_slots;
  std::vector<std::string> sockets;
  std::vector<int> unix_fds;
  std::vector<std::thread> acceptors;
  std::atomic<bool> stopping{false};
};

GrpcServer::GrpcServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

GrpcServer::~GrpcServer() { shutdown(0); }

const std::vector<int>& GrpcServer::tcp_ports() const { return impl_->ports; }

void GrpcServer::shutdown(std::uint64_t deadline_ms) {
  if (!impl_ || !impl_->server) return;
  impl_->stop_accepting();
  impl_->server->Shutdown(std::chrono::system_clock::now() +
                          std::chrono::milliseconds(deadline_ms));
  impl_->server->Wait();
  impl_->server.reset();
  for (auto& s : impl_->sockets) ::unlink(s.c_str());
}

Result<std::unique_ptr<GrpcServer>> GrpcServer::start(engine::Engine& engine,
                                                      const ServerOptions& opt) {
  if (opt.listen.empty()) return Status(Errc::invalid_argument, "no listen address");
  auto impl = std::make_unique<Impl>(opt);
  impl->service = std::make_unique<Service>(engine, impl->ids);
  grpc::ServerBuilder b;
  b.SetMaxReceiveMessageSize(static_cast<int>(opt.max_message_bytes));
  b.SetMaxSendMessageSize(static_cast<int>(opt.max_message_bytes));
  if (opt.receive_buffer_bytes) {
    grpc::ResourceQuota quota("cuzk-requests");
    quota.Resize(static_cast<std::size_t>(opt.receive_buffer_bytes));
    b.SetResourceQuota(quota);
  }
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
      // Accepted here, not by gRPC: the peer's uid is read from each connection.
      CUZK_RETURN_IF_ERROR(prepare_unix_socket(path));
      auto fd = listen_unix(path);
      if (!fd) return fd.status();
      impl->unix_fds.push_back(*fd);
      impl->sockets.push_back(path);
      sockets.emplace_back(path, a);
    } else {
      impl->port_slots.push_back(std::make_unique<int>(0));
      b.AddListeningPort(normalize_tcp_address(a), tcp_creds, impl->port_slots.back().get());
    }
  }
  impl->server = b.BuildAndStart();
  if (!impl->server)
    return Status(Errc::io_error, "cannot bind the listen addresses (in use, or no permission)");
  for (auto& s : impl->port_slots) {
    if (*s == 0) {
      impl->server->Shutdown();
      return Status(Errc::io_error, "cannot bind a TCP listen address");
    }
    impl->ports.push_back(*s);
  }
  for (int fd : impl->unix_fds)
    impl->acceptors.emplace_back([p = impl.get(), fd] { p->accept_loop(fd); });
  for (auto& [path, orig] : sockets) {
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
