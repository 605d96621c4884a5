#include "cuzk/r1cs/pce_cache.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "cuzk/r1cs/checked_file.hpp"
#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

// The header fields after magic, version and size (checked_file.hpp): key, num_inputs, num_aux,
// num_constraints, nnz A/B/C, general A/B/C, distinct coefficients A/B/C, body size, checksum.
constexpr CheckedFileFormat kFormat{.name = "R1CS cache",
                                    .magic = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'},
                                    .version = kR1csCacheVersion,
                                    .fields = 15,
                                    .header_seed = 0x4844,
                                    .body_seed = 0x424f4459,
                                    .key_name = "topology key"};
static_assert(kFormat.header_size() == 144);

struct Header {
  std::uint64_t num_inputs = 0, num_aux = 0, num_constraints = 0;
  std::uint64_t nnz[3] = {0, 0, 0};
  std::uint64_t general[3] = {0, 0, 0};
  std::uint64_t ncoeffs[3] = {0, 0, 0};
};

std::uint64_t body_size_of(std::uint64_t rows, const Header& h) {
  std::uint64_t s = 0;
  for (int t = 0; t < 3; ++t)
    s += 4 * rows + 4 * h.nnz[t] + 4 * h.general[t] + sizeof(Fr) * h.ncoeffs[t];
  return s;
}

}  // namespace

std::uint64_t r1cs_topology_key(std::string_view circuit_id) {
  return checksum64(circuit_id.data(), circuit_id.size(), 0x746f706f ^ kR1csCacheVersion);
}

Status save_r1cs_cache(const std::string& path, const R1csMatrices& m, std::uint64_t topology_key) {
  CUZK_RETURN_IF_ERROR(m.validate());
  const SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  std::vector<std::uint64_t> fields = {topology_key, m.num_inputs, m.num_aux, m.num_constraints};
  for (const SparseMatrix* s : mats) fields.push_back(s->nnz());
  for (const SparseMatrix* s : mats) fields.push_back(s->num_general());
  for (const SparseMatrix* s : mats) fields.push_back(s->coeffs.size());
  for (const SparseMatrix* s : mats)
    for (std::uint64_t k = 0; k < m.num_constraints; ++k)
      if (s->row_ptr[k + 1] - s->row_ptr[k] > UINT32_MAX)
        return Status(Errc::out_of_range, "a row has more than 2^32 terms");
  // Body: A, B, C in turn (put_matrix_arrays).
  std::vector<std::uint32_t> lens;
  return write_checked_file(path, kFormat, std::move(fields), [&](const auto& put) {
    for (const SparseMatrix* s : mats) put_matrix_arrays(*s, lens, put);
  });
}

Result<R1csMatrices> load_r1cs_cache(const std::string& path, std::uint64_t topology_key) {
  auto file = CheckedFileReader::open(path, kFormat, topology_key);
  if (!file.ok()) return file.status();
  CheckedFileReader& f = *file;
  Header h;
  h.num_inputs = f.field(1);
  h.num_aux = f.field(2);
  h.num_constraints = f.field(3);
  for (int t = 0; t < 3; ++t) {
    h.nnz[t] = f.field(4 + t);
    h.general[t] = f.field(7 + t);
    h.ncoeffs[t] = f.field(10 + t);
  }
  const std::uint64_t rows = h.num_constraints;
  if (rows > (std::uint64_t{1} << 40) || h.num_inputs + h.num_aux > SparseMatrix::kMaxColumns ||
      f.body_size() != body_size_of(rows, h))
    return f.error(Errc::bad_encoding, "header sizes are inconsistent");
  for (int t = 0; t < 3; ++t) {
    if (h.general[t] > h.nnz[t] || h.nnz[t] > (std::uint64_t{1} << 40) ||
        h.ncoeffs[t] > h.general[t])
      return f.error(Errc::bad_encoding, "header sizes are inconsistent");
  }

  R1csMatrices m;
  m.num_inputs = h.num_inputs;
  m.num_aux = h.num_aux;
  m.num_constraints = rows;
  SparseMatrix* mats[3] = {&m.a, &m.b, &m.c};
  static const char* names[3] = {"A", "B", "C"};
  std::vector<std::uint32_t> lens;
  for (int t = 0; t < 3; ++t)
    CUZK_RETURN_IF_ERROR(read_matrix_arrays(f, *mats[t], rows, h.nnz[t], h.general[t], h.ncoeffs[t],
                                            lens, std::string("matrix ") + names[t]));
  CUZK_RETURN_IF_ERROR(f.check_body());
  for (SparseMatrix* s : mats) {
    for (const Fr& v : s->coeffs) {
      if (limbs_cmp(v.l, Fr::kModulus) >= 0)
        return f.error(Errc::bad_encoding, "a coefficient is not below r");
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
  return load_or_build_cached(
      &CachedR1cs::matrices, [&] { return load_r1cs_cache(path, topology_key); }, build,
      [&](const R1csMatrices& m) { return save_r1cs_cache(path, m, topology_key); });
}

}  // namespace cuzk
