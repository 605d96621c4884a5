// The Filecoin families' compact witnesses (CircuitFamily::compact_witness, issue 22 item 3) on
// the venus 2 KiB requests (CUZK_FILECOIN_DATA): for every partition of PoRep, WindowPoSt,
// WinningPoSt and SnapDeals the compact witness equals the converter's form of witness()'s z (the
// slow twin), lies within the circuit's bound (compact_witness_bound), and the heap bytes the
// synthesis really holds at its peak — every live allocation counted by this binary's operator
// new — stay below compact_witness_peak_bytes, the figure the engine reserves. A cancelled
// synthesis returns cancelled.
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <new>

#include "cuzk/circuits/filecoin/filecoin_family_test_util.hpp"
#include "cuzk/circuits/filecoin/porep_family.hpp"
#include "cuzk/circuits/filecoin/post_family.hpp"
#include "cuzk/circuits/filecoin/update_family.hpp"
#include "cuzk/r1cs/compact_witness.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/pce_compact.hpp"

// Live heap bytes of the process (malloc's usable sizes), and their peak since the last reset.
namespace {
std::atomic<std::int64_t> g_live{0}, g_peak{0};
void note_alloc(void* p) {
  if (!p) return;
  const auto n = static_cast<std::int64_t>(malloc_usable_size(p));
  const std::int64_t now = g_live.fetch_add(n) + n;
  for (std::int64_t peak = g_peak.load(); now > peak && !g_peak.compare_exchange_weak(peak, now);) {
  }
}
void note_free(void* p) {
  if (p) g_live.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)));
}
void* counted_alloc(std::size_t n, std::size_t align) {
  void* p = align <= alignof(std::max_align_t)
                ? std::malloc(n ? n : 1)
                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (!p) throw std::bad_alloc();
  note_alloc(p);
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n, 0); }
void* operator new[](std::size_t n) { return counted_alloc(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return counted_alloc(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete[](void* p) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  note_free(p);
  std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  note_free(p);
  std::free(p);
}

namespace cuzk::circuits::filecoin {
namespace {

namespace fc = cuzk::filecoin;
namespace fs = std::filesystem;
using namespace testing;

void expect_compact(FilecoinFamily& fam, const JobRequest& req, std::uint32_t partitions) {
  SCOPED_TRACE(fam.name());
  auto plan = fam.plan(req);
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  ASSERT_EQ(plan->partitions, partitions);
  auto shape = fam.shape(plan->key_id);
  ASSERT_TRUE(shape.ok() && (*shape)->compact);
  const auto t0 = std::chrono::steady_clock::now();
  const CompactWitnessBound bound = compact_witness_bound(*(*shape)->compact);
  std::printf("%s: bound of the compact form in %.3f s\n", fam.name().c_str(),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  EXPECT_EQ(bound.variables, plan->columns);
  const std::uint64_t peak_bound = fam.compact_witness_peak_bytes(*plan, bound);
  ThreadPool pool(2);
  for (std::uint32_t k = 0; k < plan->partitions; ++k) {
    SCOPED_TRACE("partition " + std::to_string(k));
    CancelFlag cancel{false};
    std::vector<Fr> z;
    ASSERT_TRUE(fam.witness(req, *plan, k, z, cancel).ok());
    auto want = compact_witness_from_z(pool, z, (*shape)->dims().num_inputs);
    ASSERT_TRUE(want.ok()) << want.status().to_string();
    z = {};
    CompactWitness got;
    const std::int64_t base = g_live.load();
    g_peak.store(base);
    const Status st = fam.compact_witness(req, *plan, k, got, cancel);
    const std::int64_t held = g_peak.load() - base;
    ASSERT_TRUE(st.ok()) << st.to_string();
    EXPECT_TRUE(got == *want) << "the compact witness is not the converter's form of z";
    EXPECT_TRUE(got.validate().ok());
    EXPECT_TRUE(compact_witness_within(got, bound).ok());
    EXPECT_LE(compact_witness_capacity_bytes(got), bound.witness_bytes());
    EXPECT_LE(static_cast<std::uint64_t>(held), peak_bound)
        << "the synthesis held more than the family's bound";
    std::printf(
        "%s partition %u: %llu variables, %llu values (bound %llu: %llu columns not proved "
        "boolean), compact %.2f MB (bound %.2f MB), synthesis peak %.2f MB (bound %.2f MB), "
        "z %.2f MB\n",
        fam.name().c_str(), k, static_cast<unsigned long long>(got.num_variables()),
        static_cast<unsigned long long>(got.values.size()),
        static_cast<unsigned long long>(bound.others()),
        static_cast<unsigned long long>(bound.others()), got.bytes() / 1e6,
        bound.witness_bytes() / 1e6, static_cast<double>(held) / 1e6, peak_bound / 1e6,
        32.0 * static_cast<double>(got.num_variables()) / 1e6);
  }
  CompactWitness none;
  CancelFlag cancelled{true};
  EXPECT_EQ(fam.compact_witness(req, *plan, 0, none, cancelled).code(), Errc::cancelled);
}

class VenusCompact : public ::testing::Test {
 protected:
  void SetUp() override {
    CUZK_REQUIRE_FILECOIN_DATA();
    v_ = venus();
    ASSERT_NE(v_, nullptr);
    dir_ = params_dir_with("venus_compact", all_2kib_sets());
    opt_ = FilecoinFamilyOptions{.params_dir = dir_.string()};
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  const Venus* v_ = nullptr;
  fs::path dir_;
  FilecoinFamilyOptions opt_;
};

TEST_F(VenusCompact, Porep) {
  PorepFamily fam(opt_);
  EXPECT_TRUE(fam.has_compact_witness());
  expect_compact(fam, v_->porep, 1);
}

TEST_F(VenusCompact, WindowPost) {
  PostFamily fam(fc::PostKind::window, opt_);
  EXPECT_TRUE(fam.has_compact_witness());  // by circuit sectors, z never held
  expect_compact(fam, v_->window0, 1);
  expect_compact(fam, v_->window1, 1);
}

TEST_F(VenusCompact, WinningPost) {
  PostFamily fam(fc::PostKind::winning, opt_);
  EXPECT_TRUE(fam.has_compact_witness());
  expect_compact(fam, v_->winning, 1);
}

// The compact form's bound against its slow twin over the plain recording (every rule of these
// circuits lies in one block, so the counts agree).
TEST_F(VenusCompact, BoundOfTheCompactFormIsThePlainMatricesOne) {
  for (fc::PostKind kind : {fc::PostKind::window, fc::PostKind::winning}) {
    PostFamily fam(kind, opt_);
    auto plan = fam.plan(kind == fc::PostKind::window ? v_->window0 : v_->winning);
    ASSERT_TRUE(plan.ok()) << plan.status().to_string();
    auto shape = fam.shape(plan->key_id);
    auto plain = fam.record_matrices(plan->key_id);
    ASSERT_TRUE(shape.ok() && plain.ok());
    const CompactWitnessBound c = compact_witness_bound(*(*shape)->compact);
    const CompactWitnessBound p = compact_witness_bound(*plain);
    EXPECT_EQ(c.variables, p.variables);
    EXPECT_EQ(c.boolean_cols, p.boolean_cols);
    EXPECT_GT(c.boolean_cols, 1u);
  }
}

TEST_F(VenusCompact, SnapDeals) {
  UpdateFamily fam(opt_);
  EXPECT_TRUE(fam.has_compact_witness());  // by challenges, z never held
  expect_compact(fam, v_->snap, fc::update_proof("StackedDrg2KiBV1")->partitions);
}

}  // namespace
}  // namespace cuzk::circuits::filecoin
