#include "cuzk/server/http_metrics.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace cuzk::server {

Result<std::unique_ptr<HttpMetrics>> HttpMetrics::start(const std::string& addr,
                                                        std::function<std::string()> text) {
  auto colon = addr.rfind(':');
  if (colon == std::string::npos)
    return Status(Errc::invalid_argument, "metrics_listen '" + addr + "' needs host:port");
  std::string host = addr.substr(0, colon);
  if (host.empty() || host == "localhost") host = "127.0.0.1";
  int port = 0;
  try {
    port = std::stoi(addr.substr(colon + 1));
  } catch (...) {
    return Status(Errc::invalid_argument, "metrics_listen '" + addr + "' has no port number");
  }
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1)
    return Status(Errc::invalid_argument,
                  "metrics_listen host '" + host + "' is not an IPv4 address");
  std::unique_ptr<HttpMetrics> m(new HttpMetrics());
  m->text_ = std::move(text);
  m->fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  ::setsockopt(m->fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(m->fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(m->fd_, 16) != 0)
    return Status(Errc::io_error, "metrics_listen " + addr + ": " + std::strerror(errno));
  socklen_t len = sizeof sa;
  ::getsockname(m->fd_, reinterpret_cast<sockaddr*>(&sa), &len);
  m->port_ = ntohs(sa.sin_port);
  m->thread_ = std::thread([p = m.get()] { p->loop(); });
  return m;
}

HttpMetrics::~HttpMetrics() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) ::close(fd_);
}

void HttpMetrics::loop() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    timeval tv{2, 0};
    ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string req;
    char buf[1024];
    while (req.find("\r\n\r\n") == std::string::npos && req.size() < 8192) {
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      req.append(buf, static_cast<std::size_t>(n));
    }
    std::string resp;
    if (req.rfind("GET /metrics ", 0) == 0 || req.rfind("GET /metrics?", 0) == 0) {
      std::string body = text_();
      resp = "HTTP/1.0 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: " +
             std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    } else {
      resp = "HTTP/1.0 404 Not Found\r\nContent-Length: 10\r\nConnection: close\r\n\r\nnot found\n";
    }
    std::size_t off = 0;
    while (off < resp.size()) {
      ssize_t n = ::send(c, resp.data() + off, resp.size() - off, MSG_NOSIGNAL);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    ::close(c);
  }
}

}  // namespace cuzk::server
