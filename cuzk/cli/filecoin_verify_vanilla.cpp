// `cuzk filecoin verify-vanilla`: checks a vanilla proof against its public data without a SNARK
// (docs/filecoin/formats.md). PoSt (--kind winning|window): the bincode FallbackPoStSectorProof
// files Curio and filecoin-proofs-api write, one per sector (a file may hold several back to back),
// verified by filecoin/post_verify.hpp. PoRep (--kind porep): a C1 output, as JSON or in Curio's
// envelope, verified by filecoin/porep_verify.hpp; the public data is the C1's own (replica_id,
// comm_d, comm_r, seed) unless flags override it: --comm-d, --comm-r, --seed, and --prover-id with
// --sector-id (and --ticket, else the C1's ticket) to recompute replica_id. SnapDeals (--kind
// snap): bincode PartitionProofs, one per partition back to back (or partition K's alone with
// --partition-index), verified by filecoin/snap_verify.hpp.
//
// Public data: 32-byte values as 64 hex digits in stored order (Fr values little-endian, as
// Filecoin prints them); sector ids and indices as decimal. For several sectors repeat
// --sector-id and --comm-r in PoSt order. Exit 0 valid, 1 parsed but not valid (what failed on
// stderr), 2 usage or input that does not parse.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/bytes32.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/porep_challenges.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/post_challenges.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/replica_id.hpp"
#include "cuzk/filecoin/snap_params.hpp"
#include "cuzk/filecoin/snap_verify.hpp"

namespace cuzk::cli {
namespace {

using namespace cuzk::filecoin;

struct VerifyVanillaArgs {
  std::string kind;
  std::string registered_proof;
  std::vector<std::string> vanilla;
  std::string randomness, prover_id;
  std::vector<std::uint64_t> sector_ids;
  std::vector<std::string> comm_rs;
  std::optional<std::uint64_t> partition_index;
  std::optional<std::uint64_t> sector_set_size, sector_index;
  std::string comm_d, ticket, seed, comm_r_old, comm_r_new, comm_d_new;
  std::string c1, porep_id, api_version;
  std::optional<unsigned> h;
};

int usage(const std::string& what) {
  std::fprintf(stderr, "cuzk filecoin verify-vanilla: %s\n", what.c_str());
  return 2;
}

// A 32-byte flag that must hold an Fr (below r).
Result<Bytes32> fr_flag(const std::string& text, const std::string& flag) {
  auto b = parse_hex32(text, flag);
  if (!b.ok()) return b.status();
  auto f = fr_from_bytes32(*b, flag);
  if (!f.ok()) return f.status();
  return *b;
}

Result<std::vector<FallbackPoStSectorProof>> read_post_files(
    const std::vector<std::string>& files) {
  std::vector<FallbackPoStSectorProof> out;
  for (const std::string& path : files) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status(Errc::io_error, path + ": cannot open");
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
    BincodeReader r(bytes);
    do {
      FallbackPoStSectorProof p;
      Status s = read_post_sector_proof(r, p);
      if (!s.ok())
        return s.with_context(path + ": FallbackPoStSectorProof " + std::to_string(out.size()));
      out.push_back(std::move(p));
    } while (!r.at_end());
  }
  return out;
}

int run_post(const VerifyVanillaArgs& a) {
  if (a.vanilla.empty()) return usage("--vanilla is required for --kind " + a.kind);
  auto proof = post_proof(a.registered_proof);
  if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
  const PostKind want = a.kind == "winning" ? PostKind::winning : PostKind::window;
  if (proof->kind != want)
    return usage("--registered-proof " + proof->name + " is not a " + a.kind + " PoSt proof");
  if (a.randomness.empty()) return usage("--randomness is required");
  auto randomness = fr_flag(a.randomness, "--randomness");
  if (!randomness.ok()) return usage(randomness.status().message());
  if (a.sector_ids.empty()) return usage("--sector-id is required");
  if (a.sector_ids.size() != a.comm_rs.size())
    return usage(std::to_string(a.sector_ids.size()) + " --sector-id for " +
                 std::to_string(a.comm_rs.size()) + " --comm-r");
  std::vector<PostPublicSector> sectors;
  for (std::size_t i = 0; i < a.sector_ids.size(); ++i) {
    auto c = fr_flag(a.comm_rs[i], "--comm-r " + std::to_string(i + 1));
    if (!c.ok()) return usage(c.status().message());
    sectors.push_back({a.sector_ids[i], *c});
  }
  if (a.partition_index && want == PostKind::winning)
    return usage("--partition-index is for WindowPoSt");
  std::optional<Bytes32> prover_id;
  if (!a.prover_id.empty()) {
    auto p = fr_flag(a.prover_id, "--prover-id");
    if (!p.ok()) return usage(p.status().message());
    prover_id = *p;
  }
  if (a.sector_set_size.has_value() != a.sector_index.has_value())
    return usage("--sector-set-size and --sector-index go together");
  if (a.sector_set_size && (want != PostKind::winning || !prover_id))
    return usage("--sector-set-size checks the WinningPoSt sector selection and needs --prover-id");

  auto vanilla = read_post_files(a.vanilla);
  if (!vanilla.ok()) {
    std::fprintf(stderr, "cuzk filecoin verify-vanilla: %s\n",
                 vanilla.status().to_string().c_str());
    return 2;
  }
  if (a.sector_set_size) {
    auto chosen = winning_post_sector_challenges(*randomness, *prover_id, *a.sector_set_size);
    if (!chosen.ok()) return usage("--sector-set-size: " + chosen.status().message());
    if ((*chosen)[0] != *a.sector_index) {
      std::fprintf(stderr,
                   "cuzk filecoin verify-vanilla: invalid: --sector-index %llu is not the "
                   "challenged position %llu of %llu sectors\n",
                   static_cast<unsigned long long>(*a.sector_index),
                   static_cast<unsigned long long>((*chosen)[0]),
                   static_cast<unsigned long long>(*a.sector_set_size));
      return 1;
    }
  }
  Status s = verify_post_vanilla(*proof, *randomness, sectors, *vanilla, a.partition_index);
  if (!s.ok()) {
    std::fprintf(stderr, "cuzk filecoin verify-vanilla: invalid: %s\n", s.to_string().c_str());
    return 1;
  }
  nlohmann::json out = {{"valid", true},
                        {"kind", a.kind},
                        {"registered_proof", proof->name},
                        {"api_version", api_version_name(proof->api)},
                        {"randomness", to_hex(*randomness)}};
  const std::uint64_t first = a.partition_index ? *a.partition_index * proof->sector_count : 0;
  for (std::size_t i = 0; i < sectors.size(); ++i)
    out["sectors"].push_back(
        {{"sector_id", sectors[i].sector_id},
         {"sector_index", first + i},
         {"comm_r", to_hex(sectors[i].comm_r)},
         {"challenges",
          post_sector_challenges(*proof, *randomness, sectors[i].sector_id, first + i)}});
  if (a.partition_index) out["partition_index"] = *a.partition_index;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

int run_porep(const VerifyVanillaArgs& a) {
  auto proof = seal_proof(a.registered_proof);
  if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
  if (a.c1.empty()) return usage("--c1 is required for --kind porep");
  if (!a.porep_id.empty()) {
    auto p = parse_hex32(a.porep_id, "--porep-id");
    if (!p.ok()) return usage(p.status().message());
    std::copy(p->begin(), p->end(), proof->porep_id.begin());
  }
  if (!a.api_version.empty()) {
    auto v = parse_api_version(a.api_version);
    if (!v.ok()) return usage("--api-version: " + v.status().message());
    proof->api = *v;
  }
  std::ifstream f(a.c1, std::ios::binary);
  if (!f) return usage(a.c1 + ": cannot open");
  std::string text{std::istreambuf_iterator<char>(f), {}};
  // Curio's envelope holds the C1 as base64, so the key "vanilla_proofs" shows only in bare C1.
  const bool envelope = text.find("\"vanilla_proofs\"") == std::string::npos;
  auto c1 = envelope ? read_curio_c1_in_place(text) : read_c1_json_in_place(text);
  if (!c1.ok())
    return usage(a.c1 + (envelope ? " (Curio envelope)" : " (C1 JSON)") + ": " +
                 c1.status().to_string());
  PorepPublicInputs pub = porep_public_inputs(*c1);
  if (!a.comm_d.empty()) {
    auto v = fr_flag(a.comm_d, "--comm-d");
    if (!v.ok()) return usage(v.status().message());
    pub.comm_d = *v;
  }
  if (!a.comm_rs.empty()) {
    if (a.comm_rs.size() != 1) return usage("--kind porep takes one --comm-r");
    auto v = fr_flag(a.comm_rs[0], "--comm-r");
    if (!v.ok()) return usage(v.status().message());
    pub.comm_r = *v;
  }
  if (!a.seed.empty()) {
    auto v = parse_hex32(a.seed, "--seed");
    if (!v.ok()) return usage(v.status().message());
    pub.seed = *v;
  }
  bool replica_id_computed = false;
  if (!a.prover_id.empty() || !a.sector_ids.empty() || !a.ticket.empty()) {
    if (a.prover_id.empty() || a.sector_ids.size() != 1)
      return usage(
          "--prover-id and one --sector-id (and optionally --ticket) recompute replica_id");
    auto prover = parse_hex32(a.prover_id, "--prover-id");
    if (!prover.ok()) return usage(prover.status().message());
    Bytes32 ticket = c1->ticket;
    if (!a.ticket.empty()) {
      auto t = parse_hex32(a.ticket, "--ticket");
      if (!t.ok()) return usage(t.status().message());
      ticket = *t;
    }
    pub.replica_id = replica_id(*prover, a.sector_ids[0], ticket, pub.comm_d, proof->porep_id);
    replica_id_computed = true;
  }
  Status s = verify_porep_vanilla(*proof, pub, *c1);
  if (!s.ok()) {
    std::fprintf(stderr, "cuzk filecoin verify-vanilla: invalid: %s\n", s.to_string().c_str());
    return 1;
  }
  const PorepChallengeConfig cc = porep_challenge_config(*proof);
  nlohmann::json out = {{"valid", true},
                        {"kind", "porep"},
                        {"registered_proof", proof->name},
                        {"api_version", api_version_name(proof->api)},
                        {"envelope", envelope ? "curio" : "c1"},
                        {"replica_id", to_hex(pub.replica_id)},
                        {"replica_id_computed", replica_id_computed},
                        {"comm_d", to_hex(pub.comm_d)},
                        {"comm_r", to_hex(pub.comm_r)},
                        {"seed", to_hex(pub.seed)},
                        {"partitions", cc.partitions},
                        {"challenges_per_partition", cc.per_partition}};
  for (unsigned k = 0; k < cc.partitions; ++k)
    out["challenges"].push_back(porep_challenges(cc, pub.replica_id, pub.comm_r, pub.seed, k));
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

Result<std::vector<SnapPartitionProof>> read_snap_files(const std::vector<std::string>& files) {
  std::vector<SnapPartitionProof> out;
  for (const std::string& path : files) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return Status(Errc::io_error, path + ": cannot open");
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(f), {}};
    BincodeReader r(bytes);
    do {
      SnapPartitionProof p;
      Status s = read_snap_partition_proof(r, p);
      if (!s.ok()) return s.with_context(path + ": PartitionProof " + std::to_string(out.size()));
      out.push_back(std::move(p));
    } while (!r.at_end());
  }
  return out;
}

int run_snap(const VerifyVanillaArgs& a) {
  auto proof = update_proof(a.registered_proof);
  if (!proof.ok()) return usage("--registered-proof: " + proof.status().message());
  SnapPublic pub;
  for (auto [dst, text, flag] : {std::tuple{&pub.comm_r_old, &a.comm_r_old, "--comm-r-old"},
                                 std::tuple{&pub.comm_d_new, &a.comm_d_new, "--comm-d-new"},
                                 std::tuple{&pub.comm_r_new, &a.comm_r_new, "--comm-r-new"}}) {
    if (text->empty()) return usage(std::string(flag) + " is required");
    auto v = fr_flag(*text, flag);
    if (!v.ok()) return usage(v.status().message());
    *dst = *v;
  }
  const SnapParams p = snap_params(proof->size);
  pub.h = a.h.value_or(p.h_default);
  if (!p.h_allowed(pub.h))
    return usage("--h " + std::to_string(pub.h) + " is not allowed for " + proof->name);
  std::optional<unsigned> k;
  if (a.partition_index) {
    if (*a.partition_index >= p.partitions)
      return usage("--partition-index " + std::to_string(*a.partition_index) + ": " + proof->name +
                   " has " + std::to_string(p.partitions) + " partitions");
    k = static_cast<unsigned>(*a.partition_index);
  }
  auto vanilla = read_snap_files(a.vanilla);
  if (!vanilla.ok()) {
    std::fprintf(stderr, "cuzk filecoin verify-vanilla: %s\n",
                 vanilla.status().to_string().c_str());
    return 2;
  }
  Status s = verify_snap_vanilla(*proof, pub, *vanilla, k);
  if (!s.ok()) {
    std::fprintf(stderr, "cuzk filecoin verify-vanilla: invalid: %s\n", s.to_string().c_str());
    return 1;
  }
  nlohmann::json out = {{"valid", true},
                        {"kind", "snap"},
                        {"registered_proof", proof->name},
                        {"comm_r_old", to_hex(pub.comm_r_old)},
                        {"comm_d_new", to_hex(pub.comm_d_new)},
                        {"comm_r_new", to_hex(pub.comm_r_new)},
                        {"h", pub.h},
                        {"partitions", vanilla->size()}};
  const unsigned first = k.value_or(0);
  for (unsigned i = 0; i < vanilla->size(); ++i)
    out["k_and_h_select"].push_back(*snap_k_and_h_select(p, first + i, pub.h));
  if (k) out["partition_index"] = *k;
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

FilecoinRun add_verify_vanilla(CLI::App& sub) {
  auto a = std::make_shared<VerifyVanillaArgs>();
  sub.add_option("--kind", a->kind, "winning | window | porep | snap")
      ->required()
      ->check(CLI::IsMember({"winning", "window", "porep", "snap"}));
  sub.add_option("--registered-proof", a->registered_proof,
                 "registered proof name, e.g. StackedDrgWindow32GiBV1_2")
      ->required();
  sub.add_option("--vanilla", a->vanilla,
                 "vanilla proof file (PoSt: bincode FallbackPoStSectorProof, one or more per "
                 "file); repeat for several files (winning, window)");
  sub.add_option("--randomness", a->randomness, "PoSt randomness, 64 hex digits (Fr, LE)");
  sub.add_option("--prover-id", a->prover_id, "prover id, 64 hex digits (Fr, LE)");
  sub.add_option("--sector-id", a->sector_ids, "sector number; repeat in PoSt order");
  sub.add_option("--comm-r", a->comm_rs, "comm_r of each --sector-id, 64 hex digits");
  sub.add_option(
      "--partition-index", a->partition_index,
      "WindowPoSt: the sectors given are partition K's (V1 challenge positions); snap: the "
      "one proof given is partition K's");
  sub.add_option("--sector-set-size", a->sector_set_size,
                 "WinningPoSt: size of the eligible sector set (checks the sector selection)");
  sub.add_option("--sector-index", a->sector_index,
                 "WinningPoSt: position of the proven sector in that set");
  sub.add_option("--c1", a->c1,
                 "PoRep: C1 output, JSON (SealCommitPhase1Output) or Curio's envelope");
  sub.add_option("--comm-d", a->comm_d, "PoRep: comm_d (default: the C1's)");
  sub.add_option("--ticket", a->ticket,
                 "PoRep: ticket for replica_id with --prover-id/--sector-id (default: the C1's)");
  sub.add_option("--seed", a->seed, "PoRep: seed (default: the C1's)");
  sub.add_option("--porep-id", a->porep_id, "PoRep: porep_id (default: the proof's)");
  sub.add_option("--api-version", a->api_version, "PoRep: API version (default: the proof's)");
  sub.add_option("--comm-r-old", a->comm_r_old, "SnapDeals: comm_r_old");
  sub.add_option("--comm-r-new", a->comm_r_new, "SnapDeals: comm_r_new");
  sub.add_option("--comm-d-new", a->comm_d_new, "SnapDeals: comm_d_new");
  sub.add_option("--h", a->h, "SnapDeals: the encoding's h (default: h_default of the size)");
  return [a]() -> int {
    if (a->kind == "porep") return run_porep(*a);
    if (a->kind == "snap") return run_snap(*a);
    return run_post(*a);
  };
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_verify_vanilla(CLI::App& sub) { return add_verify_vanilla(sub); }

}  // namespace cuzk::cli
