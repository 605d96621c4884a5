#include "cuzk/circuits/bench/bench_family.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <filesystem>

#include "cuzk/circuits/bench/bench_circuit_id.hpp"
#include "cuzk/circuits/bench/bench_witness.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/pce_cache.hpp"

namespace cuzk::circuits {
namespace {

constexpr std::uint32_t kNumPublic = 4;  // BenchCircuitParams default
constexpr std::uint32_t kMaxPartitions = 64;
constexpr int kKeyCacheVersion = 1;
constexpr std::size_t kMaxKeptInputs = 4096;  // partitions whose public inputs wait for verify

std::string inputs_key(const std::string& circuit, std::uint64_t seed, std::uint32_t k) {
  return circuit + "/" + std::to_string(seed) + "/" + std::to_string(k);
}

}  // namespace

struct BenchFamily::Job final : ParsedJob {
  int log_rows = 0;
  std::uint64_t seed = 0;
};

bool BenchFamily::serves_circuit(const std::string& circuit_id) const {
  return parse_bench_log2(circuit_id).ok();
}

Result<PartitionPlan> BenchFamily::plan(const JobRequest& req) {
  auto k = parse_bench_log2(req.circuit_id);
  if (!k) return k.status();
  auto seed = bench_job_seed(req);
  if (!seed) return seed.status();
  PartitionPlan p;
  p.key_id = req.circuit_id;
  p.partitions = req.num_partitions ? req.num_partitions : opt_.default_partitions;
  if (p.partitions > kMaxPartitions)
    return Status(Errc::out_of_range,
                  "num_partitions must be 1..64, got " + std::to_string(p.partitions));
  // Rows n = 2^K (input constraints included) = the domain; columns = n − num_public (each
  // circuit row allocates one variable, num_public of them inputs).
  const std::uint64_t n = std::uint64_t{1} << *k;
  p.domain_size = n;
  p.columns = n - kNumPublic;
  auto job = std::make_shared<Job>();
  job->log_rows = *k;
  job->seed = *seed;
  p.parsed = std::move(job);
  return p;
}

Result<BenchFamily::Job> BenchFamily::job_of(const JobRequest& req,
                                             const PartitionPlan& plan) const {
  if (const auto* j = dynamic_cast<const Job*>(plan.parsed.get())) return *j;
  auto k = parse_bench_log2(req.circuit_id);
  if (!k) return k.status();
  auto seed = bench_job_seed(req);
  if (!seed) return seed.status();
  Job j;
  j.log_rows = *k;
  j.seed = *seed;
  return j;
}

Result<std::shared_ptr<const R1csMatrices>> BenchFamily::matrices(int log_rows) {
  auto s = shape("bench-" + std::to_string(log_rows));
  if (!s) return s.status();
  return (*s)->matrices;
}

Result<std::shared_ptr<const CircuitShape>> BenchFamily::shape(const std::string& key_id) {
  auto k = parse_bench_log2(key_id);
  if (!k) return k.status();
  const int log_rows = *k;
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(log_rows); it != shapes_.end()) return it->second;
  }
  std::lock_guard build(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(log_rows); it != shapes_.end()) return it->second;
  }
  const std::string id = "bench-" + std::to_string(log_rows) +
                         " structure_seed=" + std::to_string(opt_.structure_seed) +
                         " num_public=" + std::to_string(kNumPublic);
  const std::string path =
      (std::filesystem::path(opt_.cache_dir) / ("bench-" + std::to_string(log_rows) + ".r1cs"))
          .string();
  auto r = load_or_build_r1cs(path, r1cs_topology_key(id), [&]() -> Result<R1csMatrices> {
    BenchCircuitParams bp;
    bp.log_rows = static_cast<unsigned>(log_rows);
    bp.seed = opt_.structure_seed;
    bp.num_public = kNumPublic;
    auto g = generate_bench_r1cs(bp, /*with_witness=*/false);
    if (!g) return g.status();
    return std::move(g->matrices);
  });
  if (!r) return r.status();
  if (!r->from_cache)
    spdlog::info("bench-{}: matrices built ({})", log_rows, r->load_error.to_string());
  if (!r->save_error.ok())
    spdlog::warn("bench-{}: matrix cache not written: {}", log_rows, r->save_error.to_string());
  auto sh = std::make_shared<CircuitShape>();
  sh->matrices = std::make_shared<const R1csMatrices>(std::move(r->matrices));
  sh->domain_size = std::uint64_t{1} << log_rows;
  sh->charge_matrices = true;
  std::lock_guard lock(mu_);
  shapes_[log_rows] = sh;
  return std::shared_ptr<const CircuitShape>(std::move(sh));
}

Result<std::shared_ptr<const BenchSolvePlan>> BenchFamily::solve_plan(int log_rows) {
  {
    std::lock_guard lock(mu_);
    if (auto it = solve_plans_.find(log_rows); it != solve_plans_.end()) return it->second;
  }
  auto m = matrices(log_rows);
  if (!m) return m.status();
  std::lock_guard build(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = solve_plans_.find(log_rows); it != solve_plans_.end()) return it->second;
  }
  auto plan = bench_solve_plan(**m);
  if (!plan) return plan.status().with_context("bench-" + std::to_string(log_rows) + " solve plan");
  std::lock_guard lock(mu_);
  solve_plans_[log_rows] = *plan;
  return *plan;
}

std::string BenchFamily::key_path(int log_rows) const {
  return (std::filesystem::path(opt_.cache_dir) / ("bench-" + std::to_string(log_rows) + ".params"))
      .string();
}

Result<KeySource> BenchFamily::key_source(const std::string& key_id) {
  auto k = parse_bench_log2(key_id);
  if (!k) return k.status();
  KeySource s;
  s.kind = KeySource::Kind::seeded_setup;
  s.path = key_path(*k);
  s.seed = opt_.key_seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(*k));
  s.identity = "cuzk-bench-key v" + std::to_string(kKeyCacheVersion) + " K=" + std::to_string(*k) +
               " structure_seed=" + std::to_string(opt_.structure_seed) +
               " key_seed=" + std::to_string(opt_.key_seed);
  s.image_name = file_safe_name(key_id) + ".kimg";
  return s;
}

std::vector<KeyFile> BenchFamily::key_files() const {
  std::vector<KeyFile> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(opt_.cache_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("bench-", 0) != 0 || entry.path().extension() != ".params") continue;
    if (!std::filesystem::exists(entry.path().string() + ".sum", ec)) continue;
    const std::string id = entry.path().stem().string();
    if (!parse_bench_log2(id).ok()) continue;
    out.push_back(
        KeyFile{.key_id = id, .path = entry.path().string(), .bytes = entry.file_size(ec)});
  }
  return out;
}

void BenchFamily::keep_inputs(const JobRequest& req, std::uint64_t seed, std::uint32_t k,
                              std::span<const Fr> z, std::uint64_t num_inputs) {
  std::vector<Fr> inputs(z.begin() + 1, z.begin() + static_cast<std::ptrdiff_t>(num_inputs));
  std::lock_guard lock(mu_);
  if (inputs_.size() >= kMaxKeptInputs) inputs_.clear();  // public_inputs solves what is missing
  inputs_[inputs_key(req.circuit_id, seed, k)] = std::move(inputs);
}

Status BenchFamily::witness_abc(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                                WitnessAbc out, const CancelFlag& cancel) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  if (k >= plan.partitions)
    return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto m = matrices(job->log_rows);
  if (!m) return m.status();
  auto sp = solve_plan(job->log_rows);
  if (!sp) return sp.status();
  CUZK_RETURN_IF_ERROR(solve_bench_partition(**m, **sp, bench_partition_seed(job->seed, k), &cancel,
                                             out.z, out.a, out.b, out.c)
                           .with_context("partition " + std::to_string(k) + " witness"));
  keep_inputs(req, job->seed, k, out.z, (*m)->num_inputs);
  return {};
}

Status BenchFamily::witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                            std::vector<Fr>& z, const CancelFlag& cancel) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  if (k >= plan.partitions)
    return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto m = matrices(job->log_rows);
  if (!m) return m.status();
  auto w = solve_bench_witness(**m, bench_partition_seed(job->seed, k), &cancel, std::move(z));
  if (!w) return w.status().with_context("partition " + std::to_string(k) + " witness");
  z = std::move(w->z);
  keep_inputs(req, job->seed, k, z, (*m)->num_inputs);
  return {};
}

Result<std::vector<Fr>> BenchFamily::public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                                   std::uint32_t k) {
  auto job = job_of(req, plan);
  if (!job) return job.status();
  {
    std::lock_guard lock(mu_);
    if (auto it = inputs_.find(inputs_key(req.circuit_id, job->seed, k)); it != inputs_.end()) {
      std::vector<Fr> inputs = std::move(it->second);
      inputs_.erase(it);
      return inputs;
    }
  }
  auto m = matrices(job->log_rows);
  if (!m) return m.status();
  auto w = solve_bench_witness(**m, bench_partition_seed(job->seed, k));
  if (!w) return w.status();
  return std::move(w->public_inputs);
}

}  // namespace cuzk::circuits
