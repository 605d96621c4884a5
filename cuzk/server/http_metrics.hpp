// HttpMetrics: a minimal HTTP/1.0 responder for Prometheus scrapes. GET /metrics answers the
// engine's text exposition; anything else 404. One thread, one request per connection; it is a
// read-only debug port, bound to loopback unless a host is named.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "cuzk/base/status.hpp"

namespace cuzk::server {

class HttpMetrics {
 public:
  /// Listens on |addr| ("host:port" or ":port"); |text| produces the body per request.
  static Result<std::unique_ptr<HttpMetrics>> start(const std::string& addr,
                                                    std::function<std::string()> text);
  ~HttpMetrics();
  int port() const { return port_; }

 private:
  HttpMetrics() = default;
  void loop();
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::function<std::string()> text_;
  std::thread thread_;
};

}  // namespace cuzk::server
