#include "cuzk/formats/zkey.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "cuzk/ec/batch_decode.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ff/fp.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/prove.hpp"

namespace cuzk {

namespace {

const char* section_name(std::uint32_t id) {
  switch (id) {
    case 1:
      return "1 (protocol)";
    case 2:
      return "2 (header)";
    case 3:
      return "3 (IC)";
    case 4:
      return "4 (coefficients)";
    case 5:
      return "5 (A)";
    case 6:
      return "6 (B1)";
    case 7:
      return "7 (B2)";
    case 8:
      return "8 (C)";
    case 9:
      return "9 (H)";
    case 10:
      return "10 (contributions)";
  }
  return "unknown";
}

std::string sec(std::uint32_t id) { return std::string("zkey section ") + section_name(id); }

// R² mod r as an element, for writing c·R².
const Fr kR2 = Fr::from_canonical_unchecked(Fr::kR2);

template <std::size_t N>
bool bytes_equal_le(std::span<const std::uint8_t> b, const Limbs<N>& l) {
  if (b.size() != N * 8) return false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i] != static_cast<std::uint8_t>(l[i / 8] >> (8 * (i % 8)))) return false;
  return true;
}

template <std::size_t N>
void put_limbs_le(std::vector<std::uint8_t>& out, const Limbs<N>& l) {
  for (std::size_t i = 0; i < N * 8; ++i)
    out.push_back(static_cast<std::uint8_t>(l[i / 8] >> (8 * (i % 8))));
}

// Sized for the decoder to write every entry (a key table: fresh memory, no serial fill).
template <class T>
void size_for_decode(PointArray<T>& a, std::size_t n) {
  a = PointArray<T>::for_overwrite(n);
}
template <class T>
void size_for_decode(std::vector<T>& v, std::size_t n) {
  v.resize(n);
}

// size_mismatch naming section |id| unless it holds exactly |count| points of |point_bytes| (|group|).
Status check_point_section(std::span<const std::uint8_t> b, std::size_t count, std::uint32_t id,
                           std::size_t point_bytes, const char* group) {
  if (b.size() == count * point_bytes) return {};
  return Status(Errc::size_mismatch, sec(id) + ": " + std::to_string(b.size()) +
                                         " bytes, expected " + std::to_string(count) + " " + group +
                                         " points (" + std::to_string(count * point_bytes) +
                                         " bytes)");
}

template <class Out>
Status decode_g1s(std::span<const std::uint8_t> b, Out& out, std::size_t count, std::uint32_t id,
                  ThreadPool& pool, bool subgroup) {
  CUZK_RETURN_IF_ERROR(check_point_section(b, count, id, kG1LemBytes, "G1"));
  size_for_decode(out, count);
  Status s =
      decode_g1_batch(b, out, pool, {.form = PointForm::snarkjs_lem, .check_subgroup = subgroup});
  return s.with_context(sec(id));
}

template <class Out>
Status decode_g2s(std::span<const std::uint8_t> b, Out& out, std::size_t count, std::uint32_t id,
                  ThreadPool& pool, bool subgroup) {
  CUZK_RETURN_IF_ERROR(check_point_section(b, count, id, kG2LemBytes, "G2"));
  size_for_decode(out, count);
  Status s =
      decode_g2_batch(b, out, pool, {.form = PointForm::snarkjs_lem, .check_subgroup = subgroup});
  return s.with_context(sec(id));
}

struct Coef {
  std::uint32_t row, col;
  Fr val;
};

// Rows of one matrix from (row, col, value) entries: sorted by row then column, repeated columns
// merged, zeros dropped, ±1 stored by kind (SparseMatrix's row layout).
SparseMatrix build_matrix(std::vector<Coef>& e, std::size_t rows) {
  auto by_row_col = [](const Coef& x, const Coef& y) {
    return std::tie(x.row, x.col) < std::tie(y.row, y.col);
  };
  if (!std::is_sorted(e.begin(), e.end(), by_row_col))
    std::sort(e.begin(), e.end(), by_row_col);  // snarkjs writes them sorted
  SparseMatrix m;
  std::size_t i = 0;
  std::vector<Term> terms;
  for (std::size_t r = 0; r < rows; ++r) {
    terms.clear();
    for (; i < e.size() && e[i].row == r; ++i) {
      if (!terms.empty() && terms.back().var.index == e[i].col)
        terms.back().coeff += e[i].val;
      else
        terms.push_back({Variable::input(e[i].col), e[i].val});
    }
    std::erase_if(terms, [](const Term& t) { return t.coeff.is_zero(); });
    m.append_row(terms, [](const Variable& v) { return v.index; });
  }
  return m;
}

}  // namespace

Result<SnarkjsZkey> parse_zkey(std::span<const std::uint8_t> file, const ZkeyReadOptions& opt) {
  ThreadPool serial(1);
  ThreadPool& pool = opt.pool != nullptr ? *opt.pool : serial;
  ZkeyReadTimings tm_local;
  ZkeyReadTimings& tm = opt.timings != nullptr ? *opt.timings : tm_local;
  auto lap = [t = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
  };
  ByteReader r(file, "zkey");
  auto magic = r.take(4, "magic");
  if (!magic.ok()) return magic.status();
  if (!std::equal(magic->begin(), magic->end(), "zkey"))
    return Status(Errc::bad_encoding, "zkey: magic is not \"zkey\"");
  auto version = r.u32_le("version");
  if (!version.ok()) return version.status();
  if (*version != 1)
    return Status(Errc::bad_encoding, "zkey: version " + std::to_string(*version) + ", expected 1");
  auto nsec = r.u32_le("section count");
  if (!nsec.ok()) return nsec.status();
  std::map<std::uint32_t, std::span<const std::uint8_t>> sections;
  for (std::uint32_t i = 0; i < *nsec; ++i) {
    auto id = r.u32_le("section " + std::to_string(i) + " id");
    if (!id.ok()) return id.status();
    auto size = r.u64_le("section " + std::to_string(*id) + " size");
    if (!size.ok()) return size.status();
    auto body = r.take(*size, sec(*id));
    if (!body.ok()) return body.status();
    if (!sections.emplace(*id, *body).second)
      return Status(Errc::bad_encoding, "zkey: section " + std::to_string(*id) + " appears twice");
  }
  if (r.remaining() != 0)
    return Status(Errc::bad_encoding, "zkey: " + std::to_string(r.remaining()) +
                                          " trailing bytes after the last section");
  for (std::uint32_t id = 1; id <= 9; ++id)
    if (!sections.count(id)) return Status(Errc::bad_encoding, sec(id) + " is missing");

  ByteReader s1(sections[1], sec(1));
  auto protocol = s1.u32_le("protocol");
  if (!protocol.ok()) return protocol.status();
  if (*protocol != 1)
    return Status(Errc::unimplemented,
                  sec(1) + ": protocol " + std::to_string(*protocol) + " is not groth16 (1)");

  SnarkjsZkey z;
  ProvingKey& pk = z.pk;
  pk.layout = KeyLayout::snarkjs;
  ByteReader h(sections[2], sec(2));
  auto n8q = h.u32_le("n8q");
  if (!n8q.ok()) return n8q.status();
  if (*n8q != 48)
    return Status(Errc::bad_encoding,
                  sec(2) + ": n8q = " + std::to_string(*n8q) + ", expected 48 (bls12381)");
  auto q = h.take(48, "q");
  if (!q.ok()) return q.status();
  if (!bytes_equal_le(*q, Fp::kModulus))
    return Status(Errc::bad_encoding, sec(2) + ": q is not the BLS12-381 base field");
  auto n8r = h.u32_le("n8r");
  if (!n8r.ok()) return n8r.status();
  if (*n8r != 32)
    return Status(Errc::bad_encoding, sec(2) + ": n8r = " + std::to_string(*n8r) + ", expected 32");
  auto rr = h.take(32, "r");
  if (!rr.ok()) return rr.status();
  if (!bytes_equal_le(*rr, Fr::kModulus))
    return Status(Errc::bad_encoding, sec(2) + ": r is not the BLS12-381 scalar field");
  auto n_vars = h.u32_le("nVars");
  auto n_public = h.u32_le("nPublic");
  auto domain = h.u32_le("domainSize");
  if (!domain.ok()) return domain.status();
  z.n_vars = *n_vars;
  z.n_public = *n_public;
  if (z.n_public + 1 > z.n_vars)
    return Status(Errc::size_mismatch, sec(2) + ": nPublic = " + std::to_string(z.n_public) +
                                           " with nVars = " + std::to_string(z.n_vars));
  if (*domain == 0 || (*domain & (*domain - 1)) != 0)
    return Status(Errc::bad_encoding,
                  sec(2) + ": domainSize " + std::to_string(*domain) + " is not a power of two");
  pk.domain_size = *domain;
  {
    std::vector<G1Affine> g1;
    std::vector<G2Affine> g2;
    std::vector<std::uint8_t> b1, b2;
    auto pts = [&](bool is_g2, const char* name) -> Status {
      auto b = h.take(is_g2 ? kG2LemBytes : kG1LemBytes, name);
      if (!b.ok()) return b.status();
      auto& dst = is_g2 ? b2 : b1;
      dst.insert(dst.end(), b->begin(), b->end());
      return {};
    };
    CUZK_RETURN_IF_ERROR(pts(false, "alpha1"));
    CUZK_RETURN_IF_ERROR(pts(false, "beta1"));
    CUZK_RETURN_IF_ERROR(pts(true, "beta2"));
    CUZK_RETURN_IF_ERROR(pts(true, "gamma2"));
    CUZK_RETURN_IF_ERROR(pts(false, "delta1"));
    CUZK_RETURN_IF_ERROR(pts(true, "delta2"));
    if (h.remaining() != 0)
      return Status(Errc::bad_encoding,
                    sec(2) + ": " + std::to_string(h.remaining()) + " trailing bytes");
    CUZK_RETURN_IF_ERROR(decode_g1s(b1, g1, 3, 2, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g2s(b2, g2, 3, 2, pool, opt.check_subgroup));
    pk.vk.alpha_g1 = g1[0];
    pk.vk.beta_g1 = g1[1];
    pk.vk.delta_g1 = g1[2];
    pk.vk.beta_g2 = g2[0];
    pk.vk.gamma_g2 = g2[1];
    pk.vk.delta_g2 = g2[2];
  }
  const std::size_t nv = z.n_vars, np = z.n_public, n = pk.domain_size;
  tm.header = lap();
  if (opt.points) {
    CUZK_RETURN_IF_ERROR(decode_g1s(sections[3], pk.vk.ic, np + 1, 3, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g1s(sections[5], pk.a, nv, 5, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g1s(sections[6], pk.b_g1, nv, 6, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g2s(sections[7], pk.b_g2, nv, 7, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g1s(sections[8], pk.l, nv - np - 1, 8, pool, opt.check_subgroup));
    CUZK_RETURN_IF_ERROR(decode_g1s(sections[9], pk.h, n, 9, pool, opt.check_subgroup));
  } else {
    const std::pair<std::uint32_t, std::size_t> g1_counts[] = {
        {3, np + 1}, {5, nv}, {6, nv}, {8, nv - np - 1}, {9, n}};
    for (const auto& [id, count] : g1_counts)
      CUZK_RETURN_IF_ERROR(check_point_section(sections[id], count, id, kG1LemBytes, "G1"));
    CUZK_RETURN_IF_ERROR(check_point_section(sections[7], nv, 7, kG2LemBytes, "G2"));
  }
  tm.points = lap();
  if (!opt.coefficients) return z;

  // Section 4: coefficients.
  ByteReader c(sections[4], sec(4));
  auto n_coef = c.u32_le("nCoef");
  if (!n_coef.ok()) return n_coef.status();
  if (c.remaining() != std::uint64_t{*n_coef} * 44)
    return Status(Errc::size_mismatch,
                  sec(4) + ": " + std::to_string(*n_coef) + " coefficients need " +
                      std::to_string(std::uint64_t{*n_coef} * 44) + " bytes, the section has " +
                      std::to_string(c.remaining()));
  // Entries decoded in parallel into one array (matrix kept beside), then split by matrix in
  // file order. A bad entry stops the loop; the lowest bad index is then decoded again serially
  // for its message, so the error names the same coefficient whatever the thread count.
  const std::size_t nc = *n_coef;
  const std::uint8_t* base = sections[4].data() + 4;
  auto u32_at = [](const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  auto decode_coef = [&](std::size_t i, Coef& out, std::uint8_t& mat) -> Status {
    const std::uint8_t* e = base + i * 44;
    const std::uint32_t mm = u32_at(e), row = u32_at(e + 4), sig = u32_at(e + 8);
    auto where = [&] { return sec(4) + ": coefficient " + std::to_string(i); };
    if (mm > 1)
      return Status(Errc::bad_encoding,
                    where() + ": matrix " + std::to_string(mm) + " (only A = 0 and B = 1)");
    if (sig >= nv)
      return Status(Errc::out_of_range,
                    where() + ": signal " + std::to_string(sig) + " ≥ nVars " + std::to_string(nv));
    if (row >= n)
      return Status(Errc::out_of_range, where() + ": constraint " + std::to_string(row) +
                                            " ≥ domainSize " + std::to_string(n));
    Limbs<4> v;
    std::memcpy(v.data(), e + 12, 32);  // little-endian limbs (x86-64)
    if (limbs_cmp(v, Fr::kModulus) >= 0)
      return Status(Errc::out_of_range, where() + ": value is not below r");
    // v = c·R² (canonical), so one Montgomery reduction gives c·R, the Montgomery form of c.
    out = {row, sig, Fr::from_mont_unchecked(Fr::from_mont_unchecked(v).to_canonical())};
    mat = static_cast<std::uint8_t>(mm);
    return {};
  };
  std::vector<Coef> all(nc);
  std::vector<std::uint8_t> which(nc);
  std::atomic<std::size_t> first_bad{nc};
  pool.parallel_for(
      nc,
      [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e && i < first_bad.load(std::memory_order_relaxed); ++i) {
          if (decode_coef(i, all[i], which[i]).ok()) continue;
          std::size_t cur = first_bad.load();
          while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
          }
          return;
        }
      },
      4096);
  if (first_bad.load() < nc) {
    Coef c0;
    std::uint8_t m0;
    return decode_coef(first_bad.load(), c0, m0);
  }
  std::vector<Coef> ea, eb;
  std::uint32_t max_row = 0;
  {
    std::size_t na = 0;
    for (std::uint8_t w : which) na += w == 0;
    ea.reserve(na);
    eb.reserve(nc - na);
    for (std::size_t i = 0; i < nc; ++i) {
      (which[i] == 0 ? ea : eb).push_back(all[i]);
      max_row = std::max(max_row, all[i].row);
    }
  }
  R1csMatrices& m = z.matrices;
  m.num_inputs = np + 1;
  m.num_aux = nv - np - 1;
  m.num_constraints = *n_coef == 0 ? 0 : std::uint64_t{max_row} + 1;
  // The prover's rule (domain_fits): snarkjs's last rows are the public inputs' and always have
  // coefficients, so a key that parses can be proved with and written back.
  if (!domain_fits(n, m.num_constraints))
    return Status(Errc::size_mismatch,
                  sec(4) + ": domainSize " + std::to_string(n) + " is larger than the " +
                      std::to_string(m.num_constraints) +
                      " constraints with coefficients need (the smallest power of two holding "
                      "them)");
  m.a = build_matrix(ea, m.num_constraints);
  m.b = build_matrix(eb, m.num_constraints);
  for (std::size_t i = 0; i < m.num_constraints; ++i) m.c.append_empty_row();
  m.a_aux_density.resize(m.num_aux);
  m.b_input_density.resize(m.num_inputs);
  m.b_aux_density.resize(m.num_aux);
  m.compute_density();
  CUZK_RETURN_IF_ERROR(m.validate().with_context(sec(4)));
  tm.coefficients = lap();
  return z;
}

Result<SnarkjsZkey> read_zkey(const std::string& path, const ZkeyReadOptions& opt) {
  auto f = MappedFile::open(path);
  if (!f.ok()) return f.status();
  auto z = parse_zkey(f->bytes(), opt);
  if (!z.ok()) return z.status().with_context(path);
  return z;
}

Result<std::vector<std::uint8_t>> write_zkey(const ProvingKey& pk, const R1csMatrices& m,
                                             ThreadPool* pool_opt) {
  ThreadPool serial(1);
  ThreadPool& pool = pool_opt != nullptr ? *pool_opt : serial;
  if (pk.layout != KeyLayout::snarkjs)
    return Status(Errc::invalid_argument, "write_zkey: the key has the bellperson layout");
  CUZK_RETURN_IF_ERROR(check_key_matches(pk, m));
  const std::uint32_t nv = static_cast<std::uint32_t>(m.num_columns());
  const std::uint32_t np = static_cast<std::uint32_t>(m.num_inputs - 1);
  auto g1s = [&](std::span<const G1Affine> pts) {
    std::vector<std::uint8_t> b(pts.size() * kG1LemBytes);
    (void)encode_g1_batch(pts, b, PointForm::snarkjs_lem, pool);
    return b;
  };
  auto g2s = [&](std::span<const G2Affine> pts) {
    std::vector<std::uint8_t> b(pts.size() * kG2LemBytes);
    (void)encode_g2_batch(pts, b, PointForm::snarkjs_lem, pool);
    return b;
  };
  std::vector<std::uint8_t> s1, s2, s4, s10(64, 0);
  put_u32_le(s1, 1);
  put_u32_le(s2, 48);
  put_limbs_le(s2, Fp::kModulus);
  put_u32_le(s2, 32);
  put_limbs_le(s2, Fr::kModulus);
  put_u32_le(s2, nv);
  put_u32_le(s2, np);
  put_u32_le(s2, static_cast<std::uint32_t>(pk.domain_size));
  for (const auto& b : {g1s(std::span<const G1Affine>(&pk.vk.alpha_g1, 1)),
                        g1s(std::span<const G1Affine>(&pk.vk.beta_g1, 1)),
                        g2s(std::span<const G2Affine>(&pk.vk.beta_g2, 1)),
                        g2s(std::span<const G2Affine>(&pk.vk.gamma_g2, 1)),
                        g1s(std::span<const G1Affine>(&pk.vk.delta_g1, 1)),
                        g2s(std::span<const G2Affine>(&pk.vk.delta_g2, 1))})
    s2.insert(s2.end(), b.begin(), b.end());
  // Section 4: per row, the A terms then the B terms.
  std::uint32_t count = 0;
  put_u32_le(s4, 0);
  for (std::size_t k = 0; k < m.num_constraints; ++k) {
    for (std::uint32_t mat = 0; mat < 2; ++mat) {
      (mat == 0 ? m.a : m.b).for_each_term(k, [&](std::uint32_t col, const Fr& v) {
        put_u32_le(s4, mat);
        put_u32_le(s4, static_cast<std::uint32_t>(k));
        put_u32_le(s4, col);
        put_limbs_le(s4, (v * kR2).to_canonical());
        ++count;
      });
    }
  }
  for (int i = 0; i < 4; ++i) s4[i] = static_cast<std::uint8_t>(count >> (8 * i));
  put_u32_le(s10, 0);
  std::vector<std::uint8_t> out = {'z', 'k', 'e', 'y'};
  put_u32_le(out, 1);
  put_u32_le(out, 10);
  auto add = [&](std::uint32_t id, const std::vector<std::uint8_t>& body) {
    put_u32_le(out, id);
    put_u64_le(out, body.size());
    out.insert(out.end(), body.begin(), body.end());
  };
  add(1, s1);
  add(2, s2);
  add(4, s4);
  add(3, g1s(pk.vk.ic));
  add(9, g1s(pk.h));
  add(8, g1s(pk.l));
  add(5, g1s(pk.a));
  add(6, g1s(pk.b_g1));
  add(7, g2s(pk.b_g2));
  add(10, s10);
  return out;
}

}  // namespace cuzk
