// GrpcServer: cuzk.v1.ProvingEngine over a unix socket (mode 0600, or 0660 with a group) and/or
// TCP (loopback unless a host is named; optional TLS / mutual TLS), messages up to
// max_message_bytes, gRPC's receive buffers bounded by receive_buffer_bytes. A thin layer: each
// RPC converts the message, calls the Engine and maps Errc to a gRPC status code; SubmitProof and
// Prove charge the message's bytes to the engine's input budget before parsing it. This is the
// only translation unit that includes gRPC server headers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/engine/engine.hpp"

namespace grpc {
class AuthContext;
}

namespace cuzk::server {

struct TlsOptions {
  std::string cert_pem, key_pem;  ///< server certificate chain and key (PEM text); empty = no TLS
  std::string client_ca_pem;      ///< when set, clients must present a certificate signed by it
  bool require_client_cert = true;
};

struct ServerOptions {
  std::vector<std::string> listen;  ///< "unix:///path", "unix:path", "host:port", ":port"
  std::string socket_group;
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
  /// Bytes gRPC may hold for requests being received, server-wide (a ResourceQuota: past it
  /// gRPC shrinks flow-control windows, then cancels streams with RESOURCE_EXHAUSTED); 0 = no
  /// bound. At least max_message_bytes.
  std::uint64_t receive_buffer_bytes = 0;
  TlsOptions tls;
  /// Unix-socket callers (by uid) that may await, cancel and resubmit every client's jobs, as
  /// the daemon's own uid may.
  std::vector<std::uint32_t> admin_uids;
  /// The same for mutual-TLS clients, by certificate subject as gRPC reports it ("CN=ops").
  std::vector<std::string> admin_subjects;
};

class GrpcServer {
 public:
  /// Binds every address and starts serving.
  static Result<std::unique_ptr<GrpcServer>> start(engine::Engine& engine,
                                                   const ServerOptions& opt);
  ~GrpcServer();
  /// TCP ports actually bound, in listen order (useful with port 0).
  const std::vector<int>& tcp_ports() const;
  /// Stops accepting, waits up to |deadline_ms| for in-flight calls, then cancels them.
  void shutdown(std::uint64_t deadline_ms);

  struct Impl;

 private:
  explicit GrpcServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Normalizes a TCP listen address: ":9820" → "127.0.0.1:9820"; "tcp://h:p" → "h:p".
std::string normalize_tcp_address(const std::string& addr);

// A caller's identity (docs/api.md, Clients): "uid:<n>" on the unix socket (the peer's
// credentials, SO_PEERCRED), "x509:<subject>" on TCP with a verified client certificate,
// "ip:<address>" on TCP without one.

/// "uid:<uid>".
std::string unix_identity(std::uint32_t uid);
/// The host of a gRPC peer string without its port: "ipv4:10.0.0.5:4711" → "10.0.0.5",
/// "ipv6:[::1]:4711" → "[::1]"; anything else as it is.
std::string peer_host(const std::string& peer);
/// The subject (else the common name) of a verified client certificate; empty without one.
std::string certificate_subject(const grpc::AuthContext* auth);

}  // namespace cuzk::server
