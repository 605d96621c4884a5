// Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/seed-*): small valid inputs
// made by cuzk's own writers for a 1-constraint circuit (a · b = c, c public), a few files of
// tests/data/oracles, and hand-written texts. Run once when a target or a format changes:
//   cmake --build build --target cuzk_fuzz_seeds && build/fuzz/cuzk_fuzz_seeds fuzz/corpus
// Inputs that once failed live beside the seeds as crash-* / regress-* and are never rewritten.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/engine/config.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/journal.hpp"
#include "cuzk/filecoin/base64.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/curio_c1_request.hpp"
#include "cuzk/filecoin/parameter_manifest.hpp"
#include "cuzk/filecoin/porep_verify.hpp"
#include "cuzk/filecoin/post_verify.hpp"
#include "cuzk/filecoin/registered_proof.hpp"
#include "cuzk/filecoin/snap_verify.hpp"
#include "cuzk/filecoin/synth_inputs.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/snarkjs_json.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/circom.hpp"
#include "cuzk/server/proto_convert.hpp"

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {

fs::path g_out;

void put(const std::string& target, const std::string& name, const void* data, std::size_t n) {
  const fs::path dir = g_out / target;
  fs::create_directories(dir);
  std::ofstream(dir / ("seed-" + name), std::ios::binary)
      .write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  std::printf("%s/seed-%s (%zu bytes)\n", target.c_str(), name.c_str(), n);
}
void put(const std::string& target, const std::string& name, const Bytes& b) {
  put(target, name, b.data(), b.size());
}
void put(const std::string& target, const std::string& name, const std::string& s) {
  put(target, name, s.data(), s.size());
}
// A seed the target's parser refuses would only test the first check: every seed must parse.
bool g_ok = true;
void expect_ok(const std::string& what, const cuzk::Status& s) {
  if (s.ok()) return;
  std::fprintf(stderr, "seed %s does not parse: %s\n", what.c_str(), s.to_string().c_str());
  g_ok = false;
}

void copy(const std::string& target, const std::string& name, const std::string& oracle) {
  std::ifstream in(std::string(CUZK_TEST_DATA_DIR) + "/oracles/" + oracle, std::ios::binary);
  const std::string s{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (s.empty()) std::fprintf(stderr, "missing oracle %s\n", oracle.c_str());
  put(target, name, s);
}

void u32(Bytes& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void u64(Bytes& b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void fr(Bytes& b, const cuzk::Fr& x) {
  std::uint8_t le[32];
  x.to_bytes_le(le);
  b.insert(b.end(), le, le + 32);
}
void prime(Bytes& b) {
  u32(b, 32);
  for (std::uint64_t limb : cuzk::Fr::kModulus) u64(b, limb);
}
// iden3 binfile: magic | u32 version | u32 nSections | (u32 type | u64 size | bytes)*
Bytes binfile(const char magic[4], std::uint32_t version, const std::vector<Bytes>& sections) {
  Bytes b(magic, magic + 4);
  u32(b, version);
  u32(b, static_cast<std::uint32_t>(sections.size()));
  for (std::size_t i = 0; i < sections.size(); ++i) {
    u32(b, static_cast<std::uint32_t>(i + 1));
    u64(b, sections[i].size());
    b.insert(b.end(), sections[i].begin(), sections[i].end());
  }
  return b;
}

// Wires: 0 ONE, 1 c (public output), 2 a, 3 b (private inputs); one constraint a · b = c.
Bytes tiny_r1cs() {
  Bytes header;
  prime(header);
  u32(header, 4);  // nWires
  u32(header, 1);  // nPubOut
  u32(header, 0);  // nPubIn
  u32(header, 2);  // nPrvIn
  u64(header, 4);  // nLabels
  u32(header, 1);  // nConstraints
  Bytes cons;
  for (std::uint32_t wire : {2u, 3u, 1u}) {  // LC A, LC B, LC C: one term each, coefficient 1
    u32(cons, 1);
    u32(cons, wire);
    fr(cons, cuzk::Fr::one());
  }
  Bytes labels;
  for (std::uint64_t l = 0; l < 4; ++l) u64(labels, l);
  return binfile("r1cs", 1, {header, cons, labels});
}

Bytes tiny_wtns(const std::vector<cuzk::Fr>& z) {
  Bytes header;
  prime(header);
  u32(header, static_cast<std::uint32_t>(z.size()));
  Bytes values;
  for (const auto& x : z) fr(values, x);
  return binfile("wtns", 2, {header, values});
}

int fail(const char* what, const cuzk::Status& s) {
  std::fprintf(stderr, "%s: %s\n", what, s.to_string().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR (fuzz/corpus)\n", argv[0]);
    return 2;
  }
  g_out = argv[1];
  using cuzk::Fr;

  // circom: the 1-constraint circuit, its witness (1, 6, 2, 3), and the oracle witness.
  const Bytes r1cs = tiny_r1cs();
  put("circom_r1cs", "tiny", r1cs);
  const std::vector<Fr> z = {Fr::one(), Fr::from_u64(6), Fr::from_u64(2), Fr::from_u64(3)};
  put("snarkjs_wtns", "tiny", tiny_wtns(z));
  copy("snarkjs_wtns", "poseidon", "poseidon/poseidon.wtns");

  // Keys of both layouts for that circuit, a proof, and every format written from them.
  auto circuit = cuzk::parse_circom_r1cs(r1cs);
  if (!circuit) return fail("tiny r1cs", circuit.status());
  const auto& m = circuit->matrices;
  cuzk::ThreadPool pool(1);
  cuzk::SeededRng rng(17);
  auto bp = cuzk::setup(m, rng, {.layout = cuzk::KeyLayout::bellperson});
  if (!bp) return fail("bellperson setup", bp.status());
  auto sj = cuzk::setup(m, rng, {.layout = cuzk::KeyLayout::snarkjs});
  if (!sj) return fail("snarkjs setup", sj.status());
  auto params = cuzk::write_params(*bp);
  if (!params) return fail("write_params", params.status());
  put("bellperson_params", "tiny", *params);
  put("bellperson_vk", "tiny", cuzk::write_vk(bp->vk));
  cuzk::CpuBackend backend(pool);
  auto proof = cuzk::prove(backend, pool, *bp, m, z);
  if (!proof) return fail("prove", proof.status());
  const cuzk::Proof two[2] = {*proof, *proof};
  put("bellperson_proof", "one", cuzk::write_proofs(std::span(two, 1)));
  put("bellperson_proof", "two", cuzk::write_proofs(two));
  auto zkey = cuzk::write_zkey(*sj, m);
  if (!zkey) return fail("write_zkey", zkey.status());
  put("zkey", "tiny", *zkey);

  // snarkjs JSON: written by cuzk, and snarkjs's own (tests/data/oracles).
  put("snarkjs_proof_json", "tiny", cuzk::proof_to_snarkjs_json(*proof));
  copy("snarkjs_proof_json", "mulchain", "mulchain_1021/proof_snarkjs.json");
  put("snarkjs_public_json", "tiny", cuzk::public_to_snarkjs_json(std::span(z).subspan(1, 1)));
  copy("snarkjs_public_json", "poseidon", "poseidon/public.json");
  put("snarkjs_vk_json", "tiny", cuzk::vk_to_snarkjs_json(sj->vk));
  copy("snarkjs_vk_json", "mulchain", "mulchain_1021/verification_key.json");

  // The daemon config: every section (docs/config.md), and the smallest.
  put("daemon_config", "all", std::string(R"([daemon]
listen = ["unix:///tmp/x.sock", "127.0.0.1:9820"]
socket_group = "curio"
metrics_listen = "127.0.0.1:9821"
max_message_bytes = "512MiB"
journal = ""
shutdown_grace_s = 5
[tls]
cert = "s.pem"
key = "s.key"
client_ca = "ca.pem"
require_client_cert = true
[logging]
level = "debug"
format = "json"
[memory]
budget = "64GiB"
safety_margin = "2GiB"
critical_headroom = "4GiB"
input_budget = "auto"
[engine]
prover = "fake"
synthesis_workers = 6
gpu_workers_per_device = 1
self_verify = false
job_retention_s = 60
max_pending_per_client = 3
[gpu]
devices = [0, 1]
arena_fraction = 0.5
[circuits."bench-20"]
devices = [1]
[circom]
mulchain = "k.zkey"
[fake]
synth_ms = 7
gpu_ms = 9
default_partitions = 4
[filecoin]
parameter_cache = "/var/tmp/filecoin-proof-parameters"
verify_parameters = "off"
)"));
  put("daemon_config", "min", std::string("[engine]\nprover = \"fake\"\n"));
  for (const char* name : {"all", "min"}) {
    std::ifstream in(g_out / "daemon_config" / (std::string("seed-") + name));
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    expect_ok(std::string("daemon_config/") + name, cuzk::engine::parse_config(text).status());
  }

  // Journal blobs and SubmitProof requests.
  cuzk::engine::JobRequest jr;
  jr.vanilla_proof = cuzk::engine::fake_input(7);
  put("journal_blob", "bench", cuzk::engine::encode_request_blob(jr));
  jr.vanilla_proofs = {"a", "bc"};
  jr.randomness = std::string(32, '\x11');
  jr.comm_r_old = std::string(32, '\x22');
  jr.sector_size = 34359738368ull;
  jr.registered_proof = 8;
  jr.sector_number = 5;
  jr.miner_id = 1000;
  jr.partition_index = 3;
  put("journal_blob", "filled", cuzk::engine::encode_request_blob(jr));
  {
    cuzk::v1::SubmitProofRequest r;
    r.set_request_id("seed");
    r.set_circuit_id("bench-10");
    r.set_num_partitions(3);
    r.set_vanilla_proof(cuzk::engine::fake_input(11));
    put("submit_request", "bench", r.SerializeAsString());
    r.set_request_id("fault");
    r.set_priority(cuzk::v1::CRITICAL);
    r.set_vanilla_proof(cuzk::engine::fake_input(12, 2, 1));
    put("submit_request", "fault", r.SerializeAsString());
    cuzk::v1::SubmitProofRequest p;
    p.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
    p.set_registered_proof(8);
    p.set_sector_size(34359738368ull);
    p.set_vanilla_proof("{}");
    p.add_vanilla_proofs()->assign(1, 'x');
    p.set_comm_r_old(std::string(32, '\1'));
    put("submit_request", "porep", p.SerializeAsString());
  }

  // Filecoin: a parameters.json of two entries (the layout of rust-fil-proofs' file) and names.
  put("filecoin_manifest", "two", std::string(R"({
  "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params": {
    "cid": "QmVxjFRyhmyQaZEtCh7nk2abc7LhFkzhnRX4rcHqCCpikR",
    "digest": "7610b9f82bfc88405b7a832b651ce2f6",
    "sector_size": 2048
  },
  "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.vk": {
    "cid": "QmcS5JZs8X3TdtkEBpHAdUYjdNDqcL7fWQFtQz69mpnu2X",
    "digest": "0ebb3a2b6d0b1e9b1c9e2b7d7a6c1f3e",
    "sector_size": 2048
  }
})"));
  {
    std::ifstream in(g_out / "filecoin_manifest" / "seed-two");
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    expect_ok("filecoin_manifest/two", cuzk::filecoin::parse_manifest(text).status());
  }
  for (const char* n :
       {"StackedDrg32GiBV1_1", "StackedDrgWindow2KiBV1_2", "StackedDrgWinning512MiBV1",
        "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"}) {
    put("filecoin_names", n, std::string(n));
    const bool known = cuzk::filecoin::seal_proof(n).ok() || cuzk::filecoin::post_proof(n).ok();
    expect_ok(n, known ? cuzk::Status() : cuzk::Status(cuzk::Errc::not_found, "no such proof"));
  }
  put("filecoin_names", "32GiB", std::string("32GiB"));
  expect_ok("32GiB", cuzk::filecoin::parse_sector_size("32GiB").status());
  put("filecoin_names", "1.1.0", std::string("1.1.0"));
  expect_ok("1.1.0", cuzk::filecoin::parse_api_version("1.1.0").status());

  // The Filecoin inputs Curio sends, for 2 KiB sectors: synthetic proofs (synth_inputs.hpp,
  // seed 1) that the vanilla verifiers accept, so the fuzz targets reach the verifiers' last
  // checks; the fuzz targets verify against the same public data.
  {
    namespace fc = cuzk::filecoin;
    auto seal = fc::seal_proof("StackedDrg2KiBV1_1");
    if (!seal) return fail("seal_proof", seal.status());
    auto c1 = fc::synth_c1(*seal, 1, pool);
    if (!c1) return fail("synth_c1", c1.status());
    const std::string c1_json = fc::write_c1_json(c1->c1);
    put("c1_json", "2KiB", c1_json);
    expect_ok("c1_json/2KiB", fc::read_c1_json(c1_json).status());
    expect_ok("c1_json/2KiB verifies",
              fc::verify_porep_vanilla(*seal, fc::porep_public_inputs(c1->c1), c1->c1));
    // No partitions: every field but the proofs, in serde's form (the fast reader's) and as
    // nlohmann writes it (keys sorted, indented: the reference reader's).
    fc::SealCommitPhase1Output empty = c1->c1;
    empty.vanilla_proofs.clear();
    const std::string empty_json = fc::write_c1_json(empty);
    put("c1_json", "empty", empty_json);
    const std::string sorted = nlohmann::json::parse(empty_json).dump(1);
    put("c1_json", "empty-sorted", sorted);
    expect_ok("c1_json/empty", fc::read_c1_json(empty_json).status());
    expect_ok("c1_json/empty-sorted", fc::read_c1_json_reference(sorted).status());

    fc::CurioC1Request req{.sector_num = 7, .sector_size = 2048, .phase1_out = empty_json};
    put("curio_c1_request", "empty", fc::write_curio_c1_request(req));
    expect_ok("curio_c1_request/empty",
              fc::read_curio_c1(fc::write_curio_c1_request(req)).status());
    // Go's field order is SectorNum, Phase1Out, SectorSize; another order and spaces read too.
    const std::string reordered =
        "{ \"SectorSize\": 2048, \"SectorNum\": 7, \"Phase1Out\": \"" +
        fc::base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(empty_json.data()),
                                    empty_json.size())) +
        "\" }";
    put("curio_c1_request", "reordered", reordered);
    expect_ok("curio_c1_request/reordered", fc::read_curio_c1(reordered).status());

    // Base64 of 0, 1 and 2 padding characters, and one long enough for the whole-quad loop.
    const std::string words[] = {"cuzk12", "cuzk1", "cuzk"};
    for (const std::string& w : words) {
      const std::string b =
          fc::base64_encode(std::span(reinterpret_cast<const std::uint8_t*>(w.data()), w.size()));
      put("base64", w, b);
      expect_ok("base64/" + w, fc::base64_decode(b, "seed").status());
    }
    Bytes all(256);
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);
    put("base64", "bytes", fc::base64_encode(all));

    auto window = fc::post_proof("StackedDrgWindow2KiBV1_2");
    if (!window) return fail("post_proof", window.status());
    auto post = fc::synth_post(*window, 1, 1, pool);
    if (!post) return fail("synth_post", post.status());
    const Bytes post_bytes = fc::write_post_sector_proof(post->vanilla[0]);
    put("post_vanilla_proof", "window-2KiB", post_bytes);
    expect_ok("post_vanilla_proof/window-2KiB", fc::read_post_sector_proof(post_bytes).status());
    expect_ok(
        "post_vanilla_proof/window-2KiB verifies",
        fc::verify_post_sector(*window, post->randomness, post->sectors[0], 0, post->vanilla[0]));
    // The other two variants of MerkleProof (Sub: 8-8-0 trees, Top: 8-8-2), one level each.
    fc::FallbackPoStSectorProof variants = post->vanilla[0];
    variants.sectors[0].inclusion_proofs.resize(3);
    for (int i = 1; i < 3; ++i) {
      fc::MerkleProof& m = variants.sectors[0].inclusion_proofs[static_cast<std::size_t>(i)];
      m.kind = i == 1 ? fc::MerkleProofKind::sub : fc::MerkleProofKind::top;
      m.base_path.resize(1);
      m.sub_path = {fc::PathElement{.hashes = std::vector<fc::Bytes32>(7), .index = 3}};
      if (i == 2) m.top_path = {fc::PathElement{.hashes = std::vector<fc::Bytes32>(1), .index = 1}};
    }
    const Bytes variant_bytes = fc::write_post_sector_proof(variants);
    put("post_vanilla_proof", "variants", variant_bytes);
    expect_ok("post_vanilla_proof/variants", fc::read_post_sector_proof(variant_bytes).status());

    auto update = fc::update_proof("StackedDrg2KiBV1");
    if (!update) return fail("update_proof", update.status());
    auto snap = fc::synth_snap(*update, 1, pool);
    if (!snap) return fail("synth_snap", snap.status());
    const Bytes snap_bytes = fc::write_snap_partition_proof(snap->partitions[0]);
    put("snap_vanilla_proof", "2KiB", snap_bytes);
    expect_ok("snap_vanilla_proof/2KiB", fc::read_snap_partition_proof(snap_bytes).status());
    expect_ok("snap_vanilla_proof/2KiB verifies",
              fc::verify_snap_partition(*update, snap->pub, 0, snap->partitions[0]));
  }

  // The binary formats parse back (the writers' round trips are the fuzz targets' checks).
  expect_ok("bellperson_params", cuzk::parse_params(*params).status());
  expect_ok("zkey", cuzk::parse_zkey(*zkey).status());
  expect_ok("snarkjs_wtns", cuzk::parse_snarkjs_wtns(tiny_wtns(z)).status());
  cuzk::engine::JobRequest back;
  expect_ok("journal_blob",
            cuzk::engine::decode_request_blob(cuzk::engine::encode_request_blob(jr), back));
  return g_ok ? 0 : 1;
}
