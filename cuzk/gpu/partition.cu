// See partition.cuh.
#include "cuzk/gpu/partition.cuh"

#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/clock.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/pce/compact_partition.cuh"
#include "cuzk/gpu/trace.cuh"
#include "cuzk/msm/density.hpp"
#include "cuzk/msm/msm_plan.hpp"

namespace cuzk::gpu {

namespace {

using Clock = std::chrono::steady_clock;

using Sum = PartitionMsm::Sum;

/// One MSM of the partition: a term of the backends' one list (partition_msm_terms, backend.hpp)
/// with the resident table it reads.
struct Job {
  PartitionMsmTerm term;
  PartitionTable table;
};

PartitionTable table_of(const PartitionTables& t, Sum sum) {
  switch (sum) {
    case Sum::a:
      return t.a;
    case Sum::b_g1:
      return t.b_g1;
    case Sum::b_g2:
      return t.b_g2;
    case Sum::l:
      return t.l;
    case Sum::h:
      return t.h;
  }
  return {};
}

/// |in| must have num_inputs ≤ witness and a domain ≥ 2.
std::vector<Job> jobs_of(const PartitionShape& in, const PartitionTables& t) {
  std::vector<Job> jobs;
  for (const PartitionMsmTerm& m : partition_msm_terms(in)) jobs.push_back({m, table_of(t, m.sum)});
  return jobs;
}

DeviceBuffer must_alloc(DeviceContext& ctx, std::size_t bytes, const char* what) {
  auto b = ctx.alloc(bytes, what);
  if (!b.ok())
    throw CudaError(cudaErrorMemoryAllocation, b.status().to_string().c_str(), __FILE__, __LINE__);
  return std::move(b).value();
}

}  // namespace

std::size_t partition_working_bytes(std::size_t domain, std::size_t columns, int sm_count) {
  constexpr std::size_t fr = sizeof(Fr);
  const std::size_t n = domain, z = std::max<std::size_t>(1, columns);
  // NttTables: ω^j and ω^−j for j < n/2, built by the first H step of this size and kept.
  const std::size_t twiddles = 2 * std::max<std::size_t>(1, n / 2) * fr;
  // The step-wise path (CudaBackend::compute_h, then each MSM with its scalars uploaded):
  // 1. the H step: a, b, c and the scratch;
  const std::size_t h_step = 4 * n * fr;
  // 2. one MSM at a time: its scalars and its least scratch. A, B_G1, L, H are G1 over
  // ≤ max(n, |z|) scalars, B_G2 is G2 over ≤ |z|.
  const std::size_t m = std::max(n, z);
  const std::size_t msm = std::max(m * fr + msm_min_working_bytes(m, false, sm_count),
                                   z * fr + msm_min_working_bytes(z, true, sm_count));
  // Small buffers of every step (the coset power table, MSM results and window sums, the arena's
  // 256-byte rounding of each buffer).
  constexpr std::size_t kSmall = std::size_t{32} << 20;
  return twiddles + std::max(h_step, msm) + kSmall;
}

Status check_partition_lengths(const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size();
  if (n < 2 || !std::has_single_bit(n) || in.abc.b.size() != n || in.abc.c.size() != n)
    return Status(Errc::size_mismatch, "H inputs must share one power-of-two length ≥ 2 (a " +
                                           std::to_string(n) + ", b " +
                                           std::to_string(in.abc.b.size()) + ", c " +
                                           std::to_string(in.abc.c.size()) + ")");
  if (n > (std::size_t{1} << 30))
    return Status(Errc::invalid_argument, "H on the GPU takes n ≤ 2^30, not " + std::to_string(n));
  if (in.num_inputs > in.z.size())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(in.z.size()) +
                                           " values, fewer than its " +
                                           std::to_string(in.num_inputs) + " inputs");
  return {};
}

Status check_partition(const PartitionInputs& in, const PartitionTables& t) {
  CUZK_RETURN_IF_ERROR(check_partition_lengths(in));
  return check_partition(partition_shape(in), t);
}

Status check_partition(const PartitionShape& in, const PartitionTables& t) {
  const std::size_t n = in.domain;
  if (n < 2 || !std::has_single_bit(n) || n > (std::size_t{1} << 30))
    return Status(Errc::invalid_argument,
                  "H on the GPU takes a power-of-two domain in 2..2^30, not " + std::to_string(n));
  if (in.num_inputs > in.witness)
    return Status(Errc::size_mismatch, "witness has " + std::to_string(in.witness) +
                                           " values, fewer than its " +
                                           std::to_string(in.num_inputs) + " inputs");
  for (const PartitionTable& r : {t.a, t.b_g1, t.l, t.h})
    if (!r.present() || r.g2())
      return Status(Errc::invalid_argument, "partition: a G1 query table is missing or G2");
  if (!t.b_g2.present() || !t.b_g2.g2())
    return Status(Errc::invalid_argument, "partition: the B_G2 table is missing or G1");
  for (const Job& j : jobs_of(in, t))
    CUZK_RETURN_IF_ERROR(check_density(j.term.count, j.term.density, j.table.count()));
  return {};
}

static cudaStream_t copy_stream(DeviceContext& ctx) {
  return ctx.stream(ctx.stream_count() > 1 ? 1 : 0);
}

struct StagedPartition::State {
  std::mutex mu;
  std::condition_variable cv;
  int done = -1;  // inputs 0..done are on the device
  std::exception_ptr error;
  double seconds = 0;
  double item_seconds[4] = {0, 0, 0, 0};  // when each input had crossed, from the start of staging
  std::thread thread;
  ~State() {
    if (thread.joinable()) thread.join();
  }
};

StagedPartition& StagedPartition::operator=(StagedPartition&& o) noexcept {
  if (this != &o) {
    reset();
    for (int i = 0; i < 4; ++i) buf[i] = std::move(o.buf[i]);
    z = std::move(o.z);
    compact = std::move(o.compact);
    state_ = o.state_;
    o.state_ = nullptr;
    upload_bytes_ = o.upload_bytes_;
    compact_seconds_ = o.compact_seconds_;
  }
  return *this;
}

void StagedPartition::reset() {
  delete state_;  // joins the upload thread before the buffers go back
  state_ = nullptr;
  for (auto& b : buf) b.reset();
  z.reset();
  compact = {};
  upload_bytes_ = 0;
  compact_seconds_ = 0;
}

void StagedPartition::wait(int i) {
  if (state_ == nullptr) return;
  std::unique_lock lock(state_->mu);
  state_->cv.wait(lock, [&] { return state_->done >= i || state_->error; });
  if (state_->error) std::rethrow_exception(state_->error);
}

double StagedPartition::upload_seconds() const {
  if (state_ == nullptr) return compact_seconds_;
  std::lock_guard lock(state_->mu);
  return state_->seconds;
}

double StagedPartition::item_seconds(int i) const {
  if (state_ == nullptr) return 0;
  std::lock_guard lock(state_->mu);
  return state_->item_seconds[i];
}

StagedPartition stage_partition(DeviceContext& ctx, const PartitionInputs& in) {
  const std::size_t n = in.abc.a.size(), nz = in.z.size();
  const bool snarkjs = in.abc.convention == HConvention::snarkjs;
  StagedPartition s;
  for (auto& b : s.buf) b = must_alloc(ctx, n * sizeof(Fr), "partition H buffers");
  s.z = must_alloc(ctx, std::max<std::size_t>(1, nz) * sizeof(Fr), "partition witness");
  s.state_ = new StagedPartition::State();
  StagedPartition::State* st = s.state_;
  struct Item {
    void* dst;
    const void* src;
    std::size_t bytes;
  };
  std::vector<Item> items = {
      {s.buf[0].data(), in.abc.a.data(), n * sizeof(Fr)},
      {s.buf[1].data(), in.abc.b.data(), n * sizeof(Fr)},
      {s.buf[2].data(), in.abc.c.data(), snarkjs ? 0 : n * sizeof(Fr)},  // snarkjs forms c = a∘b
      {s.z.data(), in.z.data(), nz * sizeof(Fr)}};
  for (const Item& it : items) s.upload_bytes_ += it.bytes;
  st->thread = std::thread([&ctx, st, items = std::move(items)] {
    const auto t0 = Clock::now();
    cudaStream_t cp = copy_stream(ctx);
    try {
      for (int i = 0; i < 4; ++i) {
        if (items[i].bytes) ctx.upload(items[i].dst, items[i].src, items[i].bytes, cp);
        std::lock_guard lock(st->mu);
        st->done = i;
        st->seconds = st->item_seconds[i] = seconds_since(t0);
        st->cv.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(st->mu);
      st->error = std::current_exception();
      st->cv.notify_all();
    }
  });
  return s;
}

StagedPartition stage_compact_partition(DeviceContext& ctx, const CompactWitness& w,
                                        std::size_t n) {
  StagedPartition s;
  // a, b, c and z; the H step's scratch (buf[3]) once the SpMV is done (expand_compact_partition).
  for (int i = 0; i < 3; ++i) s.buf[i] = must_alloc(ctx, n * sizeof(Fr), "partition H buffers");
  s.z = must_alloc(ctx, std::max<std::uint64_t>(1, w.num_variables()) * sizeof(Fr),
                   "partition witness");
  const auto t0 = Clock::now();
  s.compact = upload_compact_witness(ctx, w, copy_stream(ctx));
  s.compact_seconds_ = seconds_since(t0);
  s.upload_bytes_ = w.bytes();
  return s;
}

void expand_compact_partition(DeviceContext& ctx, const DeviceCompactR1cs& m, StagedPartition& s,
                              std::size_t n, cudaStream_t stream, bool msm_split_from_compact) {
  compact_partition_vectors(m, s.compact, s.z.as<Fr>(), s.buf[0].as<Fr>(), s.buf[1].as<Fr>(),
                            s.buf[2].as<Fr>(), n, stream);
  CUZK_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (msm_split_from_compact) {
    // Nothing reads z after the SpMV: the MSMs over z split their scalars from the compact witness
    // and copy the tail values from it, so its n·32 bytes go back to the arena for the H step and
    // the MSMs' windows (4.17 GB at 2^27). The scratch taken after that, the partition's peak is
    // max(3·n + |z|, 4·n) scalars: the step-wise path's, which key placement keeps free.
    s.z.reset();
  } else {
    s.compact = {};  // the MSMs classify z
  }
  if (!s.buf[3]) s.buf[3] = must_alloc(ctx, n * sizeof(Fr), "partition H buffers");
}

PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionInputs& in, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings) {
  // 1. Staging (unless started before the compute section): a, b, c, z cross on the copy stream.
  if (!staged) staged = stage_partition(ctx, in);
  return prove_partition_device(ctx, tables, partition_shape(in), t, std::move(staged), timings);
}

PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionShape& in, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings) {
  const std::size_t n = in.domain;
  const bool snarkjs = in.convention == HConvention::snarkjs;
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  cudaStream_t st = ctx.stream(0), cp = copy_stream(ctx);
  const bool have_g2_stream = ctx.stream_count() > 2;
  cudaStream_t st2 = have_g2_stream ? ctx.stream(2) : st;
  PartitionTimings tm;
  const auto t_start = Clock::now();

  std::unique_ptr<GpuTrace> trace;
  if (GpuTrace::enabled()) {
    trace = std::make_unique<GpuTrace>(st);
    trace->lane(st, "compute");
    trace->lane(cp, "copy");
    if (st2 != st) trace->lane(st2, "g2");
  }
  auto mark = [&](cudaStream_t s, const char* what) {
    if (trace) trace->mark(s, what);
  };

  DeviceBuffer* buf = staged.buf;
  // z on the device; a compact partition's was freed after the SpMV (its MSMs read the witness).
  const Fr* d_z = staged.z ? staged.z.as<Fr>() : nullptr;

  const std::vector<Job> jobs = jobs_of(in, t);
  G1Jacobian g1[5];
  G2Jacobian b2 = G2Jacobian::identity();
  for (auto& p : g1) p = G1Jacobian::identity();
  double* stage[5] = {&tm.msm_a, &tm.msm_b1, &tm.msm_b2, &tm.msm_l, &tm.msm_h};
  static const char* const kNames[5] = {"A", "B_G1", "B_G2", "L", "H"};
  auto run = [&](const Job& j, cudaStream_t s, std::size_t budget) {
    const auto t0 = Clock::now();
    const PartitionMsmTerm& m = j.term;
    // A partition made from its compact witness splits its z terms' scalars from it (and has no
    // z any more).
    const bool from_compact = m.source == PartitionScalars::witness && staged.compact.bits;
    const Fr* sc = m.source == PartitionScalars::h ? buf[0].as<Fr>()
                   : from_compact                  ? nullptr
                                                   : d_z + m.offset;
    if (sc == nullptr && !from_compact)
      throw CudaError(cudaErrorInvalidValue, "partition: no witness on the device", __FILE__,
                      __LINE__);
    const auto& bits = m.density.bits;
    const int target = static_cast<int>(m.sum);
    const GpuMsmConfig cfg{
        .density_bits = bits.empty() ? bits : bits.subspan(0, (m.count + 63) / 64),
        .base_offset = m.density.base_offset,
        .compact =
            from_compact ? msm_compact_scalars(staged.compact, m.offset) : MsmCompactScalars{},
        .bit_split = msm_split_used(cuda_msm_prices().cuda.split, MsmSplit::automatic, 0, 0),
        .arena_budget = budget,
        .trace = trace.get(),
        .trace_name = kNames[target]};
    if (j.table.streamed != nullptr) {  // through the arena in chunks, the scalars read in place
      const StreamedMsmConfig scfg{.slot_points = t.streamed_slot_points, .msm = cfg};
      if (m.g2())
        b2 += msm_g2_streamed_resident(ctx, *j.table.streamed, sc, m.count, scfg, s, cp)
                  .to_jacobian();
      else
        g1[target] += msm_g1_streamed_resident(ctx, *j.table.streamed, sc, m.count, scfg, s, cp)
                          .to_jacobian();
    } else if (m.g2()) {
      b2 += msm_g2_device_resident(ctx, *j.table.resident, sc, m.count, cfg, s).to_jacobian();
    } else {
      g1[target] +=
          msm_g1_device_resident(ctx, *j.table.resident, sc, m.count, cfg, s).to_jacobian();
    }
    *stage[target] += seconds_since(t0);
  };

  // 3. The G2 MSM beside the rest when the arena holds both MSMs' working sets now (the H step's
  // buffers are still taken; they free 3·n scalars before the G1 MSMs start).
  std::size_t g2_count = 0, g1_max = 0;
  for (const Job& j : jobs) {
    std::size_t& m = j.term.g2() ? g2_count : g1_max;
    m = std::max(m, j.term.count);
  }
  const std::size_t g2_bytes = msm_working_bytes(g2_count, true),
                    g1_bytes = msm_working_bytes(g1_max, false);
  bool any_streamed = false;
  for (const Job& j : jobs) any_streamed = any_streamed || j.table.streamed != nullptr;
  const bool beside = have_g2_stream && !any_streamed &&
                      ctx.arena_largest_free() >= g2_bytes + g1_bytes + (std::size_t{512} << 20);
  std::thread g2_thread;
  std::exception_ptr g2_error;
  if (beside) {
    g2_thread = std::thread([&] {
      try {
        staged.wait(3);
        mark(st2, "wait z");
        for (const Job& j : jobs)
          if (j.term.g2()) run(j, st2, g2_bytes);
      } catch (...) {
        g2_error = std::current_exception();
      }
    });
  }
  struct Join {
    std::thread& t;
    ~Join() {
      if (t.joinable()) t.join();
    }
  } join_g2{g2_thread};

  // 2. H on the compute stream, each vector's transforms queued once it is on the device.
  auto t0 = Clock::now();
  static const char* const kWait[3] = {"wait a", "wait b", "wait c"};
  auto before = [&](int i) {
    staged.wait(i);
    mark(st, kWait[i]);
  };
  if (snarkjs)
    compute_h_snarkjs_device(ctx, tables, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(),
                             buf[3].as<Fr>(), log_n, st, before);
  else
    compute_h_device(ctx, tables, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(),
                     buf[3].as<Fr>(), log_n, st, before);
  mark(st, "H step");
  tm.h = seconds_since(t0);
  for (int i = 1; i < 4; ++i) buf[i].reset();  // room for the MSMs

  // 4. The G1 MSMs (and B_G2 when not beside) on the resident scalars.
  staged.wait(3);
  mark(st, "wait z");
  tm.upload = staged.upload_seconds();
  tm.upload_bytes = staged.upload_bytes();
  for (const Job& j : jobs)
    if (!j.term.g2() || !beside) run(j, st, 0);
  if (g2_thread.joinable()) g2_thread.join();
  if (g2_error) std::rethrow_exception(g2_error);
  if (trace) {
    CUZK_CUDA_CHECK(cudaStreamSynchronize(st));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(st2));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cp));
    char title[256];
    std::snprintf(
        title, sizeof title,
        "partition 2^%u%s%s, wall %.3f ms, uploads done at a %.1f b %.1f c %.1f z %.1f ms", log_n,
        staged.compact.bits ? " from compact" : "", beside ? " (G2 beside)" : "",
        seconds_since(t_start) * 1e3, staged.item_seconds(0) * 1e3, staged.item_seconds(1) * 1e3,
        staged.item_seconds(2) * 1e3, staged.item_seconds(3) * 1e3);
    trace->print(stderr, title);
  }
  if (timings != nullptr) *timings = tm;
  return {.a = g1[static_cast<int>(Sum::a)],
          .b_g1 = g1[static_cast<int>(Sum::b_g1)],
          .l = g1[static_cast<int>(Sum::l)],
          .h = g1[static_cast<int>(Sum::h)],
          .b_g2 = b2};
}

}  // namespace cuzk::gpu
