// EmptySectorUpdate, one partition (fast cases; update_circuit_slow_test.cpp has the rest):
//   * counts via circuit_info against storage-proofs-update tests/circuit.rs: 1 KiB 1,248,389,
//     2 KiB 1,705,039; public inputs 4 (+ ONE);
//   * a real 2 KiB sector (venus t0106 sector 0, sealed by lotus-seed; CUZK_FILECOIN_DATA):
//     updated with new data and proven by the data side (snap_encode, update_dir, snap_prove,
//     the bincode round trip), its vanilla proof accepted by snap_verify, then the circuit is
//     satisfied (TestConstraintSystem), its inputs equal update_public_inputs (public data
//     alone), and the witness-only and recording systems give the same assignment;
//   * tampering — a leaf, a path element of each tree, each public input, an apex leaf, comm_c —
//     leaves it unsatisfied at the named constraint;
//   * bad shapes and values refused with named errors before anything is allocated.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "cuzk/circuits/filecoin/circuit_info.hpp"
#include "cuzk/circuits/filecoin/update_circuit.hpp"
#include "cuzk/circuits/filecoin/update_test_util.hpp"
#include "cuzk/filecoin/aux_files.hpp"
#include "cuzk/filecoin/sector_dir.hpp"
#include "cuzk/filecoin/snap_verify.hpp"
#include "cuzk/filecoin/update_dir.hpp"
#include "tests/support/seed.hpp"

namespace cuzk::circuits::filecoin {
namespace {

namespace fs = std::filesystem;
namespace fc = cuzk::filecoin;
using testing::first_failure;
using testing::Update;

CircuitInfo blank_info(std::uint64_t nodes) {
  const fc::SnapParams p = fc::snap_params(nodes).value();
  UpdateCircuit blank(UpdatePublic{.nodes = nodes, .k = 0, .h = p.h_default});
  return circuit_info(blank).value();
}

TEST(UpdateCircuit, UpstreamTestCountsSmall) {
  // storage-proofs-update tests/circuit.rs test_empty_sector_update_circuit_{1kib,2kib}.
  const CircuitInfo kib1 = blank_info(1u << 5);
  EXPECT_EQ(kib1.constraints, 1'248'389u);
  EXPECT_EQ(kib1.public_inputs, 4u);
  const CircuitInfo kib2 = blank_info(1u << 6);
  EXPECT_EQ(kib2.constraints, 1'705'039u);  // also FORMATS.md §4.2
  EXPECT_EQ(kib2.public_inputs, 4u);
}

// The venus 2 KiB sector 0 (README of the data folder), updated with seeded random data.
struct VenusUpdate {
  Update u;
  fc::UpdateInfo info;
};

const VenusUpdate* venus_update() {
  static const std::optional<VenusUpdate> v = []() -> std::optional<VenusUpdate> {
    const char* dir = std::getenv("CUZK_FILECOIN_DATA");
    if (!dir) return std::nullopt;
    const fs::path venus = fs::path(dir) / "venus-2kib";
    const auto replica = fc::read_node_file(venus / "sealed" / "s-t0106-0", 64);
    const auto p_aux_bytes = fc::read_small_file(venus / "cache" / "s-t0106-0" / "p_aux");
    if (!replica.ok() || !p_aux_bytes.ok()) {
      ADD_FAILURE() << "venus sector 0 unreadable";
      return std::nullopt;
    }
    const fc::PersistentAux p_aux = fc::parse_p_aux(*p_aux_bytes).value();
    ThreadPool pool(2);
    // The sector key's tree_r_last, rebuilt from the replica, has the recorded root.
    std::vector<Fr> key;
    for (const fc::Node& n : *replica) key.push_back(fc::fr_from_node(n).value());
    const auto tree_r_old =
        fc::PoseidonTree::build(key, fc::tree_shape(SectorSize::s2KiB), pool).value();
    EXPECT_EQ(fc::node_from_fr(tree_r_old.root()), p_aux.comm_r_last);
    std::mt19937_64 rng(20261203);  // the new data
    std::vector<fc::Node> data;
    for (int i = 0; i < 64; ++i) data.push_back(testing::random_fr32(rng));
    const fc::SnapSectorKey sector_key{SectorSize::s2KiB, p_aux.comm_c, p_aux.comm_r_last,
                                       *replica};
    const fc::SnapEncoded enc = fc::snap_encode(sector_key, data, 1, pool).value();
    // The updated sector's directory and its update.json, read back for the public data.
    const fs::path out = fs::path(::testing::TempDir()) / "cuzk_update_circuit_venus";
    fs::remove_all(out);
    fc::UpdateInfo info;
    info.registered_proof = "StackedDrg2KiBV1";
    info.seal_proof = "StackedDrg2KiBV1";
    info.size = SectorSize::s2KiB;
    info.h = enc.h;
    info.comm_c = p_aux.comm_c;
    info.comm_r_last_old = p_aux.comm_r_last;
    info.comm_r_old = enc.comm_r_old;
    info.comm_d_new = enc.comm_d_new;
    info.comm_r_last_new = enc.comm_r_last_new;
    info.comm_r_new = enc.comm_r_new;
    info.sector_key_dir = venus.string();
    EXPECT_TRUE(fc::write_update_dir(out, info, enc).ok());
    VenusUpdate v;
    v.info = fc::read_update_info(out).value();
    fs::remove_all(out);
    const fc::SnapTrees trees{&tree_r_old, enc.tree_d, &enc.tree_r, v.info.comm_c};
    v.u = testing::prove_all(fc::snap_params(SectorSize::s2KiB), v.info.h, trees, v.info.comm_r_old,
                             v.info.comm_d_new);
    EXPECT_EQ(v.u.comm_r_new, v.info.comm_r_new);
    // As the data side hands proofs over: bincode, parsed back.
    for (auto& p : v.u.proofs)
      p = fc::read_snap_partition_proof(fc::write_snap_partition_proof(p)).value();
    return v;
  }();
  return v ? &*v : nullptr;
}

#define NEED_VENUS()                                                                           \
  const VenusUpdate* venus = venus_update();                                                   \
  if (!venus) GTEST_SKIP() << "CUZK_FILECOIN_DATA is unset: the venus 2 KiB sector is needed"; \
  const Update& u = venus->u

TEST(UpdateCircuitVenus2KiB, SatisfiedWithInputsFromPublicDataAlone) {
  NEED_VENUS();
  ASSERT_EQ(u.proofs.size(), 1u);
  // The data side's verifier accepts the vanilla proof.
  const fc::UpdateProof proof = fc::update_proof("StackedDrg2KiBV1").value();
  const fc::SnapPublic spub{u.comm_r_old, u.comm_d_new, u.comm_r_new, u.h};
  const Status vs = fc::verify_snap_partition(proof, spub, 0, u.proofs[0]);
  ASSERT_TRUE(vs.ok()) << vs.to_string();
  // The comm_r_old of the update is the sector's recorded comm_r (README: venus sector 0).
  EXPECT_EQ(fc::to_hex(u.comm_r_old),
            "6500105a4dd7673f82730262d8dcffe9edccd3cbceac7bd3c943696a09071257");

  const UpdatePublic pub = u.pub(0);
  UpdateCircuit circuit(pub, &u.proofs[0]);
  TestConstraintSystem cs;
  const Status s = circuit.synthesize(cs);
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_unsatisfied();
  EXPECT_EQ(cs.num_constraints(), 1'705'039u);
  const std::vector<Fr> inputs = update_public_inputs(pub).value();
  ASSERT_EQ(inputs.size(), 4u);
  ASSERT_EQ(cs.inputs().size(), 5u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(cs.inputs()[i + 1], inputs[i]) << "input " << i;
  // k = 0, h = 1 = hs[0]: h_select = 1, k_and_h_select = 0 | (1 << 0).
  EXPECT_EQ(inputs[0], Fr::from_u64(1));
}

TEST(UpdateCircuitVenus2KiB, WitnessOnlyAndRecordingAgree) {
  NEED_VENUS();
  const UpdatePublic pub = u.pub(0);
  UpdateCircuit circuit(pub, &u.proofs[0]);
  testing::expect_same_assignment(circuit, update_public_inputs(pub).value());
}

TEST(UpdateCircuitVenus2KiB, TamperingIsUnsatisfiedByName) {
  NEED_VENUS();
  const UpdatePublic pub = u.pub(0);
  const fc::SnapPartitionProof& good = u.proofs[0];
  const auto tampered = [&](auto change, UpdatePublic p) {
    fc::SnapPartitionProof t = good;
    change(t);
    return first_failure(p, t).value_or("(satisfied)");
  };
  const auto same = [](fc::SnapPartitionProof&) {};
  // A leaf of tree_r_old: its PoR fails.
  EXPECT_EQ(tampered([](auto& t) { t.challenge_proofs[3].proof_r_old.leaf[0] ^= 1; }, pub),
            "por tree_r_old (c_index=3)/calculated root == provided root");
  // A leaf of the new data: the new label changes, so tree_r_new's PoR fails first.
  EXPECT_EQ(tampered([](auto& t) { t.challenge_proofs[6].proof_d_new.leaf[1] ^= 1; }, pub),
            "por tree_r_new (c_index=6)/calculated root == provided root");
  // Path elements of each tree.
  EXPECT_EQ(
      tampered([](auto& t) { t.challenge_proofs[0].proof_r_old.base_path[1].hashes[4][2] ^= 1; },
               pub),
      "por tree_r_old (c_index=0)/calculated root == provided root");
  EXPECT_EQ(
      tampered([](auto& t) { t.challenge_proofs[9].proof_r_new.base_path[0].hashes[0][0] ^= 1; },
               pub),
      "por tree_r_new (c_index=9)/calculated root == provided root");
  EXPECT_EQ(
      tampered([](auto& t) { t.challenge_proofs[5].proof_d_new.base_path[2].hashes[0][7] ^= 1; },
               pub),
      "por to_apex_leaf (c_index=5)/calculated root == provided root");
  // An apex leaf: the apex tree no longer hashes to comm_d_new.
  EXPECT_EQ(tampered([](auto& t) { t.apex_leafs[2][3] ^= 1; }, pub),
            "apex_gadget/partition-tree por/calculated root == provided root");
  // comm_c: both comm_r checks fail, the old one first.
  EXPECT_EQ(tampered([](auto& t) { t.comm_c[0] ^= 1; }, pub),
            "enforce comm_r_old_calc == comm_r_old");
  // Each public input.
  UpdatePublic p = pub;
  p.comm_r_old += Fr::one();
  EXPECT_EQ(tampered(same, p), "enforce comm_r_old_calc == comm_r_old");
  p = pub;
  p.comm_r_new += Fr::one();
  EXPECT_EQ(tampered(same, p), "enforce comm_r_new_calc == comm_r_new");
  p = pub;
  p.comm_d_new += Fr::one();
  EXPECT_EQ(tampered(same, p), "apex_gadget/partition-tree por/calculated root == provided root");
  // (k_and_h_select: at 2 KiB k is 0 and every allowed h is 1, so no other value is valid; the
  // 8 MiB case of the slow test offers another h.)
}

TEST(UpdateCircuit, RefusalsAreNamed) {
  std::mt19937_64 rng(99);
  ThreadPool pool(2);
  // 32 KiB: 2 partitions, a one-level partition path, 8-8-2 trees.
  const Update u = testing::random_update(1u << 10, rng, pool);
  const UpdatePublic pub = u.pub(1);
  const auto refused = [&](auto change, UpdatePublic p, Errc want) {
    fc::SnapPartitionProof t = u.proofs[1];
    change(t);
    UpdateCircuit c(p, &t);
    TestConstraintSystem cs;
    const Status s = c.synthesize(cs);
    EXPECT_EQ(s.code(), want) << s.to_string();
    EXPECT_EQ(cs.num_aux(), 0u) << "refused before allocating";
    return s.message();
  };
  const auto same = [](fc::SnapPartitionProof&) {};
  EXPECT_NE(refused([](auto& t) { t.apex_leafs.pop_back(); }, pub, Errc::size_mismatch)
                .find("update partition 1: apex_leafs: 127 leaves"),
            std::string::npos);
  EXPECT_NE(refused([](auto& t) { t.challenge_proofs.pop_back(); }, pub, Errc::size_mismatch)
                .find("challenge_proofs: 9 proofs"),
            std::string::npos);
  EXPECT_NE(refused([](auto& t) { t.challenge_proofs[4].proof_r_new.top_path.clear(); }, pub,
                    Errc::size_mismatch)
                .find("challenge 4"),
            std::string::npos);
  EXPECT_NE(refused([](auto& t) { t.challenge_proofs[2].proof_d_new.base_path.pop_back(); }, pub,
                    Errc::size_mismatch)
                .find("challenge 2"),
            std::string::npos);
  EXPECT_NE(
      refused([](auto& t) { t.challenge_proofs[7].proof_d_new.base_path[9].hashes[0][0] ^= 1; },
              pub, Errc::invalid_argument)
          .find("challenge 7: proof_d_new level 9 (partition path)"),
      std::string::npos);
  EXPECT_NE(refused([](auto& t) { t.challenge_proofs[1].proof_r_old.leaf[31] = 0xff; }, pub,
                    Errc::out_of_range)
                .find("challenge 1"),
            std::string::npos);
  UpdatePublic p = pub;
  p.k = 2;
  refused(same, p, Errc::invalid_argument);
  p = pub;
  p.h = 2;
  refused(same, p, Errc::invalid_argument);
  p = pub;
  p.nodes = 1u << 11;
  refused(same, p, Errc::invalid_argument);
  EXPECT_FALSE(update_public_inputs(p).ok());
  // (Partition 1's proof offered as partition 2's: the 8 MiB case of the slow test.)
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
