#include "cuzk/engine/fake_prover.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "cuzk/circuits/bench/bench_circuit_id.hpp"

namespace cuzk::engine {
namespace {

constexpr char kMagic[8] = {'c', 'u', 'z', 'k', 'f', 'a', 'k', 'e'};
constexpr std::uint32_t kProofBytes = 192;

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

struct FakeInput {
  std::uint64_t seed = 0;
  std::uint8_t fault_stage = 0;
  std::uint8_t fault_partition = 0;
};

Result<FakeInput> parse_input(const std::string& b) {
  FakeInput in;
  if (b.empty()) return in;
  if ((b.size() != 16 && b.size() != 18) || std::memcmp(b.data(), kMagic, 8) != 0)
    return Status(Errc::bad_encoding,
                  "witness is not a cuzkfake input (" + std::to_string(b.size()) + " bytes)");
  for (int i = 0; i < 8; ++i)
    in.seed |= std::uint64_t(static_cast<unsigned char>(b[8 + i])) << (8 * i);
  if (b.size() == 18) {
    in.fault_stage = static_cast<std::uint8_t>(b[16]);
    in.fault_partition = static_cast<std::uint8_t>(b[17]);
    if (in.fault_stage > 3) return Status(Errc::bad_encoding, "fault stage must be 0..3");
  }
  return in;
}

std::string partition_proof(const std::string& circuit_id, std::uint64_t seed, std::uint32_t k) {
  std::uint64_t s = fnv1a(circuit_id) ^ (seed * 0x2545f4914f6cdd1dULL) ^ (std::uint64_t(k) << 48);
  std::string out(kProofBytes, '\0');
  for (std::uint32_t i = 0; i < kProofBytes; i += 8) {
    std::uint64_t w = splitmix(s);
    std::memcpy(out.data() + i, &w, 8);
  }
  return out;
}

// Sleeps |ms| in 1 ms steps; false when cancelled first.
bool sleep_cancellable(std::uint32_t ms, const CancelFlag& cancel) {
  for (std::uint32_t i = 0; i < ms; ++i) {
    if (cancel.load(std::memory_order_relaxed)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return !cancel.load(std::memory_order_relaxed);
}

class FakeKey final : public ProvingKeyData {
 public:
  FakeKey(FakeProver* p, std::uint64_t bytes) : p_(p), bytes_(bytes) {
    p_->add_live(static_cast<std::int64_t>(bytes_));
  }
  ~FakeKey() override { p_->add_live(-static_cast<std::int64_t>(bytes_)); }
  std::uint64_t size_bytes() const override { return bytes_; }

 private:
  FakeProver* p_;
  std::uint64_t bytes_;
};

// Live bytes are what the partition holds outside a pool: (total − abc − pooled other) +
// (abc − pooled abc).
class FakePartition final : public SynthesizedPartition {
 public:
  FakePartition(FakeProver* p, std::uint64_t total, std::uint64_t abc, std::uint64_t pooled_abc,
                std::uint64_t pooled_other)
      : p_(p),
        pooled_{std::min(pooled_abc, abc), std::min(pooled_other, total - abc)},
        rest_(total - abc - pooled_.other),
        abc_(abc - pooled_.abc) {
    p_->add_live(static_cast<std::int64_t>(rest_ + abc_));
  }
  ~FakePartition() override { p_->add_live(-static_cast<std::int64_t>(rest_ + abc_)); }
  void release_abc() override {
    p_->add_live(-static_cast<std::int64_t>(abc_));
    abc_ = 0;
  }
  PooledBytes pooled_bytes() const override { return pooled_; }
  std::optional<std::uint64_t> held_bytes() const override {
    return held_ ? std::optional<std::uint64_t>(rest_) : std::nullopt;
  }
  /// Synthesis done: keep only |held| bytes of the rest.
  void shrink_to(std::uint64_t held) {
    held = std::min(held, rest_);
    p_->add_live(-static_cast<std::int64_t>(rest_ - held));
    rest_ = held;
    held_ = true;
  }

 private:
  FakeProver* p_;
  PooledBytes pooled_;
  std::uint64_t rest_, abc_;
  bool held_ = false;
};

}  // namespace

std::string fake_input(std::uint64_t seed, std::uint8_t fault_stage, std::uint8_t fault_partition) {
  std::string b(kMagic, 8);
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<char>((seed >> (8 * i)) & 0xff));
  if (fault_stage) {
    b.push_back(static_cast<char>(fault_stage));
    b.push_back(static_cast<char>(fault_partition));
  }
  return b;
}

JobRequest fake_job(const std::string& id, const std::string& circuit, std::uint64_t seed,
                    std::uint32_t parts, Priority priority) {
  JobRequest r;
  r.request_id = id;
  r.circuit_id = circuit;
  r.num_partitions = parts;
  r.priority = priority;
  r.vanilla_proof = fake_input(seed);
  return r;
}

std::string fake_expected_proof(const std::string& circuit_id, std::uint64_t seed,
                                std::uint32_t partitions) {
  std::string out;
  for (std::uint32_t k = 0; k < partitions; ++k) out += partition_proof(circuit_id, seed, k);
  return out;
}

void FakeProver::add_live(std::int64_t delta) {
  std::uint64_t now =
      live_.fetch_add(static_cast<std::uint64_t>(delta)) + static_cast<std::uint64_t>(delta);
  std::uint64_t p = peak_.load();
  while (now > p && !peak_.compare_exchange_weak(p, now)) {
  }
}

FakeProver::Hold FakeProver::hold(FakeStage stage, const std::string& id) {
  HoldKey key{stage, id};
  std::lock_guard lock(hold_mu_);
  ++holds_[key].holds;
  return Hold(this, std::move(key));
}

void FakeProver::release_hold(const HoldKey& key) {
  {
    std::lock_guard lock(hold_mu_);
    --holds_[key].holds;
  }
  hold_cv_.notify_all();
}

std::uint32_t FakeProver::held_waiting(FakeStage stage, const std::string& id) const {
  std::lock_guard lock(hold_mu_);
  const auto it = holds_.find(HoldKey{stage, id});
  return it == holds_.end() ? 0 : it->second.waiting;
}

bool FakeProver::wait_while_held(FakeStage stage, const std::string& id, const CancelFlag* cancel) {
  std::unique_lock lock(hold_mu_);
  const auto it = holds_.find(HoldKey{stage, id});  // entries are never erased
  if (it == holds_.end() || it->second.holds == 0) return true;
  ++it->second.waiting;
  bool cancelled = false;
  // The cancel flag is an atomic nobody notifies: polled every millisecond, as sleep_cancellable.
  while (it->second.holds > 0 && !cancelled) {
    hold_cv_.wait_for(lock, std::chrono::milliseconds(1));
    cancelled = cancel && cancel->load(std::memory_order_relaxed);
  }
  --it->second.waiting;
  return !cancelled;
}

bool FakeProver::supports(const std::string& circuit_id) const {
  return circuits::parse_bench_log2(circuit_id).ok();
}

Result<JobPlan> FakeProver::plan(const JobRequest& req) {
  auto k = circuits::parse_bench_log2(req.circuit_id);
  if (!k) return k.status();
  auto in = parse_input(req.vanilla_proof);
  if (!in) return in.status();
  JobPlan p;
  p.key_id = req.circuit_id;
  p.partitions = req.num_partitions ? req.num_partitions : opt_.default_partitions;
  if (p.partitions > 64)
    return Status(Errc::out_of_range,
                  "num_partitions must be 1..64, got " + std::to_string(p.partitions));
  if (in->fault_stage && in->fault_partition >= p.partitions)
    return Status(Errc::out_of_range, "fault partition beyond the job's partitions");
  std::uint64_t n = std::uint64_t{1} << *k;
  p.partition_bytes = opt_.partition_bytes_override ? opt_.partition_bytes_override : 4 * 32 * n;
  p.abc_bytes = opt_.held_bytes ? 0 : p.partition_bytes / 4 * 3;
  return p;
}

Result<std::uint64_t> FakeProver::key_bytes(const std::string& key_id) {
  auto k = circuits::parse_bench_log2(key_id);
  if (!k) return k.status();
  return std::uint64_t{576} << *k;
}

Result<std::shared_ptr<const ProvingKeyData>> FakeProver::load_key(const std::string& key_id) {
  auto bytes = key_bytes(key_id);
  if (!bytes) return bytes.status();
  wait_while_held(FakeStage::key_load, key_id, nullptr);
  const auto it = opt_.key_load_ms_by_key.find(key_id);
  std::this_thread::sleep_for(std::chrono::milliseconds(
      it != opt_.key_load_ms_by_key.end() ? it->second : opt_.key_load_ms));
  ++keys_loaded_;
  return std::shared_ptr<const ProvingKeyData>(std::make_shared<FakeKey>(this, *bytes));
}

Result<std::unique_ptr<SynthesizedPartition>> FakeProver::synthesize(const JobRequest& req,
                                                                     const JobPlan& plan,
                                                                     std::uint32_t k,
                                                                     const CancelFlag& cancel) {
  auto in = parse_input(req.vanilla_proof);
  if (!in) return in.status();
  auto part = std::make_unique<FakePartition>(this, plan.partition_bytes, plan.abc_bytes,
                                              opt_.pooled_abc_bytes, opt_.pooled_other_bytes);
  if (!wait_while_held(FakeStage::synthesis, req.request_id, &cancel) ||
      !sleep_cancellable(opt_.synth_ms, cancel))
    return Status(Errc::cancelled, "synthesis cancelled");
  if (in->fault_stage == 1 && in->fault_partition == k)
    return Status(Errc::unsatisfied, "injected synthesis fault in partition " + std::to_string(k));
  if (opt_.held_bytes) part->shrink_to(opt_.held_bytes);
  return std::unique_ptr<SynthesizedPartition>(std::move(part));
}

Result<std::string> FakeProver::prove_partition(int device, const ProvingKeyData& key,
                                                const JobRequest& req, std::uint32_t k,
                                                SynthesizedPartition& part,
                                                const CancelFlag& cancel) {
  auto in = parse_input(req.vanilla_proof);
  if (!in) return in.status();
  std::unique_lock<PrioritySection> section;
  if (opt_.compute_section) section = std::unique_lock(compute_section(device));
  {
    std::lock_guard lock(mu_);
    stages_.push_back(DeviceStage{req.request_id, k, device});
  }
  std::uint32_t now = ++dev_now_;
  std::uint32_t m = max_dev_.load();
  while (now > m && !max_dev_.compare_exchange_weak(m, now)) {
  }
  std::uint32_t ms = opt_.gpu_ms;
  if (device >= 0 && static_cast<std::size_t>(device) < opt_.device_gpu_ms.size() &&
      opt_.device_gpu_ms[device])
    ms = opt_.device_gpu_ms[device];
  bool ok = sleep_cancellable(ms, cancel);
  --dev_now_;
  if (!ok) return Status(Errc::cancelled, "device stage cancelled");
  if (in->fault_stage == 2 && in->fault_partition == k)
    return Status(Errc::device_failure, "injected device fault in partition " + std::to_string(k));
  return partition_proof(req.circuit_id, in->seed, k);
}

Status FakeProver::verify(const ProvingKeyData& key, const JobRequest& req,
                          const std::string& proof) {
  auto in = parse_input(req.vanilla_proof);
  if (!in) return in.status();
  std::this_thread::sleep_for(std::chrono::milliseconds(opt_.verify_ms));
  std::uint32_t parts = static_cast<std::uint32_t>(proof.size() / kProofBytes);
  std::string expect = fake_expected_proof(req.circuit_id, in->seed, parts);
  if (in->fault_stage == 3) expect[0] ^= 1;
  if (proof.size() % kProofBytes != 0 || proof != expect)
    return Status(Errc::unsatisfied,
                  "self-verification failed: the assembled proof does not verify");
  return {};
}

}  // namespace cuzk::engine
