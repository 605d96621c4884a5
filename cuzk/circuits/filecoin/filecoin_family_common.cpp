#include "cuzk/circuits/filecoin/filecoin_family_common.hpp"

#include <spdlog/spdlog.h>
#include <bit>
#include <filesystem>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/r1cs/pce_cache.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
namespace {

// Bumped when a circuit changes (the .r1cs caches of older versions are then stale).
constexpr const char* kMatrixCacheVersion = "cuzk-filecoin-matrices v1";

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

std::string FilecoinFamily::params_path(const fc::ParameterSet& set) const {
  return (fs::path(opt_.params_dir) / set.params_file()).string();
}

Result<std::shared_ptr<const CircuitShape>> FilecoinFamily::shape(const std::string& key_id) {
  auto set = set_of(key_id);
  if (!set) return set.status();
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(key_id); it != shapes_.end()) return it->second;
  }
  std::lock_guard build_lock(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = shapes_.find(key_id); it != shapes_.end()) return it->second;
  }
  auto record = [&]() -> Result<R1csMatrices> {
    auto circuit = blank_circuit(*set);
    if (!circuit) return circuit.status();
    RecordingConstraintSystem cs;
    CUZK_RETURN_IF_ERROR(synthesize_circuit(**circuit, cs));
    return std::move(cs.take().matrices);
  };
  R1csMatrices m;
  if (opt_.cache_dir.empty()) {
    auto r = record();
    if (!r) return r.status().with_context(describe(*set) + " circuit");
    m = std::move(*r);
  } else {
    const std::string path = (fs::path(opt_.cache_dir) / (key_id + ".r1cs")).string();
    auto r =
        load_or_build_r1cs(path, r1cs_topology_key(key_id + " " + kMatrixCacheVersion), record);
    if (!r) return r.status().with_context(describe(*set) + " circuit");
    if (!r->from_cache)
      spdlog::info("{}: matrices recorded ({})", describe(*set), r->load_error.to_string());
    if (!r->save_error.ok())
      spdlog::warn("{}: matrix cache not written: {}", describe(*set), r->save_error.to_string());
    m = std::move(r->matrices);
  }
  auto sh = std::make_shared<CircuitShape>();
  sh->domain_size = domain_of(m.num_constraints);
  sh->matrices = std::make_shared<const R1csMatrices>(std::move(m));
  sh->charge_matrices = true;
  std::lock_guard lock(mu_);
  counts_[key_id] = Counts{sh->matrices->num_columns(), sh->domain_size};
  shapes_[key_id] = sh;
  return std::shared_ptr<const CircuitShape>(std::move(sh));
}

Result<FilecoinFamily::Counts> FilecoinFamily::counts(const fc::ParameterSet& set) {
  const std::string key_id = filecoin_key_id(set);
  {
    std::lock_guard lock(mu_);
    if (auto it = counts_.find(key_id); it != counts_.end()) return it->second;
  }
  std::lock_guard build_lock(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = counts_.find(key_id); it != counts_.end()) return it->second;
  }
  auto circuit = blank_circuit(set);
  if (!circuit) return circuit.status();
  auto info = circuit_info(**circuit);
  if (!info) return info.status().with_context(describe(set) + " circuit");
  // Rows: the circuit's constraints and one input constraint per input, ONE included.
  const Counts c{1 + info->public_inputs + info->aux,
                 domain_of(info->constraints + info->public_inputs + 1)};
  std::lock_guard lock(mu_);
  counts_[key_id] = c;
  return c;
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
  auto c = counts(set);
  if (!c) return c.status();
  PartitionPlan p;
  p.key_id = filecoin_key_id(set);
  p.partitions = partitions;
  p.columns = c->columns;
  p.domain_size = c->domain_size;
  p.parsed = std::move(parsed);
  return p;
}

Status FilecoinFamily::synthesize_witness(Circuit& circuit, const PartitionPlan& plan,
                                          std::uint32_t k, std::vector<Fr>& z,
                                          const CancelFlag& cancel) {
  const std::string where = "partition " + std::to_string(k) + " witness";
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  WitnessOptions wo;
  wo.reserve_aux = plan.columns;
  WitnessConstraintSystem cs(wo, std::move(z));
  CUZK_RETURN_IF_ERROR(synthesize_circuit(circuit, cs).with_context(where));
  if (cancel.load()) return Status(Errc::cancelled, where + ": cancelled");
  z = cs.take_assignment();
  if (z.size() != plan.columns)
    return Status(Errc::size_mismatch, where + ": " + std::to_string(z.size()) +
                                           " values, the circuit has " +
                                           std::to_string(plan.columns) + " columns");
  return {};
}

}  // namespace cuzk::circuits::filecoin
