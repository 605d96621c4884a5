#include "cuzk/circuits/bench/bench_circuit_id.hpp"

namespace cuzk::circuits {

Result<int> parse_bench_log2(const std::string& id) {
  if (id.rfind("bench-", 0) != 0) return Status(Errc::not_found, "unknown circuit '" + id + "'");
  std::string d = id.substr(6);
  if (d.empty() || d.size() > 2 || d.find_first_not_of("0123456789") != std::string::npos)
    return Status(Errc::not_found, "unknown circuit '" + id + "' (bench-<10..27>)");
  int k = std::stoi(d);
  if (k < 10 || k > 27)
    return Status(Errc::out_of_range, "bench circuit log2 size must be 10..27, got " + d);
  return k;
}

}  // namespace cuzk::circuits
