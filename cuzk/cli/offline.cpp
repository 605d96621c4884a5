#include "cuzk/cli/offline.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/key_image.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/snarkjs_json.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/circom.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

namespace {

int fail(const char* cmd, const Status& s) {
  std::fprintf(stderr, "cuzk %s: %s\n", cmd, s.to_string().c_str());
  return 2;
}

Status write_text(const std::string& path, const std::string& text) {
  return write_whole_file(
      path, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()),
                                          text.size()));
}

Result<std::string> read_text(const std::string& path) {
  auto b = read_whole_file(path);
  if (!b.ok()) return b.status();
  return std::string(b->begin(), b->end());
}

bool looks_like_json(std::string_view s) {
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{' || c == '[';
  }
  return false;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// User + system CPU seconds of the whole process so far (all threads).
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace

void add_offline_commands(CLI::App& app, OfflineCommands& oc) {
  OfflineOptions& o = oc.opt;
  oc.setup = app.add_subcommand(
      "setup", "Groth16 key generation from a circom .r1cs (toxic waste from the OS RNG)");
  oc.setup->add_option("circuit", o.r1cs_in, "circom .r1cs (bls12381)")->required();
  oc.setup->add_option("--out", o.key_out, "Proving key to write (.zkey or .params)")->required();
  oc.setup
      ->add_option("--format", o.format,
                   "zkey (snarkjs) or params (bellperson); default from --out's extension")
      ->check(CLI::IsMember({"zkey", "params"}));
  oc.setup->add_option("--vk", o.vk_out,
                       "Also write the verifying key (verification_key.json, or .vk for params)");
  oc.setup->add_option("--seed", o.seed,
                       "Deterministic trapdoor from this seed (TESTS ONLY: the key is insecure)");
  oc.setup->add_option("--threads", o.threads, "Threads (0: all cores)");

  oc.prove = app.add_subcommand("prove", "Prove with a snarkjs .zkey or a bellperson .params key");
  auto* zk = oc.prove->add_option("--zkey", o.zkey, "snarkjs proving key");
  auto* pa = oc.prove->add_option("--params", o.params, "bellperson proving key (needs --r1cs)");
  zk->excludes(pa);
  oc.prove->add_option("--r1cs", o.r1cs, "circom .r1cs of the circuit (required with --params)");
  oc.prove->add_option("--wtns", o.wtns, "snarkjs witness (.wtns)")->required();
  oc.prove
      ->add_option("--proof", o.proof_out,
                   "Proof to write: proof.json (zkey) or 192-byte proof (params)")
      ->required();
  oc.prove->add_option("--public", o.public_out, "public.json to write");
  oc.prove->add_option("--backend", o.backend, "cpu or cuda:N")->capture_default_str();
  oc.prove->add_option("--threads", o.threads, "Threads (0: all cores)");
  oc.prove->add_flag(
      "--no-subgroup-check", o.no_subgroup_check,
      "Load key points with range and curve checks only (faster; snarkjs checks neither)");
  oc.prove->add_flag(
      "--no-key-image", o.no_key_image,
      "With --zkey: neither use nor write the decoded-key image KEY.zkey.cuzkimg (by default it is "
      "written on the first prove and mapped instead of decoding the points later; a stale or "
      "damaged image is rebuilt)");
  oc.prove->add_flag("--timings", o.timings, "Print per-stage timings to stderr");

  oc.verify = app.add_subcommand("verify",
                                 "Verify a proof: exit 0 valid, 1 invalid, 2 usage or input error");
  oc.verify->add_option("--vk", o.vk, "verification_key.json (snarkjs) or .vk (bellperson)")
      ->required();
  oc.verify->add_option("--proof", o.proof_in, "proof.json or 192·N proof bytes")->required();
  oc.verify
      ->add_option("--public", o.public_in,
                   "public.json (for N bellperson proofs: an array of N arrays)")
      ->required();
}

bool run_offline_commands(OfflineCommands& oc, int* rc) {
  if (oc.setup != nullptr && oc.setup->parsed()) return *rc = run_setup(oc.opt), true;
  if (oc.prove != nullptr && oc.prove->parsed()) return *rc = run_prove(oc.opt), true;
  if (oc.verify != nullptr && oc.verify->parsed()) return *rc = run_verify(oc.opt), true;
  return false;
}

int run_setup(const OfflineOptions& o) {
  const bool params = o.format == "params" || ends_with(o.key_out, ".params");
  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto r1cs = read_circom_r1cs(o.r1cs_in);
  if (!r1cs.ok()) return fail("setup", r1cs.status());
  OsRng os;
  SeededRng seeded(o.seed);
  Rng& rng = o.seed != 0 ? static_cast<Rng&>(seeded) : static_cast<Rng&>(os);
  auto pk = setup(r1cs->matrices, rng,
                  {.layout = params ? KeyLayout::bellperson : KeyLayout::snarkjs, .pool = &pool});
  if (!pk.ok()) return fail("setup", pk.status());
  auto img = params ? write_params(*pk, &pool) : write_zkey(*pk, r1cs->matrices, &pool);
  if (!img.ok()) return fail("setup", img.status());
  if (Status s = write_whole_file(o.key_out, *img); !s.ok()) return fail("setup", s);
  if (!o.vk_out.empty()) {
    Status s = params ? write_whole_file(o.vk_out, write_vk(pk->vk))
                      : write_text(o.vk_out, vk_to_snarkjs_json(pk->vk));
    if (!s.ok()) return fail("setup", s);
  }
  std::fprintf(stderr,
               "cuzk setup: %u constraints, %zu public inputs, domain 2^%d, %s key %s in %.2f s\n",
               r1cs->n_constraints, pk->vk.num_public(), std::countr_zero(pk->domain_size),
               params ? "bellperson" : "snarkjs", o.key_out.c_str(), seconds_since(t0));
  return 0;
}

int run_prove(const OfflineOptions& o) {
  if (o.zkey.empty() == o.params.empty())
    return fail("prove", Status(Errc::invalid_argument, "give exactly one of --zkey and --params"));
  if (!o.params.empty() && o.r1cs.empty())
    return fail("prove", Status(Errc::invalid_argument, "--params needs --r1cs"));
  ThreadPool pool(o.threads);
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  ProvingKey pk;
  R1csMatrices m;
  ZkeyReadTimings ztm;
  std::string image_note;
  if (!o.zkey.empty()) {
    // The key image beside the zkey (formats/key_image.hpp): its source tag binds it to this
    // file (device, inode, size, mtime) and to the check mode the points were decoded with.
    const std::string image_path = o.zkey + ".cuzkimg";
    std::uint64_t tag = 0;
    if (!o.no_key_image)
      if (auto t = key_image_file_tag(o.zkey, o.no_subgroup_check ? 1 : 2); t.ok()) tag = *t;
    std::shared_ptr<const KeyImage> image;
    if (tag != 0) {
      auto img = KeyImage::open(image_path, tag, &pool);
      if (img.ok() && (*img)->has_matrices())
        image = *img;
      else if (img.ok())
        image_note = "rebuilt (no matrices)";
      else
        image_note = img.status().code() == Errc::not_found
                         ? "written"
                         : "rebuilt (" + img.status().to_string() + ")";
    }
    // With an image only the zkey's header is read: the points and section 4's rows come from it.
    auto zk = read_zkey(o.zkey, {.check_subgroup = !o.no_subgroup_check,
                                 .pool = &pool,
                                 .timings = &ztm,
                                 .points = image == nullptr,
                                 .coefficients = image == nullptr});
    if (!zk.ok()) return fail("prove", zk.status());
    if (image != nullptr) {
      ProvingKey ik = image->key();
      const auto tc = std::chrono::steady_clock::now();
      auto im = image->matrices();
      ztm.coefficients = seconds_since(tc);
      if (im.ok() && ik.layout == KeyLayout::snarkjs && ik.domain_size == zk->pk.domain_size &&
          ik.a.size() == zk->n_vars && ik.vk.ic.size() == zk->n_public + 1 &&
          im->num_inputs == zk->n_public + 1 && im->num_aux == zk->n_vars - zk->n_public - 1 &&
          im->num_constraints <= ik.domain_size) {
        pk = std::move(ik);
        m = std::move(*im);
        image_note = "used";
      } else {  // sizes disagree with the zkey, or damaged rows: decode it and rebuild
        image = nullptr;
        image_note = im.ok() ? "rebuilt (sizes differ from the zkey)"
                             : "rebuilt (" + im.status().to_string() + ")";
        zk = read_zkey(o.zkey,
                       {.check_subgroup = !o.no_subgroup_check, .pool = &pool, .timings = &ztm});
        if (!zk.ok()) return fail("prove", zk.status());
      }
    }
    if (image == nullptr) {
      pk = std::move(zk->pk);
      m = std::move(zk->matrices);
      if (tag != 0) {
        const auto tw = std::chrono::steady_clock::now();
        if (Status s = write_key_image(image_path, pk, tag, &pool, &m); !s.ok())
          image_note = "not written (" + s.to_string() + ")";
        else
          image_note += " in " + std::to_string(seconds_since(tw)).substr(0, 5) + " s";
      }
    }
  } else {
    auto k = read_params(o.params, {.checked = !o.no_subgroup_check, .pool = &pool});
    if (!k.ok()) return fail("prove", k.status());
    pk = std::move(*k);
    auto r1cs = read_circom_r1cs(o.r1cs);
    if (!r1cs.ok()) return fail("prove", r1cs.status());
    m = std::move(r1cs->matrices);
  }
  const double t_key = seconds_since(t0), cpu_key = process_cpu_seconds() - cpu0;
  auto w = read_snarkjs_wtns(o.wtns);
  if (!w.ok()) return fail("prove", w.status());
  if (w->size() != m.num_columns())
    return fail("prove",
                Status(Errc::size_mismatch, "the witness has " + std::to_string(w->size()) +
                                                " values, the key's circuit has " +
                                                std::to_string(m.num_columns()) + " signals"));
  // A wrong witness must not give a proof. With the circuit's C rows (an .r1cs: the --params
  // path), a = A·z, b = B·z, c = C·z are evaluated first (the prover takes them from here) and
  // every constraint a_i·b_i = c_i is checked (n multiplications); the first failing row is
  // named. A snarkjs .zkey stores no C (its prover takes c = a∘b), so there the proof is verified
  // against the key's own verifying key before it is written (one multi-pairing, a few ms).
  const bool have_c = m.c.num_rows() == m.num_constraints && !m.c.col.empty();
  const double t_load = seconds_since(t0);
  auto backend = make_backend(o.backend, pool);
  if (!backend.ok()) return fail("prove", backend.status());
  ProveTimings tm;
  Result<Proof> proof = Status(Errc::invalid_argument, "not proved");
  if (have_c) {
    const auto t_abc = std::chrono::steady_clock::now();
    auto abc = pce_evaluate(pool, m, *w);
    if (!abc.ok()) return fail("prove", abc.status());
    const double abc_seconds = seconds_since(t_abc);
    if (std::size_t bad = 0; !abc_satisfied(*abc, &bad)) {
      std::fprintf(stderr,
                   "cuzk prove: the witness does not satisfy constraint %zu of %llu (A·z × B·z ≠ "
                   "C·z in that row); no proof written\n",
                   bad, static_cast<unsigned long long>(m.num_constraints));
      return 1;
    }
    auto key = ResidentKey::load(**backend, pk);
    if (!key.ok()) return fail("prove", key.status());
    proof = prove_with_abc(pool, **key, m, std::move(*abc), *w, {.timings = &tm});
    tm.abc += abc_seconds;  // evaluated (and checked) above, before the prover
  } else {
    proof = prove(**backend, pool, pk, m, *w, {.timings = &tm});
  }
  if (!proof.ok()) return fail("prove", proof.status());
  if (!have_c) {
    const auto pvk = prepare_verifying_key(pk.vk);
    auto ok = verify(pvk, std::span<const Fr>(w->data() + 1, m.num_inputs - 1), *proof);
    if (!ok.ok()) return fail("prove", ok.status());
    if (!*ok) {
      std::fprintf(stderr,
                   "cuzk prove: the proof does not verify against the key's verifying key: the "
                   "witness does not satisfy the circuit (the .zkey holds no C rows to name the "
                   "constraint); no proof written\n");
      return 1;
    }
  }
  Status s;
  if (!o.zkey.empty()) {
    s = write_text(o.proof_out, proof_to_snarkjs_json(*proof));
  } else {
    const Proof one[1] = {*proof};
    s = write_whole_file(o.proof_out, write_proofs(one));
  }
  if (!s.ok()) return fail("prove", s);
  if (!o.public_out.empty()) {
    s = write_text(o.public_out,
                   public_to_snarkjs_json(std::span<const Fr>(w->data() + 1, m.num_inputs - 1)));
    if (!s.ok()) return fail("prove", s);
  }
  if (o.timings && !o.zkey.empty())
    std::fprintf(stderr,
                 "cuzk prove: key %.3f s, CPU %.3f s (header %.3f, points %.3f, coefficients %.3f; "
                 "key image %s), witness %.3f s\n",
                 t_key, cpu_key, ztm.header, ztm.points, ztm.coefficients,
                 image_note.empty() ? "off" : image_note.c_str(), t_load - t_key);
  if (o.timings)
    std::fprintf(stderr,
                 "cuzk prove: load %.3f s, abc %.3f s, H %.3f s, MSM A %.3f s, B1 %.3f s, B2 %.3f "
                 "s, L %.3f s, H %.3f s, "
                 "prove %.3f s, total %.3f s\n",
                 t_load, tm.abc, tm.h, tm.msm_a, tm.msm_b1, tm.msm_b2, tm.msm_l, tm.msm_h, tm.total,
                 seconds_since(t0));
  return 0;
}

int run_verify(const OfflineOptions& o) {
  auto vk_bytes = read_whole_file(o.vk);
  if (!vk_bytes.ok()) return fail("verify", vk_bytes.status());
  const std::string_view vk_text(reinterpret_cast<const char*>(vk_bytes->data()), vk_bytes->size());
  Result<VerifyingKey> vk =
      looks_like_json(vk_text) ? vk_from_snarkjs_json(vk_text) : parse_vk(*vk_bytes);
  if (!vk.ok()) return fail("verify", vk.status().with_context(o.vk));
  auto proof_bytes = read_whole_file(o.proof_in);
  if (!proof_bytes.ok()) return fail("verify", proof_bytes.status());
  const std::string_view proof_text(reinterpret_cast<const char*>(proof_bytes->data()),
                                    proof_bytes->size());
  std::vector<Proof> proofs;
  if (looks_like_json(proof_text)) {
    auto p = proof_from_snarkjs_json(proof_text);
    if (!p.ok()) return fail("verify", p.status().with_context(o.proof_in));
    proofs.push_back(*p);
  } else {
    auto p = parse_proofs(*proof_bytes);
    if (!p.ok()) return fail("verify", p.status().with_context(o.proof_in));
    proofs = std::move(*p);
  }
  auto pub_text = read_text(o.public_in);
  if (!pub_text.ok()) return fail("verify", pub_text.status());
  std::vector<std::vector<Fr>> inputs;
  const auto pj = nlohmann::json::parse(*pub_text, nullptr, false);
  if (pj.is_array() && !pj.empty() && pj[0].is_array()) {
    for (std::size_t i = 0; i < pj.size(); ++i) {
      auto v = public_from_snarkjs_json(pj[i].dump());
      if (!v.ok())
        return fail("verify", v.status().with_context(o.public_in + " entry " + std::to_string(i)));
      inputs.push_back(std::move(*v));
    }
  } else {
    auto v = public_from_snarkjs_json(*pub_text);
    if (!v.ok()) return fail("verify", v.status().with_context(o.public_in));
    inputs.assign(proofs.size() == 1 ? 1 : 0, std::move(*v));
  }
  if (inputs.size() != proofs.size())
    return fail("verify", Status(Errc::size_mismatch,
                                 std::to_string(proofs.size()) + " proofs need " +
                                     std::to_string(proofs.size()) + " public input arrays, " +
                                     o.public_in + " has " + std::to_string(inputs.size())));
  const auto pvk = prepare_verifying_key(*vk);
  if (proofs.size() >= 2) {
    // Several proofs (bellperson partitions): one batched check (random linear combination, one
    // multi-pairing of 2 + N pairs instead of N of 3); only a rejected batch is re-checked proof by
    // proof, to name the invalid ones.
    std::vector<ProofWithInputs> batch;
    for (std::size_t i = 0; i < proofs.size(); ++i) batch.push_back({&proofs[i], inputs[i]});
    OsRng rng;
    auto ok = verify_batch(pvk, batch, rng);
    if (!ok.ok()) return fail("verify", ok.status());
    if (*ok) {
      std::printf("OK (%zu proofs, batch-verified)\n", proofs.size());
      return 0;
    }
  }
  bool all = true;
  for (std::size_t i = 0; i < proofs.size(); ++i) {
    auto ok = verify(pvk, inputs[i], proofs[i]);
    if (!ok.ok()) return fail("verify", ok.status());
    if (!*ok) {
      all = false;
      std::printf("proof %zu: INVALID\n", i);
    }
  }
  std::printf("%s\n", all ? "OK" : "INVALID");
  return all ? 0 : 1;
}

}  // namespace cuzk
