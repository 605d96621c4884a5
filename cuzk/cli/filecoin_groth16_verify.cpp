// `cuzk filecoin verify --kind K --registered-proof P --vk FILE --proof FILE [public data flags]`
// (docs/filecoin/groth16.md): checks bellperson proof bytes (192 per partition, in partition order)
// against a .vk, with each partition's public inputs computed from the public data alone
// (circuits/filecoin/filecoin_public_data.hpp, the functions the families prove with). Exit 0
// valid, 1 invalid (the partitions that fail are named), 2 bad input (usage, unreadable or
// malformed files, a value not below r, a proof count that is not the partition count).
// Public data per kind (all required unless marked):
//   porep    --comm-r --comm-d --prover-id --sector-id --ticket --seed (replica_id derived with the
//            proof's porep_id; --porep-id / --api-version override the proof's)
//   winning  --randomness, the challenged sector's --sector-id and --comm-r, [--prover-id]
//   window   --randomness, --sector-id/--comm-r of every sector in PoSt order: one proof per
//            sector_count of them; with --partition-index K the sectors are partition K's and the
//            file holds its one proof ([--api-version] selects the challenge rule)
//   update   --comm-r-old --comm-r-new --comm-d-new [--h]; one proof per partition, or partition
//            K's alone with --partition-index K
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/filecoin_groth16.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/verify.hpp"

namespace cuzk::cli {
namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
constexpr const char* kCmd = "verify";

struct VerifyFlags {
  CircuitFlags circuit;
  PublicFlags pub;
  std::string vk, proof;
  std::optional<unsigned> h;
};

// One partition to check: its index in the proof file and its public inputs.
struct PartitionInputs {
  unsigned partition = 0;
  std::vector<Fr> inputs;
};

Result<fc::Bytes32> required(const std::string& text, const char* flag, bool must_be_fr) {
  if (text.empty()) return Status(Errc::invalid_argument, std::string(flag) + " is required");
  return bytes32_flag(text, flag, must_be_fr);
}

Result<std::vector<fc::PostPublicSector>> post_sectors(const PublicFlags& p) {
  if (p.sector_ids.empty()) return Status(Errc::invalid_argument, "--sector-id is required");
  if (p.sector_ids.size() != p.comm_rs.size())
    return Status(Errc::invalid_argument, std::to_string(p.sector_ids.size()) +
                                              " --sector-id for " +
                                              std::to_string(p.comm_rs.size()) + " --comm-r");
  std::vector<fc::PostPublicSector> out;
  for (std::size_t i = 0; i < p.sector_ids.size(); ++i) {
    auto c = bytes32_flag(p.comm_rs[i], "--comm-r " + std::to_string(i + 1), true);
    if (!c.ok()) return c.status();
    out.push_back({p.sector_ids[i], *c});
  }
  return out;
}

Result<std::vector<PartitionInputs>> porep_inputs(const FilecoinCircuitSpec& spec,
                                                  const PublicFlags& p) {
  cf::PorepPublicData d;
  d.proof = spec.seal;
  if (p.sector_ids.size() != 1 || p.comm_rs.size() != 1)
    return Status(Errc::invalid_argument, "--kind porep takes one --sector-id and one --comm-r");
  d.sector_id = p.sector_ids[0];
  for (auto [dst, text, flag, fr] : {std::tuple{&d.comm_r, &p.comm_rs[0], "--comm-r", true},
                                     std::tuple{&d.comm_d, &p.comm_d, "--comm-d", true},
                                     std::tuple{&d.prover_id, &p.prover_id, "--prover-id", false},
                                     std::tuple{&d.ticket, &p.ticket, "--ticket", false},
                                     std::tuple{&d.seed, &p.seed, "--seed", false}}) {
    auto v = required(*text, flag, fr);
    if (!v.ok()) return v.status();
    *dst = *v;
  }
  if (p.partition_index)
    return Status(Errc::invalid_argument, "--partition-index is for window, update");
  std::vector<PartitionInputs> out;
  for (unsigned k = 0; k < cf::partition_count(d); ++k) {
    auto in = cf::partition_public_inputs(d, k);
    if (!in.ok()) return in.status();
    out.push_back({k, std::move(*in)});
  }
  return out;
}

Result<std::vector<PartitionInputs>> post_inputs(const FilecoinCircuitSpec& spec,
                                                 const PublicFlags& p) {
  auto randomness = required(p.randomness, "--randomness", true);
  if (!randomness.ok()) return randomness.status();
  fc::Bytes32 prover_id{};
  if (!p.prover_id.empty()) {
    auto v = bytes32_flag(p.prover_id, "--prover-id", false);
    if (!v.ok()) return v.status();
    prover_id = *v;
  }
  auto sectors = post_sectors(p);
  if (!sectors.ok()) return sectors.status();
  std::vector<PartitionInputs> out;
  if (spec.kind == FilecoinKind::winning) {
    if (sectors->size() != 1)
      return Status(Errc::invalid_argument, "--kind winning takes the challenged sector alone");
    if (p.partition_index) return Status(Errc::invalid_argument, "--partition-index is for window");
    const cf::WinningPostPublicData d{spec.post, *randomness, prover_id, (*sectors)[0]};
    auto in = cf::partition_public_inputs(d, 0);
    if (!in.ok()) return in.status();
    out.push_back({0, std::move(*in)});
    return out;
  }
  const std::size_t per = spec.post.sector_count;
  if (p.partition_index && sectors->size() > per)
    return Status(Errc::invalid_argument, std::to_string(sectors->size()) + " sectors: partition " +
                                              std::to_string(*p.partition_index) + " of " +
                                              spec.post.name + " holds at most " +
                                              std::to_string(per));
  for (std::size_t first = 0; first < sectors->size(); first += per) {
    cf::WindowPostPublicData d;
    d.proof = spec.post;
    d.randomness = *randomness;
    d.prover_id = prover_id;
    d.sectors.assign(sectors->begin() + first,
                     sectors->begin() + std::min(first + per, sectors->size()));
    d.partition_index = p.partition_index.value_or(first / per);
    auto in = cf::partition_public_inputs(d, 0);
    if (!in.ok()) return in.status();
    out.push_back({static_cast<unsigned>(d.partition_index), std::move(*in)});
  }
  return out;
}

Result<std::vector<PartitionInputs>> update_inputs(const FilecoinCircuitSpec& spec,
                                                   const PublicFlags& p,
                                                   std::optional<unsigned> h) {
  cf::SnapPublicData d;
  d.proof = spec.update;
  d.h = h.value_or(0);
  for (auto [dst, text, flag] : {std::tuple{&d.comm_r_old, &p.comm_r_old, "--comm-r-old"},
                                 std::tuple{&d.comm_d_new, &p.comm_d_new, "--comm-d-new"},
                                 std::tuple{&d.comm_r_new, &p.comm_r_new, "--comm-r-new"}}) {
    auto v = required(*text, flag, true);
    if (!v.ok()) return v.status();
    *dst = *v;
  }
  const unsigned n = cf::partition_count(d);
  if (p.partition_index && *p.partition_index >= n)
    return Status(Errc::invalid_argument,
                  "--partition-index " + std::to_string(*p.partition_index) + ": " +
                      spec.update.name + " has " + std::to_string(n) + " partitions");
  std::vector<PartitionInputs> out;
  for (unsigned k = 0; k < n; ++k) {
    if (p.partition_index && k != *p.partition_index) continue;
    auto in = cf::partition_public_inputs(d, k);
    if (!in.ok()) return in.status();
    out.push_back({k, std::move(*in)});
  }
  return out;
}

int run_verify(const VerifyFlags& f) {
  auto spec = resolve_circuit(f.circuit);
  if (!spec.ok()) return report_error(kCmd, spec.status().to_string());
  if (f.h && spec->kind != FilecoinKind::update) return report_error(kCmd, "--h is for update");
  Result<std::vector<PartitionInputs>> parts = Status(Errc::invalid_argument, "no kind");
  switch (spec->kind) {
    case FilecoinKind::porep:
      parts = porep_inputs(*spec, f.pub);
      break;
    case FilecoinKind::winning:
    case FilecoinKind::window:
      parts = post_inputs(*spec, f.pub);
      break;
    case FilecoinKind::update:
      parts = update_inputs(*spec, f.pub, f.h);
      break;
  }
  if (!parts.ok()) return report_error(kCmd, parts.status().to_string());

  auto vk_bytes = read_whole_file(f.vk);
  if (!vk_bytes.ok()) return report_error(kCmd, vk_bytes.status().to_string());
  auto vk = parse_vk(*vk_bytes);
  if (!vk.ok()) return report_error(kCmd, vk.status().with_context(f.vk).to_string());
  auto proof_bytes = read_whole_file(f.proof);
  if (!proof_bytes.ok()) return report_error(kCmd, proof_bytes.status().to_string());
  auto proofs = parse_proofs(*proof_bytes);
  if (!proofs.ok()) return report_error(kCmd, proofs.status().with_context(f.proof).to_string());
  if (proofs->size() != parts->size())
    return report_error(kCmd, f.proof + ": " + std::to_string(proofs->size()) + " proofs (" +
                                  std::to_string(proof_bytes->size()) +
                                  " bytes), the public data "
                                  "gives " +
                                  std::to_string(parts->size()) + " partitions");
  const std::size_t want_inputs = vk->ic.size() - 1;
  if (!parts->empty() && (*parts)[0].inputs.size() != want_inputs)
    return report_error(kCmd, f.vk + " takes " + std::to_string(want_inputs) +
                                  " public inputs, the " + spec->proof_name() + " circuit has " +
                                  std::to_string((*parts)[0].inputs.size()) +
                                  " (a key of another circuit?)");
  const PreparedVerifyingKey pvk = prepare_verifying_key(*vk);
  std::vector<unsigned> invalid;
  for (std::size_t i = 0; i < parts->size(); ++i) {
    auto ok = verify(pvk, (*parts)[i].inputs, (*proofs)[i]);
    if (!ok.ok()) return report_error(kCmd, ok.status().to_string());
    if (!*ok) invalid.push_back((*parts)[i].partition);
  }
  nlohmann::ordered_json out = {{"valid", invalid.empty()},
                                {"kind", spec->kind_name()},
                                {"registered_proof", spec->proof_name()},
                                {"partitions", parts->size()}};
  if (!invalid.empty()) out["invalid_partitions"] = invalid;
  std::printf("%s\n", out.dump(2).c_str());
  if (!invalid.empty()) {
    std::string list;
    for (unsigned k : invalid) list += (list.empty() ? "" : ", ") + std::to_string(k);
    return report_error(kCmd, "invalid: partition " + list + " does not verify", 1);
  }
  return 0;
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_verify(CLI::App& sub) {
  auto f = std::make_shared<VerifyFlags>();
  add_circuit_flags(sub, f->circuit);
  sub.add_option("--vk", f->vk, "verifying key (.vk, bellperson)")->required();
  sub.add_option("--proof", f->proof, "proof bytes: 192 per partition, in order")->required();
  add_public_flags(sub, f->pub);
  sub.add_option("--h", f->h, "update: the encoding's h (default: h_default of the size)");
  return [f]() { return run_verify(*f); };
}

}  // namespace cuzk::cli
