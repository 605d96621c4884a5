#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::circuits::filecoin {
namespace fc = cuzk::filecoin;
namespace {

Status partition_out_of_range(unsigned k, unsigned count, const std::string& proof) {
  return Status(Errc::out_of_range, "partition " + std::to_string(k) + ": " + proof + " has " +
                                        std::to_string(count) + " partition" +
                                        (count == 1 ? "" : "s"));
}

Status wrong_kind(const fc::PostProof& proof, const char* want) {
  return Status(Errc::invalid_argument, proof.name + " is not a " + want + " proof");
}

}  // namespace

fc::Bytes32 porep_replica_id(const PorepPublicData& d) {
  return fc::replica_id(d.prover_id, d.sector_id, d.ticket, d.comm_d, d.proof.porep_id);
}

unsigned partition_count(const PorepPublicData& d) {
  return fc::porep_challenge_config(d.proof).partitions;
}
unsigned partition_count(const WindowPostPublicData&) { return 1; }
unsigned partition_count(const WinningPostPublicData&) { return 1; }
unsigned partition_count(const SnapPublicData& d) { return d.proof.partitions; }

Result<std::vector<Fr>> partition_public_inputs(const PorepPublicData& d, unsigned k) {
  if (k >= partition_count(d)) return partition_out_of_range(k, partition_count(d), d.proof.name);
  auto pub = porep_circuit_public(d.proof, porep_replica_id(d), d.comm_d, d.comm_r, d.seed, k);
  if (!pub) return pub.status();
  return porep_circuit_public_inputs(d.proof, *pub);
}

Result<std::vector<Fr>> partition_public_inputs(const WindowPostPublicData& d, unsigned k) {
  if (d.proof.kind != fc::PostKind::window) return wrong_kind(d.proof, "WindowPoSt");
  if (k != 0) return partition_out_of_range(k, 1, "a WindowPoSt partition job");
  auto params = post_circuit_params(d.proof);
  if (!params) return params.status();
  return post_partition_public_inputs(*params, d.randomness, d.sectors, d.partition_index);
}

Result<std::vector<Fr>> partition_public_inputs(const WinningPostPublicData& d, unsigned k) {
  if (d.proof.kind != fc::PostKind::winning) return wrong_kind(d.proof, "WinningPoSt");
  if (k != 0) return partition_out_of_range(k, 1, d.proof.name);
  auto params = post_circuit_params(d.proof);
  if (!params) return params.status();
  return post_public_inputs(*params,
                            winning_post_public(*params, d.randomness, d.prover_id, d.sector));
}

Result<std::vector<Fr>> partition_public_inputs(const SnapPublicData& d, unsigned k) {
  if (k >= partition_count(d)) return partition_out_of_range(k, partition_count(d), d.proof.name);
  const fc::SnapParams params = fc::snap_params(d.proof.size);
  const unsigned h = d.h ? d.h : params.h_default;
  auto pub = update_public(params.nodes, k, h, d.comm_r_old, d.comm_d_new, d.comm_r_new);
  if (!pub) return pub.status();
  return update_public_inputs(*pub);
}

fc::ParameterSet parameter_set(const PorepPublicData& d) {
  return fc::porep_parameters(d.proof.size);
}
fc::ParameterSet parameter_set(const WindowPostPublicData& d) {
  return fc::post_parameters(fc::PostKind::window, d.proof.size);
}
fc::ParameterSet parameter_set(const WinningPostPublicData& d) {
  return fc::post_parameters(fc::PostKind::winning, d.proof.size);
}
fc::ParameterSet parameter_set(const SnapPublicData& d) {
  return fc::update_parameters(d.proof.size);
}

std::string filecoin_key_id(const fc::ParameterSet& set) {
  return "v" + std::to_string(fc::kParameterVersion) + "-" + set.cache_id();
}

}  // namespace cuzk::circuits::filecoin
