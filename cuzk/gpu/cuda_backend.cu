#include "cuzk/gpu/cuda_backend.hpp"

#include <atomic>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/base/clock.hpp"
#include "cuzk/base/priority_section.hpp"
#include "cuzk/gpu/cuda_check.cuh"
#include "cuzk/gpu/device_context.hpp"
#include "cuzk/gpu/encoded_bases.cuh"
#include "cuzk/gpu/msm/pippenger.cuh"
#include "cuzk/gpu/msm/streamed.cuh"
#include "cuzk/gpu/ntt/ntt.cuh"
#include "cuzk/gpu/partition.cuh"
#include "cuzk/gpu/pce/device_compact_r1cs.cuh"
#include "cuzk/msm/density.hpp"
#include "cuzk/msm/msm_plan.hpp"
#include "cuzk/msm/precomputed_windows.hpp"
#include "cuzk/r1cs/pce_compact_flat.hpp"

namespace cuzk {

namespace {

// The GPU's 0/1 split for the caller's mode (msm/msm_plan.hpp: automatic splits, before counting).
bool gpu_bit_split(MsmSplit requested) {
  return msm_split_used(cuda_msm_prices().cuda.split, requested, 0, 0);
}

using gpu::CudaError;
using gpu::DeviceBuffer;
using gpu::DeviceContext;

Status from_cuda_error(const CudaError& e) {
  if (e.code() == cudaErrorMemoryAllocation) return Status(Errc::out_of_memory, e.what());
  return Status(Errc::device_failure, e.what());
}

class CudaBackend final : public Backend, public DeviceMemoryReport {
 public:
  CudaBackend(std::unique_ptr<DeviceContext> ctx, const CudaBackendOptions& o)
      : ctx_(std::move(ctx)),
        tables_(*ctx_),
        stream_mode_(o.stream_bases),
        slot_points_(o.stream_slot_points),
        compact_msm_split_(o.compact_msm_split),
        fused_streamed_(o.fused_streamed_partitions),
        device_circuits_on_(o.device_circuits),
        overlap_(o.partition_overlap) {}

  std::string name() const override { return "cuda:" + std::to_string(ctx_->device()); }

  DeviceMemory device_memory() const override {
    std::lock_guard<std::mutex> lock(streamed_mu_);
    return {.total = ctx_->arena_bytes(),
            .used = ctx_->arena_used(),
            .pinned_total = ctx_->pinned_host_bytes(),
            .pinned_used = ctx_->pinned_host_used(),
            .streamed_bytes = streamed_bytes_};
  }
  // Small-card rule (msm/streamed.cuh): a table larger than half the arena stays in host memory
  // and streams through arena slots; so do one whose upload finds no room and those a key's
  // placement keeps there (load_bases_*_streamed).
  bool streams_table(std::uint64_t points, bool g2) const override {
    return stream_mode_ == StreamBases::always ||
           (stream_mode_ == StreamBases::automatic &&
            (g2 ? 192 : 96) * points + 256 > ctx_->arena_bytes() / 2);
  }
  bool can_stream_tables() const override { return stream_mode_ != StreamBases::never; }
  std::uint64_t partition_working_bytes(std::uint64_t domain,
                                        std::uint64_t columns) const override {
    return gpu::partition_working_bytes(domain, columns, ctx_->sm_count());
  }
  std::uint64_t table_plain_host_bytes(BasesId id) const override {
    std::lock_guard<std::mutex> sl(streamed_mu_);  // streamed_ changes under it too
    auto it = streamed_.find(id.value);
    return it == streamed_.end() || it->second.is_pinned() ? 0 : it->second.bytes();
  }
  std::uint64_t table_pinned_bytes(BasesId id) const override {
    std::lock_guard<std::mutex> sl(streamed_mu_);
    auto it = streamed_.find(id.value);
    return it != streamed_.end() && it->second.is_pinned() ? it->second.bytes() : 0;
  }
  // upload_bases packs each point to (x, y): 96 B in G1, 192 B in G2; each table is one arena
  // block rounded up to 256 B.
  std::uint64_t resident_bases_bytes(std::uint64_t g1_points, std::uint64_t g2_points,
                                     std::uint32_t tables) const override {
    return 96 * g1_points + 192 * g2_points + 256 * std::uint64_t{tables};
  }

  Result<BasesId> load_bases_g1(std::span<const G1Affine> bases) override {
    return load_points(bases, false);
  }
  Result<BasesId> load_bases_g2(std::span<const G2Affine> bases) override {
    return load_points(bases, false);
  }
  // A .params table decoded on the device (encoded_bases.cuh), resident or streamed by the same
  // rule as load_bases_*.
  Result<BasesId> load_bases_g1_encoded(const EncodedBases& bases) override {
    return load_encoded(bases, false, false);
  }
  Result<BasesId> load_bases_g2_encoded(const EncodedBases& bases) override {
    return load_encoded(bases, true, false);
  }
  // Tables the key's placement keeps on the host (groth16/key_placement.hpp): streamed whatever
  // their size (with StreamBases::never, resident as any other).
  Result<BasesId> load_bases_g1_streamed(std::span<const G1Affine> bases) override {
    return load_points(bases, true);
  }
  Result<BasesId> load_bases_g2_streamed(std::span<const G2Affine> bases) override {
    return load_points(bases, true);
  }
  Result<BasesId> load_bases_g1_encoded_streamed(const EncodedBases& bases) override {
    return load_encoded(bases, false, true);
  }
  Result<BasesId> load_bases_g2_encoded_streamed(const EncodedBases& bases) override {
    return load_encoded(bases, true, true);
  }
  Status release_bases(BasesId id) override {
    std::lock_guard<PrioritySection> lock(section_);
    if (auto it = streamed_.find(id.value); it != streamed_.end()) {
      std::lock_guard<std::mutex> sl(streamed_mu_);
      streamed_bytes_ -= it->second.bytes();
      streamed_.erase(it);
      return {};
    }
    if (bases_.erase(id.value) == 0)
      return Status(Errc::not_found, "bases " + std::to_string(id.value) + " are not loaded");
    copies_.erase(id.value);
    return {};
  }

  // Window copies (msm/precomputed_windows.hpp): built on the device at the prices' window for
  // copies, used by every later MSM over the whole table (the partition's H term).
  Result<std::uint64_t> add_window_copies(BasesId id, unsigned copies) override {
    std::lock_guard<PrioritySection> lock(section_);
    auto it = bases_.find(id.value);
    if (it == bases_.end())
      return Status(Errc::not_found, "window copies: bases " + std::to_string(id.value) +
                                         " are not resident on " + name());
    if (it->second.g2)
      return Status(Errc::invalid_argument, "window copies: bases " + std::to_string(id.value) +
                                                " are G2 points (copies are G1 only)");
    if (copies < 2 || copies > kMaxPrecomputedCopies)
      return Status(Errc::out_of_range, "window copies: " + std::to_string(copies) +
                                            " is outside 2.." +
                                            std::to_string(kMaxPrecomputedCopies));
    const unsigned c = cuda_msm_prices().cuda.copies_window;
    try {
      gpu::PrecomputedBases pb =
          gpu::precompute_bases_g1(*ctx_, it->second, c, copies, ctx_->stream());
      const std::uint64_t bytes = pb.points.size();
      copies_.insert_or_assign(id.value, std::move(pb));
      return bytes;
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
  }

  Status ntt(std::span<Fr> values, const NttOptions& options) override {
    const std::size_t n = values.size();
    if (n == 0 || !std::has_single_bit(n) || n > (std::size_t{1} << 32))
      return Status(Errc::invalid_argument,
                    "NTT length " + std::to_string(n) + " is not a power of two ≤ 2^32");
    if (options.coset &&
        (options.coset_shift % static_cast<std::uint64_t>(0xffffffff00000001ULL)) == 0)
      return Status(Errc::invalid_argument, "coset shift must be non-zero");
    std::lock_guard<PrioritySection> lock(section_);
    try {
      auto v = ctx_->alloc(n * sizeof(Fr), "NTT values");
      if (!v.ok()) return v.status();
      auto s = ctx_->alloc(n * sizeof(Fr), "NTT scratch");
      if (!s.ok()) return s.status();
      cudaStream_t st = ctx_->stream();
      ctx_->upload(v->data(), values.data(), n * sizeof(Fr), st);
      gpu::ntt_device(*ctx_, tables_, v->as<Fr>(), s->as<Fr>(),
                      static_cast<unsigned>(std::countr_zero(n)),
                      {.inverse = options.direction == NttDirection::inverse,
                       .coset = options.coset,
                       .coset_shift = options.coset_shift},
                      st);
      ctx_->download(values.data(), v->data(), n * sizeof(Fr), st);
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
    return {};
  }

  Result<G1Jacobian> msm_g1(BasesId id, std::span<const Fr> scalars,
                            const MsmOptions& options) override {
    auto r = msm<G1Xyzz>(id, scalars, options, false);
    if (!r.ok()) return r.status();
    return r->to_jacobian();
  }
  Result<G2Jacobian> msm_g2(BasesId id, std::span<const Fr> scalars,
                            const MsmOptions& options) override {
    auto r = msm<G2Xyzz>(id, scalars, options, true);
    if (!r.ok()) return r.status();
    return r->to_jacobian();
  }

  Status compute_h(HInputs in, std::span<Fr> h) override {
    const std::size_t n = in.a.size();
    if (n < 2 || !std::has_single_bit(n) || in.b.size() != n || in.c.size() != n)
      return Status(Errc::size_mismatch, "H inputs must share one power-of-two length ≥ 2 (a " +
                                             std::to_string(n) + ", b " +
                                             std::to_string(in.b.size()) + ", c " +
                                             std::to_string(in.c.size()) + ")");
    if (n > (std::size_t{1} << 30))  // the coset power tables (PowTable) cover exponents < 2^30
      return Status(Errc::invalid_argument,
                    "H on the GPU takes n ≤ 2^30, not " + std::to_string(n));
    const bool snarkjs = in.convention == HConvention::snarkjs;
    const std::size_t h_len = snarkjs ? n : n - 1;
    if (h.size() != h_len)
      return Status(Errc::size_mismatch, "h has " + std::to_string(h.size()) +
                                             " entries, expected " + std::to_string(h_len));
    std::lock_guard<PrioritySection> lock(section_);
    try {
      DeviceBuffer buf[4];
      for (auto& b : buf) {
        auto r = ctx_->alloc(n * sizeof(Fr), "H buffers");
        if (!r.ok()) return r.status();
        b = std::move(r).value();
      }
      cudaStream_t st = ctx_->stream();
      ctx_->upload(buf[0].data(), in.a.data(), n * sizeof(Fr), st);
      ctx_->upload(buf[1].data(), in.b.data(), n * sizeof(Fr), st);
      const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
      if (snarkjs) {  // c = a∘b is formed on the device
        gpu::compute_h_snarkjs_device(*ctx_, tables_, buf[0].as<Fr>(), buf[1].as<Fr>(),
                                      buf[2].as<Fr>(), buf[3].as<Fr>(), log_n, st);
      } else {
        ctx_->upload(buf[2].data(), in.c.data(), n * sizeof(Fr), st);
        gpu::compute_h_device(*ctx_, tables_, buf[0].as<Fr>(), buf[1].as<Fr>(), buf[2].as<Fr>(),
                              buf[3].as<Fr>(), log_n, st);
      }
      ctx_->download(h.data(), buf[0].data(), h_len * sizeof(Fr), st);
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
    return {};
  }

  // The whole partition with each input crossing the bus once (gpu/partition.cuh). a, b, c are
  // staged before the compute section, so with two device workers they cross while the other
  // partition computes. A key whose placement keeps a table on the host leaves the arena little
  // room, so its partitions stage inside the section (staged beside a running partition they could
  // take its streamed MSM's slots). A working set the arena cannot hold takes the step-wise calls,
  // and so does a streamed table unless CudaBackendOptions::fused_streamed_partitions.
  Result<PartitionSums> prove_partition(const PartitionInputs& in,
                                        PartitionTimings* timings) override {
    CUZK_RETURN_IF_ERROR(gpu::check_partition_lengths(in));
    const bool streamed = any_streamed(partition_shape(in));
    if (streamed && !fused_streamed_) return prove_partition_steps(in, timings);
    gpu::StagedPartition staged;
    try {
      if (!streamed) staged = gpu::stage_partition(*ctx_, in);
    } catch (const CudaError& e) {
      if (e.code() != cudaErrorMemoryAllocation)
        return from_cuda_error(e);  // no room now: staged inside
    }
    {
      std::lock_guard<PrioritySection> lock(section_);
      gpu::PartitionTables t;
      if (partition_tables(partition_shape(in), t)) {
        CUZK_RETURN_IF_ERROR(gpu::check_partition(in, t));
        try {
          return gpu::prove_partition_device(*ctx_, tables_, in, t, std::move(staged), timings,
                                             overlap_.load());
        } catch (const CudaError& e) {
          if (e.code() != cudaErrorMemoryAllocation) return from_cuda_error(e);
        }
      }
    }
    staged = {};
    return prove_partition_steps(in, timings);
  }

  // A circuit's compact R1CS in the arena, in the flat layout (gpu/pce/device_compact_r1cs.cuh:
  // device_circuit_bytes of it). When the arena has no room the circuit stays on the host only
  // and its partitions are expanded there (Backend's default).
  Result<CircuitId> load_circuit(std::shared_ptr<const CompactR1cs> circuit) override {
    auto id = Backend::load_circuit(circuit);
    if (!id.ok() || !device_circuits_on_) return id;
    auto flat = compact_flatten(*circuit);
    if (!flat.ok()) {
      (void)Backend::release_circuit(*id);
      return flat.status().with_context("load_circuit");
    }
    std::lock_guard<PrioritySection> lock(section_);
    try {
      device_circuits_.emplace(id->value,
                               std::make_shared<const gpu::DeviceCompactR1cs>(
                                   gpu::upload_compact_r1cs(*ctx_, *flat, ctx_->stream())));
    } catch (const CudaError& e) {
      if (e.code() != cudaErrorMemoryAllocation) {
        (void)Backend::release_circuit(*id);
        return from_cuda_error(e);
      }
    }
    return id;
  }
  Status release_circuit(CircuitId id) override {
    {
      std::lock_guard<PrioritySection> lock(section_);
      device_circuits_.erase(id.value);
    }
    return Backend::release_circuit(id);
  }
  std::uint64_t device_circuit_bytes(const CompactR1cs& circuit) const override {
    if (!device_circuits_on_) return 0;
    auto flat = compact_flatten(circuit);
    return flat.ok() ? gpu::device_compact_r1cs_bytes(*flat) : 0;
  }

  // A partition from its compact witness (gpu/partition.cuh): only the compact witness crosses
  // the bus, z and a, b, c are made in the arena from the circuit's resident copy, then the same
  // H step and MSMs. Everything is allocated and staged inside the compute section: the upload is
  // tens of MB (a few ms), while buffers staged beside another worker's partition (21 GB at 2^27)
  // could take the room that partition's MSMs need and send it to the host path (measured: 1 to
  // 4 of 10 partitions of a 32 GiB PoRep on an 80 GB card when staged outside). A circuit without
  // a device copy, a table the backend does not know, or a working set the arena cannot hold take the
  // host expansion (Backend's default, then prove_partition).
  Result<PartitionSums> prove_partition_compact(const CompactPartitionInputs& in,
                                                PartitionTimings* timings) override {
    auto circuit = check_compact_partition_inputs(in);
    if (!circuit.ok()) return circuit.status();
    const PartitionShape shape = partition_shape(in);
    const std::size_t n = shape.domain;
    std::shared_ptr<const gpu::DeviceCompactR1cs> dm;
    {
      std::lock_guard<PrioritySection> lock(section_);
      if (auto it = device_circuits_.find(in.circuit.value); it != device_circuits_.end())
        dm = it->second;
    }
    // No device copy of the circuit, or a table kept on the host without
    // fused_streamed_partitions: the host expansion. (With it, a table kept on the host is
    // streamed by its MSM from the device's z.)
    const bool streamed = any_streamed(shape);
    if (dm == nullptr || n > (std::size_t{1} << 30) || (!fused_streamed_ && streamed))
      return Backend::prove_partition_compact(in, timings);
    // A streamed table's MSM classifies each chunk's scalars from z (msm/streamed.cu reads them in
    // place; it does not split from the compact witness), so such a partition keeps z.
    const bool split_from_compact = compact_msm_split_ && !streamed;
    gpu::StagedPartition staged;
    {
      std::lock_guard<PrioritySection> lock(section_);
      gpu::PartitionTables t;
      if (partition_tables(shape, t)) {
        CUZK_RETURN_IF_ERROR(gpu::check_partition(shape, t));
        try {
          staged = gpu::stage_compact_partition(*ctx_, *in.witness, n);
          const auto t0 = std::chrono::steady_clock::now();
          gpu::expand_compact_partition(*ctx_, *dm, staged, n, ctx_->stream(0), split_from_compact);
          const double t_abc = seconds_since(t0);
          PartitionSums sums = gpu::prove_partition_device(
              *ctx_, tables_, shape, t, std::move(staged), timings, overlap_.load());
          if (timings != nullptr) timings->abc = t_abc;
          return sums;
        } catch (const CudaError& e) {
          if (e.code() != cudaErrorMemoryAllocation) return from_cuda_error(e);
        }
      }
    }
    staged = {};
    return Backend::prove_partition_compact(in, timings);
  }

 private:
  // The tables of a partition into |t|, resident or streamed (section_ held: neither map changes
  // meanwhile); false when one is unknown.
  bool partition_tables(const PartitionShape& in, gpu::PartitionTables& t) const {
    std::lock_guard<std::mutex> sl(streamed_mu_);
    bool known = true;
    auto find = [&](BasesId id) {
      gpu::PartitionTable r;
      if (auto it = bases_.find(id.value); it != bases_.end()) {
        r.resident = &it->second;
        r.precomputed = copies_of(id);
      } else if (auto s = streamed_.find(id.value); s != streamed_.end()) {
        r.streamed = &s->second;
      } else {
        known = false;
      }
      return r;
    };
    t.a = find(in.a), t.b_g1 = find(in.b_g1), t.b_g2 = find(in.b_g2), t.l = find(in.l),
    t.h = find(in.h);
    t.streamed_slot_points = slot_points_;
    return known;
  }

  // The window copies of table |id| (section_ held); null when it has none.
  const gpu::PrecomputedBases* copies_of(BasesId id) const {
    auto it = copies_.find(id.value);
    return it == copies_.end() ? nullptr : &it->second;
  }

  bool any_streamed(const PartitionShape& in) const {
    std::lock_guard<std::mutex> sl(streamed_mu_);  // streamed_ changes under it too
    for (BasesId id : {in.a, in.b_g1, in.b_g2, in.l, in.h})
      if (streamed_.count(id.value)) return true;
    return false;
  }
  // |placed_on_host|: the key's placement chose to stream the table (unless streaming is off).
  bool stream_at_load(std::size_t points, bool g2, bool placed_on_host) const {
    return streams_table(points, g2) || (placed_on_host && can_stream_tables());
  }
  Result<BasesId> load_points(std::span<const G1Affine> bases, bool placed_on_host) {
    return load([&] { return gpu::upload_bases_g1(*ctx_, bases, ctx_->stream()); },
                [&] { return gpu::make_streamed_bases_g1(*ctx_, bases); }, bases.size(), false,
                placed_on_host);
  }
  Result<BasesId> load_points(std::span<const G2Affine> bases, bool placed_on_host) {
    return load([&] { return gpu::upload_bases_g2(*ctx_, bases, ctx_->stream()); },
                [&] { return gpu::make_streamed_bases_g2(*ctx_, bases); }, bases.size(), true,
                placed_on_host);
  }

  template <class F, class S>
  Result<BasesId> load(F&& upload, S&& make_streamed, std::size_t points, bool g2,
                       bool placed_on_host) {
    std::lock_guard<PrioritySection> lock(section_);
    bool stream = stream_at_load(points, g2, placed_on_host);
    if (!stream) {
      try {
        gpu::ResidentBases rb = upload();
        const std::uint64_t id = ++next_id_;
        bases_.emplace(id, std::move(rb));
        return BasesId{id};
      } catch (const CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation || stream_mode_ == StreamBases::never)
          return from_cuda_error(e);
        stream = true;  // no room in the arena now: keep it on the host
      }
    }
    try {
      gpu::StreamedBases sb = make_streamed();
      const std::uint64_t id = ++next_id_;
      std::lock_guard<std::mutex> sl(streamed_mu_);
      streamed_bytes_ += sb.bytes();
      streamed_.emplace(id, std::move(sb));
      return BasesId{id};
    } catch (const std::bad_alloc&) {
      return Status(Errc::out_of_memory, "no host memory for a streamed base table of " +
                                             std::to_string(points) + " points");
    }
  }

  Result<BasesId> load_encoded(const EncodedBases& in, bool g2, bool placed_on_host) {
    const std::size_t per = g2 ? 192 : 96;
    if (in.bytes.size() % per != 0)
      return Status(Errc::size_mismatch, "encoded bases: " + std::to_string(in.bytes.size()) +
                                             " bytes is not a multiple of " + std::to_string(per));
    const std::size_t points = in.bytes.size() / per;
    std::lock_guard<PrioritySection> lock(section_);
    bool stream = stream_at_load(points, g2, placed_on_host);
    if (!stream) {
      try {
        gpu::ResidentBases rb;
        CUZK_RETURN_IF_ERROR(gpu::upload_encoded_bases(*ctx_, in, g2, ctx_->stream(), rb));
        const std::uint64_t id = ++next_id_;
        bases_.emplace(id, std::move(rb));
        return BasesId{id};
      } catch (const CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation || stream_mode_ == StreamBases::never)
          return from_cuda_error(e);
        stream = true;  // no room in the arena now (nothing was read yet): keep it on the host
      }
    }
    try {
      gpu::StreamedBases sb;
      CUZK_RETURN_IF_ERROR(gpu::make_streamed_encoded(*ctx_, in, g2, ctx_->stream(), sb));
      const std::uint64_t id = ++next_id_;
      std::lock_guard<std::mutex> sl(streamed_mu_);
      streamed_bytes_ += sb.bytes();
      streamed_.emplace(id, std::move(sb));
      return BasesId{id};
    } catch (const std::bad_alloc&) {
      return Status(Errc::out_of_memory, "no host memory for a streamed base table of " +
                                             std::to_string(points) + " points");
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
  }

  template <class HostXyzz>
  Result<HostXyzz> msm(BasesId id, std::span<const Fr> scalars, const MsmOptions& options,
                       bool g2) {
    std::lock_guard<PrioritySection> lock(section_);
    if (auto s = streamed_.find(id.value); s != streamed_.end())
      return msm_streamed<HostXyzz>(s->second, scalars, options, g2);
    auto it = bases_.find(id.value);
    if (it == bases_.end())
      return Status(Errc::not_found, "bases " + std::to_string(id.value) + " are not loaded");
    const gpu::ResidentBases& rb = it->second;
    if (rb.g2 != g2)
      return Status(Errc::invalid_argument, std::string("bases ") + std::to_string(id.value) +
                                                " are " + (rb.g2 ? "G2" : "G1") + " points");
    const std::size_t n = scalars.size();
    const auto& bits = options.density.bits;
    CUZK_RETURN_IF_ERROR(check_density(n, options.density, rb.count));
    gpu::GpuMsmConfig cfg{.density_bits = bits.empty() ? bits : bits.subspan(0, (n + 63) / 64),
                          .base_offset = options.density.base_offset,
                          .bit_split = gpu_bit_split(options.bit_split)};
    if (!g2) gpu::use_window_copies(cfg, copies_of(id));
    try {
      if constexpr (std::is_same_v<HostXyzz, G1Xyzz>)
        return gpu::msm_g1_device(*ctx_, rb, scalars, cfg, ctx_->stream());
      else
        return gpu::msm_g2_device(*ctx_, rb, scalars, cfg, ctx_->stream());
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
  }

  // The streamed-bases MSM (msm/streamed.cuh); section_ held. Same checks as the resident one.
  template <class HostXyzz>
  Result<HostXyzz> msm_streamed(const gpu::StreamedBases& sb, std::span<const Fr> scalars,
                                const MsmOptions& options, bool g2) {
    if (sb.g2 != g2)
      return Status(Errc::invalid_argument,
                    std::string("streamed bases are ") + (sb.g2 ? "G2" : "G1") + " points");
    const std::size_t n = scalars.size();
    const auto& bits = options.density.bits;
    CUZK_RETURN_IF_ERROR(check_density(n, options.density, sb.count));
    const gpu::StreamedMsmConfig cfg{
        .slot_points = slot_points_,
        .msm = {.density_bits = bits.empty() ? bits : bits.subspan(0, (n + 63) / 64),
                .base_offset = options.density.base_offset,
                .bit_split = gpu_bit_split(options.bit_split)}};
    try {
      if constexpr (std::is_same_v<HostXyzz, G1Xyzz>)
        return gpu::msm_g1_streamed(*ctx_, sb, scalars, cfg, ctx_->stream(0), ctx_->stream(1));
      else
        return gpu::msm_g2_streamed(*ctx_, sb, scalars, cfg, ctx_->stream(0), ctx_->stream(1));
    } catch (const CudaError& e) {
      return from_cuda_error(e);
    }
  }

  std::unique_ptr<DeviceContext> ctx_;
  gpu::NttTables tables_;
  const StreamBases stream_mode_;
  const std::size_t slot_points_;
  const bool compact_msm_split_;
  const bool fused_streamed_;
  const bool device_circuits_on_;

 public:
  // set_partition_overlap: the schedule of the next partitions.
  std::atomic<PartitionOverlap> overlap_;

 private:
  // The device's compute section, most urgent waiter first (a device call runs at its job's
  // priority, base/priority_section.hpp): a PoSt partition waits for at most the one inside.
  PrioritySection section_;
  std::map<std::uint64_t, gpu::ResidentBases> bases_;
  // Window copies of resident G1 tables by BasesId (add_window_copies).
  std::map<std::uint64_t, gpu::PrecomputedBases> copies_;
  // Circuits' device copies by CircuitId (load_circuit); shared so a partition keeps its copy.
  std::map<std::uint64_t, std::shared_ptr<const gpu::DeviceCompactR1cs>> device_circuits_;
  std::map<std::uint64_t, gpu::StreamedBases>
      streamed_;                    // tables kept on the host (small-card path)
  mutable std::mutex streamed_mu_;  // streamed_bytes_ for device_memory()
  std::uint64_t streamed_bytes_ = 0;
  std::uint64_t next_id_ = 0;
};

}  // namespace

Result<PartitionOverlap> parse_partition_overlap(std::string_view name) {
  if (name == "off") return PartitionOverlap::off;
  if (name == "auto") return PartitionOverlap::automatic;
  if (name == "h_step") return PartitionOverlap::beside_h_step;
  if (name == "h_msm") return PartitionOverlap::beside_h_msm;
  return Status(Errc::invalid_argument, "partition overlap \"" + std::string(name) +
                                            "\": expected off, auto, h_step or h_msm");
}

Status set_partition_overlap(Backend& be, PartitionOverlap mode) {
  auto* cuda = dynamic_cast<CudaBackend*>(&be);
  if (cuda == nullptr)
    return Status(Errc::invalid_argument,
                  "set_partition_overlap: " + be.name() + " is not a CUDA backend");
  cuda->overlap_ = mode;
  return {};
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

Result<std::unique_ptr<Backend>> make_cuda_backend(std::string_view spec,
                                                   const CudaBackendOptions& options) {
  int device = 0;
  if (spec.starts_with("cuda:")) {
    const std::string_view num = spec.substr(5);
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), device);
    if (ec != std::errc() || p != num.data() + num.size() || device < 0)
      return Status(Errc::invalid_argument,
                    "bad CUDA backend spec \"" + std::string(spec) + "\" (expected cuda:N)");
  } else if (spec != "cuda") {
    return Status(Errc::invalid_argument, "not a CUDA backend spec: \"" + std::string(spec) + "\"");
  }
  // Streams: 0 computes, 1 copies, 2 runs a partition's B_G2 beside the rest, 3 its witness G1
  // MSMs beside the H step or the H MSM (the side lane, gpu/partition.cuh).
  gpu::DeviceContextOptions co{.device = device,
                               .arena_bytes = options.arena_bytes,
                               .vram_cap_bytes = options.vram_cap_bytes,
                               .streams = 4,
                               .pinned_host_bytes = options.pinned_host_bytes,
                               .partition_pinned_bytes = options.partition_pinned_bytes};
  if (options.arena_fraction > 0) co.free_fraction = options.arena_fraction;
  CudaBackendOptions o = options;
  if (const char* env = std::getenv("CUZK_GPU_OVERLAP"); env != nullptr && *env != '\0') {
    auto mode = parse_partition_overlap(env);
    if (!mode.ok()) return mode.status().with_context("CUZK_GPU_OVERLAP");
    o.partition_overlap = *mode;
  }
  auto ctx = gpu::DeviceContext::create(co);
  if (!ctx.ok()) return ctx.status();
  return Result<std::unique_ptr<Backend>>(
      std::unique_ptr<Backend>(new CudaBackend(std::move(ctx).value(), o)));
}

}  // namespace cuzk
