// The items of a benchmark flag's comma-separated list ("--threads 1,2,16"), as every benchmark
// program (bench/, gpu/bench/) reads them: empty items are dropped, so "a,,b," gives a, b and ""
// gives none. Each caller checks its items and says when it needs at least one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::bench {

/// The non-empty items of |list| between its commas, in order, each byte kept as it is (no
/// trimming; "10:1" stays one item).
inline std::vector<std::string> comma_items(std::string_view list) {
  std::vector<std::string> items;
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (!item.empty()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return items;
}

}  // namespace cuzk::bench
