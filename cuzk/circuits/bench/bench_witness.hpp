// The bench circuit's witness from its matrices alone (the slow twin of the one-pass solve,
// bench_solve.hpp), and the bench family's seeds.
//
// Partition k of a bench job gets its own witness: the bench circuit allocates one fresh variable
// per row, and every value except the booleans' follows from earlier ones, so the witness is
// solved row by row from the recorded matrices with the booleans drawn from splitmix64(witness
// seed, variable). The witness seed is derived from the job's seed and k.
//
// Input (vanilla_proof): empty (job seed from the request_id), or the bench client's 16 bytes
// "cuzkfake" ‖ seed (u64 LE) (server/bench.cpp sends it); anything else is bad_encoding.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/circuits/job_request.hpp"
#include "cuzk/ff/fr.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::circuits {

/// Public inputs of a partition (ONE excluded) and the full assignment z = (inputs ‖ aux).
struct BenchWitness {
  std::vector<Fr> z;
  std::vector<Fr> public_inputs;
};

/// Solves a witness of a one-fresh-variable-per-row circuit (the bench circuit) from its
/// matrices: row by row, the one unknown variable is either a boolean ((ONE − b)·b = 0 shape:
/// drawn from |seed|) or appears in C only and is solved as (a·b − c_rest)/coeff. Errors name the
/// row when a row has two unknowns, an unknown it cannot solve, or does not hold.
/// |storage|: a vector whose capacity z may reuse (e.g. a previous partition's witness).
Result<BenchWitness> solve_bench_witness(const R1csMatrices& m, std::uint64_t seed,
                                         const CancelFlag* cancel = nullptr,
                                         std::vector<Fr> storage = {});

/// The bench-circuit job seed of a request (see the file comment) and a partition's witness seed.
Result<std::uint64_t> bench_job_seed(const JobRequest& req);
std::uint64_t bench_partition_seed(std::uint64_t job_seed, std::uint32_t k);

}  // namespace cuzk::circuits
