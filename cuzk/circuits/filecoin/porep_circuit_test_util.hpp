// Helpers for the PoRep circuit tests: sectors sealed in the test (seeded random data) or the
// real venus 2 KiB sectors (CUZK_FILECOIN_DATA), their C1 for a seed, and the partition's public
// and private parts.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/sector_dir.hpp"

namespace cuzk::circuits::filecoin::testing {
namespace fc = cuzk::filecoin;

/// A sealed sector of |proof| over seeded random Fr32 data.
inline Result<fc::SealedSector> seal_random_sector(const fc::SealProof& proof, std::mt19937_64& rng,
                                                   ThreadPool& pool) {
  const fc::SealConfig config = fc::seal_config(proof);
  std::vector<fc::Node> data(config.nodes);
  for (fc::Node& n : data) {
    for (auto& b : n) b = static_cast<std::uint8_t>(rng());
    fc::truncate_to_fr254(n);
  }
  fc::SectorIdentity id;
  for (auto& b : id.prover_id) b = static_cast<std::uint8_t>(rng());
  for (auto& b : id.ticket) b = static_cast<std::uint8_t>(rng());
  fc::truncate_to_fr254(id.ticket);
  id.sector_id = rng() % 1000;
  auto r = fc::seal(config, id, data, pool);
  if (!r) return r.status();
  fc::SealedSector s;
  s.info = {.registered_proof = proof.name,
            .size = proof.size,
            .porep_id = proof.porep_id,
            .api = proof.api,
            .id = id,
            .comm_d = r->comm_d,
            .comm_c = r->comm_c,
            .comm_r_last = r->comm_r_last,
            .comm_r = r->comm_r,
            .replica_id = r->replica_id};
  s.sealed = std::move(r).value();
  return s;
}

/// Sector |sector_id| (0 or 1) of venus' genesis sectors ($CUZK_FILECOIN_DATA/README.md: miner
/// t0106, StackedDrg2KiBV1, ticket BLAKE2b-256("lotus is fire")): the replica under |dir| is
/// unsealed and sealed again; the result must carry the recorded commitments (checked by the
/// caller).
inline Result<fc::SealedSector> venus_sector(const std::filesystem::path& dir,
                                             std::uint64_t sector_id, const fc::Node& comm_d,
                                             ThreadPool& pool) {
  const fc::SealProof proof = fc::seal_proof("StackedDrg2KiBV1").value();
  const fc::SealConfig config = fc::seal_config(proof);
  const std::string name = "s-t0106-" + std::to_string(sector_id);
  auto replica = fc::read_node_file(dir / "sealed" / name, config.nodes);
  if (!replica) return replica.status();
  fc::SectorIdentity id;
  id.prover_id[0] = 0x6a;
  id.sector_id = sector_id;
  id.ticket =
      fc::parse_hex32("79ac3dd7defaad6d40e033a1c89124df3cbefdf072868b1924e562f0d4204189", "ticket")
          .value();
  const fc::Node rid =
      fc::replica_id(id.prover_id, id.sector_id, id.ticket, comm_d, config.porep_id);
  auto data = fc::unseal(config, rid, *replica, pool);
  if (!data) return data.status();
  auto r = fc::seal(config, id, *data, pool);
  if (!r) return r.status();
  fc::SealedSector s;
  s.info = {.registered_proof = proof.name,
            .size = proof.size,
            .porep_id = proof.porep_id,
            .api = proof.api,
            .id = id,
            .comm_d = r->comm_d,
            .comm_c = r->comm_c,
            .comm_r_last = r->comm_r_last,
            .comm_r = r->comm_r,
            .replica_id = r->replica_id};
  s.sealed = std::move(r).value();
  return s;
}

inline fc::Node random_node(std::mt19937_64& rng) {
  fc::Node s;
  for (auto& b : s) b = static_cast<std::uint8_t>(rng());
  return s;
}

}  // namespace cuzk::circuits::filecoin::testing
