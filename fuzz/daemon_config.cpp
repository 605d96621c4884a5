// Fuzz target: the daemon's TOML configuration (parse_config, engine/config.hpp), then what the
// daemon does next with a config that parses: check_daemon_config and engine_options.
#include <cstdint>
#include <string>

#include "cuzk/engine/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto c = cuzk::engine::parse_config(std::string(reinterpret_cast<const char*>(data), size));
  if (!c.ok()) return 0;
  (void)cuzk::engine::check_daemon_config(*c);
  (void)cuzk::engine::engine_options(*c);
  return 0;
}
