#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"

#include "cuzk/circuits/filecoin/key_spec.hpp"

#include <spdlog/spdlog.h>
#include <bit>
#include <filesystem>

#include "cuzk/base/clock.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/key_spec.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/pce_compact.hpp"
#include "cuzk/r1cs/pce_compact_cache.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
namespace {

// The circuits' identity in the compact cache's key, with the key id: bumped when a circuit or
// the recorder's rules change (the .pce-compact files of older versions are then stale and
// recorded again).
constexpr const char* kCompactIdentity = "cuzk-filecoin-compact v1";

// bellperson's domain: the smallest power of two holding every row (input constraints included).
std::uint64_t domain_of(std::uint64_t rows) {
  return std::bit_ceil(std::max<std::uint64_t>(rows, 2));
}

std::string describe(const fc::ParameterSet& set) {
  return std::string(fc::circuit_name(set.circuit)) + " " +
         std::string(fc::sector_size_name(set.size));
}

}  // namespace

FilecoinFamily::FilecoinFamily(FilecoinFamilyOptions opt, std::vector<fc::ParameterSet> sets)
    : opt_(std::move(opt)), sets_(std::move(sets)) {}

Result<fc::ParameterSet> FilecoinFamily::set_of(const std::string& key_id) const {
  for (const fc::ParameterSet& s : sets_)
    if (filecoin_key_id(s) == key_id) return s;
  return Status(Errc::not_found, name() + ": unknown key '" + key_id + "'");
}

bool FilecoinFamily::serves_circuit(const std::string& circuit_id) const {
  return set_of(circuit_id).ok();
}

std::string FilecoinFamily::key_id_of_name(const std::string& name) const {
  if (serves_circuit(name)) return name;
  auto set = parameter_set_of_key_spec(name);
  if (!set) return {};
  const std::string id = filecoin_key_id(*set);
  return serves_circuit(id) ? id : std::string();
}

std::string FilecoinFamily::params_path(const fc::ParameterSet& set) const {
  return (fs::path(opt_.params_dir) / set.params_file()).string();
}

std::string FilecoinFamily::compact_cache_path(const std::string& key_id) const {
  if (opt_.cache_dir.empty()) return {};
  return (fs::path(opt_.cache_dir) / (file_safe_name(key_id) + ".pce-compact")).string();
}

Result<std::shared_ptr<const CircuitShape>> FilecoinFamily::shape(const std::string& key_id) {
  auto set = set_of(key_id);
  if (!set) return set.status();
  std::shared_ptr<std::mutex> building;
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(key_id); it != shapes_.end()) return it->second;
    auto& m = building_[key_id];
    if (!m) m = std::make_shared<std::mutex>();
    building = m;
  }
  std::lock_guard build_lock(*building);
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(key_id); it != shapes_.end()) return it->second;
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto record = [&]() -> Result<CompactR1cs> {
    auto circuit = blank_circuit(*set);
    if (!circuit) return circuit.status();
    ++recordings_;
    return record_compact(**circuit);
  };
  CompactR1cs c;
  const std::string path = compact_cache_path(key_id);
  if (path.empty()) {
    auto r = record();
    if (!r) return r.status().with_context(describe(*set) + " circuit");
    c = std::move(*r);
    spdlog::info("{}: compact form recorded in {:.2f} s ({:.1f} MB)", describe(*set),
                 seconds_since(t0), static_cast<double>(c.memory_bytes()) / 1e6);
  } else {
    auto r =
        load_or_build_compact(path, compact_circuit_key(key_id + " " + kCompactIdentity), record);
    if (!r) return r.status().with_context(describe(*set) + " circuit");
    if (r->from_cache)
      spdlog::info("{}: compact form loaded from {} in {:.2f} s ({:.1f} MB)", describe(*set), path,
                   seconds_since(t0), static_cast<double>(r->compact.memory_bytes()) / 1e6);
    else if (r->load_error.code() == Errc::not_found)
      spdlog::info("{}: compact form recorded in {:.2f} s ({:.1f} MB), cached as {}",
                   describe(*set), seconds_since(t0),
                   static_cast<double>(r->compact.memory_bytes()) / 1e6, path);
    else  // a stale or damaged cache, replaced
      spdlog::warn("{}: compact form recorded again in {:.2f} s: {}", describe(*set),
                   seconds_since(t0), r->load_error.to_string());
    if (!r->save_error.ok())
      spdlog::warn("{}: compact cache not written: {}", describe(*set), r->save_error.to_string());
    c = std::move(r->compact);
  }
  return keep_shape(key_id, std::move(c));
}

std::shared_ptr<const CircuitShape> FilecoinFamily::keep_shape(const std::string& key_id,
                                                               CompactR1cs c) {
  auto sh = std::make_shared<CircuitShape>();
  sh->domain_size = domain_of(c.num_constraints);
  sh->compact = std::make_shared<const CompactR1cs>(std::move(c));
  sh->charge_matrices = true;
  std::lock_guard lock(mu_);
  shapes_[key_id] = sh;
  return sh;
}

std::shared_ptr<const CircuitShape> FilecoinFamily::ready_shape(const std::string& key_id) {
  std::lock_guard lock(mu_);
  auto it = shapes_.find(key_id);
  return it == shapes_.end() ? nullptr : it->second;
}

std::shared_ptr<const CircuitShape> FilecoinFamily::cached_shape(const std::string& key_id) {
  if (auto sh = ready_shape(key_id)) return sh;
  const std::string path = compact_cache_path(key_id);
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) return nullptr;
  std::shared_ptr<std::mutex> building;
  {
    std::lock_guard lock(mu_);
    auto& m = building_[key_id];
    if (!m) m = std::make_shared<std::mutex>();
    building = m;
  }
  // A recording or load of this key under way: never wait for it here.
  std::unique_lock build_lock(*building, std::try_to_lock);
  if (!build_lock.owns_lock()) return nullptr;
  if (auto sh = ready_shape(key_id)) return sh;
  const auto t0 = std::chrono::steady_clock::now();
  auto c = load_compact_cache(path, compact_circuit_key(key_id + " " + kCompactIdentity));
  if (!c) return nullptr;  // stale or damaged: shape() records it again (later, off the caller)
  spdlog::info("{}: compact form loaded from {} in {:.2f} s ({:.1f} MB)", key_id, path,
               seconds_since(t0), static_cast<double>(c->memory_bytes()) / 1e6);
  return keep_shape(key_id, std::move(*c));
}

Result<R1csMatrices> FilecoinFamily::record_matrices(const std::string& key_id) const {
  auto set = set_of(key_id);
  if (!set) return set.status();
  auto circuit = blank_circuit(*set);
  if (!circuit) return circuit.status();
  RecordingConstraintSystem cs;
  CUZK_RETURN_IF_ERROR(synthesize_circuit(**circuit, cs).with_context(describe(*set) + " circuit"));
  return std::move(cs.take().matrices);
}

Result<KeySource> FilecoinFamily::key_source(const std::string& key_id) {
  auto set = set_of(key_id);
  if (!set) return set.status();
  KeySource s;
  s.kind = KeySource::Kind::params;
  s.path = params_path(*set);
  s.image_name = file_safe_name(key_id) + ".kimg";
  return s;
}

std::vector<KeyFile> FilecoinFamily::key_files() const {
  std::vector<KeyFile> out;
  for (const fc::ParameterSet& s : sets_) {
    std::error_code ec;
    const std::string path = params_path(s);
    if (!fs::is_regular_file(path, ec)) continue;
    const auto bytes = fs::file_size(path, ec);
    if (!ec) out.push_back(KeyFile{.key_id = filecoin_key_id(s), .path = path, .bytes = bytes});
  }
  return out;
}

Status FilecoinFamily::require_key(const fc::ParameterSet& set) const {
  const std::string path = params_path(set);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return Status(Errc::not_found, "no " + describe(set) + " proving key: parameter file " + path +
                                       " not found (the parameter directory is " +
                                       (opt_.params_dir.empty() ? "unset" : opt_.params_dir) + ")");
  return {};
}

Result<PartitionPlan> FilecoinFamily::plan_for(const fc::ParameterSet& set,
                                               std::uint32_t partitions,
                                               std::shared_ptr<const ParsedJob> parsed) {
  CUZK_RETURN_IF_ERROR(require_key(set));
  // The dimensions from the circuit's compact form when it is in memory or in the cache (0.2 s
  // at 32 GiB); never recorded here (52 s of CPU for the 32 GiB PoRep): pending until then.
  PartitionPlan p;
  p.key_id = filecoin_key_id(set);
  p.partitions = partitions;
  p.parsed = std::move(parsed);
  p.dimensions_pending = true;
  if (cached_shape(p.key_id)) CUZK_RETURN_IF_ERROR(complete_plan(p));
  return p;
}

std::uint64_t FilecoinFamily::compact_witness_peak_bytes(const PartitionPlan& plan,
                                                         const CompactWitnessBound& b) {
  auto sh = shape(plan.key_id);
  if (!sh) return CircuitFamily::compact_witness_peak_bytes(plan, b);  // the generic bound
  // synthesize_witness reserves (inputs + columns) values once (WitnessOptions below).
  const std::uint64_t z = sizeof(Fr) * ((*sh)->dims().num_inputs + plan.columns) +
                          CompactWitnessBound::kAllocationSlack;
  return z + b.build_bytes(compact_witness_from_z_fragments(plan.columns),
                           compact_witness_from_z_slice(plan.columns));
}

Status FilecoinFamily::synthesize_witness(Circuit& circuit, const PartitionPlan& plan,
                                          std::uint32_t k, std::vector<Fr>& z,
                                          const CancelFlag& cancel) {
  const std::string where = "partition " + std::to_string(k) + " witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  auto shape = this->shape(plan.key_id);  // recorded or loaded at plan time: a cache hit here
  if (!shape) return shape.status().with_context(where);
  // The circuit's columns: the plan's once complete, also known for a plan still pending.
  const std::uint64_t columns = (*shape)->dims().num_columns();
  if (!plan.dimensions_pending && plan.columns != columns)
    return Status(Errc::size_mismatch, where + ": the plan has " + std::to_string(plan.columns) +
                                           " columns, the circuit " + std::to_string(columns));
  WitnessOptions wo;
  wo.reserve_aux = columns;
  wo.num_inputs_hint = (*shape)->dims().num_inputs;
  WitnessConstraintSystem cs(wo, std::move(z));
  CUZK_RETURN_IF_ERROR(synthesize_circuit(circuit, cs).with_context(where));
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  z = cs.take_assignment();
  if (z.size() != columns)
    return Status(Errc::size_mismatch, where + ": " + std::to_string(z.size()) +
                                           " values, the circuit has " + std::to_string(columns) +
                                           " columns");
  return {};
}

Status FilecoinFamily::take_compact_witness(Result<CompactWitness> w, const PartitionPlan& plan,
                                            std::uint32_t k, const CancelFlag& cancel,
                                            CompactWitness& out) {
  const std::string where = "partition " + std::to_string(k) + " compact witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  if (!w) return w.status().with_context(where);
  if (w->num_variables() != plan.columns)
    return Status(Errc::size_mismatch, where + ": " + std::to_string(w->num_variables()) +
                                           " variables, the circuit has " +
                                           std::to_string(plan.columns) + " columns");
  out = std::move(*w);
  return {};
}

}  // namespace cuzk::circuits::filecoin
