// plan_key_placement against a fake device report: the backend's own rule first (tables over half
// the arena), then the largest tables streamed until the resident ones and one partition's working
// set fit; a key with room stays resident, a backend that cannot stream keeps everything, ties go
// to the earlier query, and the figures are the report's own (resident_bases_bytes, packed host
// bytes). The 32 GiB WindowPoSt shape on an 80 GB and a 141 GB card (the figures).
#include "cuzk/groth16/key_placement.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

// An arena of |total| bytes; tables cost 96/192 B a point and 256 B each; the working set is
// |working| whatever the shape (recorded).
class FakeReport final : public DeviceMemoryReport {
 public:
  FakeReport(std::uint64_t total, std::uint64_t working, bool can_stream = true,
             bool half_rule = true)
      : total_(total), working_(working), can_stream_(can_stream), half_rule_(half_rule) {}
  DeviceMemory device_memory() const override { return {.total = total_}; }
  std::uint64_t resident_bases_bytes(std::uint64_t g1, std::uint64_t g2,
                                     std::uint32_t tables) const override {
    return 96 * g1 + 192 * g2 + 256 * std::uint64_t{tables};
  }
  bool streams_table(std::uint64_t points, bool g2) const override {
    return half_rule_ && can_stream_ && (g2 ? 192 : 96) * points + 256 > total_ / 2;
  }
  bool can_stream_tables() const override { return can_stream_; }
  std::uint64_t partition_working_bytes(std::uint64_t domain,
                                        std::uint64_t columns) const override {
    asked_domain = domain, asked_columns = columns;
    return working_;
  }
  mutable std::uint64_t asked_domain = 0, asked_columns = 0;

 private:
  std::uint64_t total_, working_;
  bool can_stream_, half_rule_;
};

std::uint64_t table_bytes(std::uint64_t points, bool g2) { return (g2 ? 192 : 96) * points; }

// Sizes of a bench-like key: h = n − 1, l and a near the columns, b a part of them.
const QueryCounts kCounts{.h = 1023, .l = 900, .a = 1000, .b_g1 = 300, .b_g2 = 300};
std::uint64_t whole_bytes(const QueryCounts& c) {
  return 96 * (c.h + c.l + c.a + c.b_g1) + 192 * c.b_g2 + 5 * 256;
}

TEST(KeyPlacement, KeyWithRoomForAPartitionStaysResident) {
  const std::uint64_t whole = whole_bytes(kCounts), working = 50'000;
  FakeReport r(whole + working, working);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  EXPECT_FALSE(p.streamed.any());
  EXPECT_EQ(p.resident_bytes, whole);
  EXPECT_EQ(p.streamed_host_bytes, 0u);
  EXPECT_EQ(p.working_bytes, working);
  EXPECT_EQ(r.asked_domain, 1024u);
  EXPECT_EQ(r.asked_columns, 1010u);
}

TEST(KeyPlacement, LargestTableStreamsWhenTheKeyFitsOnlyWithoutAPartition) {
  const std::uint64_t whole = whole_bytes(kCounts), working = 50'000;
  // The key alone fits (one byte short of the key plus the partition), no table is over half.
  FakeReport r(whole + working - 1, working);
  ASSERT_LE(whole, whole + working - 1);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  // h (1023 G1 points, 98,208 B) is the largest: it alone goes to the host.
  EXPECT_EQ(p.streamed, (StreamedQueries{.h = true}));
  EXPECT_EQ(p.resident_bytes, whole - table_bytes(kCounts.h, false) - 256);
  EXPECT_EQ(p.streamed_host_bytes, table_bytes(kCounts.h, false));
  EXPECT_LE(p.resident_bytes + p.working_bytes, r.device_memory().total);
}

TEST(KeyPlacement, StreamsLargestFirstUntilTheRestFits) {
  const std::uint64_t whole = whole_bytes(kCounts);
  // Room for all but ~1.5 of the largest tables: h (98,208 B), then a (96,000 B) go, l stays.
  const std::uint64_t working = 10'000;
  FakeReport r(whole + working - table_bytes(kCounts.h, false) - 30'000, working);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  EXPECT_EQ(p.streamed, (StreamedQueries{.h = true, .a = true}));
  EXPECT_EQ(p.streamed_host_bytes, table_bytes(kCounts.h, false) + table_bytes(kCounts.a, false));
  EXPECT_LE(p.resident_bytes + p.working_bytes, r.device_memory().total);
}

// The circuit's device copy kept beside the tables counts like the working set: a key that fits
// with a partition alone streams its largest table once the copy is added, and the copy is not
// counted as a table.
TEST(KeyPlacement, BytesBesideTheTablesCountAgainstTheArena) {
  const std::uint64_t whole = whole_bytes(kCounts), working = 50'000, circuit = 4'000;
  FakeReport r(whole + working, working);
  EXPECT_FALSE(plan_key_placement(r, kCounts, 1024, 1010, 1, 0).streamed.any());
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010, 1, circuit);
  EXPECT_EQ(p.streamed, (StreamedQueries{.h = true}));
  EXPECT_EQ(p.resident_bytes, whole - table_bytes(kCounts.h, false) - 256);
  EXPECT_EQ(p.working_bytes, working);
  EXPECT_LE(p.resident_bytes + p.working_bytes + circuit, r.device_memory().total);
}

TEST(KeyPlacement, G2TableCountsItsPackedBytes) {
  // b_g2 of 600 points (115,200 B packed) is larger than h (98,208 B): it goes first.
  const QueryCounts c{.h = 1023, .l = 900, .a = 1000, .b_g1 = 600, .b_g2 = 600};
  const std::uint64_t whole = whole_bytes(c), working = 20'000;
  FakeReport r(whole + working - 1, working);
  const KeyPlacement p = plan_key_placement(r, c, 1024, 1610);
  EXPECT_EQ(p.streamed, (StreamedQueries{.b_g2 = true}));
  EXPECT_EQ(p.streamed_host_bytes, 192u * 600);
}

TEST(KeyPlacement, TiesGoToTheEarlierQuery) {
  const QueryCounts c{.h = 500, .l = 500, .a = 500, .b_g1 = 500, .b_g2 = 250};
  const std::uint64_t whole = whole_bytes(c), working = 1000;
  FakeReport r(whole + working - 1, working);
  EXPECT_EQ(plan_key_placement(r, c, 512, 500).streamed, (StreamedQueries{.h = true}));
}

TEST(KeyPlacement, BackendRuleStillStreamsTablesOverHalfTheArena) {
  // An arena of 150,000 B and no working set: h (98,208 B), a (96,000 B) and l (86,400 B) are over
  // half of it and stream by the backend's own rule; b_g1 and b_g2 stay.
  FakeReport r(150'000, 0);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  EXPECT_TRUE(p.streamed.h && p.streamed.l && p.streamed.a);
  EXPECT_FALSE(p.streamed.b_g1 || p.streamed.b_g2);
  EXPECT_EQ(p.resident_bytes, 96 * 300 + 192 * 300 + 2 * 256);
}

TEST(KeyPlacement, BackendThatCannotStreamKeepsEverything) {
  const std::uint64_t whole = whole_bytes(kCounts);
  FakeReport r(whole, 1'000'000, /*can_stream=*/false);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  EXPECT_FALSE(p.streamed.any());
  EXPECT_EQ(p.resident_bytes, whole);
}

TEST(KeyPlacement, WorkingSetLargerThanTheArenaStreamsEveryTable) {
  FakeReport r(1'000'000, 2'000'000);
  const KeyPlacement p = plan_key_placement(r, kCounts, 1024, 1010);
  EXPECT_EQ(p.streamed,
            (StreamedQueries{.h = true, .l = true, .a = true, .b_g1 = true, .b_g2 = true}));
  EXPECT_EQ(p.resident_bytes, 0u);
  EXPECT_EQ(p.streamed_host_bytes, whole_bytes(kCounts) - 5 * 256);
}

// The case: the 32 GiB WindowPoSt key (2^27 domain, 25,840 inputs and 126,902,376 aux:
// docs/filecoin/circuit-post.md; .params 60,780,374,232 B: docs/perf/filecoin.md) with a
// partition's working set of 21.5 GB (the CUDA figure at 2^27: twiddles 4.3 + the H step's
// 17.2 GB), on an 80 GB H100 (72.5 GB arena) and a 141 GB H200 (125 GB arena). The a and b
// counts are not published: a = every column, b chosen so the tables add up to the file's size
// (b ≈ 81.7 M points).
TEST(KeyPlacement, WindowPostKeyStreamsOneTableOnAnH100AndNoneOnAnH200) {
  const std::uint64_t n = std::uint64_t{1} << 27, columns = 25'840 + 126'902'376;
  QueryCounts c{.h = n - 1, .l = 126'902'376, .a = columns};
  const std::uint64_t rest = 60'780'374'232 - 96 * (c.h + c.l + c.a);
  c.b_g1 = c.b_g2 = rest / 288;
  const std::uint64_t working = 21'500'000'000;
  FakeReport h100(72'500'000'000, working, true, true);
  const KeyPlacement p = plan_key_placement(h100, c, n, columns);
  EXPECT_EQ(p.streamed, (StreamedQueries{.b_g2 = true}));
  EXPECT_GT(p.streamed_host_bytes, 15'000'000'000u);  // ≈ 15.7 GB of host memory
  EXPECT_LT(p.streamed_host_bytes, 16'000'000'000u);
  EXPECT_LE(p.resident_bytes + working, 72'500'000'000u);
  FakeReport h200(125'000'000'000, working, true, true);
  EXPECT_FALSE(plan_key_placement(h200, c, n, columns).streamed.any());
}

// The 32 GiB PoRep circuit's domain, columns and query counts (the two tests below).
constexpr std::uint64_t kPoRep32Domain = std::uint64_t{1} << 27;
constexpr std::uint64_t kPoRep32Columns = 328 + 130'169'893;
constexpr QueryCounts kPoRep32Counts{.h = kPoRep32Domain - 1,
                                     .l = 130'169'893,
                                     .a = 328 + 129'753'292,
                                     .b_g1 = 1 + 33'112'281,
                                     .b_g2 = 1 + 33'112'281};

// The 32 GiB PoRep key (47.4 GB; counts from Curio's measurement, docs/filecoin/circuit-porep.md:
// 328 inputs with ONE, 130,169,893 aux, a_aux density 129,753,292, b density 1 + 33,112,281) stays
// whole on the H100, where its partitions already run: 47.4 + 21.5 GB fit 72.5 GB.
TEST(KeyPlacement, PoRepKeyStaysWholeOnAnH100) {
  const std::uint64_t n = kPoRep32Domain;
  const QueryCounts c = kPoRep32Counts;
  FakeReport h100(72'500'000'000, 21'500'000'000, true, true);
  const KeyPlacement p = plan_key_placement(h100, c, n, kPoRep32Columns);
  EXPECT_FALSE(p.streamed.any());
  EXPECT_EQ(p.resident_bytes, 47'373'896'256u + 5 * 256);
}

// Rule 3, H copies for the precomputed-window H MSM, with the 32 GiB PoRep shape of the test
// above. By hand: resident 47,373,897,536 B, working 21.5 GB, a copy 96·(2^27 − 1) =
// 12,884,901,792 B and 16·2^27 = 2,147,483,648 B of pairs. On a 125 GB arena: 68.87 GB + 15.03 GB
// per copy leaves room for 3 extra copies (113.97 GB; 4 would be 129.0 GB), so a bound of 8 gives
// h_copies = 4 and a bound of 2 gives 2; on the H100's 72.5 GB none; a streamed table or the
// default bound none.
TEST(KeyPlacement, HCopiesOnlyWhereTheyFitBesideTheKeyAndAPartition) {
  const std::uint64_t n = kPoRep32Domain;
  const QueryCounts c = kPoRep32Counts;
  const std::uint64_t columns = kPoRep32Columns, working = 21'500'000'000;
  const std::uint64_t copy = 12'884'901'792, pairs = 2'147'483'648;
  FakeReport h200(125'000'000'000, working, true, true);
  const KeyPlacement plain = plan_key_placement(h200, c, n, columns);
  EXPECT_EQ(plain.h_copies, 1u);
  EXPECT_EQ(plain.h_copies_bytes, 0u);
  EXPECT_EQ(plain.working_bytes, working);
  const KeyPlacement most = plan_key_placement(h200, c, n, columns, 8);
  EXPECT_FALSE(most.streamed.any());
  EXPECT_EQ(most.h_copies, 4u);
  EXPECT_EQ(most.h_copies_bytes, 3 * copy);
  EXPECT_EQ(most.working_bytes, working + 3 * pairs);
  EXPECT_LE(most.resident_bytes + most.h_copies_bytes + most.working_bytes, 125'000'000'000u);
  const KeyPlacement two = plan_key_placement(h200, c, n, columns, 2);
  EXPECT_EQ(two.h_copies, 2u);
  EXPECT_EQ(two.h_copies_bytes, copy);
  // 12 GB kept beside the tables (more than a circuit's copy, to cross a copy's boundary): 80.87
  // GB + 3 copies would be 125.97 GB, so two extra copies.
  EXPECT_EQ(plan_key_placement(h200, c, n, columns, 8, 12'000'000'000).h_copies, 3u);
  FakeReport h100(72'500'000'000, working, true, true);
  EXPECT_EQ(plan_key_placement(h100, c, n, columns, 8).h_copies, 1u);
  // A key that streams a table gets no copies (WindowPoSt-like: b tables large enough to stream).
  FakeReport small(60'000'000'000, working, true, true);
  const KeyPlacement streamed = plan_key_placement(small, c, n, columns, 8);
  EXPECT_TRUE(streamed.streamed.any());
  EXPECT_EQ(streamed.h_copies, 1u);
}

}  // namespace
}  // namespace cuzk
