// Helpers for the Filecoin family tests: parameter directories holding files named as keys, and
// real requests built from the venus 2 KiB sectors (CUZK_FILECOIN_DATA; shared/filecoin/README.md:
// miner t0106, StackedDrg2KiBV1, sectors 0 and 1) — a C1 envelope for PoRep, bincode vanilla
// proofs for WindowPoSt (V1_2 partitions 0 and 1, V1 partition 1), WinningPoSt and SnapDeals.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cuzk/circuits/filecoin/porep_circuit_test_util.hpp"
#include "cuzk/circuits/job_request.hpp"
#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/commit1.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/snap_encode.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_prove.hpp"
#include "tests/support/filecoin_data.hpp"

namespace cuzk::circuits::filecoin::testing {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;

// A parameter directory holding (empty) files named as the 2 KiB keys: plan only looks for the
// file; the key store reads it later.
inline fs::path params_dir_with(const std::string& name,
                                const std::vector<fc::ParameterSet>& sets) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("cuzk_fil_family_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const fc::ParameterSet& s : sets) std::ofstream(dir / s.params_file()) << "x";
  return dir;
}

inline std::vector<fc::ParameterSet> all_2kib_sets() {
  return {fc::porep_parameters(fc::SectorSize::s2KiB),
          fc::post_parameters(fc::PostKind::winning, fc::SectorSize::s2KiB),
          fc::post_parameters(fc::PostKind::window, fc::SectorSize::s2KiB),
          fc::update_parameters(fc::SectorSize::s2KiB)};
}

inline constexpr std::uint64_t kMiner = 106;
inline constexpr const char* kCommD[] = {
    "2d8cd21509618ffea50330291ea4a23523e1e3a5f74ceed0dd66bd327bf51a21",
    "cba50b4a44d909277ea22e76654dfa89a4ef9664d02192fc7321bbb9580b093e"};
inline constexpr const char* kCommR[] = {
    "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257",
    "2f889cb216b14800f68048108b46d2261073ae842074eb66656035421e5ead03"};

inline std::string bytes_of(const fc::Bytes32& b) { return std::string(b.begin(), b.end()); }
inline std::string bytes_of(const std::vector<std::uint8_t>& b) {
  return std::string(b.begin(), b.end());
}

struct Venus {
  fc::SealCommitPhase1Output c1;  // sector 0, seeded seed
  JobRequest porep, window0, window1, winning, snap;
  JobRequest window_v1_1;  // StackedDrgWindow2KiBV1 (number 5), partition 1
  std::vector<fc::FallbackPoStSectorProof> window0_vanilla;
  std::vector<fc::SnapPartitionProof> snap_proofs;
};

inline JobRequest porep_request(const fc::SealCommitPhase1Output& c1, std::uint64_t sector) {
  JobRequest r;
  r.request_id = "porep";
  r.kind = ProofKind::porep_seal_commit;
  r.registered_proof = 0;  // StackedDrg2KiBV1
  r.sector_size = 2048;
  r.sector_number = sector;
  r.miner_id = kMiner;
  r.vanilla_proof = fc::write_curio_c1_request(
      {.sector_num = sector, .sector_size = 2048, .phase1_out = fc::write_c1_json(c1)});
  return r;
}

inline const Venus* venus() {
  static const std::optional<Venus> v = []() -> std::optional<Venus> {
    const auto data = cuzk::test::filecoin_data_dir();
    if (!data) return std::nullopt;
    const fs::path dir = *data / "venus-2kib";
    ThreadPool pool(2);
    std::mt19937_64 rng(20261218);
    Venus v;
    // PoRep: sector 0 unsealed and sealed again (its commitments as recorded), C1 for a seed.
    {
      auto sector = venus_sector(dir, 0, fc::parse_hex32(kCommD[0], "comm_d").value(), pool);
      if (!sector.ok()) {
        ADD_FAILURE() << sector.status().to_string();
        return std::nullopt;
      }
      EXPECT_EQ(fc::to_hex(sector->info.comm_r), kCommR[0]);
      auto c1 = fc::build_commit1(*sector, random_node(rng), pool);
      if (!c1.ok()) {
        ADD_FAILURE() << c1.status().to_string();
        return std::nullopt;
      }
      v.c1 = std::move(*c1);
      v.porep = porep_request(v.c1, 0);
    }
    // PoSt: both sectors' tree_r_last rebuilt from the replicas.
    std::vector<fc::PostSector> sectors;
    for (std::uint64_t id : {0, 1}) {
      const std::string name = "s-t0106-" + std::to_string(id);
      auto replica = fc::read_node_file(dir / "sealed" / name, 64);
      auto p_aux_bytes = fc::read_small_file(dir / "cache" / name / "p_aux");
      if (!replica.ok() || !p_aux_bytes.ok()) {
        ADD_FAILURE() << "venus sector " << id << " unreadable";
        return std::nullopt;
      }
      const fc::PersistentAux p_aux = fc::parse_p_aux(*p_aux_bytes).value();
      std::vector<Fr> leaves;
      for (const fc::Node& n : *replica) leaves.push_back(fc::fr_from_node(n).value());
      fc::PostSector s{
          .info = {},
          .tree_r_last = fc::PoseidonTree::build(std::move(leaves), {8, 0, 0}, pool).value()};
      s.info.size = fc::SectorSize::s2KiB;
      s.info.id.sector_id = id;
      s.info.comm_c = p_aux.comm_c;
      s.info.comm_r_last = p_aux.comm_r_last;
      s.info.comm_r = fc::parse_hex32(kCommR[id], "comm_r").value();
      sectors.push_back(std::move(s));
    }
    const fc::Bytes32 randomness = [&] {
      fc::Bytes32 r = random_node(rng);
      fc::truncate_to_fr254(r);
      return r;
    }();
    auto post_request = [&](ProofKind kind, std::uint64_t number) {
      JobRequest r;
      r.request_id = "post";
      r.kind = kind;
      r.registered_proof = number;
      r.sector_size = 2048;
      r.miner_id = kMiner;
      r.randomness = bytes_of(randomness);
      return r;
    };
    // WindowPoSt V1_2 (Go's V1_1, number 10), whose challenges do not depend on the sector's
    // position, and V1 (number 5), whose do: sectors [0, 1, 1, 0] make partitions 0 and 1.
    std::vector<fc::PostSector> four;
    for (std::uint64_t id : {0, 1, 1, 0}) four.push_back(sectors[id]);
    for (std::uint64_t number : {10, 5}) {
      const fc::PostProof window = fc::post_proof_by_number(number).value();
      auto wv = fc::window_post_vanilla_proofs(window, randomness, four);
      if (!wv.ok()) {
        ADD_FAILURE() << wv.status().to_string();
        return std::nullopt;
      }
      JobRequest p0 = post_request(ProofKind::window_post_partition, number);
      JobRequest p1 = p0;
      p1.partition_index = 1;
      for (int i = 0; i < 4; ++i)
        (i < 2 ? p0 : p1).vanilla_proofs.push_back(bytes_of(fc::write_post_sector_proof((*wv)[i])));
      if (number == 10) {
        v.window0 = std::move(p0);
        v.window1 = std::move(p1);
        v.window0_vanilla.assign(wv->begin(), wv->begin() + 2);
      } else {
        v.window_v1_1 = std::move(p1);
      }
    }
    // WinningPoSt: the challenged one of the two.
    const fc::PostProof winning = fc::post_proof_by_number(0).value();
    auto win = fc::winning_post_vanilla_proof(winning, randomness, fc::prover_id_of_actor(kMiner),
                                              sectors);
    if (!win.ok()) {
      ADD_FAILURE() << win.status().to_string();
      return std::nullopt;
    }
    v.winning = post_request(ProofKind::winning_post, 0);
    v.winning.sector_number = win->proof.sector_id;
    v.winning.vanilla_proofs.push_back(bytes_of(fc::write_post_sector_proof(win->proof)));
    // SnapDeals: sector 0 updated with seeded random data, h = the 2 KiB default.
    {
      const std::string name = "s-t0106-0";
      const auto replica = fc::read_node_file(dir / "sealed" / name, 64).value();
      const fc::PersistentAux p_aux =
          fc::parse_p_aux(fc::read_small_file(dir / "cache" / name / "p_aux").value()).value();
      std::vector<fc::Node> data;
      for (int i = 0; i < 64; ++i) {
        fc::Node n = random_node(rng);
        fc::truncate_to_fr254(n);
        data.push_back(n);
      }
      const fc::SnapParams sp = fc::snap_params(fc::SectorSize::s2KiB);
      const fc::SnapSectorKey key{fc::SectorSize::s2KiB, p_aux.comm_c, p_aux.comm_r_last, replica};
      auto enc = fc::snap_encode(key, data, sp.h_default, pool);
      if (!enc.ok()) {
        ADD_FAILURE() << enc.status().to_string();
        return std::nullopt;
      }
      std::vector<Fr> old_leaves;
      for (const fc::Node& n : replica) old_leaves.push_back(fc::fr_from_node(n).value());
      const auto tree_r_old = fc::PoseidonTree::build(old_leaves, {8, 0, 0}, pool).value();
      const fc::SnapTrees trees{&tree_r_old, enc->tree_d, &enc->tree_r, p_aux.comm_c};
      JobRequest r;
      r.request_id = "snap";
      r.kind = ProofKind::snap_deals_update;
      r.registered_proof = 0;  // StackedDrg2KiBV1
      r.sector_size = 2048;
      r.comm_r_old = bytes_of(enc->comm_r_old);
      r.comm_d_new = bytes_of(enc->comm_d_new);
      r.comm_r_new = bytes_of(enc->comm_r_new);
      for (unsigned k = 0; k < sp.partitions; ++k) {
        auto p = fc::snap_partition_proof(sp, trees, k);
        if (!p.ok()) {
          ADD_FAILURE() << p.status().to_string();
          return std::nullopt;
        }
        r.vanilla_proofs.push_back(bytes_of(fc::write_snap_partition_proof(*p)));
        v.snap_proofs.push_back(std::move(*p));
      }
      v.snap = std::move(r);
    }
    return v;
  }();
  return v ? &*v : nullptr;
}

}  // namespace cuzk::circuits::filecoin::testing
