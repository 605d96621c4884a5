// See partition.cuh.
#include "cuzk/gpu/partition.cuh"

#include <bit>
#include <chrono>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/gpu/cuda_check.cuh"

namespace cuzk::gpu {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

enum class Source { z, aux, h };
enum Target { kA, kB1, kB2, kL, kH };

/// One MSM of the partition: |count| scalars from |src| (at its start) over |table| with |density|.
struct Job {
  const ResidentBases* table;
  Source src;
  std::size_t count;
  MsmDensity density;
  Target target;
};

std::vector<Job> jobs_of(const PartitionInputs& in, const PartitionTables& t) {
  const std::size_t n = in.abc.a.size(), nz = in.z.size();
  const bool snarkjs = in.abc.convention == HConvention::snarkjs;
  const std::size_t n_aux = nz - in.num_inputs;
  std::vector<Job> j;
  if (snarkjs) {
    j.push_back({t.a, Source::z, nz, {}, kA});
    j.push_back({t.b_g1, Source::z, nz, {}, kB1});
    j.push_back({t.b_g2, Source::z, nz, {}, kB2});
  } else {
    j.push_back({t.a, Source::z, in.num_inputs, {}, kA});
    j.push_back({t.a, Source::aux, n_aux, in.a_aux, kA});
    j.push_back({t.b_g1, Source::z, in.num_inputs, in.b_input, kB1});
    j.push_back({t.b_g1, Source::aux, n_aux, in.b_aux, kB1});
    j.push_back({t.b_g2, Source::z, in.num_inputs, in.b_input, kB2});
    j.push_back({t.b_g2, Source::aux, n_aux, in.b_aux, kB2});
  }
  j.push_back({t.l, Source::aux, n_aux, {}, kL});
  j.push_back({t.h, Source::h, snarkjs ? n : n - 1, {}, kH});
  return j;
}

DeviceBuffer must_alloc(DeviceContext& ctx, std::size_t bytes, const char* what) {
  auto b = ctx.alloc(bytes, what);
  if (!b.ok()) throw CudaError(cudaErrorMemoryAllocation, b.status().to_string().c_str(), __FILE__, __LINE__);
  return std::move(b).value();
}

}  // namespace

Status check_partition_lengths(const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size();
  if (n < 2 || !std::has_single_bit(n) || in.abc.b.size() != n || in.abc.c.size() != n)
    return Status(Errc::size_mismatch, "H inputs must share one power-of-two length ≥ 2 (a " + std::to_string(n) +
                                           ", b " + std::to_string(in.abc.b.size()) + ", c " +
                                           std::to_string(in.abc.c.size()) + ")");
  if (n > (std::size_t{1} << 30))
    return Status(Errc::invalid_argument, "H on the GPU takes n ≤ 2^30, not " + std::to_string(n));
  if (in.num_inputs > in.z.size())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(in.z.size()) + " values, fewer than its " +
                                           std::to_string(in.num_inputs) + " inputs");
  return {};
}

Status check_partition(const PartitionInputs& in, const PartitionTables& t) {
  CUZK_RETURN_IF_ERROR(check_partition_lengths(in));
  const ResidentBases* g1s[] = {t.a, t.b_g1, t.l, t.h};
  for (const ResidentBases* r : g1s)
    if (r == nullptr || r->g2) return Status(Errc::invalid_argument, "partition: a G1 query table is missing or G2");
  if (t.b_g2 == nullptr || !t.b_g2->g2) return Status(Errc::invalid_argument, "partition: the B_G2 table is missing or G1");
  for (const Job& j : jobs_of(in, t)) {
    std::size_t used = j.count;
    const auto& bits = j.density.bits;
    if (!bits.empty()) {
      const std::size_t words = (j.count + 63) / 64;
      if (bits.size() < words)
        return Status(Errc::size_mismatch, "density has " + std::to_string(bits.size() * 64) + " bits for " +
                                               std::to_string(j.count) + " scalars");
      used = 0;
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t word = bits[w];
        if (w + 1 == words && j.count % 64) word &= (std::uint64_t{1} << (j.count % 64)) - 1;
        used += static_cast<std::size_t>(std::popcount(word));
      }
    }
    if (j.density.base_offset + used > j.table->count)
      return Status(Errc::size_mismatch, "MSM needs bases up to " + std::to_string(j.density.base_offset + used) +
                                             ", the table has " + std::to_string(j.table->count));
  }
  return {};
}

static cudaStream_t copy_stream(DeviceContext& ctx) { return ctx.stream(ctx.stream_count() > 1 ? 1 : 0); }

StagedPartition stage_partition(DeviceContext& ctx, const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size();
  const bool snarkjs = in.abc.convention == HConvention::snarkjs;
  StagedPartition s;
  for (auto& b : s.buf) b = must_alloc(ctx, n * sizeof(Fr), "partition H buffers");
  const auto t0 = Clock::now();
  cudaStream_t cp = copy_stream(ctx);
  ctx.upload(s.buf[0].data(), in.abc.a.data(), n * sizeof(Fr), cp);
  ctx.upload(s.buf[1].data(), in.abc.b.data(), n * sizeof(Fr), cp);
  if (!snarkjs) ctx.upload(s.buf[2].data(), in.abc.c.data(), n * sizeof(Fr), cp);  // snarkjs forms c = a∘b
  s.upload_seconds = since(t0);
  return s;
}

PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables, const PartitionInputs& in,
                                     const PartitionTables& t, StagedPartition staged, PartitionTimings* timings) {
  const std::size_t n = in.abc.a.size(), nz = in.z.size();
  const bool snarkjs = in.abc.convention == HConvention::snarkjs;
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  cudaStream_t st = ctx.stream(0), cp = copy_stream(ctx);
  PartitionTimings tm;

  // The witness buffer first, so a partition that does not fit fails before more transfers.
  DeviceBuffer dz = must_alloc(ctx, std::max<std::size_t>(1, nz) * sizeof(Fr), "partition witness");
  // 1. a, b, c (unless staged before the compute section).
  if (!staged) staged = stage_partition(ctx, in);
  DeviceBuffer* buf = staged.buf;
  tm.upload = staged.upload_seconds;

  // 2. H on the compute stream, z on the copy stream from a second host thread.
  double t_z = 0;
  std::exception_ptr z_error;
  std::thread zt([&] {
    try {
      const auto tz = Clock::now();
      ctx.upload(dz.data(), in.z.data(), nz * sizeof(Fr), cp);
      t_z = since(tz);
    } catch (...) {
      z_error = std::current_exception();
    }
  });
  auto t0 = Clock::now();
  try {
    if (snarkjs)
      compute_h_snarkjs_device(ctx, tables, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(), buf[3].as<Fr>(), log_n, st);
    else
      compute_h_device(ctx, tables, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(), buf[3].as<Fr>(), log_n, st);
  } catch (...) {
    zt.join();
    throw;
  }
  tm.h = since(t0);
  zt.join();
  if (z_error) std::rethrow_exception(z_error);
  tm.upload += t_z;  // overlapped with the H step
  for (int i = 1; i < 4; ++i) buf[i].reset();  // room for the MSMs

  // 3. The MSMs on resident scalars.
  G1Jacobian g1[5];
  G2Jacobian b2 = G2Jacobian::identity();
  for (auto& p : g1) p = G1Jacobian::identity();
  double* stage[5] = {&tm.msm_a, &tm.msm_b1, &tm.msm_b2, &tm.msm_l, &tm.msm_h};
  const Fr* d_z = dz.as<Fr>();
  for (const Job& j : jobs_of(in, t)) {
    t0 = Clock::now();
    const Fr* sc = j.src == Source::h ? buf[0].as<Fr>() : j.src == Source::aux ? d_z + in.num_inputs : d_z;
    const auto& bits = j.density.bits;
    const GpuMsmConfig cfg{.density_bits = bits.empty() ? bits : bits.subspan(0, (j.count + 63) / 64),
                           .base_offset = j.density.base_offset,
                           .bit_split = true};
    if (j.target == kB2) {
      b2 += msm_g2_device_resident(ctx, *j.table, sc, j.count, cfg, st).to_jacobian();
    } else {
      g1[j.target] += msm_g1_device_resident(ctx, *j.table, sc, j.count, cfg, st).to_jacobian();
    }
    *stage[j.target] += since(t0);
  }
  if (timings != nullptr) *timings = tm;
  return {.a = g1[kA], .b_g1 = g1[kB1], .l = g1[kL], .h = g1[kH], .b_g2 = b2};
}

}  // namespace cuzk::gpu
