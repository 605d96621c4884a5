#include "cuzk/server/http_metrics.hpp"

#include <arpa/inet.h>
#include <civetweb.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <mutex>
#include <vector>

namespace cuzk::server {

Result<std::unique_ptr<HttpMetrics>> HttpMetrics::start(const std::string& addr,
                                                        std::function<std::string()> text,
                                                        const HttpMetricsOptions& opt) {
  auto colon = addr.rfind(':');
  if (colon == std::string::npos)
    return Status(Errc::invalid_argument, "metrics_listen '" + addr + "' needs host:port");
  std::string host = addr.substr(0, colon);
  if (host.empty() || host == "localhost") host = "127.0.0.1";
  const std::string port = addr.substr(colon + 1);
  if (port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
    return Status(Errc::invalid_argument, "metrics_listen '" + addr + "' has no port number");
  in_addr probe{};
  if (::inet_pton(AF_INET, host.c_str(), &probe) != 1)
    return Status(Errc::invalid_argument,
                  "metrics_listen host '" + host + "' is not an IPv4 address");

  static std::once_flag library;
  std::call_once(library, [] { mg_init_library(0); });
  std::unique_ptr<HttpMetrics> m(new HttpMetrics());
  m->text_ = std::move(text);
  const std::string ports = host + ":" + port;
  const std::string threads = std::to_string(opt.threads);
  const std::string request_timeout = std::to_string(opt.request_timeout_ms);
  const std::string keep_alive_timeout = std::to_string(opt.keep_alive_timeout_ms);
  // No document_root: civetweb serves no files; only the handler below answers.
  const char* options[] = {"listening_ports",
                           ports.c_str(),
                           "num_threads",
                           threads.c_str(),
                           "request_timeout_ms",
                           request_timeout.c_str(),
                           "enable_keep_alive",
                           "yes",
                           "keep_alive_timeout_ms",
                           keep_alive_timeout.c_str(),
                           "enable_directory_listing",
                           "no",
                           nullptr};
  mg_callbacks callbacks{};
  // civetweb's own messages (a client that timed out, a broken connection) go to the debug log
  // instead of stderr; start-up errors come back through |error| below.
  callbacks.log_message = [](const mg_connection*, const char* msg) {
    spdlog::debug("metrics http: {}", msg);
    return 1;
  };
  mg_init_data init{};
  init.callbacks = &callbacks;
  init.user_data = m.get();
  init.configuration_options = options;
  char text_buf[256] = {};
  unsigned code = 0;
  mg_error_data error{};
  error.code = &code;
  error.text = text_buf;
  error.text_buffer_size = sizeof text_buf;
  m->ctx_ = mg_start2(&init, &error);
  if (!m->ctx_)
    return Status(Errc::io_error, "metrics_listen " + addr + ": " +
                                      (text_buf[0] ? std::string(text_buf) : "cannot listen"));
  mg_set_request_handler(m->ctx_, "/metrics$", &HttpMetrics::handle_metrics, m.get());
  mg_server_port bound[4] = {};
  const int n = mg_get_server_ports(m->ctx_, 4, bound);
  if (n < 1 || bound[0].port <= 0)
    return Status(Errc::io_error, "metrics_listen " + addr + ": no port bound");
  m->port_ = bound[0].port;
  return m;
}

HttpMetrics::~HttpMetrics() {
  if (ctx_) mg_stop(ctx_);  // waits for the worker threads
}

int HttpMetrics::handle_metrics(mg_connection* conn, void* self) {
  const mg_request_info* ri = mg_get_request_info(conn);
  const bool head = std::strcmp(ri->request_method, "HEAD") == 0;
  if (!head && std::strcmp(ri->request_method, "GET") != 0) {
    mg_send_http_error(conn, 405, "only GET /metrics\n");
    return 405;
  }
  const std::string body = static_cast<HttpMetrics*>(self)->text_();
  mg_send_http_ok(conn, "text/plain; version=0.0.4; charset=utf-8",
                  static_cast<long long>(body.size()));
  if (!head) mg_write(conn, body.data(), body.size());
  return 200;
}

}  // namespace cuzk::server
