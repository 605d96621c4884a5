// HttpMetrics: GET /metrics for Prometheus scrapes, served by civetweb (libcivetweb). GET /metrics
// answers the engine's text exposition (text/plain; version=0.0.4); any other path is 404 and
// another method on /metrics 405. A pool of worker threads serves connections concurrently and
// every connection has a request timeout, so idle or slow clients cannot hold a scrape back
// (issue 17: the hand-written one-connection loop did). A read-only debug port, bound to loopback
// unless a host is named.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "cuzk/base/status.hpp"

struct mg_context;
struct mg_connection;

namespace cuzk::server {

struct HttpMetricsOptions {
  int threads = 32;               ///< connections served at once (idle ones included)
  int request_timeout_ms = 5000;  ///< a request not read in full by then is dropped
  int keep_alive_timeout_ms = 2000;
};

class HttpMetrics {
 public:
  /// Listens on |addr| ("host:port" or ":port", port 0 = a free one); |text| produces the body
  /// per request (called from the worker threads, concurrently).
  static Result<std::unique_ptr<HttpMetrics>> start(const std::string& addr,
                                                    std::function<std::string()> text,
                                                    const HttpMetricsOptions& opt = {});
  ~HttpMetrics();
  HttpMetrics(const HttpMetrics&) = delete;
  HttpMetrics& operator=(const HttpMetrics&) = delete;
  /// The TCP port bound (the one picked when the address said 0).
  int port() const { return port_; }

 private:
  HttpMetrics() = default;
  static int handle_metrics(mg_connection* conn, void* self);
  mg_context* ctx_ = nullptr;
  int port_ = 0;
  std::function<std::string()> text_;
};

}  // namespace cuzk::server
