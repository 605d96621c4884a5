#include "cuzk/filecoin/node.hpp"

#include <algorithm>

namespace cuzk::filecoin {

Result<Node> parse_hex32(std::string_view text, std::string_view what) {
  auto bytes = parse_hex(text, kNodeBytes);
  if (!bytes.ok()) return bytes.status().with_context(what);
  Node out;
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

}  // namespace cuzk::filecoin
