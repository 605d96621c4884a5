// The large Backend operations as timed bodies, for `cuzk microbench` (and any other harness):
// ntt, coset-ntt, msm-g1, msm-g2, msm-g1-filecoin-mix (36 % zeros, 36 % ones, the rest random,
// as the synthetic PoRep circuit's 72.6 % 0/1 values), h-compute (the whole H step of a 2^K
// domain). Inputs are made and bases loaded when the op is built; the body does one call.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/status.hpp"

namespace cuzk {

/// Names of the ops make_backend_op knows.
std::vector<std::string> backend_op_names();
/// A default log2 size for |op| (small enough for a laptop); 0 for an unknown op.
unsigned backend_op_default_log_n(std::string_view op);

/// One prepared op: |run| performs one call of size 2^log_n on the backend (which must outlive it).
struct BackendOp {
  std::function<Status()> run;
  std::uint64_t n = 0;
};

/// Prepares |op| at size 2^|log_n| on |backend|; invalid_argument for an unknown op or log_n > 28.
Result<BackendOp> make_backend_op(std::string_view op, unsigned log_n, Backend& backend);

}  // namespace cuzk
