#include "cuzk/circuits/circom/circom_family.hpp"

#include <filesystem>

#include "cuzk/formats/zkey.hpp"
#include "cuzk/r1cs/circom.hpp"
#include "cuzk/r1cs/lc.hpp"

namespace cuzk::circuits {
namespace {

// A circom job's witness: the .wtns bytes of the request, checked against the circuit.
Result<std::vector<Fr>> circom_witness(const JobRequest& req, const R1csMatrices& m) {
  auto w = parse_snarkjs_wtns(std::span(
      reinterpret_cast<const std::uint8_t*>(req.vanilla_proof.data()), req.vanilla_proof.size()));
  if (!w) return w.status().with_context("witness (.wtns in vanilla_proof)");
  if (w->size() != m.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(w->size()) +
                                           " values, circuit '" + req.circuit_id + "' has " +
                                           std::to_string(m.num_columns()) + " signals");
  if (!fr_is_one((*w)[0]))
    return Status(Errc::bad_encoding, "witness value 0 (the constant ONE) is not 1");
  return std::move(*w);
}

}  // namespace

Result<std::shared_ptr<const CircuitShape>> CircomFamily::shape(const std::string& id) {
  auto path = opt_.circuits.find(id);
  if (path == opt_.circuits.end()) return Status(Errc::not_found, "unknown circuit '" + id + "'");
  std::lock_guard lock(mu_);
  if (auto it = shapes_.find(id); it != shapes_.end()) return it->second;
  ZkeyReadOptions ro;
  ro.check_subgroup = false;  // the shape only; the key store reads the points checked
  ro.pool = opt_.pool;
  auto zk = read_zkey(path->second, ro);
  if (!zk) return zk.status().with_context("circuit '" + id + "' (" + path->second + ")");
  auto shape = std::make_shared<CircuitShape>();
  shape->domain_size = zk->pk.domain_size;
  shape->matrices = std::make_shared<const R1csMatrices>(std::move(zk->matrices));
  // Once per circuit, like the matrices: every proof's SpMV then runs the compiled rows.
  shape->pce = std::make_shared<const PcePlan>(cuzk::pce_plan(*shape->matrices));
  shapes_[id] = shape;
  return std::shared_ptr<const CircuitShape>(std::move(shape));
}

Result<std::shared_ptr<const PcePlan>> CircomFamily::pce_plan(const std::string& id) {
  auto s = shape(id);
  if (!s) return s.status();
  return (*s)->pce;
}

Result<PartitionPlan> CircomFamily::plan(const JobRequest& req) {
  auto s = shape(req.circuit_id);
  if (!s) return s.status();
  auto w = circom_witness(req, *(*s)->matrices);
  if (!w) return w.status();
  if (req.num_partitions > 1)
    return Status(Errc::out_of_range, "circom circuits take one partition per job");
  PartitionPlan p;
  p.key_id = req.circuit_id;
  p.partitions = 1;
  p.columns = (*s)->matrices->num_columns();
  p.domain_size = (*s)->domain_size;
  return p;
}

Result<KeySource> CircomFamily::key_source(const std::string& id) {
  auto path = opt_.circuits.find(id);
  if (path == opt_.circuits.end()) return Status(Errc::not_found, "unknown circuit '" + id + "'");
  KeySource s;
  s.kind = KeySource::Kind::zkey;
  s.path = path->second;
  s.image_name = "circom-" + file_safe_name(id) + ".kimg";
  return s;
}

std::vector<KeyFile> CircomFamily::key_files() const {
  std::vector<KeyFile> out;
  std::error_code ec;
  for (const auto& [id, path] : opt_.circuits) {
    auto size = std::filesystem::file_size(path, ec);
    if (!ec) out.push_back(KeyFile{.key_id = id, .path = path, .bytes = size});
  }
  return out;
}

Status CircomFamily::witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                             std::vector<Fr>& z, const CancelFlag& cancel) {
  (void)plan;
  if (k != 0) return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto s = shape(req.circuit_id);
  if (!s) return s.status();
  auto w = circom_witness(req, *(*s)->matrices);
  if (!w) return w.status();
  if (cancel.load()) return Status(Errc::cancelled, "synthesis cancelled");
  z = std::move(*w);
  return {};
}

Result<std::vector<Fr>> CircomFamily::public_inputs(const JobRequest& req,
                                                    const PartitionPlan& plan, std::uint32_t k) {
  (void)plan;
  if (k != 0) return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto s = shape(req.circuit_id);
  if (!s) return s.status();
  auto w = circom_witness(req, *(*s)->matrices);
  if (!w) return w.status();
  const auto n = static_cast<std::ptrdiff_t>((*s)->matrices->num_inputs);
  return std::vector<Fr>(w->begin() + 1, w->begin() + n);
}

}  // namespace cuzk::circuits
