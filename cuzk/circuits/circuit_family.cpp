#include "cuzk/circuits/circuit_family.hpp"

#include <algorithm>
#include <cctype>

#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/matrices.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk::circuits {

Status CircuitFamily::compact_witness(const JobRequest& req, const PartitionPlan& plan,
                                      std::uint32_t k, CompactWitness& out,
                                      const CancelFlag& cancel) {
  std::uint64_t num_inputs = 0;
  {
    auto sh = shape(plan.key_id);
    if (!sh) return sh.status();
    num_inputs = (*sh)->dims().num_inputs;
  }
  std::vector<Fr> z;
  CUZK_RETURN_IF_ERROR(witness(req, plan, k, z, cancel));
  if (cancel.load())
    return Status(Errc::cancelled, "partition " + std::to_string(k) + " witness: cancelled");
  ThreadPool inline_pool(1);  // the converter on this thread: no thread started
  auto w = compact_witness_from_z(inline_pool, z, num_inputs);
  if (!w) return w.status().with_context("partition " + std::to_string(k) + " compact witness");
  out = std::move(*w);
  return {};
}

std::shared_ptr<const CircuitShape> CircuitFamily::ready_shape(const std::string& key_id) {
  auto sh = shape(key_id);
  return sh ? *sh : nullptr;
}

Status CircuitFamily::complete_plan(PartitionPlan& plan) {
  if (!plan.dimensions_pending) return {};
  auto sh = shape(plan.key_id);
  if (!sh) return sh.status();
  plan.columns = (*sh)->dims().num_columns();
  plan.domain_size = (*sh)->domain_size;
  plan.dimensions_pending = false;
  return {};
}

std::uint64_t CircuitFamily::compact_witness_peak_bytes(const PartitionPlan& plan,
                                                        const CompactWitnessBound& b) {
  return 2 * sizeof(Fr) * plan.columns + CompactWitnessBound::kAllocationSlack +
         b.build_bytes(compact_witness_from_z_fragments(plan.columns),
                       compact_witness_from_z_slice(plan.columns));
}

R1csDims CircuitShape::dims() const {
  if (compact) return compact->dims();
  if (matrices) return R1csDims(*matrices);
  return {};
}

std::uint64_t CircuitShape::form_bytes() const {
  if (compact) return compact->memory_bytes();
  return matrices ? matrices->memory_bytes() : 0;
}

Status Registry::add(std::shared_ptr<CircuitFamily> family) {
  if (!family) return Status(Errc::invalid_argument, "no family");
  for (ProofKind k : family->kinds())
    for (const auto& f : families_) {
      auto kinds = f->kinds();
      if (std::find(kinds.begin(), kinds.end(), k) != kinds.end())
        return Status(Errc::invalid_argument, "families " + f->name() + " and " + family->name() +
                                                  " serve proof kind " +
                                                  std::to_string(static_cast<std::uint32_t>(k)));
    }
  families_.push_back(std::move(family));
  return {};
}

CircuitFamily* Registry::find(const JobRequest& req) const {
  if (req.kind == ProofKind::unspecified) return find_circuit(req.circuit_id);
  for (const auto& f : families_) {
    auto kinds = f->kinds();
    if (std::find(kinds.begin(), kinds.end(), req.kind) != kinds.end()) return f.get();
  }
  return nullptr;
}

CircuitFamily* Registry::find_circuit(const std::string& circuit_id) const {
  for (const auto& f : families_)
    if (f->serves_circuit(circuit_id)) return f.get();
  return nullptr;
}

std::string Registry::key_id_of_name(const std::string& name) const {
  for (const auto& f : families_)
    if (std::string id = f->key_id_of_name(name); !id.empty()) return id;
  return {};
}

std::string file_safe_name(const std::string& id) {
  std::string name = id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return name;
}

}  // namespace cuzk::circuits
