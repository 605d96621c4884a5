// What engine and server tests wait for in an Engine's status (with tests/support/wait_until.hpp):
// whether a key is loaded.
#pragma once

#include <string>

#include "cuzk/engine/engine.hpp"

namespace cuzk::test {

/// Whether |engine| holds |key_id| loaded (a running job's key may still be loading).
inline bool key_loaded(const engine::Engine& engine, const std::string& key_id) {
  for (const auto& k : engine.status().keys)
    if (k.key_id == key_id) return k.loaded;
  return false;
}

}  // namespace cuzk::test
