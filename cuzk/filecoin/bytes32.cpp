#include "cuzk/filecoin/bytes32.hpp"

namespace cuzk::filecoin {

Result<Fr> fr_from_bytes32(const Bytes32& b, std::string_view what) {
  auto x = fr_from_node(b);
  if (!x.ok())
    return Status(Errc::out_of_range,
                  std::string(what) + " " + to_hex(b) + " is not a field element (not below r)");
  return *x;
}

}  // namespace cuzk::filecoin
