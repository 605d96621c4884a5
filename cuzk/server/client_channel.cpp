#include "cuzk/server/client_channel.hpp"

#include <utility>

#include "cuzk/server/read_file.hpp"

namespace cuzk::server {

Result<std::shared_ptr<grpc::Channel>> make_client_channel(const ClientChannelOptions& o) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(o.max_message_bytes));
  args.SetMaxSendMessageSize(static_cast<int>(o.max_message_bytes));
  std::string target = o.addr;
  if (target.rfind("tcp://", 0) == 0) target = target.substr(6);
  if (!target.empty() && target[0] == ':') target = "127.0.0.1" + target;
  // gRPC reads unix://x as an authority; a relative path must be written unix:x.
  if (target.rfind("unix://", 0) == 0 && target.size() > 7 && target[7] != '/')
    target = "unix:" + target.substr(7);
  std::shared_ptr<grpc::ChannelCredentials> creds = grpc::InsecureChannelCredentials();
  if (!o.tls_ca.empty()) {
    grpc::SslCredentialsOptions so;
    auto ca = read_file(o.tls_ca);
    if (!ca) return ca.status().with_context("TLS CA");
    so.pem_root_certs = std::move(*ca);
    if (!o.tls_cert.empty()) {
      auto cert = read_file(o.tls_cert);
      if (!cert) return cert.status().with_context("TLS client certificate");
      auto key = read_file(o.tls_key);
      if (!key) return key.status().with_context("TLS client key");
      so.pem_cert_chain = std::move(*cert);
      so.pem_private_key = std::move(*key);
    }
    creds = grpc::SslCredentials(so);
  }
  return grpc::CreateCustomChannel(target, creds, args);
}

}  // namespace cuzk::server
