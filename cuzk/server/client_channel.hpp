// The gRPC channel of the command-line clients (`cuzk bench`, `cuzk submit`): an address as the
// daemon's listen option spells it (unix://path, unix:path, host:port, :port, tcp://host:port),
// TLS when a CA is given (mutual TLS with a client certificate and key).
#pragma once

#include <grpcpp/grpcpp.h>
#include <cstdint>
#include <memory>
#include <string>

#include "cuzk/base/status.hpp"

namespace cuzk::server {

struct ClientChannelOptions {
  std::string addr = "unix://cuzk.sock";
  std::string tls_ca, tls_cert, tls_key;  ///< PEM files; tls_ca turns TLS on
  std::uint64_t max_message_bytes = std::uint64_t{256} << 20;
};

/// The channel; io_error naming the file when a TLS file cannot be read (an empty PEM would only
/// fail later, as an unclear handshake error).
Result<std::shared_ptr<grpc::Channel>> make_client_channel(const ClientChannelOptions& o);

}  // namespace cuzk::server
