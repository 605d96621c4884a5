#include "cuzk/r1cs/pce_compact_cache.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'P', 'C', 'E', 'C'};
constexpr std::size_t kHeaderSize = 120;
constexpr std::size_t kBlockEntry = 12;  // u64 per block in the block table

struct Header {
  std::uint32_t version = kCompactCacheVersion;
  std::uint32_t header_size = kHeaderSize;
  std::uint64_t key = 0;
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint64_t nnz[3] = {0, 0, 0};
  std::uint64_t blocks = 0, segments = 0, slots = 0;
  std::uint64_t body_size = 0;
  std::uint64_t body_checksum = 0;
};

void put64(unsigned char*& p, std::uint64_t v) {
  std::memcpy(p, &v, 8);
  p += 8;
}
std::uint64_t get64(const unsigned char*& p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  p += 8;
  return v;
}

std::uint64_t header_checksum(const unsigned char* h) {
  return checksum64(h, kHeaderSize - 8, 0x50434543);
}

void encode_header(const Header& h, unsigned char* out) {
  unsigned char* p = out;
  std::memcpy(p, kMagic, 8);
  p += 8;
  std::memcpy(p, &h.version, 4);
  std::memcpy(p + 4, &h.header_size, 4);
  p += 8;
  for (std::uint64_t v : {h.key, h.num_inputs, h.num_aux, h.num_constraints, h.nnz[0], h.nnz[1],
                          h.nnz[2], h.blocks, h.segments, h.slots, h.body_size, h.body_checksum})
    put64(p, v);
  put64(p, header_checksum(out));
}

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

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status io_error(const std::string& what, const std::string& path) {
  return Status(Errc::io_error, what + " " + path + ": " + std::strerror(errno));
}

// Per-array checksums chained into one body checksum (each array hashed where it lies).
struct BodyHash {
  std::vector<std::uint64_t> parts;
  void add(const void* p, std::size_t n) { parts.push_back(checksum64(p, n, parts.size())); }
  std::uint64_t value() const { return checksum64(parts.data(), parts.size() * 8, 0x434f4d50); }
};

// The arrays of the body in file order, for writing and hashing: |fn(data, bytes)|.
template <class Fn>
void for_each_array(const CompactR1cs& c, const std::vector<std::uint64_t>& table,
                    std::vector<std::uint32_t>& lens, Fn&& fn) {
  fn(table.data(), table.size() * 8);
  for (const CompactBlock& b : c.blocks) {
    for (const SparseMatrix* s : {&b.m.a, &b.m.b, &b.m.c}) {
      lens.resize(s->num_rows());
      for (std::size_t k = 0; k < lens.size(); ++k)
        lens[k] = static_cast<std::uint32_t>(s->row_ptr[k + 1] - s->row_ptr[k]);
      fn(lens.data(), lens.size() * 4);
      fn(s->col.data(), s->col.size() * 4);
      fn(s->gen_idx.data(), s->gen_idx.size() * 4);
      fn(s->coeffs.data(), s->coeffs.size() * sizeof(Fr));
    }
  }
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
  Header h;
  h.key = key;
  h.num_inputs = c.num_inputs;
  h.num_aux = c.num_aux;
  h.num_constraints = c.num_constraints;
  h.nnz[0] = c.nnz_a;
  h.nnz[1] = c.nnz_b;
  h.nnz[2] = c.nnz_c;
  h.blocks = c.blocks.size();
  h.segments = c.segments.size();
  h.slots = c.slots.size();
  std::vector<std::uint64_t> table;
  table.reserve(c.blocks.size() * kBlockEntry);
  for (const CompactBlock& b : c.blocks) {
    const SparseMatrix* m[3] = {&b.m.a, &b.m.b, &b.m.c};
    table.insert(table.end(), {b.locals, b.slots, b.rows()});
    for (const SparseMatrix* s : m) table.push_back(s->nnz());
    for (const SparseMatrix* s : m) table.push_back(s->num_general());
    for (const SparseMatrix* s : m) table.push_back(s->coeffs.size());
  }
  h.body_size = table.size() * 8 + rest_size(h, table);
  std::vector<std::uint32_t> lens;
  BodyHash bh;
  for_each_array(c, table, lens, [&](const void* p, std::size_t n) { bh.add(p, n); });
  h.body_checksum = bh.value();
  unsigned char hdr[kHeaderSize];
  encode_header(h, hdr);

  const std::string tmp = path + ".tmp";
  File f(std::fopen(tmp.c_str(), "wb"));
  if (!f) return io_error("cannot create", tmp);
  bool ok = std::fwrite(hdr, 1, kHeaderSize, f.get()) == kHeaderSize;
  for_each_array(c, table, lens, [&](const void* p, std::size_t n) {
    ok = ok && (n == 0 || std::fwrite(p, 1, n, f.get()) == n);
  });
  if (!ok) {
    Status s = io_error("cannot write", tmp);
    std::remove(tmp.c_str());
    return s;
  }
  if (std::fclose(f.release()) != 0) return io_error("cannot close", tmp);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return io_error("cannot rename into", path);
  return {};
}

Result<CompactR1cs> load_compact_cache(const std::string& path, std::uint64_t key) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    if (errno == ENOENT)
      return Status(Errc::not_found, "compact PCE cache " + path + " does not exist");
    return io_error("cannot open compact PCE cache", path);
  }
  auto err = [&](Errc code, const std::string& what) {
    return Status(code, "compact PCE cache " + path + ": " + what);
  };
  unsigned char hdr[kHeaderSize];
  const std::size_t got = std::fread(hdr, 1, kHeaderSize, f.get());
  if (got < 8)
    return err(Errc::truncated,
               "file is " + std::to_string(got) + " bytes, shorter than the header");
  if (std::memcmp(hdr, kMagic, 8) != 0)
    return err(Errc::bad_encoding, "wrong magic (not a cuzk compact PCE cache)");
  if (got < kHeaderSize)
    return err(Errc::truncated, "header is " + std::to_string(got) + " of " +
                                    std::to_string(kHeaderSize) + " bytes");
  Header h;
  std::memcpy(&h.version, hdr + 8, 4);
  std::memcpy(&h.header_size, hdr + 12, 4);
  if (h.version != kCompactCacheVersion)
    return err(Errc::bad_encoding, "version " + std::to_string(h.version) +
                                       ", this build reads version " +
                                       std::to_string(kCompactCacheVersion) + " (stale)");
  const unsigned char* hp = hdr + kHeaderSize - 8;
  if (h.header_size != kHeaderSize || get64(hp) != header_checksum(hdr))
    return err(Errc::bad_encoding, "header checksum mismatch (corrupt header)");
  const unsigned char* p = hdr + 16;
  for (std::uint64_t* v :
       {&h.key, &h.num_inputs, &h.num_aux, &h.num_constraints, &h.nnz[0], &h.nnz[1], &h.nnz[2],
        &h.blocks, &h.segments, &h.slots, &h.body_size, &h.body_checksum})
    *v = get64(p);
  if (h.key != key)
    return err(Errc::invalid_argument, "stale: written for circuit key " + std::to_string(h.key) +
                                           ", expected " + std::to_string(key));
  if (h.num_inputs == 0 || h.num_inputs + h.num_aux > SparseMatrix::kMaxColumns ||
      h.blocks > h.body_size / (kBlockEntry * 8) || h.segments > h.body_size / 8 ||
      h.slots > h.body_size / 4)
    return err(Errc::bad_encoding, "header sizes are inconsistent");
  // The file length against the header before allocating anything large.
  if (std::fseek(f.get(), 0, SEEK_END) != 0) return io_error("cannot seek", path);
  const long end = std::ftell(f.get());
  if (end < 0) return io_error("cannot tell", path);
  const auto file_body = static_cast<std::uint64_t>(end) - kHeaderSize;
  if (file_body < h.body_size)
    return err(Errc::truncated, "body is " + std::to_string(file_body) + " bytes, header says " +
                                    std::to_string(h.body_size));
  if (file_body > h.body_size)
    return err(Errc::size_mismatch,
               std::to_string(file_body - h.body_size) + " trailing bytes after the body");
  if (std::fseek(f.get(), kHeaderSize, SEEK_SET) != 0) return io_error("cannot seek", path);

  std::vector<std::uint64_t> table(h.blocks * kBlockEntry);
  if (std::fread(table.data(), 8, table.size(), f.get()) != table.size())
    return err(Errc::truncated, "block table ends early");
  for (std::uint64_t i = 0; i < h.blocks; ++i) {
    const std::uint64_t* e = table.data() + i * kBlockEntry;
    bool bad = e[0] + e[1] > SparseMatrix::kMaxColumns || e[2] > h.body_size;
    for (int t = 0; t < 3; ++t)
      bad = bad || e[3 + t] > h.body_size || e[6 + t] > e[3 + t] || e[9 + t] > e[6 + t];
    if (bad) return err(Errc::bad_encoding, "block " + std::to_string(i) + " sizes inconsistent");
  }
  if (h.body_size != table.size() * 8 + rest_size(h, table))
    return err(Errc::bad_encoding, "block table disagrees with the body size");

  BodyHash bh;
  bh.add(table.data(), table.size() * 8);
  auto read = [&](void* dst, std::size_t n) {
    const bool ok = n == 0 || std::fread(dst, 1, n, f.get()) == n;
    bh.add(dst, n);
    return ok;
  };
  CompactR1cs c;
  c.num_inputs = h.num_inputs;
  c.num_aux = h.num_aux;
  c.num_constraints = h.num_constraints;
  c.nnz_a = h.nnz[0];
  c.nnz_b = h.nnz[1];
  c.nnz_c = h.nnz[2];
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
    for (int t = 0; t < 3; ++t) {
      SparseMatrix& s = *mats[t];
      lens.resize(rows);
      s.col.resize(e[3 + t]);
      s.gen_idx.resize(e[6 + t]);
      s.coeffs.resize(e[9 + t]);
      if (!read(lens.data(), lens.size() * 4) || !read(s.col.data(), s.col.size() * 4) ||
          !read(s.gen_idx.data(), s.gen_idx.size() * 4) ||
          !read(s.coeffs.data(), s.coeffs.size() * sizeof(Fr)))
        return err(Errc::truncated,
                   "block " + std::to_string(i) + " matrix " + names[t] + " ends early");
      s.row_ptr.assign(rows + 1, 0);
      std::uint64_t off = 0;
      for (std::uint64_t k = 0; k < rows; ++k) {
        off += lens[k];
        if (off > s.col.size())
          return err(Errc::bad_encoding, "block " + std::to_string(i) + " matrix " + names[t] +
                                             " row lengths exceed its non-zeros");
        s.row_ptr[k + 1] = off;
      }
      if (off != s.col.size())
        return err(Errc::bad_encoding, "block " + std::to_string(i) + " matrix " + names[t] +
                                           " row lengths disagree with its non-zeros");
      s.rebuild_blocks();
    }
  }
  c.segments.resize(h.segments);
  c.slots.resize(h.slots);
  c.a_aux_density.resize(h.num_aux);
  c.b_input_density.resize(h.num_inputs);
  c.b_aux_density.resize(h.num_aux);
  if (!read(c.segments.data(), c.segments.size() * sizeof(CompactSegment)) ||
      !read(c.slots.data(), c.slots.size() * 4) ||
      !read(c.a_aux_density.words.data(), c.a_aux_density.words.size() * 8) ||
      !read(c.b_input_density.words.data(), c.b_input_density.words.size() * 8) ||
      !read(c.b_aux_density.words.data(), c.b_aux_density.words.size() * 8))
    return err(Errc::truncated, "segments, slots or density bitmaps end early");
  if (bh.value() != h.body_checksum)
    return err(Errc::bad_encoding, "body checksum mismatch (corrupt body)");
  for (CompactBlock& b : c.blocks) {
    for (SparseMatrix* s : {&b.m.a, &b.m.b, &b.m.c}) {
      for (const Fr& v : s->coeffs)
        if (limbs_cmp(v.l, Fr::kModulus) >= 0)
          return err(Errc::bad_encoding, "a coefficient is not below r");
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
  CachedCompact out;
  Result<CompactR1cs> loaded = load_compact_cache(path, key);
  if (loaded.ok()) {
    out.compact = std::move(loaded).value();
    out.from_cache = true;
    return out;
  }
  out.load_error = loaded.status();
  Result<CompactR1cs> built = build();
  if (!built.ok()) return built.status();
  out.compact = std::move(built).value();
  out.save_error = save_compact_cache(path, out.compact, key);
  return out;
}

}  // namespace cuzk
