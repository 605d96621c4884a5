#include "cuzk/server/client_channel.hpp"

#include <utility>

#include "cuzk/server/read_file.hpp"

namespace cuzk::server {
namespace {

// A PEM file's text; empty when it cannot be read.
std::string read_all(const std::string& path) {
  auto text = read_file(path);
  return text.ok() ? std::move(text).value() : std::string();
}

}  // namespace

std::shared_ptr<grpc::Channel> make_client_channel(const ClientChannelOptions& o) {
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
    so.pem_root_certs = read_all(o.tls_ca);
    if (!o.tls_cert.empty()) {
      so.pem_cert_chain = read_all(o.tls_cert);
      so.pem_private_key = read_all(o.tls_key);
    }
    creds = grpc::SslCredentials(so);
  }
  return grpc::CreateCustomChannel(target, creds, args);
}

}  // namespace cuzk::server
