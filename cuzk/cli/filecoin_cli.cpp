#include "cuzk/cli/filecoin_cli.hpp"

#include <cstdio>
#include <exception>

namespace cuzk::cli {

FilecoinRun add_filecoin_params(CLI::App& sub);          // filecoin_params.cpp
FilecoinRun add_filecoin_verify_vanilla(CLI::App& sub);  // filecoin_verify_vanilla.cpp

// Each command's file defines its add function; list it here once.
FilecoinRun add_filecoin_parent_cache(CLI::App& sub);  // filecoin_parent_cache.cpp
FilecoinRun add_filecoin_seal(CLI::App& sub);          // filecoin_seal.cpp
FilecoinRun add_filecoin_unseal(CLI::App& sub);        // filecoin_unseal.cpp
FilecoinRun add_filecoin_commit1(CLI::App& sub);       // filecoin_commit1.cpp
FilecoinRun add_filecoin_post_vanilla(CLI::App& sub);  // filecoin_post_vanilla.cpp
FilecoinRun add_filecoin_synth_inputs(CLI::App& sub);  // filecoin_synth_inputs.cpp
FilecoinRun add_filecoin_update(CLI::App& sub);        // filecoin_update.cpp
FilecoinRun add_filecoin_snap_vanilla(CLI::App& sub);  // filecoin_snap_vanilla.cpp
FilecoinRun add_filecoin_circuit_info(CLI::App& sub);  // filecoin_groth16_info.cpp
FilecoinRun add_filecoin_setup(CLI::App& sub);         // filecoin_groth16_setup.cpp
FilecoinRun add_filecoin_prove(CLI::App& sub);         // filecoin_groth16_prove.cpp
FilecoinRun add_filecoin_verify(CLI::App& sub);        // filecoin_groth16_verify.cpp

const std::vector<FilecoinCommand>& filecoin_commands() {
  static const std::vector<FilecoinCommand> table = {
      {"parent-cache", "SDR parent cache of a seal proof: write it or stream its SHA-256",
       add_filecoin_parent_cache},
      {"params", "Parameter files: expected names, found/missing, digest check",
       add_filecoin_params},
      {"verify-vanilla", "Verify a vanilla proof (PoSt) against its public data",
       add_filecoin_verify_vanilla},
      {"seal", "Seal a test-size sector (SDR) into a sector directory", add_filecoin_seal},
      {"unseal", "Recover a sealed sector's data and check its comm_d", add_filecoin_unseal},
      {"commit1", "C1 output (PoRep vanilla proofs, JSON) of a sector directory for a seed",
       add_filecoin_commit1},
      {"post-vanilla", "PoSt vanilla proofs (winning/window) of sealed sector directories",
       add_filecoin_post_vanilla},
      {"synth-inputs", "Valid large-sector inputs (PoSt vanilla, C1) without sealing",
       add_filecoin_synth_inputs},
      {"update", "SnapDeals: encode new data into a sealed sector (or --decode it back)",
       add_filecoin_update},
      {"snap-vanilla", "SnapDeals vanilla proofs (bincode PartitionProofs) of an updated sector",
       add_filecoin_snap_vanilla},
      {"circuit-info", "Constraints, public inputs and aux of a Filecoin circuit (one partition)",
       add_filecoin_circuit_info},
      {"setup", "Groth16 .params/.vk/.meta of a Filecoin circuit under their v28 names",
       add_filecoin_setup},
      {"prove", "Groth16 proof of every partition (bellperson bytes, in partition order)",
       add_filecoin_prove},
      {"verify", "Verify a Groth16 proof against public data: exit 0 valid, 1 invalid, 2 bad input",
       add_filecoin_verify},
  };
  return table;
}

void add_filecoin_commands(CLI::App& app, FilecoinCli& fc) {
  fc.filecoin = app.add_subcommand("filecoin",
                                   "Filecoin data side: SDR parent cache, sealing of "
                                   "test sectors, vanilla proofs, parameter files");
  fc.filecoin->require_subcommand(1);
  for (const FilecoinCommand& c : filecoin_commands()) {
    CLI::App* sub = fc.filecoin->add_subcommand(c.name, c.help);
    fc.commands.emplace_back(sub, c.add(*sub));
  }
}

bool run_filecoin_commands(const FilecoinCli& fc, int* rc) {
  if (!fc.filecoin || !fc.filecoin->parsed()) return false;
  for (const auto& [sub, run] : fc.commands) {
    if (!sub->parsed()) continue;
    try {
      *rc = run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuzk filecoin %s: %s\n", sub->get_name().c_str(), e.what());
      *rc = 2;
    }
    return true;
  }
  *rc = 2;
  return true;
}

}  // namespace cuzk::cli
