#include "cuzk/groth16/key_placement.hpp"

#include <algorithm>
#include <array>

#include "cuzk/msm/precomputed_windows.hpp"

namespace cuzk {

KeyPlacement plan_key_placement(const DeviceMemoryReport& device, const QueryCounts& counts,
                                std::uint64_t domain, std::uint64_t columns, unsigned max_h_copies,
                                std::uint64_t beside_bytes) {
  KeyPlacement out;
  out.working_bytes = device.partition_working_bytes(domain, columns);
  // What must fit beside the resident tables: a partition's working set and the key's own extras.
  const auto beside = [&] { return out.working_bytes + beside_bytes; };
  struct Table {
    std::uint64_t points;
    bool g2;
    bool* streamed;
    std::uint64_t packed() const { return (g2 ? 192 : 96) * points; }
  };
  StreamedQueries& s = out.streamed;
  // The .params order, so that ties go to the earlier query.
  std::array<Table, 5> t = {{{counts.h, false, &s.h},
                             {counts.l, false, &s.l},
                             {counts.a, false, &s.a},
                             {counts.b_g1, false, &s.b_g1},
                             {counts.b_g2, true, &s.b_g2}}};
  auto resident_bytes = [&] {
    std::uint64_t g1 = 0, g2 = 0;
    std::uint32_t tables = 0;
    for (const Table& x : t) {
      if (*x.streamed) continue;
      (x.g2 ? g2 : g1) += x.points;
      ++tables;
    }
    return tables ? device.resident_bases_bytes(g1, g2, tables) : 0;
  };
  for (Table& x : t) *x.streamed = device.streams_table(x.points, x.g2);
  if (device.can_stream_tables()) {
    std::array<Table*, 5> by_size;
    for (std::size_t i = 0; i < t.size(); ++i) by_size[i] = &t[i];
    std::stable_sort(by_size.begin(), by_size.end(),
                     [](const Table* a, const Table* b) { return a->packed() > b->packed(); });
    const std::uint64_t arena = device.device_memory().total;
    for (Table* x : by_size) {
      if (resident_bytes() + beside() <= arena) break;
      if (x->points > 0) *x->streamed = true;
    }
  }
  out.resident_bytes = resident_bytes();
  for (const Table& x : t)
    if (*x.streamed) out.streamed_host_bytes += x.packed();
  // Rule 3: copies of H, the most that fit (each: the table again and domain·16 B of pairs).
  const std::uint64_t arena = device.device_memory().total;
  if (!s.any() && counts.h > 0) {
    const unsigned most = std::min(max_h_copies, kMaxPrecomputedCopies);
    for (unsigned k = most; k > 1; --k) {
      const std::uint64_t table = precomputed_copies_bytes(counts.h, k, 96);
      const std::uint64_t pairs = std::uint64_t{k - 1} * domain * 16;
      if (out.resident_bytes + table + beside() + pairs <= arena) {
        out.h_copies = k;
        out.h_copies_bytes = table;
        out.working_bytes += pairs;
        break;
      }
    }
  }
  return out;
}

}  // namespace cuzk
