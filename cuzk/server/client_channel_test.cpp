// make_client_channel: an unreadable TLS file is an error naming the file, never a channel with an
// empty PEM (which would only fail later as an unclear handshake error).
#include "cuzk/server/client_channel.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace cuzk::server {
namespace {

namespace fs = std::filesystem;

struct TempPem {
  fs::path path;
  TempPem() {
    path = fs::temp_directory_path() / ("cuzk-client-channel-" + std::to_string(::getpid()));
    std::ofstream(path) << "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n";
  }
  ~TempPem() { fs::remove(path); }
};

TEST(ClientChannel, PlainChannelNeedsNoFiles) {
  auto ch = make_client_channel(ClientChannelOptions{.addr = "unix://cuzk-test.sock"});
  ASSERT_TRUE(ch.ok()) << ch.status().to_string();
  EXPECT_NE(*ch, nullptr);
}

TEST(ClientChannel, UnreadableCaNamesTheFile) {
  auto ch =
      make_client_channel(ClientChannelOptions{.addr = ":1", .tls_ca = "/nonexistent/cuzk-ca.pem"});
  ASSERT_FALSE(ch.ok());
  EXPECT_EQ(ch.status().code(), Errc::io_error);
  EXPECT_NE(ch.status().to_string().find("/nonexistent/cuzk-ca.pem"), std::string::npos);
  EXPECT_NE(ch.status().to_string().find("TLS CA"), std::string::npos);
}

TEST(ClientChannel, UnreadableClientKeyNamesTheFile) {
  TempPem ca;
  auto ch = make_client_channel(ClientChannelOptions{.addr = ":1",
                                                     .tls_ca = ca.path.string(),
                                                     .tls_cert = ca.path.string(),
                                                     .tls_key = "/nonexistent/cuzk-key.pem"});
  ASSERT_FALSE(ch.ok());
  EXPECT_NE(ch.status().to_string().find("/nonexistent/cuzk-key.pem"), std::string::npos);
  EXPECT_NE(ch.status().to_string().find("TLS client key"), std::string::npos);
}

TEST(ClientChannel, ReadableFilesGiveAChannel) {
  TempPem ca;
  auto ch = make_client_channel(ClientChannelOptions{.addr = ":1",
                                                     .tls_ca = ca.path.string(),
                                                     .tls_cert = ca.path.string(),
                                                     .tls_key = ca.path.string()});
  ASSERT_TRUE(ch.ok()) << ch.status().to_string();
  EXPECT_NE(*ch, nullptr);
}

}  // namespace
}  // namespace cuzk::server
