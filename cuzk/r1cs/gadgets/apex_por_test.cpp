// The SnapDeals apex tree: upstream's gadget counts (storage-proofs-update gadgets.rs
// test_apex_por_gadget_*: 317,654 for 8 apex leaves and one partition; 771,448 for 4 partitions
// of 16 leaves; 453,797 for 8 partitions of 8; 5,808,515 for 2 partitions of 128), satisfied over
// a real SHA-256 tree (the native twin, itself checked against a top-down recursive root), and a
// changed comm_d, apex leaf or partition path sibling unsatisfied by name.
#include <gtest/gtest.h>

#include <functional>

#include "cuzk/r1cs/gadgets/apex_por.hpp"
#include "cuzk/r1cs/gadgets/gadget_test_util.hpp"
#include "cuzk/r1cs/gadgets/merkle.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/test_cs.hpp"
#include "tests/support/seed.hpp"

namespace cuzk {
namespace {

using cuzk::test::random_fr;

// A binary SHA-256 tree over the apex row: rows[0] the apex row, rows.back() = {comm_d}.
std::vector<std::vector<Fr>> tree_over(std::vector<Fr> row) {
  std::vector<std::vector<Fr>> rows{row};
  while (rows.back().size() > 1) {
    std::vector<Fr> next;
    for (std::size_t i = 0; i < rows.back().size(); i += 2) {
      const Fr kids[2] = {rows.back()[i], rows.back()[i + 1]};
      next.push_back(sha256_node_native(kids));
    }
    rows.push_back(next);
  }
  return rows;
}

// The slow twin of apex_root_native: top-down recursion.
Fr root_recursive(std::span<const Fr> leaves) {
  if (leaves.size() == 1) return leaves[0];
  const Fr kids[2] = {root_recursive(leaves.first(leaves.size() / 2)),
                      root_recursive(leaves.subspan(leaves.size() / 2))};
  return sha256_node_native(kids);
}

enum class Tamper { none, comm_d, apex_leaf, partition_sibling };

// apex_por for partition |k| of |partitions| × |per| apex leaves; returns (constraints of the
// gadget, first unsatisfied constraint).
std::pair<std::size_t, std::optional<std::string>> run(const std::vector<std::vector<Fr>>& rows,
                                                       std::size_t partitions, std::size_t per,
                                                       std::size_t k, Tamper t) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < partitions) ++bits;
  unsigned apex_height = 0;
  while ((std::size_t{1} << apex_height) < per) ++apex_height;
  TestConstraintSystem cs;
  const Fr comm_d_value = rows.back()[0] + (t == Tamper::comm_d ? Fr::one() : Fr::zero());
  const AllocatedNum comm_d = *AllocatedNum::alloc(cs, comm_d_value);
  std::vector<AllocatedBit> partition_bits;
  for (unsigned i = 0; i < bits; ++i)
    partition_bits.push_back(*AllocatedBit::alloc(cs, ((k >> i) & 1) != 0));
  std::vector<AllocatedNum> leaves;
  for (std::size_t i = 0; i < per; ++i) {
    Fr v = rows[0][k * per + i];
    if (t == Tamper::apex_leaf && i == per / 2) v += Fr::one();
    leaves.push_back(*AllocatedNum::alloc(cs, v));
  }
  std::vector<AllocatedNum> path;
  for (unsigned i = 0; i < bits; ++i) {
    Fr v = rows[apex_height + i][(k >> i) ^ 1];
    if (t == Tamper::partition_sibling && i + 1 == bits) v += Fr::one();
    path.push_back(*AllocatedNum::alloc(cs, v));
  }
  const std::size_t before = cs.num_constraints();
  Namespace ns(cs, "apex");
  EXPECT_TRUE(apex_por(cs, leaves, partition_bits, path, comm_d).ok());
  return {cs.num_constraints() - before, cs.which_unsatisfied()};
}

TEST(ApexPor, UpstreamCountsSatisfiedOverARealTree) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  struct Case {
    std::size_t partitions, per, constraints;
  };
  // gadgets.rs: 1 KiB–8 KiB (1 × 8) 317,654; 16 KiB hard-coded 4 × 16 → 771,448, 8 × 8 → 453,797.
  for (const Case& c : {Case{1, 8, 317'654}, Case{4, 16, 771'448}, Case{8, 8, 453'797}}) {
    SCOPED_TRACE(std::to_string(c.partitions) + " × " + std::to_string(c.per) + " seed " +
                 std::to_string(seed));
    std::vector<Fr> row;
    for (std::size_t i = 0; i < c.partitions * c.per; ++i) row.push_back(random_fr(rng));
    const auto rows = tree_over(row);
    EXPECT_EQ(rows.back()[0], root_recursive(row));
    const std::size_t k = rng() % c.partitions;
    unsigned apex_height = 0;
    while ((std::size_t{1} << apex_height) < c.per) ++apex_height;
    EXPECT_EQ(apex_root_native(std::span<const Fr>(row).subspan(k * c.per, c.per)),
              rows[apex_height][k]);
    const auto [count, unsat] = run(rows, c.partitions, c.per, k, Tamper::none);
    EXPECT_EQ(count, c.constraints);
    EXPECT_FALSE(unsat) << *unsat;
  }
}

TEST(ApexPor, TamperingIsUnsatisfiedByName) {
  const std::uint64_t seed = gadget_test::fresh_seed();
  std::mt19937_64 rng(seed);
  std::vector<Fr> row;
  for (std::size_t i = 0; i < 16; ++i) row.push_back(random_fr(rng));
  const auto rows = tree_over(row);
  for (Tamper t : {Tamper::comm_d, Tamper::apex_leaf, Tamper::partition_sibling}) {
    const auto [count, unsat] = run(rows, 2, 8, 1, t);
    ASSERT_TRUE(unsat) << "seed=" << seed;
    EXPECT_EQ(*unsat, "apex/partition-tree por/calculated root == provided root");
  }
}

TEST(ApexPor, CountOf128LeavesAndOnePartitionBit) {
  // gadgets.rs test_apex_por_gadget_small_sector_sizes: 16 KiB and 32 KiB (2 partitions of 128
  // apex leaves) 5,808,515. Counted without values.
  RecordingConstraintSystem cs(RecordingOptions{.with_values = false, .record_matrices = false});
  const AllocatedNum comm_d = *AllocatedNum::alloc(cs, std::optional<Fr>());
  const AllocatedBit bit = *AllocatedBit::alloc(cs, std::nullopt);
  std::vector<AllocatedNum> leaves;
  for (int i = 0; i < 128; ++i) leaves.push_back(*AllocatedNum::alloc(cs, std::optional<Fr>()));
  const AllocatedNum sibling = *AllocatedNum::alloc(cs, std::optional<Fr>());
  const std::size_t before = cs.num_constraints();
  ASSERT_TRUE(apex_por(cs, leaves, std::span(&bit, 1), std::span(&sibling, 1), comm_d).ok());
  EXPECT_EQ(cs.num_constraints() - before, 5'808'515u);
}

TEST(ApexPor, BadShapesAreRefused) {
  TestConstraintSystem cs;
  const AllocatedNum x = *AllocatedNum::alloc(cs, Fr::one());
  std::vector<AllocatedNum> six(6, x);
  EXPECT_EQ(apex_por(cs, six, {}, {}, x).code(), Errc::size_mismatch);
  std::vector<AllocatedNum> eight(8, x);
  std::vector<AllocatedNum> one_sibling(1, x);
  EXPECT_EQ(apex_por(cs, eight, {}, one_sibling, x).code(), Errc::size_mismatch);
}

}  // namespace
}  // namespace cuzk
