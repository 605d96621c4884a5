#include "cuzk/r1cs/circom.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

namespace cuzk {
namespace {

// A bounds-checked little-endian reader; every failure names |what_|.
class Reader {
 public:
  Reader(std::span<const std::uint8_t> d, std::string what) : d_(d), what_(std::move(what)) {}
  std::size_t left() const { return d_.size() - pos_; }
  std::size_t pos() const { return pos_; }
  Status need(std::size_t n, const char* field) const {
    if (left() < n) {
      return Status(Errc::truncated, what_ + ": ends inside " + field + " (" +
                                         std::to_string(left()) + " of " + std::to_string(n) +
                                         " bytes)");
    }
    return {};
  }
  std::uint32_t u32() {
    std::uint32_t v;
    std::memcpy(&v, d_.data() + pos_, 4);
    pos_ += 4;
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v;
    std::memcpy(&v, d_.data() + pos_, 8);
    pos_ += 8;
    return v;
  }
  std::span<const std::uint8_t> bytes(std::size_t n) {
    auto s = d_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  const std::string& what() const { return what_; }

 private:
  std::span<const std::uint8_t> d_;
  std::size_t pos_ = 0;
  std::string what_;
};

using Sections = std::map<std::uint32_t, std::span<const std::uint8_t>>;

Result<Sections> parse_container(std::span<const std::uint8_t> file, const char magic[4],
                                 std::uint32_t version, const std::string& kind) {
  Reader r(file, kind);
  CUZK_RETURN_IF_ERROR(r.need(12, "the file header"));
  if (std::memcmp(file.data(), magic, 4) != 0)
    return Status(Errc::bad_encoding,
                  kind + ": wrong magic (expected \"" + std::string(magic, 4) + "\")");
  r.bytes(4);
  const std::uint32_t v = r.u32();
  if (v != version) {
    return Status(Errc::bad_encoding, kind + ": version " + std::to_string(v) + ", expected " +
                                          std::to_string(version));
  }
  const std::uint32_t n = r.u32();
  Sections s;
  for (std::uint32_t i = 0; i < n; ++i) {
    CUZK_RETURN_IF_ERROR(r.need(12, "a section header"));
    const std::uint32_t type = r.u32();
    const std::uint64_t size = r.u64();
    if (size > r.left()) {
      return Status(Errc::truncated, kind + ": section " + std::to_string(type) + " claims " +
                                         std::to_string(size) + " bytes, " +
                                         std::to_string(r.left()) + " remain");
    }
    if (s.count(type))
      return Status(Errc::bad_encoding,
                    kind + ": section " + std::to_string(type) + " appears twice");
    s[type] = r.bytes(size);
  }
  if (r.left() != 0) {
    return Status(Errc::size_mismatch, kind + ": " + std::to_string(r.left()) +
                                           " trailing bytes after " + std::to_string(n) +
                                           " sections");
  }
  return s;
}

// n8 = 32 and the prime equal to r, little-endian.
Status check_prime(Reader& r) {
  CUZK_RETURN_IF_ERROR(r.need(4, "n8"));
  const std::uint32_t n8 = r.u32();
  if (n8 != 32) {
    return Status(Errc::bad_encoding, r.what() + ": field element size " + std::to_string(n8) +
                                          " bytes, the BLS12-381 scalar field needs 32");
  }
  CUZK_RETURN_IF_ERROR(r.need(32, "the prime"));
  auto p = r.bytes(32);
  Fr::Repr q{};
  for (int i = 0; i < 4; ++i) std::memcpy(&q[i], p.data() + 8 * i, 8);
  if (q != Fr::kModulus) {
    return Status(Errc::invalid_argument, r.what() +
                                              ": prime is not the BLS12-381 scalar field r "
                                              "(compile the circuit with --prime bls12381)");
  }
  return {};
}

Result<Fr> read_fr(Reader& r, const char* field) {
  CUZK_RETURN_IF_ERROR(r.need(32, field));
  auto b = r.bytes(32);
  auto v = Fr::from_bytes_le(std::span<const std::uint8_t, 32>(b.data(), 32));
  if (!v) return Status(Errc::out_of_range, r.what() + ": " + field + " is not below r");
  return v;
}

}  // namespace

Result<std::vector<std::uint8_t>> read_file_bytes(const std::string& path) {
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) {
    if (errno == ENOENT) return Status(Errc::not_found, path + " does not exist");
    return Status(Errc::io_error, "cannot open " + path + ": " + std::strerror(errno));
  }
  // One buffer of the file's size (+1, so the read that meets end of file fits) read into directly:
  // growing it 64 KiB at a time copied the file ≈ twice and first-touched every smaller block (a
  // 2 MB witness: ≈ 175 page faults of ≈ 15 µs on the development VM). It grows when the file does.
  struct stat st {};
  const bool sized = ::fstat(::fileno(f.get()), &st) == 0 && S_ISREG(st.st_mode);
  std::vector<std::uint8_t> d(sized ? static_cast<std::size_t>(st.st_size) + 1
                                    : std::size_t{1} << 16);
  std::size_t used = 0, n;
  while ((n = std::fread(d.data() + used, 1, d.size() - used, f.get())) > 0) {
    used += n;
    if (used == d.size()) d.resize(2 * d.size());
  }
  if (std::ferror(f.get())) return Status(Errc::io_error, "cannot read " + path);
  d.resize(used);
  return d;
}

Result<CircomR1cs> parse_circom_r1cs(std::span<const std::uint8_t> file,
                                     const CircomImportOptions& opt) {
  auto secs = parse_container(file, "r1cs", 1, ".r1cs");
  if (!secs) return secs.status();
  static const char* names[4] = {"", "header", "constraints", "wire2label"};
  for (std::uint32_t id : {1u, 2u, 3u}) {
    if (!secs->count(id)) {
      return Status(Errc::bad_encoding,
                    ".r1cs: missing section " + std::to_string(id) + " (" + names[id] + ")");
    }
  }
  CircomR1cs out;
  {
    Reader r(secs->at(1), ".r1cs section 1 (header)");
    CUZK_RETURN_IF_ERROR(check_prime(r));
    CUZK_RETURN_IF_ERROR(r.need(28, "the counts"));
    out.n_wires = r.u32();
    out.n_pub_out = r.u32();
    out.n_pub_in = r.u32();
    out.n_prv_in = r.u32();
    out.n_labels = r.u64();
    out.n_constraints = r.u32();
    if (r.left() != 0)
      return Status(Errc::size_mismatch,
                    r.what() + ": " + std::to_string(r.left()) + " extra bytes");
    const std::uint64_t used = 1ull + out.n_pub_out + out.n_pub_in + out.n_prv_in;
    if (out.n_wires < used) {
      return Status(Errc::bad_encoding,
                    r.what() + ": " + std::to_string(out.n_wires) +
                        " wires cannot hold ONE and the declared inputs and outputs");
    }
    if (out.n_wires > SparseMatrix::kMaxColumns)
      return Status(Errc::out_of_range, r.what() + ": more than 2^30 wires");
  }
  const std::uint32_t ni = 1 + out.num_public();
  R1csMatrices& m = out.matrices;
  m.num_inputs = ni;
  m.num_aux = out.n_wires - ni;
  {
    Reader r(secs->at(2), ".r1cs section 2 (constraints)");
    static const char* lc_names[3] = {"LC A", "LC B", "LC C"};
    SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
    auto column = [](Variable v) { return v.index; };  // wires: column = wire id (inputs first)
    LC lc;
    for (std::uint32_t k = 0; k < out.n_constraints; ++k) {
      for (int t = 0; t < 3; ++t) {
        CUZK_RETURN_IF_ERROR(r.need(4, lc_names[t]));
        const std::uint32_t terms = r.u32();
        if (static_cast<std::uint64_t>(terms) * 36 > r.left()) {
          return Status(Errc::truncated, r.what() + ": constraint " + std::to_string(k) + " " +
                                             lc_names[t] + " declares " + std::to_string(terms) +
                                             " terms past the end");
        }
        lc = LC();
        for (std::uint32_t i = 0; i < terms; ++i) {
          const std::uint32_t wire = r.u32();
          if (wire >= out.n_wires) {
            return Status(Errc::out_of_range, r.what() + ": constraint " + std::to_string(k) +
                                                  " refers to wire " + std::to_string(wire) +
                                                  " of " + std::to_string(out.n_wires));
          }
          auto coeff = read_fr(r, "a coefficient");
          if (!coeff) return coeff.status().with_context("constraint " + std::to_string(k));
          // Variable index = wire id; kind only orders inputs before aux, which wire order already does.
          lc.add(*coeff, wire < ni ? Variable::input(wire) : Variable::aux(wire));
        }
        lc.normalize();
        mats[t]->append_row(lc.terms(), column);
      }
    }
    if (r.left() != 0) {
      return Status(Errc::size_mismatch, r.what() + ": " + std::to_string(r.left()) +
                                             " bytes after " + std::to_string(out.n_constraints) +
                                             " constraints");
    }
  }
  {
    Reader r(secs->at(3), ".r1cs section 3 (wire2label)");
    if (r.left() != 8ull * out.n_wires) {
      return Status(r.left() < 8ull * out.n_wires ? Errc::truncated : Errc::size_mismatch,
                    r.what() + ": " + std::to_string(r.left()) + " bytes, expected 8 × " +
                        std::to_string(out.n_wires));
    }
    out.wire_to_label.resize(out.n_wires);
    for (auto& l : out.wire_to_label) l = r.u64();
  }
  std::uint64_t rows = out.n_constraints;
  if (opt.append_input_constraints) {
    for (std::uint32_t i = 0; i < ni; ++i) {
      const Term t{Variable::input(i), Fr::one()};
      m.a.append_row(std::span<const Term>(&t, 1), [](Variable v) { return v.index; });
      m.b.append_empty_row();
      m.c.append_empty_row();
    }
    rows += ni;
  }
  m.num_constraints = rows;
  m.compute_density();
  Status v = m.validate();
  if (!v.ok()) return v.with_context(".r1cs");
  return out;
}

Result<CircomR1cs> read_circom_r1cs(const std::string& path, const CircomImportOptions& opt) {
  auto d = read_file_bytes(path);
  if (!d) return d.status();
  auto r = parse_circom_r1cs(*d, opt);
  if (!r) return r.status().with_context(path);
  return r;
}

Result<std::vector<Fr>> parse_snarkjs_wtns(std::span<const std::uint8_t> file) {
  auto secs = parse_container(file, "wtns", 2, ".wtns");
  if (!secs) return secs.status();
  if (!secs->count(1)) return Status(Errc::bad_encoding, ".wtns: missing section 1 (header)");
  if (!secs->count(2)) return Status(Errc::bad_encoding, ".wtns: missing section 2 (values)");
  Reader h(secs->at(1), ".wtns section 1 (header)");
  CUZK_RETURN_IF_ERROR(check_prime(h));
  CUZK_RETURN_IF_ERROR(h.need(4, "nWitness"));
  const std::uint32_t n = h.u32();
  if (h.left() != 0)
    return Status(Errc::size_mismatch, h.what() + ": " + std::to_string(h.left()) + " extra bytes");
  Reader r(secs->at(2), ".wtns section 2 (values)");
  if (r.left() != 32ull * n) {
    return Status(
        r.left() < 32ull * n ? Errc::truncated : Errc::size_mismatch,
        r.what() + ": " + std::to_string(r.left()) + " bytes for " + std::to_string(n) + " values");
  }
  std::vector<Fr> w(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    auto v = read_fr(r, "a witness value");
    if (!v) return v.status().with_context("wire " + std::to_string(i));
    w[i] = *v;
  }
  if (n == 0 || !w[0].is_one())
    return Status(Errc::bad_encoding, ".wtns: w[0] (the constant wire) is not 1");
  return w;
}

Result<std::vector<Fr>> read_snarkjs_wtns(const std::string& path) {
  auto d = read_file_bytes(path);
  if (!d) return d.status();
  auto r = parse_snarkjs_wtns(*d);
  if (!r) return r.status().with_context(path);
  return r;
}

}  // namespace cuzk
