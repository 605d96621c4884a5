// The circom family: circuits registered by id with their snarkjs .zkey (config [circom]).
//
// Circuit: the zkey's A/B rows (C is implied, as snarkjs proves), read once with the points
// unchecked (the key store reads them again, checked) and held with their compiled SpMV plan
// (r1cs/pce_plan) for the life of the family. Key: the zkey itself (KeySource::zkey).
// Job: one partition whose witness is the .wtns bytes in vanilla_proof (wire count and ONE checked
// at plan time); the public inputs are that witness's public signals, read from the request again
// at verification.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::circuits {

struct CircomFamilyOptions {
  std::map<std::string, std::string> circuits;  ///< id → snarkjs .zkey
  ThreadPool* pool = nullptr;                   ///< reads the zkeys (null: one thread)
};

class CircomFamily final : public CircuitFamily {
 public:
  explicit CircomFamily(CircomFamilyOptions opt) : opt_(std::move(opt)) {}

  std::string name() const override { return "circom"; }
  bool serves_circuit(const std::string& circuit_id) const override {
    return opt_.circuits.count(circuit_id) > 0;
  }
  Result<PartitionPlan> plan(const JobRequest& req) override;
  Result<std::shared_ptr<const CircuitShape>> shape(const std::string& key_id) override;
  Result<KeySource> key_source(const std::string& key_id) override;
  std::vector<KeyFile> key_files() const override;
  Status witness(const JobRequest& req, const PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override;
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const PartitionPlan& plan,
                                        std::uint32_t k) override;

  /// The compiled SpMV plan of a registered circuit (built once with its matrices).
  Result<std::shared_ptr<const PcePlan>> pce_plan(const std::string& id);

 private:
  CircomFamilyOptions opt_;
  std::mutex mu_;  // one zkey read at a time; shapes_
  std::map<std::string, std::shared_ptr<const CircuitShape>> shapes_;
};

}  // namespace cuzk::circuits
