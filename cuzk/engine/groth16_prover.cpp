#include "cuzk/engine/groth16_prover.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <filesystem>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/backend_factory/make_backend.hpp"

namespace cuzk::engine {
namespace {

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
}

// User + system CPU seconds of the process and of the calling thread.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return seconds_of(u.ru_utime) + seconds_of(u.ru_stime);
}
double calling_thread_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return seconds_of(u.ru_utime) + seconds_of(u.ru_stime);
}

// The per-job state the engine holds opaque in JobPlan::parsed: the family and its plan (with the
// family's own parsed input inside).
struct FamilyJob final : circuits::ParsedJob {
  circuits::CircuitFamily* family = nullptr;
  circuits::PartitionPlan plan;
  std::uint64_t bytes() const override {
    return sizeof(*this) + (plan.parsed ? plan.parsed->bytes() : 0);
  }
};

}  // namespace

Groth16Prover::Groth16Prover(Groth16ProverOptions opt) : opt_(std::move(opt)) {}

Groth16Prover::~Groth16Prover() = default;

Result<std::unique_ptr<Groth16Prover>> Groth16Prover::create(Groth16ProverOptions opt) {
  if (opt.backends.empty()) return Status(Errc::invalid_argument, "groth16 prover: no backend");
  std::unique_ptr<Groth16Prover> p(new Groth16Prover(std::move(opt)));
  p->pool_ = std::make_unique<ThreadPool>(p->opt_.threads);
  p->families_ = p->opt_.families;
  if (!p->families_) {
    auto r = circuits::builtin_families(p->opt_, p->pool_.get());
    if (!r) return r.status();
    p->families_ = std::move(*r);
  }
  std::string names;
  if (p->opt_.backends.size() == 1 && p->opt_.backends[0] == "auto") {
    p->opt_.backends.clear();
    for (int d = 0; cuda_backend_built() && d < 64; ++d) {
      auto be = p->new_backend("cuda:" + std::to_string(d));
      if (!be) break;
      p->backends_[d] = std::move(*be);
      names += (names.empty() ? "" : "+") + ("cuda:" + std::to_string(d));
    }
    if (p->backends_.empty()) p->opt_.backends = {"cpu"};
  }
  for (const auto& spec : p->opt_.backends) {
    auto be = p->new_backend(spec);
    if (!be) return be.status().with_context("backend '" + spec + "'");
    int ordinal = spec.rfind("cuda:", 0) == 0 ? std::stoi(spec.substr(5)) : 0;
    if (p->backends_.count(ordinal))
      return Status(Errc::invalid_argument, "two backends for device " + std::to_string(ordinal));
    p->backends_[ordinal] = std::move(*be);
    names += (names.empty() ? "" : "+") + spec;
  }
  p->name_ = "groth16-" + names;
  std::error_code ec;
  std::filesystem::create_directories(p->opt_.cache_dir, ec);
  if (ec)
    return Status(Errc::io_error, "cache directory " + p->opt_.cache_dir + ": " + ec.message());
  p->keys_ = std::make_unique<KeyStore>(KeyStoreOptions{.cache_dir = p->opt_.cache_dir,
                                                        .key_images = p->opt_.key_images,
                                                        .max_h_copies = p->opt_.h_window_copies},
                                        p->families_, *p->pool_, p->backends_);
  p->system_ = std::make_unique<Groth16ProofSystem>(*p->pool_);
  return p;
}

Result<std::unique_ptr<Backend>> Groth16Prover::new_backend(const std::string& spec) {
  if (opt_.backend_factory) return opt_.backend_factory(spec, *pool_);
  return make_backend(spec, *pool_, opt_.device);
}

std::vector<DeviceInfo> Groth16Prover::devices() const {
  std::vector<DeviceInfo> out;
  for (const auto& [ord, be] : backends_)
    out.push_back(DeviceInfo{.ordinal = ord, .name = be->name()});
  return out;
}

bool Groth16Prover::supports(const std::string& circuit_id) const {
  return families_->find_circuit(circuit_id) != nullptr;
}

bool Groth16Prover::accepts(const JobRequest& req) const { return families_->find(req) != nullptr; }

Result<circuits::CircuitFamily*> Groth16Prover::family_of(const std::string& circuit_id) const {
  circuits::CircuitFamily* f = families_->find_circuit(circuit_id);
  if (!f) return Status(Errc::not_found, "unknown circuit '" + circuit_id + "'");
  return f;
}

Result<JobPlan> Groth16Prover::plan_of(circuits::CircuitFamily& family,
                                       const JobRequest& req) const {
  auto fp = family.plan(req);
  if (!fp) return fp.status();
  std::optional<bool> self_verify;
  if (req.kind != ProofKind::unspecified) self_verify = opt_.proof_kind_self_verify;
  if (fp->dimensions_pending) {
    // The circuit is still to be made: sized by complete_plan once prepare_key has made it.
    JobPlan p;
    p.key_id = fp->key_id;
    p.partitions = fp->partitions;
    p.dimensions_pending = true;
    p.self_verify = self_verify;
    auto job = std::make_shared<FamilyJob>();
    job->family = &family;
    job->plan = std::move(*fp);
    p.parsed = std::move(job);
    return p;
  }
  return sized_plan(family, std::move(*fp), self_verify);
}

Result<JobPlan> Groth16Prover::sized_plan(circuits::CircuitFamily& family,
                                          circuits::PartitionPlan fp,
                                          std::optional<bool> self_verify) const {
  JobPlan p;
  p.key_id = fp.key_id;
  p.partitions = fp.partitions;
  std::shared_ptr<const circuits::CircuitShape> compact_shape;
  if (uses_compact(family)) {
    auto sh = family.shape(fp.key_id);  // made by the family's plan: a cache hit
    if (!sh) return sh.status();
    if ((*sh)->compact) compact_shape = std::move(*sh);
  }
  if (compact_shape) {
    // A compact partition holds, at its peak, either its synthesis (the family's bound over the
    // circuit's compact-witness bound, the result included) or, during the device stage, its
    // compact witness beside the host vectors of a backend that expands on the host; the latter
    // are abc_bytes. After synthesis the engine keeps only the witness's bytes and abc_bytes
    // (SynthesizedPartition::held_bytes).
    const CompactWitnessBound bound = compact_bound(*compact_shape);
    p.abc_bytes = host_expansion_bytes(*compact_shape, fp.columns);
    p.partition_bytes =
        std::max(family.compact_witness_peak_bytes(fp, bound), bound.witness_bytes() + p.abc_bytes);
  } else {
    // Held per partition: a/b/c over the domain (3 · 32 B per entry) until the device stage ends
    // (the H step writes its output over a: no vector of its own), and the witness z (32 B per
    // column) until the partition is done.
    p.abc_bytes = 3 * sizeof(Fr) * fp.domain_size;
    p.partition_bytes = p.abc_bytes + sizeof(Fr) * fp.columns;
  }
  p.self_verify = self_verify;
  auto job = std::make_shared<FamilyJob>();
  job->family = &family;
  job->plan = std::move(fp);
  p.parsed = std::move(job);
  return p;
}

bool Groth16Prover::key_ready(const std::string& key_id) {
  auto f = family_of(key_id);
  if (!f) return true;  // key_bytes answers at once (with the error)
  auto sh = (*f)->ready_shape(key_id);
  if (!sh) return false;
  if (!uses_compact(**f) || !sh->compact) return true;
  std::lock_guard lock(compact_mu_);
  return bounds_.count(sh->compact.get()) != 0;
}

Status Groth16Prover::prepare_key(const std::string& key_id) {
  auto f = family_of(key_id);
  if (!f) return f.status();
  auto sh = (*f)->shape(key_id);  // the slow part: a first recording
  if (!sh) return sh.status();
  if (uses_compact(**f) && (*sh)->compact) (void)compact_bound(**sh);
  return key_bytes(key_id).status();
}

Result<bool> Groth16Prover::complete_plan(JobPlan& plan) {
  if (!plan.dimensions_pending) return true;
  auto job = std::dynamic_pointer_cast<const FamilyJob>(plan.parsed);
  if (!job) return Status(Errc::invalid_argument, "a pending plan without its family's job");
  if (!key_ready(plan.key_id)) return false;
  circuits::PartitionPlan fp = job->plan;
  CUZK_RETURN_IF_ERROR(job->family->complete_plan(fp));
  auto p = sized_plan(*job->family, std::move(fp), plan.self_verify);
  if (!p) return p.status();
  plan = std::move(*p);
  return true;
}

CompactWitnessBound Groth16Prover::compact_bound(const circuits::CircuitShape& shape) const {
  {
    std::lock_guard lock(compact_mu_);
    if (auto it = bounds_.find(shape.compact.get()); it != bounds_.end()) return it->second;
  }
  const CompactWitnessBound b = compact_witness_bound(*shape.compact);  // outside the lock
  std::lock_guard lock(compact_mu_);
  bounds_.emplace(shape.compact.get(), b);
  return b;
}

std::uint64_t Groth16Prover::host_expansion_bytes(const circuits::CircuitShape& shape,
                                                  std::uint64_t columns) const {
  // A backend expands on the host when it keeps no device copy of the circuit (the CPU backend).
  // CudaBackend tries its device path first, also for a key with a table in host memory
  // (fused_streamed_partitions), and falls back to the host expansion when the partition's
  // working set finds no room. That room is kept by key placement for the tables it sends to
  // host memory itself (the 32 GiB WindowPoSt's B_G2 on an 80 GB card: the device path ran,
  // docs/perf/filecoin.md), so those need no host reservation; a table streamed by the small-card
  // rule (larger than half the arena) leaves a 2^27 working set no room beside the rest, so such
  // partitions are budgeted for the host expansion. Point counts are bounded by the domain (h)
  // and the columns (l, a, b_g1, b_g2).
  const std::uint64_t n = shape.domain_size;
  for (const auto& [ord, be] : backends_) {
    bool host = be->device_circuit_bytes(*shape.compact) == 0;
    if (const auto* report = dynamic_cast<const DeviceMemoryReport*>(be.get()); report && !host)
      host = report->streams_table(n, false) || report->streams_table(columns, false) ||
             report->streams_table(columns, true);
    if (host) return sizeof(Fr) * (columns + 3 * n);
  }
  return 0;
}

Result<JobPlan> Groth16Prover::plan(const JobRequest& req) {
  circuits::CircuitFamily* f = families_->find(req);
  if (!f) {
    if (req.kind != ProofKind::unspecified)
      return Status(Errc::unimplemented, "no circuit family serves proof kind " +
                                             std::to_string(static_cast<std::uint32_t>(req.kind)));
    return Status(Errc::not_found, "unknown circuit '" + req.circuit_id + "'");
  }
  return plan_of(*f, req);
}

Result<std::string> Groth16Prover::key_of(const std::string& circuit_id) {
  std::string id = families_->key_id_of_name(circuit_id);
  if (id.empty()) return Status(Errc::not_found, "unknown circuit '" + circuit_id + "'");
  return id;
}

namespace {

// The family's job of |plan|, or of a plan made again from |req| (a plan from elsewhere); its
// dimensions completed now when pending (a caller that did not ask complete_plan: shape() makes
// the circuit here).
Result<std::shared_ptr<const FamilyJob>> family_job(Groth16Prover& prover, const JobRequest& req,
                                                    const JobPlan& plan) {
  auto j = std::dynamic_pointer_cast<const FamilyJob>(plan.parsed);
  if (!j) {
    auto again = prover.plan(req);
    if (!again) return again.status();
    j = std::static_pointer_cast<const FamilyJob>(again->parsed);
  }
  if (!j->plan.dimensions_pending) return j;
  auto done = std::make_shared<FamilyJob>(*j);
  CUZK_RETURN_IF_ERROR(done->family->complete_plan(done->plan));
  return std::shared_ptr<const FamilyJob>(std::move(done));
}

}  // namespace

Result<std::uint64_t> Groth16Prover::key_bytes(const std::string& key_id) {
  return keys_->key_bytes(key_id);
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load_key(const std::string& key_id) {
  return keys_->load(key_id, false);
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load_key_mapped(
    const std::string& key_id) {
  return keys_->load(key_id, true);
}

std::optional<std::uint64_t> Groth16Prover::mapped_load_bytes(const std::string& key_id) {
  return keys_->mapped_load_bytes(key_id);
}

Result<std::unique_ptr<SynthesizedPartition>> Groth16Prover::synthesize(const JobRequest& req,
                                                                        const JobPlan& plan,
                                                                        std::uint32_t k,
                                                                        const CancelFlag& cancel) {
  auto job = family_job(*this, req, plan);
  if (!job) return job.status();
  circuits::CircuitFamily& family = *(*job)->family;
  const circuits::PartitionPlan& fp = (*job)->plan;
  if (k >= fp.partitions)
    return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto shape = family.shape(fp.key_id);
  if (!shape) return shape.status();
  if (!(*shape)->has_form())
    return Status(Errc::invalid_argument, fp.key_id + ": the family gave no circuit form");
  if (uses_compact(family) && (*shape)->compact) {
    auto part = std::make_unique<CompactPartition>(buffers_);
    CUZK_RETURN_IF_ERROR(family.compact_witness(req, fp, k, part->witness, cancel));
    if (cancel.load()) return Status(Errc::cancelled, "synthesis cancelled");
    // Beyond the bound the reservation would not hold it: such a witness satisfies no circuit.
    CUZK_RETURN_IF_ERROR(compact_witness_within(part->witness, compact_bound(**shape))
                             .with_context("partition " + std::to_string(k)));
    return std::unique_ptr<SynthesizedPartition>(std::move(part));
  }
  const R1csDims m = (*shape)->dims();
  auto part = std::make_unique<PartitionVectors>(buffers_);
  if (family.has_witness_abc()) {
    // One pass: the witness and a/b/c, into pinned vectors when a pool has room, else into the
    // buffer pool's.
    CUZK_RETURN_IF_ERROR(family.witness_abc(
        req, fp, k, part->witness_abc(m.num_columns(), m.num_constraints), cancel));
  } else {
    CUZK_RETURN_IF_ERROR(family.witness(req, fp, k, part->plain_z, cancel));
    if (cancel.load()) return Status(Errc::cancelled, "synthesis cancelled");
    // The SpMV runs on the pool: its CPU time on the other threads is the process's CPU time
    // over the call less this thread's (work of other stages running meanwhile included).
    const double process0 = process_cpu_seconds(), thread0 = calling_thread_cpu_seconds();
    CUZK_RETURN_IF_ERROR(system_->evaluate_abc(**shape, *part));
    part->pool_cpu = std::max(
        0.0, (process_cpu_seconds() - process0) - (calling_thread_cpu_seconds() - thread0));
  }
  return std::unique_ptr<SynthesizedPartition>(std::move(part));
}

Result<std::string> Groth16Prover::prove_partition(int device, const ProvingKeyData& key,
                                                   const JobRequest& req, std::uint32_t k,
                                                   SynthesizedPartition& part,
                                                   const CancelFlag& cancel) {
  (void)req;
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto* vectors = dynamic_cast<PartitionVectors*>(&part);
  auto* compact = dynamic_cast<CompactPartition*>(&part);
  if (!gk || (!vectors && !compact))
    return Status(Errc::invalid_argument, "groth16 prover given another prover's key or partition");
  if (!backends_.count(device))
    return Status(Errc::invalid_argument, "no backend for device " + std::to_string(device));
  if (cancel.load()) return Status(Errc::cancelled, "device stage cancelled");
  if (compact) {
    if (!gk->shape || !gk->shape->compact)
      return Status(Errc::invalid_argument, "partition " + std::to_string(k) +
                                                " is a compact witness, its key's circuit has no "
                                                "compact form");
    auto rk = keys_->resident(*gk, device);
    if (!rk) return rk.status();
    // The key store loads the circuit with each copy of the key (ResidentKey::circuit()).
    if ((*rk)->circuit().value == 0)
      return Status(Errc::invalid_argument, "partition " + std::to_string(k) +
                                                ": the key's copy on device " +
                                                std::to_string(device) + " has no circuit");
    return system_->prove_compact(**rk, gk->dims(), (*rk)->circuit(), k, *compact);
  }
  if (!vectors->has_abc())
    return Status(Errc::invalid_argument, "partition " + std::to_string(k) + " has no a/b/c");
  auto rk = keys_->resident(*gk, device);
  if (!rk) return rk.status();
  return system_->prove(**rk, gk->pk, gk->dims(), k, *vectors);
}

Status Groth16Prover::verify(const ProvingKeyData& key, const JobRequest& req,
                             const std::string& proof) {
  return verify_job(key, req, JobPlan{}, proof);
}

Status Groth16Prover::verify_job(const ProvingKeyData& key, const JobRequest& req,
                                 const JobPlan& plan, const std::string& proof) {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  if (!gk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  auto job = family_job(*this, req, plan);
  if (!job) return job.status();
  circuits::CircuitFamily& family = *(*job)->family;
  const circuits::PartitionPlan& fp = (*job)->plan;
  return system_->verify(gk->pvk, proof, fp.partitions,
                         [&](std::uint32_t k) { return family.public_inputs(req, fp, k); });
}

std::optional<DeviceArena> Groth16Prover::device_arena(int device) const {
  return keys_->device_arena(device);
}

std::uint64_t Groth16Prover::device_key_bytes(const ProvingKeyData& key, int device) const {
  return keys_->device_key_bytes(key, device);
}

Status Groth16Prover::make_resident(const ProvingKeyData& key, int device) {
  return keys_->make_resident(key, device);
}

PartitionProver::DeviceHostBytes Groth16Prover::device_host_bytes(const ProvingKeyData& key,
                                                                  int device) const {
  return keys_->device_host_bytes(key, device);
}

std::uint64_t Groth16Prover::device_host_bytes_bound(const ProvingKeyData& key, int device) const {
  return keys_->device_host_bytes_bound(key, device);
}

void Groth16Prover::release_resident(const ProvingKeyData& key, int device) {
  keys_->release_resident(key, device);
}

std::vector<DiskKey> Groth16Prover::disk_keys() const { return keys_->disk_keys(); }

std::optional<PartitionProver::KeyMapping> Groth16Prover::key_mapping(
    const ProvingKeyData& key) const {
  return keys_->key_mapping(key);
}

bool Groth16Prover::key_is_mapped(const ProvingKeyData& key) const {
  return keys_->key_is_mapped(key);
}

bool Groth16Prover::host_tables_used(const ProvingKeyData& key) const {
  (void)key;
  return keys_->host_tables_used();
}

Status Groth16Prover::map_key(const ProvingKeyData& key) { return keys_->map(key); }

Status Groth16Prover::unmap_key(const ProvingKeyData& key) { return keys_->unmap(key); }

std::string Groth16Prover::key_path(const std::string& key_id) const {
  auto src = keys_->source(key_id);
  return src ? src->path : std::string();
}

Result<std::shared_ptr<const circuits::CircuitShape>> Groth16Prover::shape(
    const std::string& key_id) {
  return keys_->shape(key_id);
}

Result<std::shared_ptr<const R1csMatrices>> Groth16Prover::matrices(const std::string& key_id) {
  auto shape = keys_->shape(key_id);
  if (!shape) return shape.status();
  return (*shape)->matrices;
}

Result<std::shared_ptr<const PcePlan>> Groth16Prover::pce_plan(const std::string& key_id) {
  auto shape = keys_->shape(key_id);
  if (!shape) return shape.status();
  return (*shape)->pce;
}

}  // namespace cuzk::engine
