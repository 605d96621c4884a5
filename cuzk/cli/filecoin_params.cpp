// `cuzk filecoin params`: which Groth16 parameter files a directory holds, and with --check
// whether each matches parameters.json (docs/filecoin/parameters.md).
//
//   cuzk filecoin params [--dir DIR] [--manifest parameters.json] [--check]
//                        [--registered-proof P [--update]]
//
// Prints JSON: the names expected (every published circuit and every name in the manifest, or
// only P's), found, missing, other entries of the directory, and per file its size, manifest entry
// and digest result. Exit 0; 1 when a digest mismatches or a file cannot be read (--check), or
// when P's files are not both there; 2 for bad usage, an unknown proof name, an unreadable
// manifest or directory.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cuzk/cli/filecoin_cli.hpp"
#include "cuzk/filecoin/parameter_files.hpp"
#include "cuzk/filecoin/parameter_manifest.hpp"

namespace cuzk::cli {
namespace {

using json = nlohmann::ordered_json;  // keys in the order written
namespace fc = cuzk::filecoin;

struct ParamsOptions {
  std::string dir;
  std::string manifest;
  std::string registered_proof;
  bool update = false;
  bool check = false;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "cuzk filecoin params: %s\n", message.c_str());
  return 2;
}

json file_json(const fc::ParameterFileStatus& f, const fc::ParameterSet* set) {
  json j = {{"name", f.name}};
  if (set) {
    j["circuit"] = fc::circuit_name(set->circuit);
    j["sector_size"] = fc::sector_bytes(set->size);
  }
  j["found"] = f.found;
  if (f.found) j["size"] = f.size;
  if (f.manifest)
    j["manifest"] = {{"cid", f.manifest->cid},
                     {"digest", f.manifest->digest},
                     {"sector_size", f.manifest->sector_size}};
  if (f.check != fc::DigestCheck::not_checked) j["check"] = fc::digest_check_name(f.check);
  if (!f.digest.digest.empty()) {
    j["digest"] = f.digest.digest;
    j["seconds"] = f.digest.seconds;
    j["bytes_per_second"] = f.digest.bytes_per_second();
  }
  if (!f.error.empty()) j["error"] = f.error;
  return j;
}

int run_params(const ParamsOptions& o) {
  if (o.check && o.manifest.empty()) return fail("--check needs --manifest (parameters.json)");
  if (o.update && o.registered_proof.empty()) return fail("--update needs --registered-proof");
  const std::filesystem::path dir =
      o.dir.empty() ? fc::default_parameter_cache() : std::filesystem::path(o.dir);

  // The names expected: every published circuit, or the one of the registered proof.
  std::vector<fc::ParameterSet> sets;
  if (!o.registered_proof.empty()) {
    auto set = fc::parameters_of_proof(o.registered_proof, o.update);
    if (!set) return fail(set.status().message());
    sets.push_back(std::move(*set));
  } else {
    sets = fc::published_parameter_sets();
  }
  std::map<std::string, const fc::ParameterSet*> set_of;
  fc::DirectoryCheckOptions opt;
  for (const fc::ParameterSet& s : sets)
    for (std::string name : {s.params_file(), s.vk_file()}) {
      set_of[name] = &s;
      opt.names.push_back(std::move(name));
    }

  fc::Manifest manifest;
  if (!o.manifest.empty()) {
    auto m = fc::load_manifest(o.manifest);
    if (!m) return fail(m.status().to_string());
    manifest = std::move(*m);
    opt.manifest = &manifest;
    // Without a proof, the directory is checked against the whole manifest too.
    if (o.registered_proof.empty())
      for (const auto& [name, entry] : manifest)
        if (!set_of.count(name)) opt.names.push_back(name);
  }
  opt.verify_digests = o.check;
  if (o.check)
    opt.on_file = [](const fc::ParameterFileStatus& f) {
      if (!f.digest.digest.empty())
        std::fprintf(stderr, "%s: %s (%.0f MB/s)\n", f.name.c_str(),
                     std::string(fc::digest_check_name(f.check)).c_str(),
                     f.digest.bytes_per_second() / 1e6);
    };
  auto r = fc::check_parameter_directory(dir, opt);
  if (!r) return fail(r.status().to_string());

  json out = {{"dir", dir.string()}};
  out["manifest"] = o.manifest.empty() ? json(nullptr) : json(o.manifest);
  if (!o.registered_proof.empty()) {
    out["registered_proof"] = o.registered_proof;
    out["circuit"] = fc::circuit_name(sets[0].circuit);
    out["sector_size"] = fc::sector_bytes(sets[0].size);
  }
  json expected = json::array(), found = json::array(), missing = json::array(),
       files = json::array();
  bool proof_files_ok = true;
  for (const fc::ParameterFileStatus& f : r->files) {
    expected.push_back(f.name);
    (f.found ? found : missing).push_back(f.name);
    auto set = set_of.find(f.name);
    files.push_back(file_json(f, set == set_of.end() ? nullptr : set->second));
    if (!f.found || f.check == fc::DigestCheck::unreadable) proof_files_ok = false;
  }
  out["expected"] = expected;
  out["found"] = found;
  out["missing"] = missing;
  out["unknown"] = r->unknown;
  out["files"] = files;
  json summary = {{"expected", r->files.size()}, {"found", r->found()}, {"missing", r->missing()}};
  if (o.check)
    for (fc::DigestCheck c : {fc::DigestCheck::ok, fc::DigestCheck::mismatch,
                              fc::DigestCheck::not_in_manifest, fc::DigestCheck::unreadable})
      summary[std::string(fc::digest_check_name(c))] = r->count(c);
  out["summary"] = summary;
  const bool ok = (!o.check || r->digests_ok()) && (o.registered_proof.empty() || proof_files_ok);
  out["ok"] = ok;
  std::printf("%s\n", out.dump(2).c_str());
  if (!ok) {
    for (const fc::ParameterFileStatus& f : r->files) {
      if (f.check == fc::DigestCheck::mismatch)
        std::fprintf(stderr, "cuzk filecoin params: %s: digest %s, manifest %s\n", f.name.c_str(),
                     f.digest.digest.c_str(), f.manifest->digest.c_str());
      else if (f.check == fc::DigestCheck::unreadable)
        std::fprintf(stderr, "cuzk filecoin params: %s\n", f.error.c_str());
      else if (!o.registered_proof.empty() && !f.found)
        std::fprintf(stderr, "cuzk filecoin params: %s is missing from %s\n", f.name.c_str(),
                     dir.c_str());
    }
  }
  return ok ? 0 : 1;
}

}  // namespace

FilecoinRun add_filecoin_params(CLI::App& sub) {
  auto o = std::make_shared<ParamsOptions>();
  sub.add_option("--dir", o->dir,
                 "Parameter directory (default: $FIL_PROOFS_PARAMETER_CACHE or "
                 "/var/tmp/filecoin-proof-parameters)");
  sub.add_option("--manifest", o->manifest, "parameters.json (name -> cid, digest, sector_size)");
  sub.add_flag("--check", o->check,
               "Read every file found and compare its BLAKE2b digest with the manifest");
  sub.add_option("--registered-proof", o->registered_proof,
                 "Only this proof's files (e.g. StackedDrg32GiBV1_1, StackedDrgWindow64GiBV1_2); "
                 "exit 1 unless both are there");
  sub.add_flag("--update", o->update,
               "--registered-proof names a RegisteredUpdateProof (SnapDeals; StackedDrg2KiBV1)");
  return [o] { return run_params(*o); };
}

}  // namespace cuzk::cli
