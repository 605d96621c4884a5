#include "cuzk/backend/cpu_backend.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <type_traits>
#include <vector>

#include "cuzk/msm/msm.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {

namespace {

MsmConfig to_config(const MsmOptions& o) {
  return {
      .density_bits = o.density.bits, .base_offset = o.density.base_offset, .split = o.bit_split};
}

// log2 of a power-of-two length ≤ 2^32, or an error naming |what|.
Result<unsigned> log2_length(std::size_t n, const char* what) {
  if (n == 0 || !std::has_single_bit(n) || n > (std::size_t{1} << 32)) {
    return Status(Errc::invalid_argument, std::string(what) + ": length " + std::to_string(n) +
                                              " is not a power of two ≤ 2^32");
  }
  return static_cast<unsigned>(std::countr_zero(n));
}

}  // namespace

CpuBackend::CpuBackend(ThreadPool& pool) : pool_(pool) {}

std::size_t CpuBackend::loaded_tables() const {
  std::lock_guard<std::mutex> lock(mu_);
  return tables_.size();
}

Result<BasesId> CpuBackend::insert(Table table) {
  auto shared = std::make_shared<const Table>(std::move(table));
  std::lock_guard<std::mutex> lock(mu_);
  const std::uint64_t id = next_id_++;
  tables_.emplace(id, std::move(shared));
  return BasesId{id};
}

Result<BasesId> CpuBackend::load_bases_g1(std::span<const G1Affine> bases) {
  auto copy = std::make_shared<const std::vector<G1Affine>>(bases.begin(), bases.end());
  return insert(G1Table{std::span<const G1Affine>(*copy), copy});
}

Result<BasesId> CpuBackend::load_bases_g2(std::span<const G2Affine> bases) {
  auto copy = std::make_shared<const std::vector<G2Affine>>(bases.begin(), bases.end());
  return insert(G2Table{std::span<const G2Affine>(*copy), copy});
}

Result<BasesId> CpuBackend::load_bases_g1_shared(std::span<const G1Affine> bases,
                                                 std::shared_ptr<const void> owner) {
  if (!owner) return load_bases_g1(bases);
  return insert(G1Table{bases, std::move(owner)});
}

Result<BasesId> CpuBackend::load_bases_g2_shared(std::span<const G2Affine> bases,
                                                 std::shared_ptr<const void> owner) {
  if (!owner) return load_bases_g2(bases);
  return insert(G2Table{bases, std::move(owner)});
}

Status CpuBackend::release_bases(BasesId id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (tables_.erase(id.value) == 0) {
    return Status(Errc::not_found,
                  "cpu backend: no base table with id " + std::to_string(id.value));
  }
  return {};
}

std::shared_ptr<const CpuBackend::Table> CpuBackend::find(BasesId id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(id.value);
  return it == tables_.end() ? nullptr : it->second;
}

Result<std::shared_ptr<const NttPlan>> CpuBackend::plan(unsigned log_n,
                                                        const DomainOptions& options) {
  const PlanKey key{log_n, options.roots, options.coset_shift.l};
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = plans_.find(key);
    if (it != plans_.end()) return it->second;
  }
  auto domain = Domain::from_log_size(log_n, options);
  if (!domain.ok()) return domain.status();
  auto built = std::make_shared<const NttPlan>(*domain);  // O(√n), outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  return plans_.try_emplace(key, std::move(built)).first->second;
}

Status CpuBackend::ntt(std::span<Fr> values, const NttOptions& options) {
  auto log_n = log2_length(values.size(), "cpu ntt");
  if (!log_n.ok()) return log_n.status();
  auto p = plan(*log_n, {.coset_shift = Fr::from_u64(options.coset_shift)});
  if (!p.ok()) return p.status();
  return cuzk::ntt(values, **p, {.direction = options.direction, .coset = options.coset}, pool_);
}

template <class C>
Result<Jacobian<C>> CpuBackend::msm_on(ThreadPool& pool, BasesId bases, std::span<const Fr> scalars,
                                       const MsmOptions& options) {
  constexpr bool kG2 = std::is_same_v<C, G2Curve>;
  const char* what = kG2 ? "cpu msm_g2" : "cpu msm_g1";
  auto table = find(bases);
  if (!table)
    return Status(Errc::not_found,
                  std::string(what) + ": no base table with id " + std::to_string(bases.value));
  const auto* view = std::get_if<View<Affine<C>>>(table.get());
  if (!view) {
    return Status(Errc::invalid_argument, std::string(what) + ": base table " +
                                              std::to_string(bases.value) +
                                              (kG2 ? " holds G1 points" : " holds G2 points"));
  }
  return msm<C>(view->points, scalars, pool, to_config(options));
}

Result<G1Jacobian> CpuBackend::msm_g1(BasesId bases, std::span<const Fr> scalars,
                                      const MsmOptions& options) {
  return msm_on<G1Curve>(pool_, bases, scalars, options);
}

Result<G2Jacobian> CpuBackend::msm_g2(BasesId bases, std::span<const Fr> scalars,
                                      const MsmOptions& options) {
  return msm_on<G2Curve>(pool_, bases, scalars, options);
}

Status CpuBackend::compute_h(HInputs inputs, std::span<Fr> h) {
  const std::size_t n = inputs.a.size();
  if (inputs.b.size() != n || inputs.c.size() != n) {
    return Status(Errc::size_mismatch, "cpu compute_h: a, b, c have lengths " + std::to_string(n) +
                                           ", " + std::to_string(inputs.b.size()) + ", " +
                                           std::to_string(inputs.c.size()));
  }
  auto log_n = log2_length(n, "cpu compute_h");
  if (!log_n.ok()) return log_n.status();
  const bool snarkjs = inputs.convention == HConvention::snarkjs;
  const std::size_t h_len = snarkjs ? n : n - 1;
  if (h.size() != h_len) {
    return Status(Errc::size_mismatch, "cpu compute_h: h has length " + std::to_string(h.size()) +
                                           ", expected " + std::to_string(h_len));
  }
  auto p = plan(*log_n, snarkjs ? snarkjs_domain_options(*log_n) : DomainOptions{});
  if (!p.ok()) return p.status();
  if (snarkjs) {
    CUZK_RETURN_IF_ERROR(cuzk::compute_h_snarkjs(inputs.a, inputs.b, inputs.c, **p, pool_));
  } else {
    CUZK_RETURN_IF_ERROR(cuzk::compute_h(inputs.a, inputs.b, inputs.c, **p, pool_));
  }
  if (h.data() != inputs.a.data())  // h may be the prefix of a (Backend::compute_h)
    std::copy(inputs.a.begin(), inputs.a.begin() + static_cast<std::ptrdiff_t>(h_len), h.begin());
  return {};
}

Result<PartitionSums> CpuBackend::prove_partition(const PartitionInputs& in,
                                                  PartitionTimings* timings) {
  // Tasks pay when the pool is too small to split each MSM without loss and there are at least as
  // many MSMs as threads (5 for snarkjs, 8 for bellperson); measured on 2 threads only.
  constexpr std::size_t kMaxTaskThreads = 3;
  if (pool_.size() < 2 || pool_.size() > kMaxTaskThreads) return prove_partition_steps(in, timings);
  PartitionTimings tm;
  auto hs = partition_h_step(in, tm);
  if (!hs.ok()) return hs.status();

  // Longest first (LPT): cost ≈ points taking part, a G2 point ≈ 2.2 G1 points (one-thread
  // 2^16: B_G2 0.31 s, A 0.15 s).
  const std::vector<PartitionMsm> terms = partition_msms(in, *hs);
  std::vector<double> cost(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const PartitionMsm& m = terms[i];
    const std::size_t points = density_selected_count(m.density.bits, m.scalars.size());
    cost[i] = static_cast<double>(points) * (m.g2() ? 2.2 : 1.0);
  }
  std::vector<std::size_t> order(terms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return cost[x] > cost[y]; });

  struct Done {
    Status status;
    G1Jacobian g1 = G1Jacobian::identity();
    G2Jacobian g2 = G2Jacobian::identity();
    double seconds = 0;
  };
  std::vector<Done> done(terms.size());
  // One task per term, claimed in |order| by the pool's threads; each runs its MSM on a one-thread
  // pool (no threads of its own: the task's thread runs it inline).
  pool_.parallel_for(
      order.size(),
      [&](std::size_t k) {
        const std::size_t i = order[k];
        const PartitionMsm& m = terms[i];
        ThreadPool one(1);
        const auto start = std::chrono::steady_clock::now();
        if (m.g2()) {
          auto r = msm_on<G2Curve>(one, m.bases, m.scalars, {.density = m.density});
          if (r.ok())
            done[i].g2 = *r;
          else
            done[i].status = r.status();
        } else {
          auto r = msm_on<G1Curve>(one, m.bases, m.scalars, {.density = m.density});
          if (r.ok())
            done[i].g1 = *r;
          else
            done[i].status = r.status();
        }
        done[i].seconds = seconds_since(start);
      },
      1);
  PartitionSums out = PartitionSums::identity();
  for (std::size_t i = 0; i < terms.size();
       ++i) {  // the first failing term in run order names the error
    if (!done[i].status.ok()) return done[i].status;
    add_partition_term(out, tm, terms[i].sum, &done[i].g1, &done[i].g2, done[i].seconds);
  }
  if (timings != nullptr) *timings = tm;
  return out;
}

}  // namespace cuzk
