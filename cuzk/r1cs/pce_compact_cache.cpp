#include "cuzk/r1cs/pce_compact_cache.hpp"

#include <string>
#include <vector>

#include "cuzk/r1cs/checked_file.hpp"
#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

// The header fields after magic, version and size (checked_file.hpp): key, num_inputs, num_aux,
// num_constraints, nnz A/B/C, blocks, segments, slots, body size, body checksum.
constexpr CheckedFileFormat kFormat{.name = "compact PCE cache",
                                    .magic = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', 'C'},
                                    .version = kCompactCacheVersion,
                                    .fields = 12,
                                    .header_seed = 0x50434543,
                                    .body_seed = 0x434f4d50,
                                    .key_name = "circuit key"};
static_assert(kFormat.header_size() == 120);
constexpr std::size_t kBlockEntry = 12;  // u64 per block in the block table

struct Header {
  std::uint64_t num_inputs = 0, num_aux = 0;
  std::uint64_t blocks = 0, segments = 0, slots = 0;
};

std::uint64_t words64(std::uint64_t bits) { return (bits + 63) / 64; }

// Body bytes after the block table, from the table's entries.
std::uint64_t rest_size(const Header& h, const std::vector<std::uint64_t>& table) {
  std::uint64_t s = 0;
  for (std::uint64_t i = 0; i < h.blocks; ++i) {
    const std::uint64_t* e = table.data() + i * kBlockEntry;
    for (int t = 0; t < 3; ++t) s += 4 * e[2] + 4 * e[3 + t] + 4 * e[6 + t] + sizeof(Fr) * e[9 + t];
  }
  s += 8 * h.segments + 4 * h.slots;
  s += 8 * (2 * words64(h.num_aux) + words64(h.num_inputs));
  return s;
}

// The arrays of the body in file order, for writing and hashing: |fn(data, bytes)|.
template <class Fn>
void for_each_array(const CompactR1cs& c, const std::vector<std::uint64_t>& table,
                    std::vector<std::uint32_t>& lens, Fn&& fn) {
  fn(table.data(), table.size() * 8);
  for (const CompactBlock& b : c.blocks)
    for (const SparseMatrix* s : {&b.m.a, &b.m.b, &b.m.c}) put_matrix_arrays(*s, lens, fn);
  fn(c.segments.data(), c.segments.size() * sizeof(CompactSegment));
  fn(c.slots.data(), c.slots.size() * 4);
  fn(c.a_aux_density.words.data(), c.a_aux_density.words.size() * 8);
  fn(c.b_input_density.words.data(), c.b_input_density.words.size() * 8);
  fn(c.b_aux_density.words.data(), c.b_aux_density.words.size() * 8);
}

static_assert(sizeof(CompactSegment) == 8, "segments are written as two u32");

}  // namespace

std::uint64_t compact_circuit_key(std::string_view circuit_id) {
  return checksum64(circuit_id.data(), circuit_id.size(), 0x636f6d70 ^ kCompactCacheVersion);
}

Status save_compact_cache(const std::string& path, const CompactR1cs& c, std::uint64_t key) {
  CUZK_RETURN_IF_ERROR(c.validate());
  std::vector<std::uint64_t> table;
  table.reserve(c.blocks.size() * kBlockEntry);
  for (const CompactBlock& b : c.blocks) {
    const SparseMatrix* m[3] = {&b.m.a, &b.m.b, &b.m.c};
    table.insert(table.end(), {b.locals, b.slots, b.rows()});
    for (const SparseMatrix* s : m) table.push_back(s->nnz());
    for (const SparseMatrix* s : m) table.push_back(s->num_general());
    for (const SparseMatrix* s : m) table.push_back(s->coeffs.size());
  }
  std::vector<std::uint32_t> lens;
  return write_checked_file(path, kFormat,
                            {key, c.num_inputs, c.num_aux, c.num_constraints, c.nnz_a, c.nnz_b,
                             c.nnz_c, c.blocks.size(), c.segments.size(), c.slots.size()},
                            [&](const auto& fn) { for_each_array(c, table, lens, fn); });
}

Result<CompactR1cs> load_compact_cache(const std::string& path, std::uint64_t key) {
  auto file = CheckedFileReader::open(path, kFormat, key);
  if (!file.ok()) return file.status();
  CheckedFileReader& f = *file;
  Header h;
  h.num_inputs = f.field(1);
  h.num_aux = f.field(2);
  h.blocks = f.field(7);
  h.segments = f.field(8);
  h.slots = f.field(9);
  const std::uint64_t body_size = f.body_size();
  if (h.num_inputs == 0 || h.num_inputs + h.num_aux > SparseMatrix::kMaxColumns ||
      h.blocks > body_size / (kBlockEntry * 8) || h.segments > body_size / 8 ||
      h.slots > body_size / 4)
    return f.error(Errc::bad_encoding, "header sizes are inconsistent");

  std::vector<std::uint64_t> table(h.blocks * kBlockEntry);
  if (!f.read(table.data(), table.size() * 8))
    return f.error(Errc::truncated, "block table ends early");
  for (std::uint64_t i = 0; i < h.blocks; ++i) {
    const std::uint64_t* e = table.data() + i * kBlockEntry;
    bool bad = e[0] + e[1] > SparseMatrix::kMaxColumns || e[2] > body_size;
    for (int t = 0; t < 3; ++t)
      bad = bad || e[3 + t] > body_size || e[6 + t] > e[3 + t] || e[9 + t] > e[6 + t];
    if (bad)
      return f.error(Errc::bad_encoding, "block " + std::to_string(i) + " sizes inconsistent");
  }
  if (body_size != table.size() * 8 + rest_size(h, table))
    return f.error(Errc::bad_encoding, "block table disagrees with the body size");

  CompactR1cs c;
  c.num_inputs = h.num_inputs;
  c.num_aux = h.num_aux;
  c.num_constraints = f.field(3);
  c.nnz_a = f.field(4);
  c.nnz_b = f.field(5);
  c.nnz_c = f.field(6);
  c.blocks.resize(h.blocks);
  std::vector<std::uint32_t> lens;
  static const char* names[3] = {"A", "B", "C"};
  for (std::uint64_t i = 0; i < h.blocks; ++i) {
    const std::uint64_t* e = table.data() + i * kBlockEntry;
    CompactBlock& b = c.blocks[i];
    b.locals = static_cast<std::uint32_t>(e[0]);
    b.slots = static_cast<std::uint32_t>(e[1]);
    const std::uint64_t rows = e[2];
    b.m.num_inputs = 1;
    b.m.num_aux = e[0] + e[1];
    b.m.num_constraints = rows;
    SparseMatrix* mats[3] = {&b.m.a, &b.m.b, &b.m.c};
    for (int t = 0; t < 3; ++t)
      CUZK_RETURN_IF_ERROR(
          read_matrix_arrays(f, *mats[t], rows, e[3 + t], e[6 + t], e[9 + t], lens,
                             "block " + std::to_string(i) + " matrix " + names[t]));
  }
  c.segments.resize(h.segments);
  c.slots.resize(h.slots);
  c.a_aux_density.resize(h.num_aux);
  c.b_input_density.resize(h.num_inputs);
  c.b_aux_density.resize(h.num_aux);
  if (!f.read(c.segments.data(), c.segments.size() * sizeof(CompactSegment)) ||
      !f.read(c.slots.data(), c.slots.size() * 4) ||
      !f.read(c.a_aux_density.words.data(), c.a_aux_density.words.size() * 8) ||
      !f.read(c.b_input_density.words.data(), c.b_input_density.words.size() * 8) ||
      !f.read(c.b_aux_density.words.data(), c.b_aux_density.words.size() * 8))
    return f.error(Errc::truncated, "segments, slots or density bitmaps end early");
  CUZK_RETURN_IF_ERROR(f.check_body());
  for (CompactBlock& b : c.blocks) {
    for (SparseMatrix* s : {&b.m.a, &b.m.b, &b.m.c}) {
      for (const Fr& v : s->coeffs)
        if (limbs_cmp(v.l, Fr::kModulus) >= 0)
          return f.error(Errc::bad_encoding, "a coefficient is not below r");
      s->rebuild_index();
    }
    b.m.compute_density();
  }
  Status st = c.finalize();
  if (!st.ok()) return st.with_context("compact PCE cache " + path);
  return c;
}

Result<CachedCompact> load_or_build_compact(const std::string& path, std::uint64_t key,
                                            const std::function<Result<CompactR1cs>()>& build) {
  return load_or_build_cached(
      &CachedCompact::compact, [&] { return load_compact_cache(path, key); }, build,
      [&](const CompactR1cs& c) { return save_compact_cache(path, c, key); });
}

}  // namespace cuzk
