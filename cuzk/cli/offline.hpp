// The offline subcommands `cuzk setup`, `cuzk prove`, `cuzk verify` for circom/snarkjs users and
// bellperson-format keys, as a CLI11 fragment (add before parsing, run after). Exit codes:
// 0 success (verify: valid), 1 verify: invalid proof, 2 usage or input error (message on stderr).
//
//   cuzk setup CIRCUIT.r1cs --out KEY.zkey [--vk verification_key.json]          (snarkjs layout)
//   cuzk setup CIRCUIT.r1cs --out KEY.params --format params [--vk KEY.vk]      (bellperson layout)
//   cuzk prove --zkey KEY.zkey --wtns W.wtns --proof proof.json --public public.json
//   cuzk prove --params KEY.params --r1cs C.r1cs --wtns W.wtns --proof proof.bin [--public public.json]
//   cuzk verify --vk verification_key.json --proof proof.json --public public.json
//   cuzk verify --vk KEY.vk --proof proof.bin --public public.json
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace cuzk {

struct OfflineOptions {
  // setup
  std::string r1cs_in, key_out, vk_out, format = "zkey";
  std::uint64_t seed = 0;  ///< 0: OS randomness; otherwise a deterministic trapdoor (tests only)
  // prove
  std::string zkey, params, r1cs, wtns, proof_out, public_out, backend = "cpu";
  bool timings = false;
  // verify
  std::string vk, proof_in, public_in;
  // shared
  unsigned threads = 0;
  bool no_subgroup_check = false;
  /// prove --zkey: do not use or write the decoded-key image beside the zkey (KEY.zkey.cuzkimg).
  bool no_key_image = false;
};

struct OfflineCommands {
  OfflineOptions opt;
  CLI::App* setup = nullptr;
  CLI::App* prove = nullptr;
  CLI::App* verify = nullptr;
};

/// Adds `setup`, `prove` and `verify` to |app|.
void add_offline_commands(CLI::App& app, OfflineCommands& oc);

/// Runs the parsed one: true with its exit code in |rc|, false when none was given.
bool run_offline_commands(OfflineCommands& oc, int* rc);

int run_setup(const OfflineOptions& o);
int run_prove(const OfflineOptions& o);
int run_verify(const OfflineOptions& o);

}  // namespace cuzk
