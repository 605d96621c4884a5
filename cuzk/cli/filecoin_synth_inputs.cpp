// `cuzk filecoin synth-inputs`: valid prover inputs of large sectors without sealing one
// (filecoin/synth_inputs.hpp, docs/filecoin/synth-inputs.md), deterministic from --seed.
//   --kind window   bincode FallbackPoStSectorProofs of --sectors sectors (default: one full
//                   partition, sector_count of the proof), back to back as Curio sends them
//   --kind winning  the one sector's FallbackPoStSectorProof (66 challenges)
//   --kind porep    the C1 output JSON (SealCommitPhase1Output, as filecoin-ffi writes it)
//   --kind snap     every partition's bincode PartitionProof (SnapDeals), back to back as
//                   snap-vanilla writes them
// Default registered proofs: StackedDrgWindow<size>V1_2, StackedDrgWinning<size>V1,
// StackedDrg<size>V1_1, StackedDrg<size>V1 (update). --miner-id M: the prover is miner M
// (prover_id_of_actor), so `cuzk submit --miner-id M` matches the inputs. Prints JSON with the public data needed to check or prove the output
// (PoSt: randomness, prover_id, each sector's id and comm_r; PoRep: the C1's commitments, ids and
// the private comm_c / comm_r_last; snap: comm_r_old, comm_d_new, comm_r_new, h and the private
// comm_c / comm_r_last_old / comm_r_last_new), the size and the seconds taken. Exit 0 written, 1 the output
// could not be written, 2 usage.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct SynthArgs {
  std::string kind, sector_size, registered_proof, out;
  std::uint64_t seed = 0;
  std::optional<std::uint64_t> sectors;
  std::optional<std::uint64_t> miner_id;
  unsigned threads = 0;
};

int usage(const std::string& what) {
  std::fprintf(stderr, "cuzk filecoin synth-inputs: %s\n", what.c_str());
  return 2;
}

bool write_file(const std::string& path, const void* data, std::size_t n) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  f.close();
  return static_cast<bool>(f);
}

int run(const SynthArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<SectorSize> size;
  if (!a.sector_size.empty()) {
    auto s = parse_sector_size(a.sector_size);
    if (!s.ok()) return usage("--sector-size: " + s.status().message());
    size = *s;
  }
  if (!size && a.registered_proof.empty())
    return usage("--sector-size or --registered-proof is required");
  ThreadPool pool(a.threads);
  nlohmann::json out = {{"kind", a.kind}, {"seed", a.seed}, {"out", a.out}};
  std::optional<Node> prover;
  if (a.miner_id) {
    if (a.kind == "snap") return usage("--miner-id is for porep, winning and window");
    prover = prover_id_of_actor(*a.miner_id);
    out["miner_id"] = *a.miner_id;
  }
  std::size_t bytes = 0;
  if (a.kind == "snap") {
    const std::string name = !a.registered_proof.empty()
                                 ? a.registered_proof
                                 : "StackedDrg" + std::string(sector_size_name(*size)) + "V1";
    auto proof = update_proof(name);
    if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
    if (size && proof->size != *size)
      return usage("--registered-proof " + proof->name + " is not a " + a.sector_size + " proof");
    if (a.sectors) return usage("--sectors is for --kind window");
    auto snap = synth_snap(*proof, a.seed, pool);
    if (!snap.ok()) return usage(snap.status().to_string());
    BincodeWriter w;
    for (const auto& p : snap->partitions) write_snap_partition_proof(w, p);
    if (!write_file(a.out, w.bytes().data(), w.bytes().size()))
      return std::fprintf(stderr, "cuzk filecoin synth-inputs: --out %s: cannot write\n",
                          a.out.c_str()),
             1;
    bytes = w.bytes().size();
    out["registered_proof"] = proof->name;
    out["comm_r_old"] = to_hex(snap->pub.comm_r_old);
    out["comm_d_new"] = to_hex(snap->pub.comm_d_new);
    out["comm_r_new"] = to_hex(snap->pub.comm_r_new);
    out["h"] = snap->pub.h;
    out["comm_c"] = to_hex(snap->comm_c);
    out["comm_r_last_old"] = to_hex(snap->comm_r_last_old);
    out["comm_r_last_new"] = to_hex(snap->comm_r_last_new);
    out["partitions"] = snap->partitions.size();
    out["challenges_per_partition"] = snap->partitions.at(0).challenge_proofs.size();
  } else if (a.kind == "porep") {
    const std::string name = !a.registered_proof.empty()
                                 ? a.registered_proof
                                 : "StackedDrg" + std::string(sector_size_name(*size)) + "V1_1";
    auto proof = seal_proof(name);
    if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
    if (size && proof->size != *size)
      return usage("--registered-proof " + proof->name + " is not a " + a.sector_size + " proof");
    if (a.sectors) return usage("--sectors is for --kind window");
    auto c1 = synth_c1(*proof, a.seed, pool, prover);
    if (!c1.ok()) return usage(c1.status().to_string());
    const std::string json = write_c1_json(c1->c1);
    if (!write_file(a.out, json.data(), json.size()))
      return std::fprintf(stderr, "cuzk filecoin synth-inputs: --out %s: cannot write\n",
                          a.out.c_str()),
             1;
    bytes = json.size();
    out["registered_proof"] = proof->name;
    out["prover_id"] = to_hex(c1->prover_id);
    out["sector_id"] = c1->sector_id;
    out["ticket"] = to_hex(c1->c1.ticket);
    out["seed_randomness"] = to_hex(c1->c1.seed);
    out["comm_d"] = to_hex(c1->c1.comm_d);
    out["comm_r"] = to_hex(c1->c1.comm_r);
    out["replica_id"] = to_hex(c1->c1.replica_id);
    out["comm_c"] = to_hex(c1->comm_c);
    out["comm_r_last"] = to_hex(c1->comm_r_last);
    out["partitions"] = c1->c1.vanilla_proofs.size();
    out["challenges_per_partition"] = c1->c1.vanilla_proofs.at(0).size();
  } else {
    const bool window = a.kind == "window";
    const std::string name = !a.registered_proof.empty()
                                 ? a.registered_proof
                                 : std::string(window ? "StackedDrgWindow" : "StackedDrgWinning") +
                                       std::string(sector_size_name(*size)) +
                                       (window ? "V1_2" : "V1");
    auto proof = post_proof(name);
    if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
    if (proof->kind != (window ? PostKind::window : PostKind::winning))
      return usage("--registered-proof " + proof->name + " is not a " + a.kind + " PoSt proof");
    if (size && proof->size != *size)
      return usage("--registered-proof " + proof->name + " is not a " + a.sector_size + " proof");
    if (!window && a.sectors && *a.sectors != 1) return usage("--kind winning proves 1 sector");
    const std::uint64_t n = a.sectors ? *a.sectors : (window ? proof->sector_count : 1);
    if (n == 0) return usage("--sectors must be at least 1");
    auto post = synth_post(*proof, a.seed, n, pool, prover);
    if (!post.ok()) return usage(post.status().to_string());
    BincodeWriter w;
    for (const auto& p : post->vanilla) write_post_sector_proof(w, p);
    if (!write_file(a.out, w.bytes().data(), w.bytes().size()))
      return std::fprintf(stderr, "cuzk filecoin synth-inputs: --out %s: cannot write\n",
                          a.out.c_str()),
             1;
    bytes = w.bytes().size();
    out["registered_proof"] = proof->name;
    out["randomness"] = to_hex(post->randomness);
    out["prover_id"] = to_hex(post->prover_id);
    for (const auto& s : post->sectors)
      out["sectors"].push_back({{"sector_id", s.sector_id}, {"comm_r", to_hex(s.comm_r)}});
    if (window) out["partitions"] = window_post_partitions(n, proof->sector_count);
  }
  out["bytes"] = bytes;
  out["threads"] = pool.size();
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

FilecoinRun add_synth_inputs(CLI::App& sub) {
  auto a = std::make_shared<SynthArgs>();
  sub.add_option("--kind", a->kind, "porep | winning | window | snap")
      ->required()
      ->check(CLI::IsMember({"porep", "winning", "window", "snap"}));
  sub.add_option("--sector-size", a->sector_size, "sector size: 32GiB, 64GiB (or any size name)");
  sub.add_option("--registered-proof", a->registered_proof,
                 "registered proof (default: StackedDrg<size>V1_1, StackedDrgWinning<size>V1, "
                 "StackedDrgWindow<size>V1_2)");
  sub.add_option("--seed", a->seed, "seed of every random value")->required();
  sub.add_option("--sectors", a->sectors,
                 "--kind window: number of sectors (default: one full partition)");
  sub.add_option("--out", a->out, "output file (PoSt, snap: bincode proofs; porep: C1 JSON)")
      ->required();
  sub.add_option("--miner-id", a->miner_id,
                 "porep, winning, window: the prover is this miner (prover_id_of_actor), so a "
                 "daemon request naming the miner matches (default: a random prover_id)");
  sub.add_option("--threads", a->threads, "worker threads (0: all cores)");
  return [a]() -> int { return run(*a); };
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_synth_inputs(CLI::App& sub) { return add_synth_inputs(sub); }

}  // namespace cuzk::cli
