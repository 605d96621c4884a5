#include "cuzk/r1cs/pce_cache.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'};
constexpr std::size_t kHeaderSize = 144;

struct Header {
  std::uint32_t version = kR1csCacheVersion;
  std::uint32_t header_size = kHeaderSize;
  std::uint64_t key = 0;
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint64_t nnz[3] = {0, 0, 0};
  std::uint64_t general[3] = {0, 0, 0};
  std::uint64_t ncoeffs[3] = {0, 0, 0};
  std::uint64_t body_size = 0;
  std::uint64_t body_checksum = 0;
};

void put32(unsigned char*& p, std::uint32_t v) {
  std::memcpy(p, &v, 4);
  p += 4;
}
void put64(unsigned char*& p, std::uint64_t v) {
  std::memcpy(p, &v, 8);
  p += 8;
}
std::uint32_t get32(const unsigned char*& p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  p += 4;
  return v;
}
std::uint64_t get64(const unsigned char*& p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  p += 8;
  return v;
}

void encode_header(const Header& h, unsigned char* out) {
  unsigned char* p = out;
  std::memcpy(p, kMagic, 8);
  p += 8;
  put32(p, h.version);
  put32(p, h.header_size);
  put64(p, h.key);
  put64(p, h.num_inputs);
  put64(p, h.num_aux);
  put64(p, h.num_constraints);
  for (std::uint64_t v : h.nnz) put64(p, v);
  for (std::uint64_t v : h.general) put64(p, v);
  for (std::uint64_t v : h.ncoeffs) put64(p, v);
  put64(p, h.body_size);
  put64(p, h.body_checksum);
  put64(p, checksum64(out, kHeaderSize - 8, 0x4844));
}

std::uint64_t body_size_of(std::uint64_t rows, const Header& h) {
  std::uint64_t s = 0;
  for (int t = 0; t < 3; ++t)
    s += 4 * rows + 4 * h.nnz[t] + 4 * h.general[t] + sizeof(Fr) * h.ncoeffs[t];
  return s;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status io_error(const std::string& what, const std::string& path) {
  return Status(Errc::io_error, what + " " + path + ": " + std::strerror(errno));
}

// Per-array checksums chained into one body checksum (the arrays are hashed where they lie).
struct BodyHash {
  std::vector<std::uint64_t> parts;
  void add(const void* p, std::size_t n) { parts.push_back(checksum64(p, n, parts.size())); }
  std::uint64_t value() const { return checksum64(parts.data(), parts.size() * 8, 0x424f4459); }
};

}  // namespace

std::uint64_t r1cs_topology_key(std::string_view circuit_id) {
  return checksum64(circuit_id.data(), circuit_id.size(), 0x746f706f ^ kR1csCacheVersion);
}

Status save_r1cs_cache(const std::string& path, const R1csMatrices& m, std::uint64_t topology_key) {
  CUZK_RETURN_IF_ERROR(m.validate());
  Header h;
  h.key = topology_key;
  h.num_inputs = m.num_inputs;
  h.num_aux = m.num_aux;
  h.num_constraints = m.num_constraints;
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  std::vector<std::uint32_t> lens[3];
  BodyHash bh;
  for (int t = 0; t < 3; ++t) {
    const SparseMatrix& s = *mats[t];
    h.nnz[t] = s.nnz();
    h.general[t] = s.num_general();
    h.ncoeffs[t] = s.coeffs.size();
    lens[t].resize(m.num_constraints);
    for (std::uint64_t k = 0; k < m.num_constraints; ++k) {
      const std::uint64_t len = s.row_ptr[k + 1] - s.row_ptr[k];
      if (len > UINT32_MAX) return Status(Errc::out_of_range, "a row has more than 2^32 terms");
      lens[t][k] = static_cast<std::uint32_t>(len);
    }
    bh.add(lens[t].data(), lens[t].size() * 4);
    bh.add(s.col.data(), s.col.size() * 4);
    bh.add(s.gen_idx.data(), s.gen_idx.size() * 4);
    bh.add(s.coeffs.data(), s.coeffs.size() * sizeof(Fr));
  }
  h.body_size = body_size_of(m.num_constraints, h);
  h.body_checksum = bh.value();
  unsigned char hdr[kHeaderSize];
  encode_header(h, hdr);

  const std::string tmp = path + ".tmp";
  File f(std::fopen(tmp.c_str(), "wb"));
  if (!f) return io_error("cannot create", tmp);
  bool ok = std::fwrite(hdr, 1, kHeaderSize, f.get()) == kHeaderSize;
  for (int t = 0; t < 3 && ok; ++t) {
    const SparseMatrix& s = *mats[t];
    ok = std::fwrite(lens[t].data(), 4, lens[t].size(), f.get()) == lens[t].size() &&
         std::fwrite(s.col.data(), 4, s.col.size(), f.get()) == s.col.size() &&
         std::fwrite(s.gen_idx.data(), 4, s.gen_idx.size(), f.get()) == s.gen_idx.size() &&
         std::fwrite(s.coeffs.data(), sizeof(Fr), s.coeffs.size(), f.get()) == s.coeffs.size();
  }
  if (!ok) {
    Status s = io_error("cannot write", tmp);
    std::remove(tmp.c_str());
    return s;
  }
  if (std::fclose(f.release()) != 0) return io_error("cannot close", tmp);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return io_error("cannot rename into", path);
  return {};
}

Result<R1csMatrices> load_r1cs_cache(const std::string& path, std::uint64_t topology_key) {
  File f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    if (errno == ENOENT) return Status(Errc::not_found, "R1CS cache " + path + " does not exist");
    return io_error("cannot open R1CS cache", path);
  }
  auto err = [&](Errc c, const std::string& what) {
    return Status(c, "R1CS cache " + path + ": " + what);
  };
  unsigned char hdr[kHeaderSize];
  const std::size_t got = std::fread(hdr, 1, kHeaderSize, f.get());
  if (got < 8 || std::memcmp(hdr, kMagic, 8) != 0) {
    if (got < 8)
      return err(Errc::truncated,
                 "file is " + std::to_string(got) + " bytes, shorter than the header");
    return err(Errc::bad_encoding, "wrong magic (not a cuzk R1CS cache)");
  }
  if (got < kHeaderSize) {
    return err(Errc::truncated, "header is " + std::to_string(got) + " of " +
                                    std::to_string(kHeaderSize) + " bytes");
  }
  const unsigned char* p = hdr + 8;
  Header h;
  h.version = get32(p);
  h.header_size = get32(p);
  if (h.version != kR1csCacheVersion) {
    return err(Errc::bad_encoding, "version " + std::to_string(h.version) +
                                       ", this build reads version " +
                                       std::to_string(kR1csCacheVersion) + " (stale)");
  }
  const unsigned char* hp = hdr + kHeaderSize - 8;
  if (h.header_size != kHeaderSize || get64(hp) != checksum64(hdr, kHeaderSize - 8, 0x4844))
    return err(Errc::bad_encoding, "header checksum mismatch (corrupt header)");
  h.key = get64(p);
  h.num_inputs = get64(p);
  h.num_aux = get64(p);
  h.num_constraints = get64(p);
  for (auto& v : h.nnz) v = get64(p);
  for (auto& v : h.general) v = get64(p);
  for (auto& v : h.ncoeffs) v = get64(p);
  h.body_size = get64(p);
  h.body_checksum = get64(p);
  if (h.key != topology_key) {
    return err(Errc::invalid_argument, "stale: written for topology key " + std::to_string(h.key) +
                                           ", expected " + std::to_string(topology_key));
  }
  const std::uint64_t rows = h.num_constraints;
  if (rows > (std::uint64_t{1} << 40) || h.num_inputs + h.num_aux > SparseMatrix::kMaxColumns ||
      h.body_size != body_size_of(rows, h)) {
    return err(Errc::bad_encoding, "header sizes are inconsistent");
  }
  for (int t = 0; t < 3; ++t) {
    if (h.general[t] > h.nnz[t] || h.nnz[t] > (std::uint64_t{1} << 40) ||
        h.ncoeffs[t] > h.general[t])
      return err(Errc::bad_encoding, "header sizes are inconsistent");
  }
  // Compare the file length with the header before allocating anything.
  if (std::fseek(f.get(), 0, SEEK_END) != 0) return io_error("cannot seek", path);
  const long end = std::ftell(f.get());
  if (end < 0) return io_error("cannot tell", path);
  const auto file_body = static_cast<std::uint64_t>(end) - kHeaderSize;
  if (file_body < h.body_size) {
    return err(Errc::truncated, "body is " + std::to_string(file_body) + " bytes, header says " +
                                    std::to_string(h.body_size));
  }
  if (file_body > h.body_size) {
    return err(Errc::size_mismatch,
               std::to_string(file_body - h.body_size) + " trailing bytes after the body");
  }
  if (std::fseek(f.get(), kHeaderSize, SEEK_SET) != 0) return io_error("cannot seek", path);

  R1csMatrices m;
  m.num_inputs = h.num_inputs;
  m.num_aux = h.num_aux;
  m.num_constraints = rows;
  SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  static const char* names[3] = {"A", "B", "C"};
  BodyHash bh;
  std::vector<std::uint32_t> lens(rows);
  for (int t = 0; t < 3; ++t) {
    SparseMatrix& s = *mats[t];
    s.col.resize(h.nnz[t]);
    s.gen_idx.resize(h.general[t]);
    s.coeffs.resize(h.ncoeffs[t]);
    if (std::fread(lens.data(), 4, rows, f.get()) != rows ||
        std::fread(s.col.data(), 4, s.col.size(), f.get()) != s.col.size() ||
        std::fread(s.gen_idx.data(), 4, s.gen_idx.size(), f.get()) != s.gen_idx.size() ||
        std::fread(s.coeffs.data(), sizeof(Fr), s.coeffs.size(), f.get()) != s.coeffs.size()) {
      return err(Errc::truncated, std::string("matrix ") + names[t] + " ends early");
    }
    bh.add(lens.data(), lens.size() * 4);
    bh.add(s.col.data(), s.col.size() * 4);
    bh.add(s.gen_idx.data(), s.gen_idx.size() * 4);
    bh.add(s.coeffs.data(), s.coeffs.size() * sizeof(Fr));
    // Offsets from lengths; block offsets from the kind bits.
    s.row_ptr.assign(rows + 1, 0);
    std::uint64_t e = 0;
    for (std::uint64_t k = 0; k < rows; ++k) {
      e += lens[k];
      if (e > s.col.size())
        return err(Errc::bad_encoding,
                   std::string("matrix ") + names[t] + " row lengths exceed nnz");
      s.row_ptr[k + 1] = e;
    }
    s.rebuild_blocks();
  }
  if (bh.value() != h.body_checksum)
    return err(Errc::bad_encoding, "body checksum mismatch (corrupt body)");
  for (SparseMatrix* s : mats) {
    for (const Fr& v : s->coeffs) {
      if (limbs_cmp(v.l, Fr::kModulus) >= 0)
        return err(Errc::bad_encoding, "a coefficient is not below r");
    }
    s->rebuild_index();
  }
  m.a_aux_density.resize(m.num_aux);
  m.b_aux_density.resize(m.num_aux);
  m.b_input_density.resize(m.num_inputs);
  Status v = m.validate();
  if (!v.ok()) return v.with_context("R1CS cache " + path);
  m.compute_density();
  return m;
}

Result<CachedR1cs> load_or_build_r1cs(const std::string& path, std::uint64_t topology_key,
                                      const std::function<Result<R1csMatrices>()>& build) {
  CachedR1cs out;
  Result<R1csMatrices> loaded = load_r1cs_cache(path, topology_key);
  if (loaded.ok()) {
    out.matrices = std::move(loaded).value();
    out.from_cache = true;
    return out;
  }
  out.load_error = loaded.status();
  Result<R1csMatrices> built = build();
  if (!built.ok()) return built.status();
  out.matrices = std::move(built).value();
  out.save_error = save_r1cs_cache(path, out.matrices, topology_key);
  return out;
}

}  // namespace cuzk
