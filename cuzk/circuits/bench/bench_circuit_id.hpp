// Names of the synthetic benchmark circuits: "bench-<K>" proves 2^K constraints per partition,
// K in 10..27 (issue 8's registry). Shared by every prover that serves them.
#pragma once

#include <string>

#include "cuzk/base/status.hpp"

namespace cuzk::circuits {

// K of "bench-<K>"; not_found for another name, out_of_range for K outside 10..27.
Result<int> parse_bench_log2(const std::string& circuit_id);

}  // namespace cuzk::circuits
