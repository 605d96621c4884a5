// See partition.cuh.
#include "cuzk/gpu/partition.cuh"

#include <algorithm>
#include <atomic>
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
  for (auto& b : s.buf) b = ctx.alloc_or_throw(n * sizeof(Fr), "partition H buffers");
  s.z = ctx.alloc_or_throw(std::max<std::size_t>(1, nz) * sizeof(Fr), "partition witness");
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
  for (int i = 0; i < 3; ++i) s.buf[i] = ctx.alloc_or_throw(n * sizeof(Fr), "partition H buffers");
  s.z = ctx.alloc_or_throw(std::max<std::uint64_t>(1, w.num_variables()) * sizeof(Fr),
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
  if (!s.buf[3]) s.buf[3] = ctx.alloc_or_throw(n * sizeof(Fr), "partition H buffers");
}

namespace {

// The cost rule's prices (docs/perf/gpu.md, H100 and H200 alike for these kernels): the H step
// 331.6 ms at 2^27 (10:1 passes); a uniform G1 MSM 509 ms at 2^26 (c = 20); a witness G1 MSM per
// selected scalar at the benchmark circuit's mix (27 % tail; gpu_bench 2^27: A and L 332 ms, B_G1
// 109 ms over 34 M), an upper bound for a Filecoin witness (1.3 % tail); per MSM the fixed part
// (classification's and the batch addition's host round trips, window sums: 2.5–3.8 ms at 2^22–2^24,
// log/gpu.md Version 6).
constexpr double kHStepNsPerRow = 2.5;
constexpr double kUniformNsPerPoint = 7.5;
constexpr double kWitnessNsPerScalar = 2.5;
// B_G2 over a witness: the PoRep mix (36 % zeros, 36 % ones) at 2^24, 158.6 ms (lane_pair_fused).
constexpr double kWitnessG2NsPerScalar = 9.5;
constexpr double kMsmFixedMs = 3.0;
// Arena kept free beside lanes that run together (small buffers: density bitmaps and prefixes,
// batch-add partials, results, the NTT's power tables), as B_G2's rule always kept.
constexpr std::size_t kBesideMargin = std::size_t{512} << 20;
// msm_impl's sort headroom (≤ 256 MiB, taken out of a capped budget): a cap of
// msm_min_working_bytes + this holds one window group whatever the free room.
constexpr std::size_t kSortHeadroom = std::size_t{256} << 20;

// The scalars a term selects, for the cost rule: exact up to 2^12 bitmap words, else estimated
// from 2^12 words spread over the bitmap (a 2^27 bitmap is 2 M words: ≈ 1 ms of popcounts on the
// partition's critical path for an estimate).
std::size_t selected_scalars(const PartitionMsmTerm& m) {
  constexpr std::size_t kSample = 4096;
  const std::size_t words = std::min((m.count + 63) / 64, m.density.bits.size());
  if (m.density.bits.empty()) return m.count;
  if (words <= kSample) return density_selected_count(m.density.bits, m.count);
  std::size_t ones = 0;
  for (std::size_t i = 0; i < kSample; ++i)
    ones +=
        density_count_words(m.density.bits, m.count, i * words / kSample, i * words / kSample + 1);
  return static_cast<std::size_t>(static_cast<double>(ones) * words / kSample);
}

std::size_t sub_or_zero(std::size_t a, std::size_t b) { return a > b ? a - b : 0; }

}  // namespace

PartitionSchedule plan_partition_schedule(const PartitionShape& shape, PartitionOverlap mode,
                                          const ScheduleRoom& room) {
  using S = PartitionMsm::Sum;
  PartitionSchedule p;
  const std::vector<PartitionMsmTerm> terms = partition_msm_terms(shape);
  // B_G2 beside (stream 2): its working set and the largest G1 MSM's, 512 MiB to spare.
  std::size_t g2_count = 0, g1_max = 0;
  for (const PartitionMsmTerm& m : terms) {
    std::size_t& c = m.g2() ? g2_count : g1_max;
    c = std::max(c, m.count);
  }
  const std::size_t g2_bytes = msm_working_bytes(g2_count, true),
                    g1_bytes = msm_working_bytes(g1_max, false);
  p.g2_beside = room.streams > 2 && room.largest_free >= g2_bytes + g1_bytes + kBesideMargin;
  p.g2_budget = p.g2_beside ? g2_bytes : 0;

  if (mode == PartitionOverlap::off || room.streams < 4) return p;
  // The cost rule: the compute stream's work and each witness sum's (B_G2 too when not beside).
  double main_ms = shape.domain * kHStepNsPerRow * 1e-6;
  double sum_ms[5] = {0, 0, 0, 0, 0};
  for (const PartitionMsmTerm& m : terms) {
    if (m.source == PartitionScalars::h)
      main_ms += kMsmFixedMs + m.count * kUniformNsPerPoint * 1e-6;
    else
      sum_ms[static_cast<int>(m.sum)] +=
          kMsmFixedMs +
          selected_scalars(m) * (m.g2() ? kWitnessG2NsPerScalar : kWitnessNsPerScalar) * 1e-6;
  }
  p.main_ms = main_ms;
  // List scheduling: each sum goes to the lane with the smaller estimated load so far.
  double side_ms = 0, main_load = main_ms;
  for (S s : {S::a, S::b_g1, S::l, S::b_g2}) {
    if (s == S::b_g2 && p.g2_beside) continue;
    const double c = sum_ms[static_cast<int>(s)];
    if (c == 0) continue;  // no such term
    if (mode == PartitionOverlap::automatic && side_ms >= main_load) {
      main_load += c;
      continue;
    }
    p.side_sums |= 1u << static_cast<unsigned>(s);
    side_ms += c;
  }
  // Room: caps for the side lane and for the compute stream's MSMs while it runs. Where the sums
  // chosen do not fit, B_G2 (the largest working set) stays on the compute stream and the G1 sums
  // are tried alone.
  const std::size_t during_h = sub_or_zero(room.largest_free, p.g2_budget + kBesideMargin);
  const std::size_t after_h =
      sub_or_zero(room.largest_free + room.h_step_frees, p.g2_budget + kBesideMargin);
  auto place = [&](unsigned sums) {
    auto on_side = [&](S s) { return (sums >> static_cast<unsigned>(s)) & 1u; };
    // Each lane's least and full working sets: its largest MSM's (B_G2 counts on the compute
    // stream when it is neither beside nor on the side lane).
    std::size_t side_min = 0, side_full = 0, main_min = 0, main_full = 0;
    for (const PartitionMsmTerm& m : terms) {
      if (m.g2() && p.g2_beside) continue;
      const std::size_t least =
                            msm_min_working_bytes(m.count, m.g2(), room.sm_count) + kSortHeadroom,
                        full = msm_working_bytes(m.count, m.g2());
      std::size_t& lane_min = on_side(m.sum) ? side_min : main_min;
      std::size_t& lane_full = on_side(m.sum) ? side_full : main_full;
      lane_min = std::max(lane_min, least);
      lane_full = std::max(lane_full, full);
    }
    side_full = std::max(side_full, side_min);
    main_full = std::max(main_full, main_min);
    const bool fits_after = after_h >= side_min + main_min;
    const bool fits_during = fits_after && during_h >= side_min;
    SideLane side = SideLane::none;
    if (mode == PartitionOverlap::beside_h_step)
      side = fits_during ? SideLane::beside_h_step : SideLane::none;
    else if (mode == PartitionOverlap::beside_h_msm)
      side = fits_after ? SideLane::beside_h_msm : SideLane::none;
    else
      side = fits_during  ? SideLane::beside_h_step
             : fits_after ? SideLane::beside_h_msm
                          : SideLane::none;
    if (side == SideLane::none) return false;
    p.side = side;
    p.side_sums = sums;
    // The H MSM keeps its full working set where it can; the side lane takes what is left of it,
    // up to its own full working set (and, beside the H step, what is free while it runs).
    std::size_t side_cap = std::min(side_full, after_h - main_min);
    if (side == SideLane::beside_h_step) side_cap = std::min(side_cap, during_h);
    p.side_budget = std::clamp(sub_or_zero(after_h, main_full), side_min, side_cap);
    p.main_budget = after_h - p.side_budget;
    return true;
  };
  const unsigned chosen = p.side_sums, g2_bit = 1u << static_cast<unsigned>(S::b_g2);
  p.side_sums = 0;
  if (chosen != 0 && !place(chosen) && (chosen & g2_bit) != 0 && (chosen & ~g2_bit) != 0)
    (void)place(chosen & ~g2_bit);
  for (S s : {S::a, S::b_g1, S::l, S::b_g2})
    if (p.on_side(s)) p.side_ms += sum_ms[static_cast<int>(s)];
  return p;
}

PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionInputs& in, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings,
                                     PartitionOverlap overlap, PartitionSchedule* schedule) {
  // 1. Staging (unless started before the compute section): a, b, c, z cross on the copy stream.
  if (!staged) staged = stage_partition(ctx, in);
  return prove_partition_device(ctx, tables, partition_shape(in), t, std::move(staged), timings,
                                overlap, schedule);
}

PartitionSums prove_partition_device(DeviceContext& ctx, NttTables& tables,
                                     const PartitionShape& in, const PartitionTables& t,
                                     StagedPartition staged, PartitionTimings* timings,
                                     PartitionOverlap overlap, PartitionSchedule* schedule) {
  const std::size_t n = in.domain;
  const bool snarkjs = in.convention == HConvention::snarkjs;
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  cudaStream_t st = ctx.stream(0), cp = copy_stream(ctx);
  const bool have_g2_stream = ctx.stream_count() > 2;
  cudaStream_t st2 = have_g2_stream ? ctx.stream(2) : st;
  cudaStream_t st3 = ctx.stream_count() > 3 ? ctx.stream(3) : st;
  PartitionTimings tm;
  const auto t_start = Clock::now();

  // The NTT tables of this size first (built once per size, n scalars): the room the schedule
  // sees is then the room the MSMs share.
  (void)tables.get(log_n, st, snarkjs ? RootFamily::ffjs : RootFamily::bellman);
  const std::vector<Job> jobs = jobs_of(in, t);
  // A streamed table's MSM takes the copy stream and the streaming slots: such a partition runs
  // its MSMs one after another on the compute stream (the schedule sees two streams: no G2 lane,
  // no side lane).
  bool any_streamed = false;
  for (const Job& j : jobs) any_streamed = any_streamed || j.table.streamed != nullptr;
  const PartitionSchedule plan = plan_partition_schedule(
      in, any_streamed ? PartitionOverlap::off : overlap,
      {.largest_free = ctx.arena_largest_free(),
       .h_step_frees = 3 * DeviceContext::arena_block_bytes(n * sizeof(Fr)),
       .streams = any_streamed ? std::min(ctx.stream_count(), 2) : ctx.stream_count(),
       .sm_count = ctx.sm_count()});
  if (schedule != nullptr) *schedule = plan;
  const bool beside = plan.g2_beside;

  std::unique_ptr<GpuTrace> trace;
  if (GpuTrace::enabled()) {
    trace = std::make_unique<GpuTrace>(st);
    trace->lane(st, "compute");
    trace->lane(cp, "copy");
    if (st2 != st) trace->lane(st2, "g2");
    if (plan.side != SideLane::none) trace->lane(st3, "side");
  }
  auto mark = [&](cudaStream_t s, const char* what) {
    if (trace) trace->mark(s, what);
  };

  DeviceBuffer* buf = staged.buf;
  // z on the device; a compact partition's was freed after the SpMV (its MSMs read the witness).
  const Fr* d_z = staged.z ? staged.z.as<Fr>() : nullptr;

  G1Jacobian g1[5];
  G2Jacobian b2 = G2Jacobian::identity();
  for (auto& p : g1) p = G1Jacobian::identity();
  double* stage[5] = {&tm.msm_a, &tm.msm_b1, &tm.msm_b2, &tm.msm_l, &tm.msm_h};
  static const char* const kNames[5] = {"A", "B_G1", "B_G2", "L", "H"};
  // Lanes write disjoint sums: every term of one Sum runs on one lane (g2: B_G2 when beside;
  // side: whole sums, PartitionSchedule::side_sums; compute: the rest).
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
    GpuMsmConfig cfg{
        .density_bits = bits.empty() ? bits : bits.subspan(0, (m.count + 63) / 64),
        .base_offset = m.density.base_offset,
        .compact =
            from_compact ? msm_compact_scalars(staged.compact, m.offset) : MsmCompactScalars{},
        .bit_split = msm_split_used(cuda_msm_prices().cuda.split, MsmSplit::automatic, 0, 0),
        // H's scalars are uniform: in place, no classification (GpuMsmConfig::dense_scalars).
        .dense_scalars = m.source == PartitionScalars::h && bits.empty(),
        .arena_budget = budget,
        .trace = trace.get(),
        .trace_name = kNames[target]};
    if (!m.g2()) use_window_copies(cfg, j.table.precomputed);
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

  // A lane beside the compute stream: its own host thread and stream; waits for z, runs its
  // terms, and keeps its exception for the caller (rethrown after the join).
  struct Lane {
    std::thread thread;
    std::exception_ptr error;
    std::atomic<bool> running{false};
    ~Lane() {
      if (thread.joinable()) thread.join();
    }
    void finish() {
      if (thread.joinable()) thread.join();
      if (error) std::rethrow_exception(error);
    }
  };
  auto on_g2_lane = [&](const Job& j) { return beside && j.term.g2(); };
  auto on_side_lane = [&](const Job& j) { return plan.on_side(j.term.sum); };
  auto lane_work = [&](Lane& lane, cudaStream_t s, bool side, std::size_t budget) {
    try {
      staged.wait(3);
      mark(s, "wait z");
      for (const Job& j : jobs)
        if (side ? on_side_lane(j) : on_g2_lane(j)) run(j, s, budget);
    } catch (...) {
      lane.error = std::current_exception();
    }
    lane.running = false;
  };
  // Destroyed (joined) before the buffers and the trace they use.
  Lane g2_lane, side_lane;

  // 3. B_G2 beside the rest when the arena holds both MSMs' working sets now (the H step's
  // buffers are still taken; they free 3·n scalars before the G1 MSMs start); 5. the side lane
  // from the start when the schedule puts it beside the H step.
  auto start_side = [&] {
    side_lane.running = true;
    side_lane.thread = std::thread([&] { lane_work(side_lane, st3, true, plan.side_budget); });
  };
  if (beside) {
    g2_lane.running = true;
    g2_lane.thread = std::thread([&] { lane_work(g2_lane, st2, false, plan.g2_budget); });
  }
  if (plan.side == SideLane::beside_h_step) start_side();

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
  for (int i = 1; i < 4; ++i) buf[i].reset();  // room for the MSMs (the stream is synchronized)

  // 5. The side lane beside the H MSM.
  if (plan.side == SideLane::beside_h_msm) start_side();

  // 4. The G1 MSMs not on the side lane (and B_G2 when not beside) on the resident scalars;
  // capped while the side lane runs so both lanes' working sets fit.
  staged.wait(3);
  mark(st, "wait z");
  tm.upload = staged.upload_seconds();
  tm.upload_bytes = staged.upload_bytes();
  for (const Job& j : jobs)
    if (!on_g2_lane(j) && !on_side_lane(j)) run(j, st, side_lane.running ? plan.main_budget : 0);
  side_lane.finish();
  g2_lane.finish();
  if (trace) {
    CUZK_CUDA_CHECK(cudaStreamSynchronize(st));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(st2));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(st3));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cp));
    static const char* const kSide[3] = {"", ", side lane beside the H step",
                                         ", side lane beside the H MSM"};
    char title[320];
    std::snprintf(
        title, sizeof title,
        "partition 2^%u%s%s%s, wall %.3f ms, uploads done at a %.1f b %.1f c %.1f z %.1f ms", log_n,
        staged.compact.bits ? " from compact" : "", beside ? " (G2 beside)" : "",
        kSide[static_cast<int>(plan.side)], seconds_since(t_start) * 1e3,
        staged.item_seconds(0) * 1e3, staged.item_seconds(1) * 1e3, staged.item_seconds(2) * 1e3,
        staged.item_seconds(3) * 1e3);
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
