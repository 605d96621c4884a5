#include "cuzk/cli/filecoin_groth16.hpp"

#include <algorithm>
#include <cstdio>

#include "cuzk/circuits/filecoin/porep_circuit.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_circuit.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/filecoin/hex_bytes.hpp"
#include "cuzk/filecoin/node.hpp"
#include "cuzk/filecoin/prover_id.hpp"
#include "cuzk/filecoin/snap_params.hpp"

namespace cuzk::cli {

namespace fc = cuzk::filecoin;
namespace cf = cuzk::circuits::filecoin;

void add_circuit_flags(CLI::App& sub, CircuitFlags& f) {
  sub.add_option("--kind", f.kind, "porep | winning | window | update")
      ->required()
      ->check(CLI::IsMember({"porep", "winning", "window", "update"}));
  sub.add_option("--registered-proof", f.registered_proof,
                 "registered proof: StackedDrg2KiBV1_1 (porep), StackedDrgWinning2KiBV1, "
                 "StackedDrgWindow2KiBV1_2, StackedDrg2KiBV1 (update)")
      ->required();
  sub.add_option("--porep-id", f.porep_id, "porep: porep_id, 64 hex digits (default: the proof's)");
  sub.add_option("--api-version", f.api_version,
                 "porep, winning, window: API version X.Y.Z (default: the proof's)");
}

const std::string& FilecoinCircuitSpec::proof_name() const {
  switch (kind) {
    case FilecoinKind::porep:
      return seal.name;
    case FilecoinKind::winning:
    case FilecoinKind::window:
      return post.name;
    case FilecoinKind::update:
      break;
  }
  return update.name;
}

const char* FilecoinCircuitSpec::kind_name() const {
  switch (kind) {
    case FilecoinKind::porep:
      return "porep";
    case FilecoinKind::winning:
      return "winning";
    case FilecoinKind::window:
      return "window";
    case FilecoinKind::update:
      break;
  }
  return "update";
}

Result<std::unique_ptr<Circuit>> FilecoinCircuitSpec::blank_circuit() const {
  switch (kind) {
    case FilecoinKind::porep:
      return std::unique_ptr<Circuit>(
          std::make_unique<cf::PorepCircuit>(cf::porep_circuit_shape(seal)));
    case FilecoinKind::winning:
    case FilecoinKind::window: {
      auto params = cf::post_circuit_params(post);
      if (!params.ok()) return params.status();
      return std::unique_ptr<Circuit>(std::make_unique<cf::PostCircuit>(*params));
    }
    case FilecoinKind::update:
      break;
  }
  // h enters only the value of k_and_h_select, never the constraints.
  const std::uint64_t nodes = fc::sector_nodes(update.size);
  return std::unique_ptr<Circuit>(std::make_unique<cf::UpdateCircuit>(
      cf::UpdatePublic{.nodes = nodes, .k = 0, .h = fc::snap_params(update.size).h_default}));
}

Result<FilecoinCircuitSpec> resolve_circuit(const CircuitFlags& f) {
  FilecoinCircuitSpec spec;
  const auto bad = [](const std::string& what) { return Status(Errc::invalid_argument, what); };
  if (f.kind == "porep") {
    spec.kind = FilecoinKind::porep;
    auto p = fc::seal_proof(f.registered_proof);
    if (!p.ok()) return p.status().with_context("--registered-proof");
    spec.seal = std::move(*p);
    if (!f.porep_id.empty()) {
      auto id = fc::parse_hex32(f.porep_id, "--porep-id");
      if (!id.ok()) return id.status();
      std::copy(id->begin(), id->end(), spec.seal.porep_id.begin());
      spec.overrides.porep_id = spec.seal.porep_id;
    }
    if (!f.api_version.empty()) {
      auto v = fc::parse_api_version(f.api_version);
      if (!v.ok()) return v.status().with_context("--api-version");
      spec.seal.api = *v;
      spec.overrides.api_version = *v;
    }
    auto set = fc::parameters_of_proof(spec.seal.name);
    if (!set.ok()) return set.status();
    spec.parameters = std::move(*set);
    return spec;
  }
  if (f.kind == "winning" || f.kind == "window") {
    spec.kind = f.kind == "winning" ? FilecoinKind::winning : FilecoinKind::window;
    auto p = fc::post_proof(f.registered_proof);
    if (!p.ok()) return p.status().with_context("--registered-proof");
    const fc::PostKind want =
        spec.kind == FilecoinKind::winning ? fc::PostKind::winning : fc::PostKind::window;
    if (p->kind != want)
      return bad("--registered-proof " + p->name + " is not a " + f.kind + " PoSt proof");
    spec.post = std::move(*p);
    if (!f.porep_id.empty()) return bad("--porep-id is for --kind porep");
    if (!f.api_version.empty()) {
      auto v = fc::parse_api_version(f.api_version);
      if (!v.ok()) return v.status().with_context("--api-version");
      spec.post.api = *v;
      spec.overrides.api_version = *v;
    }
    spec.parameters = fc::post_parameters(want, spec.post.size);
    return spec;
  }
  if (f.kind != "update") return bad("--kind " + f.kind + ": not porep, winning, window, update");
  spec.kind = FilecoinKind::update;
  auto p = fc::update_proof(f.registered_proof);
  if (!p.ok()) return p.status().with_context("--registered-proof");
  spec.update = std::move(*p);
  if (!f.porep_id.empty() || !f.api_version.empty())
    return bad(
        "--porep-id and --api-version do not apply to --kind update (the SnapDeals circuit, "
        "vanilla proofs and public inputs depend on neither; upstream's api_version only gates "
        "update aggregation)");
  spec.parameters = fc::update_parameters(spec.update.size);
  return spec;
}

std::unique_ptr<cf::FilecoinFamily> make_family(const FilecoinCircuitSpec& spec,
                                                const std::string& params_dir,
                                                const std::string& cache_dir) {
  cf::FilecoinFamilyOptions opt{
      .params_dir = params_dir, .cache_dir = cache_dir, .overrides = spec.overrides};
  switch (spec.kind) {
    case FilecoinKind::porep:
      return std::make_unique<cf::PorepFamily>(std::move(opt));
    case FilecoinKind::winning:
      return std::make_unique<cf::PostFamily>(fc::PostKind::winning, std::move(opt));
    case FilecoinKind::window:
      return std::make_unique<cf::PostFamily>(fc::PostKind::window, std::move(opt));
    case FilecoinKind::update:
      break;
  }
  return std::make_unique<cf::UpdateFamily>(std::move(opt));
}

void add_public_flags(CLI::App& sub, PublicFlags& f) {
  sub.add_option("--comm-r", f.comm_rs, "porep: comm_r; PoSt: comm_r of each --sector-id");
  sub.add_option("--comm-d", f.comm_d, "porep: comm_d");
  sub.add_option("--prover-id", f.prover_id, "porep, PoSt: prover id (ID-address payload)");
  sub.add_option("--sector-id", f.sector_ids, "porep: the sector; PoSt: repeat in PoSt order");
  sub.add_option("--ticket", f.ticket, "porep: ticket");
  sub.add_option("--seed", f.seed, "porep: interactive seed");
  sub.add_option("--randomness", f.randomness, "PoSt: randomness (below r)");
  sub.add_option("--comm-r-old", f.comm_r_old, "update: comm_r_old");
  sub.add_option("--comm-r-new", f.comm_r_new, "update: comm_r_new");
  sub.add_option("--comm-d-new", f.comm_d_new, "update: comm_d_new");
  sub.add_option("--partition-index", f.partition_index,
                 "window: the sectors given are partition K's; update: the one proof is "
                 "partition K's");
}

Result<fc::Bytes32> bytes32_flag(const std::string& text, const std::string& flag,
                                 bool must_be_fr) {
  auto b = fc::parse_hex32(text, flag);
  if (!b.ok()) return b.status();
  if (must_be_fr) {
    auto x = fc::fr_from_bytes32(*b, flag);
    if (!x.ok()) return x.status();
  }
  return *b;
}

Result<std::uint64_t> actor_id_of_prover(const fc::Bytes32& prover_id) {
  // Unsigned LEB128: 7 bits per byte, high bit set on every byte but the last (≤ 10 bytes).
  std::uint64_t id = 0;
  for (unsigned i = 0; i < 10; ++i) {
    id |= std::uint64_t{prover_id[i] & 0x7fu} << (7 * i);
    if ((prover_id[i] & 0x80) == 0) break;
  }
  if (fc::prover_id_of_actor(id) != prover_id)
    return Status(Errc::invalid_argument,
                  "--prover-id " + fc::to_hex(prover_id) +
                      " is not the ID-address payload of an actor (a LEB128 actor id followed by "
                      "zero bytes), which is how the prover is carried");
  return id;
}

int exit_code_of(const Status& s) { return s.code() == Errc::unsatisfied ? 1 : 2; }

int report_error(const char* cmd, const std::string& what, int rc) {
  std::fprintf(stderr, "cuzk filecoin %s: %s\n", cmd, what.c_str());
  return rc;
}

}  // namespace cuzk::cli
