// FrBufferPool: kept buffers are charged to the budget exactly (capacity · 32 bytes) and only
// while kept; take() serves only an exact capacity; nothing is kept without a budget, beyond the
// cap, or when the charge does not fit (never in the CRITICAL headroom); trim/detach free all.
#include "cuzk/engine/buffer_pool.hpp"

#include <gtest/gtest.h>

namespace cuzk::engine {
namespace {

TEST(FrBufferPool, KeepsOnlyUnderACharge) {
  MemoryBudget budget(1 << 20, 1 << 16);
  FrBufferPool pool(3);
  std::vector<Fr> v = pool.take(1000);
  EXPECT_EQ(v.capacity(), 1000u);
  pool.give(std::move(v));  // no budget attached: freed
  EXPECT_EQ(pool.kept(), 0u);

  pool.attach(&budget);
  std::vector<Fr> a = pool.take(1000);
  a.resize(1000, Fr::one());
  const Fr* data = a.data();
  pool.give(std::move(a));
  EXPECT_EQ(pool.kept(), 1u);
  EXPECT_EQ(budget.used(), 32000u);
  EXPECT_EQ(pool.kept_bytes(), 32000u);

  std::vector<Fr> other = pool.take(999);  // another size: a new buffer, the kept one stays
  EXPECT_NE(other.data(), data);
  EXPECT_EQ(pool.kept(), 1u);
  std::vector<Fr> again = pool.take(1000);  // the kept buffer, empty, its charge released
  EXPECT_EQ(again.data(), data);
  EXPECT_EQ(again.size(), 0u);
  EXPECT_EQ(again.capacity(), 1000u);
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_EQ(pool.reused(), 1u);

  // The charge must fit below the CRITICAL headroom: 1 MiB − 64 KiB.
  ASSERT_TRUE(budget.try_reserve((1 << 20) - (1 << 16) - 20000, Priority::normal));
  pool.give(std::move(again));  // 32000 bytes do not fit: freed
  EXPECT_EQ(pool.kept(), 0u);
  budget.release((1 << 20) - (1 << 16) - 20000);

  for (int i = 0; i < 5; ++i) pool.give(std::vector<Fr>(100));
  EXPECT_EQ(pool.kept(), 3u);  // the cap
  EXPECT_EQ(budget.used(), 3u * 3200u);
  EXPECT_EQ(pool.trim(), 3u * 3200u);
  EXPECT_EQ(budget.used(), 0u);

  pool.give(std::vector<Fr>(100));
  MemoryBudget other_budget(1 << 20, 0);
  pool.detach(&other_budget);  // not the attached one: nothing happens
  EXPECT_EQ(pool.kept(), 1u);
  pool.detach(&budget);
  EXPECT_EQ(pool.kept(), 0u);
  EXPECT_EQ(budget.used(), 0u);
  pool.give(std::vector<Fr>(100));
  EXPECT_EQ(pool.kept(), 0u);
}

}  // namespace
}  // namespace cuzk::engine
