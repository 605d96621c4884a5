// `cuzk filecoin prove --kind K --registered-proof P --params DIR (--c1 FILE | --vanilla FILE…)
// [public data flags] [--backend cpu|cuda:N] [--rs-seed S] --out PROOF` (docs/filecoin/groth16.md):
// the Groth16 proof of every partition, written as bellperson proof bytes (192 per partition)
// concatenated in partition order — what filecoin-ffi returns (a 10-partition PoRep: 1920 bytes).
//
// The job goes through the kind's circuit family (circuits/filecoin/*_family.hpp), as a daemon job
// would: the flags become the JobRequest(s) the family plans (it parses and verifies the vanilla
// proofs), then per partition k the family's witness(k) (witness-only synthesis), a = A·z,
// b = B·z, c = C·z from the recorded matrices with every row checked (a failing row is named and
// nothing is written), the proof on the chosen backend with the key of DIR's v28 .params, and a
// self-check against the family's public_inputs(k) — computed from public data alone, never read
// from the witness. Requests per kind:
//   porep    --c1: a C1 JSON (wrapped here into Curio's envelope with --sector-id) or the envelope;
//            --prover-id (an ID-address payload) and --sector-id name the sector; --comm-r,
//            --comm-d, --ticket, --seed, when given, must be the C1's
//   winning  --vanilla: the challenged sector's FallbackPoStSectorProof; --randomness; --prover-id
//   window   --vanilla: the PoSt's sectors (several per file allowed), cut into partitions of
//            sector_count (with --partition-index K: the sectors are partition K's, one proof);
//            --randomness; --sector-id/--comm-r, when given, must be the proofs'
//   update   --vanilla: the update's PartitionProofs in order; --comm-r-old/--comm-r-new/--comm-d-new;
//            --h, the encoding's h (default h_default; the vanilla proofs do not carry it)
// --rs-seed S draws each partition's r, s from SeededRng(S) in partition order, so that the CPU
// and CUDA backends give the same bytes; without it they come from the OS RNG.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/filecoin/filecoin_public_data.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/cli/filecoin_groth16.hpp"
#include "cuzk/filecoin/bincode.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/post_vanilla_proof.hpp"
#include "cuzk/filecoin/registered_proof_number.hpp"
#include "cuzk/filecoin/snap_vanilla_proof.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

namespace cuzk::cli {
namespace {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;
using circuits::JobRequest;
using circuits::ProofKind;
constexpr const char* kCmd = "prove";

struct ProveFlags {
  CircuitFlags circuit;
  PublicFlags pub;
  std::string params_dir, c1, out, backend = "cpu";
  std::vector<std::string> vanilla;
  std::optional<std::uint64_t> rs_seed;
  std::optional<unsigned> h;
  std::size_t threads = 0;
};

Result<std::string> read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status(Errc::io_error, path + ": cannot open");
  return std::string{std::istreambuf_iterator<char>(f), {}};
}

std::string bytes_string(const fc::Bytes32& b) { return std::string(b.begin(), b.end()); }

// The records of |files| one by one (several may follow each other in a file): the bytes of
// each, cut where |read_one| ends a record.
template <class Record>
Result<std::vector<std::string>> split_records(const std::vector<std::string>& files,
                                               const char* what,
                                               Status (*read_one)(fc::BincodeReader&, Record&)) {
  std::vector<std::string> out;
  for (const std::string& path : files) {
    auto text = read_text(path);
    if (!text.ok()) return text.status();
    const std::span bytes(reinterpret_cast<const std::uint8_t*>(text->data()), text->size());
    fc::BincodeReader r(bytes);
    do {
      const std::size_t start = r.offset();
      Record rec;
      Status s = read_one(r, rec);
      if (!s.ok()) return s.with_context(path + ": " + what + " " + std::to_string(out.size()));
      out.emplace_back(text->data() + start, r.offset() - start);
    } while (!r.at_end());
  }
  return out;
}

Result<std::uint64_t> miner_of(const PublicFlags& p, bool required) {
  if (p.prover_id.empty()) {
    if (required) return Status(Errc::invalid_argument, "--prover-id is required");
    return std::uint64_t{0};
  }
  auto id = bytes32_flag(p.prover_id, "--prover-id", false);
  if (!id.ok()) return id.status();
  return actor_id_of_prover(*id);
}

Result<fc::Bytes32> required_fr(const std::string& text, const char* flag) {
  if (text.empty()) return Status(Errc::invalid_argument, std::string(flag) + " is required");
  return bytes32_flag(text, flag, true);
}

// A --comm-d style check of a value the family parsed: unsatisfied (exit 1) when it differs.
Status check_same(const std::string& flag_text, const fc::Bytes32& have, const char* flag,
                  bool must_be_fr) {
  if (flag_text.empty()) return {};
  auto want = bytes32_flag(flag_text, flag, must_be_fr);
  if (!want.ok()) return want.status();
  if (*want != have)
    return Status(Errc::unsatisfied,
                  std::string(flag) + " " + flag_text + " is not the input's " + fc::to_hex(have));
  return {};
}

Result<std::vector<JobRequest>> porep_requests(const FilecoinCircuitSpec& spec,
                                               const ProveFlags& f) {
  if (f.c1.empty()) return Status(Errc::invalid_argument, "--c1 is required for --kind porep");
  if (!f.vanilla.empty()) return Status(Errc::invalid_argument, "--kind porep takes --c1");
  auto text = read_text(f.c1);
  if (!text.ok()) return text.status();
  JobRequest req;
  req.kind = ProofKind::porep_seal_commit;
  req.registered_proof = spec.seal.id;
  req.sector_size = fc::sector_bytes(spec.seal.size);
  auto miner = miner_of(f.pub, true);
  if (!miner.ok()) return miner.status();
  req.miner_id = *miner;
  if (f.pub.sector_ids.size() > 1)
    return Status(Errc::invalid_argument, "--kind porep takes one --sector-id");
  // Curio's envelope holds the C1 as base64, so the key "vanilla_proofs" shows only in bare C1.
  if (text->find("\"vanilla_proofs\"") != std::string::npos) {
    if (f.pub.sector_ids.empty())
      return Status(Errc::invalid_argument, "--sector-id is required with a bare C1 JSON");
    req.sector_number = f.pub.sector_ids[0];
    req.vanilla_proof = fc::write_curio_c1_request(
        {.sector_num = req.sector_number, .sector_size = req.sector_size, .phase1_out = *text});
  } else {
    auto header = fc::read_curio_c1_request(*text);
    if (!header.ok()) return header.status().with_context(f.c1 + " (Curio envelope)");
    req.sector_number = f.pub.sector_ids.empty() ? header->sector_num : f.pub.sector_ids[0];
    req.vanilla_proof = std::move(*text);
  }
  return std::vector<JobRequest>{std::move(req)};
}

Result<std::vector<JobRequest>> post_requests(const FilecoinCircuitSpec& spec,
                                              const ProveFlags& f) {
  if (f.vanilla.empty())
    return Status(Errc::invalid_argument,
                  "--vanilla is required for --kind " + std::string(spec.kind_name()));
  auto sectors = split_records<fc::FallbackPoStSectorProof>(f.vanilla, "FallbackPoStSectorProof",
                                                            &fc::read_post_sector_proof);
  if (!sectors.ok()) return sectors.status();
  auto randomness = required_fr(f.pub.randomness, "--randomness");
  if (!randomness.ok()) return randomness.status();
  auto miner = miner_of(f.pub, false);
  if (!miner.ok()) return miner.status();
  JobRequest base;
  base.registered_proof = fc::post_proof_number(spec.post);
  base.sector_size = fc::sector_bytes(spec.post.size);
  base.randomness = bytes_string(*randomness);
  base.miner_id = *miner;
  std::vector<JobRequest> out;
  if (spec.kind == FilecoinKind::winning) {
    if (f.pub.partition_index)
      return Status(Errc::invalid_argument, "--partition-index is for window");
    base.kind = ProofKind::winning_post;
    base.vanilla_proofs = std::move(*sectors);
    out.push_back(std::move(base));
    return out;
  }
  base.kind = ProofKind::window_post_partition;
  const std::size_t per = spec.post.sector_count;
  if (f.pub.partition_index) {  // the sectors are partition K's
    base.partition_index = static_cast<std::uint32_t>(*f.pub.partition_index);
    base.vanilla_proofs = std::move(*sectors);
    out.push_back(std::move(base));
    return out;
  }
  for (std::size_t first = 0; first < sectors->size(); first += per) {
    JobRequest req = base;
    req.partition_index = static_cast<std::uint32_t>(first / per);
    req.vanilla_proofs.assign(sectors->begin() + first,
                              sectors->begin() + std::min(first + per, sectors->size()));
    out.push_back(std::move(req));
  }
  return out;
}

Result<std::vector<JobRequest>> update_requests(const FilecoinCircuitSpec& spec,
                                                const ProveFlags& f) {
  if (f.vanilla.empty())
    return Status(Errc::invalid_argument, "--vanilla is required for --kind update");
  if (f.pub.partition_index)
    return Status(Errc::invalid_argument, "prove --kind update proves every partition");
  JobRequest req;
  req.kind = ProofKind::snap_deals_update;
  req.registered_proof = fc::update_proof_number(spec.update);
  req.sector_size = fc::sector_bytes(spec.update.size);
  if (f.h) {
    if (*f.h == 0) return Status(Errc::invalid_argument, "--h 0: h is one of the size's hs");
    req.update_h = *f.h;
  }
  for (auto [dst, text, flag] : {std::tuple{&req.comm_r_old, &f.pub.comm_r_old, "--comm-r-old"},
                                 std::tuple{&req.comm_d_new, &f.pub.comm_d_new, "--comm-d-new"},
                                 std::tuple{&req.comm_r_new, &f.pub.comm_r_new, "--comm-r-new"}}) {
    auto v = required_fr(*text, flag);
    if (!v.ok()) return v.status();
    *dst = bytes_string(*v);
  }
  auto parts = split_records<fc::SnapPartitionProof>(f.vanilla, "PartitionProof",
                                                     &fc::read_snap_partition_proof);
  if (!parts.ok()) return parts.status();
  req.vanilla_proofs = std::move(*parts);
  return std::vector<JobRequest>{std::move(req)};
}

// PoRep flags that repeat what the family parsed from the C1 must agree with it (exit 1).
Status check_porep_flags(const PublicFlags& p, const circuits::PartitionPlan& plan) {
  const auto* job = dynamic_cast<const cf::PorepJob*>(plan.parsed.get());
  if (job == nullptr) return {};
  if (p.comm_rs.size() > 1)
    return Status(Errc::invalid_argument, "--kind porep takes one --comm-r");
  if (!p.comm_rs.empty())
    CUZK_RETURN_IF_ERROR(check_same(p.comm_rs[0], job->pub.comm_r, "--comm-r", true));
  CUZK_RETURN_IF_ERROR(check_same(p.comm_d, job->pub.comm_d, "--comm-d", true));
  CUZK_RETURN_IF_ERROR(check_same(p.ticket, job->pub.ticket, "--ticket", false));
  return check_same(p.seed, job->pub.seed, "--seed", false);
}

// The PoSt sectors the family parsed (vanilla proofs in order) against --sector-id/--comm-r, when
// given: the same list, or exit 1.
Status check_post_flags(const PublicFlags& p, const std::vector<fc::PostPublicSector>& have) {
  if (p.sector_ids.empty() && p.comm_rs.empty()) return {};
  if (p.sector_ids.size() != p.comm_rs.size())
    return Status(Errc::invalid_argument, std::to_string(p.sector_ids.size()) +
                                              " --sector-id for " +
                                              std::to_string(p.comm_rs.size()) + " --comm-r");
  if (p.sector_ids.size() != have.size())
    return Status(Errc::unsatisfied, std::to_string(p.sector_ids.size()) +
                                         " sectors given, the vanilla proofs hold " +
                                         std::to_string(have.size()));
  for (std::size_t i = 0; i < have.size(); ++i) {
    if (p.sector_ids[i] != have[i].sector_id)
      return Status(Errc::unsatisfied, "--sector-id " + std::to_string(p.sector_ids[i]) +
                                           ": vanilla proof " + std::to_string(i) +
                                           " is of sector " + std::to_string(have[i].sector_id));
    CUZK_RETURN_IF_ERROR(check_same(p.comm_rs[i], have[i].comm_r, "--comm-r", true));
  }
  return {};
}

// The sectors a PoSt plan holds.
std::vector<fc::PostPublicSector> post_sectors_of(const circuits::PartitionPlan& plan) {
  if (const auto* w = dynamic_cast<const cf::WindowPostJob*>(plan.parsed.get()))
    return w->pub.sectors;
  if (const auto* g = dynamic_cast<const cf::WinningPostJob*>(plan.parsed.get()))
    return {g->pub.sector};
  return {};
}

// The witness's a/b/c from the family's compact form (as the daemon evaluates them), every row
// checked: unsatisfied naming the first row that fails.
Result<AbcVectors> checked_abc(ThreadPool& pool, const circuits::CircuitShape& shape,
                               std::span<const Fr> z, std::uint32_t k) {
  const R1csDims m = shape.dims();
  AbcVectors abc;
  for (auto* v : {&abc.a, &abc.b, &abc.c}) v->resize(m.num_constraints);
  Status st = shape.compact
                  ? pce_compact_evaluate_into(pool, *shape.compact, z, abc.a, abc.b, abc.c)
                  : pce_evaluate_into(pool, *shape.matrices, z, abc.a, abc.b, abc.c);
  if (!st.ok()) return st;
  if (std::size_t bad = 0; !abc_satisfied(abc, &bad))
    return Status(Errc::unsatisfied,
                  "partition " + std::to_string(k) + ": the witness does not satisfy constraint " +
                      std::to_string(bad) + " of " + std::to_string(m.num_constraints) +
                      " (A·z × B·z ≠ C·z in that row)");
  return abc;
}

int run_prove(const ProveFlags& f) {
  auto spec = resolve_circuit(f.circuit);
  if (!spec.ok()) return report_error(kCmd, spec.status().to_string());
  Result<std::vector<JobRequest>> reqs = Status(Errc::invalid_argument, "no kind");
  switch (spec->kind) {
    case FilecoinKind::porep:
      if (f.h) return report_error(kCmd, "--h is for --kind update");
      reqs = porep_requests(*spec, f);
      break;
    case FilecoinKind::winning:
    case FilecoinKind::window:
      if (!f.c1.empty()) return report_error(kCmd, "--c1 is for --kind porep");
      if (f.h) return report_error(kCmd, "--h is for --kind update");
      reqs = post_requests(*spec, f);
      break;
    case FilecoinKind::update:
      if (!f.c1.empty()) return report_error(kCmd, "--c1 is for --kind porep");
      reqs = update_requests(*spec, f);
      break;
  }
  if (!reqs.ok()) return report_error(kCmd, reqs.status().to_string(), exit_code_of(reqs.status()));

  ThreadPool pool(f.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto family = make_family(*spec, f.params_dir);
  const std::string key_id = cf::filecoin_key_id(spec->parameters);
  const std::string params_path = family->params_path(spec->parameters);
  if (std::error_code ec; !std::filesystem::is_regular_file(params_path, ec))
    return report_error(
        kCmd, "no proving key " + params_path + " (cuzk filecoin setup --out DIR writes one)");
  auto shape = family->shape(key_id);
  if (!shape.ok()) return report_error(kCmd, shape.status().to_string());
  const circuits::CircuitShape& circuit = **shape;
  const R1csDims m = circuit.dims();
  const double t_record = seconds_since(t0);

  // Every request planned (inputs parsed and their vanilla proofs verified) before any proof.
  std::vector<circuits::PartitionPlan> plans;
  std::vector<fc::PostPublicSector> post_sectors;
  const auto tp = std::chrono::steady_clock::now();
  for (const JobRequest& req : *reqs) {
    auto plan = family->plan(req);
    if (!plan.ok())
      return report_error(kCmd, plan.status().to_string(), exit_code_of(plan.status()));
    if (Status s = check_porep_flags(f.pub, *plan); !s.ok())
      return report_error(kCmd, s.to_string(), exit_code_of(s));
    for (const fc::PostPublicSector& x : post_sectors_of(*plan)) post_sectors.push_back(x);
    plans.push_back(std::move(*plan));
  }
  if (spec->kind == FilecoinKind::winning || spec->kind == FilecoinKind::window)
    if (Status s = check_post_flags(f.pub, post_sectors); !s.ok())
      return report_error(kCmd, s.to_string(), exit_code_of(s));
  const double t_plan = seconds_since(tp);

  const auto t1 = std::chrono::steady_clock::now();
  auto source = family->key_source(key_id);
  if (!source.ok()) return report_error(kCmd, source.status().to_string());
  // Query points decoded without subgroup checks, as rust-fil-proofs reads .params (the VK is
  // always checked); the key is then checked against the recorded circuit.
  auto pk = read_params(source->path, {.checked = false, .pool = &pool});
  if (!pk.ok()) return report_error(kCmd, pk.status().with_context(source->path).to_string());
  if (Status s = check_key_matches(*pk, m); !s.ok())
    return report_error(kCmd,
                        s.with_context(source->path + " does not fit the circuit").to_string());
  auto backend = make_backend(f.backend, pool);
  if (!backend.ok())
    return report_error(kCmd, backend.status().with_context("--backend").to_string());
  auto key = ResidentKey::load(**backend, *pk);
  if (!key.ok()) return report_error(kCmd, key.status().to_string());
  const PreparedVerifyingKey pvk = prepare_verifying_key(pk->vk);
  const double t_key = seconds_since(t1);

  OsRng os;
  SeededRng seeded(f.rs_seed.value_or(0));
  Rng& rs_rng = f.rs_seed ? static_cast<Rng&>(seeded) : static_cast<Rng&>(os);
  std::vector<Proof> proofs;
  double t_witness = 0, t_abc = 0, t_prove = 0, t_verify = 0;
  const circuits::CancelFlag cancel{false};
  std::vector<Fr> z;
  for (std::size_t j = 0; j < reqs->size(); ++j) {
    const JobRequest& req = (*reqs)[j];
    const circuits::PartitionPlan* plan = &plans[j];
    for (std::uint32_t k = 0; k < plan->partitions; ++k) {
      const std::string where = "partition " + std::to_string(proofs.size());
      auto tw = std::chrono::steady_clock::now();
      if (Status s = family->witness(req, *plan, k, z, cancel); !s.ok())
        return report_error(kCmd, s.to_string(), exit_code_of(s));
      t_witness += seconds_since(tw);
      auto ta = std::chrono::steady_clock::now();
      auto abc = checked_abc(pool, circuit, z, k);
      if (!abc.ok())
        return report_error(kCmd, abc.status().to_string(), exit_code_of(abc.status()));
      t_abc += seconds_since(ta);
      auto tr = std::chrono::steady_clock::now();
      const Fr r = random_fr(rs_rng), s = random_fr(rs_rng);
      auto proof = prove_with_abc(pool, **key, m, std::move(*abc), z, {.r = r, .s = s});
      if (!proof.ok()) return report_error(kCmd, proof.status().with_context(where).to_string());
      t_prove += seconds_since(tr);
      auto tv = std::chrono::steady_clock::now();
      auto inputs = family->public_inputs(req, *plan, k);
      if (!inputs.ok()) return report_error(kCmd, inputs.status().with_context(where).to_string());
      auto ok = verify(pvk, *inputs, *proof);
      if (!ok.ok()) return report_error(kCmd, ok.status().with_context(where).to_string());
      if (!*ok)
        return report_error(kCmd,
                            where +
                                ": the proof does not verify against the key's .vk with the "
                                "public inputs from public data; no proof written",
                            1);
      t_verify += seconds_since(tv);
      proofs.push_back(*proof);
    }
  }
  const std::vector<std::uint8_t> bytes = write_proofs(proofs);
  if (Status s = write_whole_file(f.out, bytes); !s.ok()) return report_error(kCmd, s.to_string());

  nlohmann::ordered_json out = {
      {"kind", spec->kind_name()},
      {"registered_proof", spec->proof_name()},
      {"proof", f.out},
      {"partitions", proofs.size()},
      {"proof_bytes", bytes.size()},
      {"backend", f.backend},
      {"rs_seeded", f.rs_seed.has_value()},
      {"verified", true},
      {"threads", pool.size()},
      {"seconds",
       {{"record", t_record},
        {"key", t_key},
        {"plan", t_plan},
        {"witness", t_witness},
        {"abc", t_abc},
        {"prove", t_prove},
        {"verify", t_verify},
        {"total", seconds_since(t0)}}},
  };
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace

/// Listed in filecoin_cli.cpp.
FilecoinRun add_filecoin_prove(CLI::App& sub) {
  auto f = std::make_shared<ProveFlags>();
  add_circuit_flags(sub, f->circuit);
  sub.add_option("--params", f->params_dir, "parameter directory with the v28 .params")->required();
  sub.add_option("--c1", f->c1,
                 "porep: C1 output, JSON (SealCommitPhase1Output) or Curio's envelope");
  sub.add_option("--vanilla", f->vanilla,
                 "winning, window: FallbackPoStSectorProof files; update: PartitionProof files "
                 "(several records per file allowed)");
  add_public_flags(sub, f->pub);
  sub.add_option("--backend", f->backend, "cpu or cuda:N (cuda = cuda:0)")->capture_default_str();
  sub.add_option("--rs-seed", f->rs_seed,
                 "draw each partition's r, s from this seed (same bytes on every backend; tests)");
  sub.add_option("--h", f->h,
                 "update: the encoding's h, one of the size's allowed values (default: "
                 "h_default, as filecoin-proofs uses; `cuzk filecoin update --h`)");
  sub.add_option("--threads", f->threads, "threads (0: all cores)");
  sub.add_option("--out", f->out, "proof file: 192 bytes per partition, in order")->required();
  return [f]() {
    if (f->backend == "cuda") f->backend = "cuda:0";
    return run_prove(*f);
  };
}

}  // namespace cuzk::cli
