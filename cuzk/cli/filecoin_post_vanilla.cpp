// `cuzk filecoin post-vanilla`: PoSt vanilla proofs of sealed sectors (sector directories), as
// filecoin-proofs-api generate_single_vanilla_proof returns them and Curio sends them in
// `vanilla_proofs` (docs/filecoin/post.md). --kind window: one bincode FallbackPoStSectorProof per
// --sector, in the order given (the PoSt order: partition k · sector_count + i), written back to
// back into --out. --kind winning: the --sector list is the eligible sector set; the sector at
// generate_winning_post_sector_challenge's position is proven (66 challenges) and its proof alone
// written. Prints JSON: the proof, randomness, each proven sector's id, comm_r, position and
// challenged leaves, the partitions (window) and the output size. Exit 0 written, 1 a sector
// failed its checks (tree_r_last root or comm_r), 2 usage or unreadable input.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_prove.hpp"
#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct PostVanillaArgs {
  std::string kind, registered_proof, randomness, prover_id, out;
  std::vector<std::string> sectors;
  unsigned threads = 0;
};

int usage(const std::string& what) {
  std::fprintf(stderr, "cuzk filecoin post-vanilla: %s\n", what.c_str());
  return 2;
}

Result<Bytes32> fr_flag(const std::string& text, const std::string& flag) {
  auto b = parse_hex32(text, flag);
  if (!b.ok()) return b.status();
  auto f = fr_from_bytes32(*b, flag);
  if (!f.ok()) return f.status();
  return *b;
}

int run(const PostVanillaArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  auto proof = post_proof(a.registered_proof);
  if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
  const PostKind want = a.kind == "winning" ? PostKind::winning : PostKind::window;
  if (proof->kind != want)
    return usage("--registered-proof " + proof->name + " is not a " + a.kind + " PoSt proof");
  auto randomness = fr_flag(a.randomness, "--randomness");
  if (!randomness.ok()) return usage(randomness.status().message());
  Bytes32 prover_id{};
  if (!a.prover_id.empty()) {
    auto p = fr_flag(a.prover_id, "--prover-id");
    if (!p.ok()) return usage(p.status().message());
    prover_id = *p;
  } else if (want == PostKind::winning) {
    return usage("--prover-id is required for --kind winning (it selects the sector)");
  }

  ThreadPool pool(a.threads);
  std::vector<PostSector> sectors;
  for (const std::string& dir : a.sectors) {
    auto s = load_post_sector(dir, *proof, pool);
    if (!s.ok()) {
      std::fprintf(stderr, "cuzk filecoin post-vanilla: --sector %s\n",
                   s.status().to_string().c_str());
      return s.status().code() == Errc::unsatisfied ? 1 : 2;
    }
    sectors.push_back(std::move(*s));
  }

  std::vector<FallbackPoStSectorProof> proofs;
  std::vector<std::uint64_t> positions;  // sector_index of each proof in the PoSt
  nlohmann::json out = {{"kind", a.kind},
                        {"registered_proof", proof->name},
                        {"api_version", api_version_name(proof->api)},
                        {"randomness", to_hex(*randomness)}};
  if (want == PostKind::window) {
    auto v = window_post_vanilla_proofs(*proof, *randomness, sectors);
    if (!v.ok()) return usage(v.status().to_string());
    proofs = std::move(*v);
    for (std::size_t i = 0; i < proofs.size(); ++i) positions.push_back(i);
    out["partitions"] = window_post_partitions(proofs.size(), proof->sector_count);
    out["sector_count"] = proof->sector_count;
  } else {
    auto v = winning_post_vanilla_proof(*proof, *randomness, prover_id, sectors);
    if (!v.ok()) return usage(v.status().to_string());
    out["prover_id"] = to_hex(prover_id);
    out["sector_set_size"] = sectors.size();
    out["sector_set_index"] = v->sector_index;
    proofs.push_back(std::move(v->proof));
    positions.push_back(0);
  }

  BincodeWriter w;
  for (const FallbackPoStSectorProof& p : proofs) write_post_sector_proof(w, p);
  const std::vector<std::uint8_t>& bytes = w.bytes();
  std::ofstream f(a.out, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) {
    std::fprintf(stderr, "cuzk filecoin post-vanilla: --out %s: cannot write\n", a.out.c_str());
    return 1;
  }
  for (std::size_t i = 0; i < proofs.size(); ++i)
    out["sectors"].push_back(
        {{"sector_id", proofs[i].sector_id},
         {"sector_index", positions[i]},
         {"comm_r", to_hex(proofs[i].comm_r)},
         {"challenges",
          post_sector_challenges(*proof, *randomness, proofs[i].sector_id, positions[i])}});
  out["out"] = a.out;
  out["bytes"] = bytes.size();
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

FilecoinRun add_post_vanilla(CLI::App& sub) {
  auto a = std::make_shared<PostVanillaArgs>();
  sub.add_option("--kind", a->kind, "winning | window")
      ->required()
      ->check(CLI::IsMember({"winning", "window"}));
  sub.add_option("--registered-proof", a->registered_proof,
                 "registered PoSt proof, e.g. StackedDrgWindow2KiBV1_2")
      ->required();
  sub.add_option("--sector", a->sectors,
                 "sector directory (cuzk filecoin seal); repeat in PoSt order (winning: the "
                 "eligible sector set)")
      ->required();
  sub.add_option("--randomness", a->randomness, "PoSt randomness, 64 hex digits (Fr, LE)")
      ->required();
  sub.add_option("--prover-id", a->prover_id,
                 "prover id, 64 hex digits (Fr, LE); selects the WinningPoSt sector");
  sub.add_option("--out", a->out, "output file: the bincode proofs back to back")->required();
  sub.add_option("--threads", a->threads, "worker threads (0: all cores)");
  return [a]() -> int { return run(*a); };
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_post_vanilla(CLI::App& sub) { return add_post_vanilla(sub); }

}  // namespace cuzk::cli
