#include "cuzk/backend/backend_ops.hpp"

#include <memory>
#include <random>

#include "cuzk/ec/batch_affine.hpp"

namespace cuzk {
namespace {

Fr random_fr(std::mt19937_64& rng) {
  Limbs<4> c{};
  for (auto& w : c) w = rng();
  c[3] &= 0x7fffffffffffffffULL;
  return Fr::from_limbs_reduce(c);
}

// n distinct subgroup points from a walk P_{i+1} = P_i + S_{i mod 7}, one batch conversion.
template <class C>
std::vector<Affine<C>> walk_bases(std::size_t n, std::mt19937_64& rng) {
  std::vector<Jacobian<C>> steps;
  for (int i = 0; i < 8; ++i) steps.push_back(mul_vartime(Jacobian<C>::generator(), random_fr(rng)));
  std::vector<Jacobian<C>> j(n);
  Jacobian<C> acc = steps[7];
  for (std::size_t i = 0; i < n; ++i) {
    acc += steps[i % 7];
    j[i] = acc;
  }
  return batch_to_affine_vartime<C>(j);
}

std::vector<Fr> op_scalars(std::size_t n, bool filecoin_mix, std::mt19937_64& rng) {
  std::vector<Fr> s(n);
  for (auto& k : s) {
    const auto r = rng() % 100;
    if (filecoin_mix && r < 36) k = Fr::zero();
    else if (filecoin_mix && r < 72) k = Fr::one();
    else k = random_fr(rng);
  }
  return s;
}

// A base table that is released when the last copy of the op is destroyed.
struct Table {
  Backend* backend;
  BasesId id;
  ~Table() { (void)backend->release_bases(id); }
};

}  // namespace

std::vector<std::string> backend_op_names() {
  return {"coset-ntt", "h-compute", "msm-g1", "msm-g1-filecoin-mix", "msm-g2", "ntt"};
}

unsigned backend_op_default_log_n(std::string_view op) {
  if (op == "ntt" || op == "coset-ntt" || op == "h-compute") return 16;
  if (op == "msm-g1" || op == "msm-g1-filecoin-mix") return 14;
  if (op == "msm-g2") return 12;
  return 0;
}

Result<BackendOp> make_backend_op(std::string_view op, unsigned log_n, Backend& backend) {
  if (backend_op_default_log_n(op) == 0) {
    return Status(Errc::invalid_argument, "unknown backend op '" + std::string(op) + "'");
  }
  if (log_n > 28) return Status(Errc::invalid_argument, "backend op sizes stop at 2^28");
  const std::size_t n = std::size_t{1} << log_n;
  std::mt19937_64 rng(0x5eed + log_n);
  if (op == "ntt" || op == "coset-ntt") {
    auto v = std::make_shared<std::vector<Fr>>(op_scalars(n, false, rng));
    const NttOptions opt{.coset = op == "coset-ntt"};
    return BackendOp{[v, opt, &backend] { return backend.ntt(*v, opt); }, n};
  }
  if (op == "h-compute") {
    // A satisfied system: c = a·b on every point. a, b, c are consumed, so each run copies them
    // (3n element copies, small against seven transforms).
    struct Inputs {
      std::vector<Fr> a, b, c, wa, wb, wc, h;
    };
    auto in = std::make_shared<Inputs>();
    in->a = op_scalars(n, false, rng);
    in->b = op_scalars(n, true, rng);
    in->c.resize(n);
    for (std::size_t i = 0; i < n; ++i) in->c[i] = in->a[i] * in->b[i];
    in->h.resize(n - 1);
    return BackendOp{[in, &backend] {
                       in->wa = in->a;
                       in->wb = in->b;
                       in->wc = in->c;
                       return backend.compute_h({in->wa, in->wb, in->wc}, in->h);
                     },
                     n};
  }
  const bool mix = op == "msm-g1-filecoin-mix";
  auto scalars = std::make_shared<std::vector<Fr>>(op_scalars(n, mix, rng));
  if (op == "msm-g2") {
    auto id = backend.load_bases_g2(walk_bases<G2Curve>(n, rng));
    if (!id.ok()) return id.status();
    auto table = std::shared_ptr<Table>(new Table{&backend, *id});
    return BackendOp{[table, scalars, &backend] { return backend.msm_g2(table->id, *scalars, {}).status(); }, n};
  }
  auto id = backend.load_bases_g1(walk_bases<G1Curve>(n, rng));
  if (!id.ok()) return id.status();
  auto table = std::shared_ptr<Table>(new Table{&backend, *id});
  return BackendOp{[table, scalars, &backend] { return backend.msm_g1(table->id, *scalars, {}).status(); }, n};
}

}  // namespace cuzk
