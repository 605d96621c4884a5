// The key store's bellperson .params source (KeySource::params, the way the Filecoin families
// name their parameter files) through Groth16Prover with a registry of its own: a family that
// serves bench-10's circuit under another id, with its key read from a .params file at a path.
// The job proves and self-verifies with no key generated; the key's image is written and a fresh
// prover loads from it; a file for another circuit, or a missing one, is refused with its name.
// The direct path: a prover whose only backend has device memory (a CPU backend behind a fake
// arena) serves the .params straight from its mapping — no key image written, the key charged
// its VK only, the queries handed to the backend as raw bytes on each residency — and proves the
// same; a damaged query point fails the residency naming the file, section and point.
// A family whose shape has a compact form: each copy of its key (host and device) loads the circuit
// on its backend with it and releases it with it; device_key_bytes charges the device copy of the
// circuit (Backend::device_circuit_bytes); prove_compact proves with the copy's CircuitId.
#include "cuzk/engine/key_store.hpp"

#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>
#include <filesystem>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/backend/device_memory.hpp"
#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/msm/precomputed_windows.hpp"
#include "cuzk/r1cs/pce_compact_recorder.hpp"
#include "cuzk/r1cs/recording_cs.hpp"
#include "cuzk/r1cs/witness_cs.hpp"
#include "tests/support/bitty_circuit.hpp"
#include "tests/support/temp_dir.hpp"

namespace cuzk::engine {
namespace {

const bool kQuiet = (spdlog::set_level(spdlog::level::warn), true);

std::string temp_dir(const std::string& tag) { return test::fresh_temp_dir("keystore-" + tag); }

// bench-<K>'s circuit served as "params-<K>", its key a bellperson .params at |params|.
class ParamsFamily final : public circuits::CircuitFamily {
 public:
  ParamsFamily(std::shared_ptr<circuits::BenchFamily> bench, int k, std::string params)
      : bench_(std::move(bench)), k_(k), params_(std::move(params)) {}
  std::string name() const override { return "params"; }
  bool serves_circuit(const std::string& id) const override { return id == id_(); }
  Result<circuits::PartitionPlan> plan(const JobRequest& req) override {
    auto p = bench_->plan(as_bench(req));
    if (p) p->key_id = id_();
    return p;
  }
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string&) override {
    return bench_->shape(bench_id());
  }
  Result<circuits::KeySource> key_source(const std::string&) override {
    return circuits::KeySource{
        .kind = circuits::KeySource::Kind::params, .path = params_, .image_name = id_() + ".kimg"};
  }
  Status witness(const JobRequest& req, const circuits::PartitionPlan& plan, std::uint32_t k,
                 std::vector<Fr>& z, const CancelFlag& cancel) override {
    return bench_->witness(as_bench(req), plan, k, z, cancel);
  }
  Result<std::vector<Fr>> public_inputs(const JobRequest& req, const circuits::PartitionPlan& plan,
                                        std::uint32_t k) override {
    return bench_->public_inputs(as_bench(req), plan, k);
  }

 private:
  std::string id_() const { return "params-" + std::to_string(k_); }
  std::string bench_id() const { return "bench-" + std::to_string(k_); }
  JobRequest as_bench(JobRequest req) const {
    req.circuit_id = bench_id();
    return req;
  }
  std::shared_ptr<circuits::BenchFamily> bench_;
  int k_;
  std::string params_;
};

// A CPU backend that says it has device memory (by default an arena large enough for anything):
// a prover with only such backends has no host backend, as a CUDA-only daemon. Counts the tables
// handed to it as .params encodings, and those handed to be streamed (with their bytes); with
// |working|, says a partition needs that much of its |arena| (placement: key_placement.hpp).
class FakeDeviceBackend final : public Backend, public DeviceMemoryReport {
 public:
  explicit FakeDeviceBackend(ThreadPool& pool, std::uint64_t arena = std::uint64_t{1} << 40,
                             std::uint64_t working = 0)
      : cpu_(pool), arena_(arena), working_(working) {}
  std::string name() const override { return "fake-device"; }
  DeviceMemory device_memory() const override { return {.total = arena_}; }
  std::uint64_t resident_bases_bytes(std::uint64_t g1, std::uint64_t g2,
                                     std::uint32_t tables) const override {
    return 96 * g1 + 192 * g2 + 256 * std::uint64_t{tables};
  }
  bool can_stream_tables() const override { return true; }
  std::uint64_t partition_working_bytes(std::uint64_t, std::uint64_t) const override {
    return working_;
  }
  Result<BasesId> load_bases_g1_encoded_streamed(const EncodedBases& b) override {
    ++streamed_loads, streamed_bytes += b.bytes.size();
    return load_bases_g1_encoded(b);
  }
  Result<BasesId> load_bases_g2_encoded_streamed(const EncodedBases& b) override {
    ++streamed_loads, streamed_bytes += b.bytes.size();
    return load_bases_g2_encoded(b);
  }
  Result<BasesId> load_bases_g1(std::span<const G1Affine> b) override {
    ++decoded_loads;
    return cpu_.load_bases_g1(b);
  }
  Result<BasesId> load_bases_g2(std::span<const G2Affine> b) override {
    ++decoded_loads;
    return cpu_.load_bases_g2(b);
  }
  Result<BasesId> load_bases_g1_encoded(const EncodedBases& b) override {
    ++encoded_loads;
    --decoded_loads;  // the default decodes, then loads the points
    return Backend::load_bases_g1_encoded(b);
  }
  Result<BasesId> load_bases_g2_encoded(const EncodedBases& b) override {
    ++encoded_loads;
    --decoded_loads;
    return Backend::load_bases_g2_encoded(b);
  }
  Status release_bases(BasesId id) override { return cpu_.release_bases(id); }
  // Window copies of a G1 table (key placement rule 3): recorded; |copies_fail| refuses them.
  Result<std::uint64_t> add_window_copies(BasesId id, unsigned copies) override {
    copies_table = id.value, copies_asked = copies;
    if (copies_fail) return Status(Errc::out_of_memory, "fake: no room for window copies");
    return std::uint64_t{copies - 1} * 96;
  }
  std::uint64_t copies_table = 0;
  unsigned copies_asked = 0;
  bool copies_fail = false;
  Status ntt(std::span<Fr> v, const NttOptions& o) override { return cpu_.ntt(v, o); }
  Result<G1Jacobian> msm_g1(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g1(b, s, o);
  }
  Result<G2Jacobian> msm_g2(BasesId b, std::span<const Fr> s, const MsmOptions& o) override {
    return cpu_.msm_g2(b, s, o);
  }
  Status compute_h(HInputs in, std::span<Fr> h) override { return cpu_.compute_h(in, h); }
  // A circuit's device copy, as a CUDA backend charges it: a fixed figure here.
  static constexpr std::uint64_t kCircuitBytes = 4242;
  std::uint64_t device_circuit_bytes(const CompactR1cs&) const override { return kCircuitBytes; }
  Result<CircuitId> load_circuit(std::shared_ptr<const CompactR1cs> c) override {
    ++circuit_loads;
    return Backend::load_circuit(std::move(c));
  }
  Status release_circuit(CircuitId id) override {
    ++circuit_releases;
    return Backend::release_circuit(id);
  }
  std::atomic<int> encoded_loads{0}, decoded_loads{0}, streamed_loads{0}, circuit_loads{0},
      circuit_releases{0};
  std::atomic<std::uint64_t> streamed_bytes{0};

 private:
  CpuBackend cpu_;
  std::uint64_t arena_, working_;
};

std::shared_ptr<Groth16Prover> params_prover(const std::string& dir, const std::string& bench_dir,
                                             const std::string& params,
                                             FakeDeviceBackend** device = nullptr,
                                             std::uint64_t arena = std::uint64_t{1} << 40,
                                             std::uint64_t working = 0) {
  auto reg = std::make_shared<circuits::Registry>();
  auto bench =
      std::make_shared<circuits::BenchFamily>(circuits::BenchFamilyOptions{.cache_dir = bench_dir});
  EXPECT_TRUE(reg->add(std::make_shared<ParamsFamily>(bench, 10, params)).ok());
  Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 2;
  o.families = reg;
  if (device) {  // the prover's only backend has device memory: the direct path
    o.backends = {"cuda:0"};
    o.backend_factory = [device, arena, working](const std::string&, ThreadPool& pool) {
      auto b = std::make_unique<FakeDeviceBackend>(pool, arena, working);
      *device = b.get();
      return Result<std::unique_ptr<Backend>>(std::unique_ptr<Backend>(std::move(b)));
    };
  }
  auto p = Groth16Prover::create(o);
  EXPECT_TRUE(p.ok()) << p.status().to_string();
  return std::shared_ptr<Groth16Prover>(std::move(*p));
}

TEST(KeyStore, BellpersonParamsFileAtAPathProves) {
  auto bench_dir = temp_dir("bench"), dir = temp_dir("params");
  std::string params;
  {  // A bench-10 key from the built-in families: the .params file the family will name.
    Groth16ProverOptions o;
    o.cache_dir = bench_dir;
    o.threads = 2;
    auto gen = Groth16Prover::create(o);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE((*gen)->load_key("bench-10").ok());
    params = dir + "/v28-test.params";
    std::filesystem::copy_file((*gen)->key_path("bench-10"), params);
  }
  auto prover = params_prover(dir, bench_dir, params);
  EXPECT_TRUE(prover->supports("params-10"));
  EXPECT_FALSE(prover->supports("bench-10"));
  EXPECT_EQ(prover->key_path("params-10"), params);
  {
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    JobRequest r;
    r.request_id = "p1";
    r.circuit_id = "params-10";
    r.num_partitions = 2;
    r.vanilla_proof = fake_input(9);
    ASSERT_TRUE((*e)->submit(r).ok());
    auto o = (*e)->await("p1");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;  // self-verified
    EXPECT_EQ(o->proof.size(), 2u * 192u);
    (*e)->shutdown(std::chrono::seconds(5));
  }
  EXPECT_EQ(prover->keys_generated(), 0u);
  EXPECT_TRUE(std::filesystem::exists(prover->image_path("params-10")));
  // A fresh prover maps the image straight into the mmap tier (no decode of the .params).
  auto again = params_prover(dir, bench_dir, params);
  ASSERT_TRUE(again->mapped_load_bytes("params-10").has_value());
  auto key = again->load_key_mapped("params-10");
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  EXPECT_TRUE(again->key_is_mapped(**key));

  // A .params of another circuit (bench-11's) is refused against this circuit; a missing file
  // is named.
  {
    Groth16ProverOptions o;
    o.cache_dir = bench_dir;
    o.threads = 2;
    auto gen = Groth16Prover::create(o);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE((*gen)->load_key("bench-11").ok());
    auto other_dir = temp_dir("other");
    auto wrong = params_prover(other_dir, bench_dir, (*gen)->key_path("bench-11"));
    auto k = wrong->load_key("params-10");
    ASSERT_FALSE(k.ok());
    EXPECT_EQ(k.status().code(), Errc::size_mismatch) << k.status().to_string();
    auto missing = params_prover(other_dir, bench_dir, other_dir + "/absent.params");
    auto m = missing->load_key("params-10");
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.status().message().find("absent.params"), std::string::npos)
        << m.status().to_string();
    std::filesystem::remove_all(other_dir);
  }
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(bench_dir);
}

// A copy of bench-10's cached .params in |dir|.
std::string bench10_params(const std::string& bench_dir, const std::string& dir) {
  Groth16ProverOptions o;
  o.cache_dir = bench_dir;
  o.threads = 2;
  auto gen = Groth16Prover::create(o);
  EXPECT_TRUE(gen.ok());
  EXPECT_TRUE((*gen)->load_key("bench-10").ok());
  const std::string params = dir + "/v28-direct.params";
  std::filesystem::copy_file((*gen)->key_path("bench-10"), params);
  return params;
}

TEST(KeyStore, DeviceOnlyProverServesParamsStraightFromTheMapping) {
  auto bench_dir = temp_dir("dbench"), dir = temp_dir("direct");
  const std::string params = bench10_params(bench_dir, dir);
  FakeDeviceBackend* device = nullptr;
  auto prover = params_prover(dir, bench_dir, params, &device);
  ASSERT_NE(device, nullptr);
  // Charged the VK's ic and the circuit's matrices (charged with bench keys), not the queries a
  // host backend's decoded key is charged.
  auto host_prover = params_prover(temp_dir("direct-host"), bench_dir, params);
  auto small = prover->key_bytes("params-10");
  auto whole = host_prover->key_bytes("params-10");
  ASSERT_TRUE(small.ok() && whole.ok());
  EXPECT_LT(*small * 4, *whole) << *small << " vs " << *whole;
  EXPECT_EQ(prover->mapped_load_bytes("params-10"), std::optional<std::uint64_t>(*small));

  // Load, residency, release, residency again: the tables come from the file both times.
  {
    auto key = prover->load_key("params-10");
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_EQ((*key)->size_bytes(), *small);
    const auto* gk = dynamic_cast<const Groth16Key*>(key->get());
    ASSERT_NE(gk, nullptr);
    ASSERT_NE(gk->params, nullptr);
    EXPECT_EQ(gk->image, nullptr);
    EXPECT_TRUE(gk->pk.h.empty() && gk->pk.l.empty() && gk->pk.a.empty() && gk->pk.b_g1.empty() &&
                gk->pk.b_g2.empty());  // no decoded host tables, ever
    EXPECT_EQ(gk->counts().h, gk->pk.domain_size - 1);
    EXPECT_TRUE(prover->key_is_mapped(**key));
    auto km = prover->key_mapping(**key);
    ASSERT_TRUE(km.has_value());
    EXPECT_TRUE(km->params);
    EXPECT_EQ(km->image_bytes, std::filesystem::file_size(params));
    EXPECT_EQ(km->charged_bytes, *small);
    EXPECT_TRUE(prover->map_key(**key).ok());                         // already mapped
    EXPECT_EQ(prover->unmap_key(**key).code(), Errc::unimplemented);  // never decoded on the host
    EXPECT_EQ(device->encoded_loads.load(), 0);  // nothing read before a device asks
    ASSERT_TRUE(prover->make_resident(**key, 0).ok());
    EXPECT_EQ(device->encoded_loads.load(), 5);
    prover->release_resident(**key, 0);
    ASSERT_TRUE(prover->make_resident(**key, 0).ok());
    EXPECT_EQ(device->encoded_loads.load(), 10);
    EXPECT_EQ(device->decoded_loads.load(), 0);
  }

  // Jobs through the engine: proved and self-verified; the status shows the tiers; no image.
  {
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    JobRequest r;
    r.request_id = "d1";
    r.circuit_id = "params-10";
    r.num_partitions = 2;
    r.vanilla_proof = fake_input(9);
    ASSERT_TRUE((*e)->submit(r).ok());
    auto o = (*e)->await("d1");
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;
    EXPECT_EQ(o->proof.size(), 2u * 192u);
    const auto st = (*e)->status();
    const SrsEntryStatus* k = nullptr;
    for (auto& s : st.keys)
      if (s.key_id == "params-10") k = &s;
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->tier, "vram");
    EXPECT_EQ(k->backing, "params");
    EXPECT_EQ(k->host_bytes, *small);
    EXPECT_EQ(k->mapped_bytes, std::filesystem::file_size(params));
    ASSERT_EQ(k->devices.size(), 1u);
    EXPECT_GT(k->devices[0].bytes, 96u * 1024u);  // bench-10's tables, resident
    const std::string m = (*e)->metrics_text();
    EXPECT_NE(m.find("cuzk_srs_bytes{key=\"params-10\",tier=\"params\"}"), std::string::npos);
    (*e)->shutdown(std::chrono::seconds(5));
  }
  EXPECT_FALSE(std::filesystem::exists(prover->image_path("params-10")));
  EXPECT_EQ(prover->keys_generated(), 0u);
  EXPECT_EQ(device->decoded_loads.load(), 0);

  // A damaged point (flag bits of l[7]): the load reads only the header and succeeds; the
  // residency fails naming the file, the section and the point.
  {
    auto lay = scan_params(*read_whole_file(params));
    ASSERT_TRUE(lay.ok());
    auto bytes = *read_whole_file(params);
    bytes[lay->l.offset + 7 * 96] |= 0x80;
    const std::string bad = dir + "/v28-damaged.params";
    ASSERT_TRUE(write_whole_file(bad, bytes).ok());
    FakeDeviceBackend* dev2 = nullptr;
    auto p2 = params_prover(temp_dir("direct-damaged"), bench_dir, bad, &dev2);
    auto key = p2->load_key("params-10");
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    Status st = p2->make_resident(**key, 0);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Errc::bad_encoding) << st.to_string();
    for (const char* part :
         {"v28-damaged.params", "params section l", "G1 point 7", "flag bits other than infinity"})
      EXPECT_NE(st.message().find(part), std::string::npos) << part << ": " << st.to_string();
  }
  for (const char* t : {"direct-host", "direct-damaged"}) std::filesystem::remove_all(temp_dir(t));
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(bench_dir);
}

// The recorded test circuit (tests/support/bitty_circuit.hpp) as "bitty": both forms (the plain
// matrices for its seeded setup, the compact form for the proofs); no jobs.
class BittyFamily final : public circuits::CircuitFamily {
 public:
  explicit BittyFamily(std::string dir) : dir_(std::move(dir)) {
    test::BittyCircuit circuit(options());
    auto shape = std::make_shared<circuits::CircuitShape>();
    RecordingConstraintSystem rcs;
    EXPECT_TRUE(synthesize_circuit(circuit, rcs).ok());
    shape->matrices = std::make_shared<const R1csMatrices>(rcs.take().matrices);
    auto compact = record_compact(circuit);
    EXPECT_TRUE(compact.ok()) << compact.status().to_string();
    shape->compact = std::make_shared<const CompactR1cs>(std::move(*compact));
    shape->domain_size = std::bit_ceil(shape->compact->num_constraints);
    shape_ = std::move(shape);
  }
  static test::BittyOptions options() { return {.seed = 5, .uses = 33, .field_chain = 2}; }
  std::string name() const override { return "bitty"; }
  bool serves_circuit(const std::string& id) const override { return id == "bitty"; }
  Result<circuits::PartitionPlan> plan(const JobRequest&) override {
    return Status(Errc::unimplemented, "no jobs");
  }
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string&) override {
    return shape_;
  }
  Result<circuits::KeySource> key_source(const std::string&) override {
    return circuits::KeySource{.kind = circuits::KeySource::Kind::seeded_setup,
                               .path = dir_ + "/bitty.params",
                               .seed = 7,
                               .identity = "bitty test circuit",
                               .image_name = "bitty.kimg"};
  }
  Status witness(const JobRequest&, const circuits::PartitionPlan&, std::uint32_t, std::vector<Fr>&,
                 const CancelFlag&) override {
    return Status(Errc::unimplemented, "no jobs");
  }
  Result<std::vector<Fr>> public_inputs(const JobRequest&, const circuits::PartitionPlan&,
                                        std::uint32_t) override {
    return Status(Errc::unimplemented, "no jobs");
  }

 private:
  std::string dir_;
  std::shared_ptr<const circuits::CircuitShape> shape_;
};

TEST(KeyStore, CompactCircuitLoadedWithEachCopyOfTheKey) {
  const std::string dir = temp_dir("compact");
  auto reg = std::make_shared<circuits::Registry>();
  ASSERT_TRUE(reg->add(std::make_shared<BittyFamily>(dir)).ok());
  ThreadPool pool(2);
  Backends backends;
  backends[0] = std::make_unique<CpuBackend>(pool);
  auto fake = std::make_unique<FakeDeviceBackend>(pool);
  FakeDeviceBackend& device = *fake;
  backends[1] = std::move(fake);
  KeyStore store({.cache_dir = dir}, reg, pool, backends);
  auto loaded = store.load("bitty", false);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  const auto& key = dynamic_cast<const Groth16Key&>(**loaded);
  ASSERT_TRUE(key.shape->compact);

  // The host copy (CPU backend) carries its circuit.
  auto host = store.resident(key, 0);
  ASSERT_TRUE(host.ok()) << host.status().to_string();
  EXPECT_NE((*host)->circuit().value, 0u);

  // The device copy: charged the circuit with the tables, the circuit loaded with it.
  const QueryCounts c = key.counts();
  const std::uint64_t tables = device.resident_bases_bytes(c.h + c.l + c.a + c.b_g1, c.b_g2, 5);
  EXPECT_EQ(store.device_key_bytes(key, 1), tables + FakeDeviceBackend::kCircuitBytes);
  EXPECT_EQ(device.circuit_loads.load(), 0);
  ASSERT_TRUE(store.make_resident(key, 1).ok());
  EXPECT_EQ(device.circuit_loads.load(), 1);
  auto on_device = store.resident(key, 1);
  ASSERT_TRUE(on_device.ok());
  const CircuitId id = (*on_device)->circuit();
  EXPECT_NE(id.value, 0u);

  // prove_compact with that id gives a proof that verifies.
  test::BittyCircuit circuit(BittyFamily::options());
  WitnessConstraintSystem wcs;
  ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
  const std::vector<Fr> z = wcs.take_assignment();
  const CompactWitness w = compact_witness_from_z(pool, z, key.dims().num_inputs).value();
  auto proof = prove_compact(pool, **on_device, key.dims(), id, w);
  ASSERT_TRUE(proof.ok()) << proof.status().to_string();
  auto ok = verify(key.pvk, std::span<const Fr>(z).subspan(1, key.dims().num_inputs - 1), *proof);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);

  // Released with the copy.
  store.release_resident(key, 1);
  EXPECT_EQ(device.circuit_releases.load(), 1);
  EXPECT_EQ(device.release_circuit(id).code(), Errc::not_found);
  std::filesystem::remove_all(dir);
}

// Window copies of the H table (key placement rule 3, KeyStoreOptions::max_h_copies): charged with
// the key where they fit and asked of the device when the key becomes resident; none where only
// the key fits, nor for a key below KeyStoreOptions::h_copies_min_domain (the default 2^26: this
// key's domain is tiny); a device that cannot make them still proves.
TEST(KeyStore, HWindowCopiesAskedOfTheDeviceWhereTheyFit) {
  const std::string dir = temp_dir("hcopies");
  auto reg = std::make_shared<circuits::Registry>();
  ASSERT_TRUE(reg->add(std::make_shared<BittyFamily>(dir)).ok());
  ThreadPool pool(2);
  std::uint64_t tables = 0;
  // Room for 4 copies; room for none; copies refused; a domain below the default least one.
  for (const int step : {0, 1, 2, 3}) {
    Backends backends;
    auto fake = std::make_unique<FakeDeviceBackend>(
        pool, step == 1 ? tables + FakeDeviceBackend::kCircuitBytes : std::uint64_t{1} << 40);
    FakeDeviceBackend& device = *fake;
    device.copies_fail = step == 2;
    backends[0] = std::move(fake);
    KeyStoreOptions opt{.cache_dir = dir, .max_h_copies = 4};
    if (step != 3) opt.h_copies_min_domain = 0;
    KeyStore store(opt, reg, pool, backends);
    auto loaded = store.load("bitty", false);
    ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
    const auto& key = dynamic_cast<const Groth16Key&>(**loaded);
    const QueryCounts c = key.counts();
    tables = device.resident_bases_bytes(c.h + c.l + c.a + c.b_g1, c.b_g2, 5);
    const bool none = step == 1 || step == 3;
    const std::uint64_t copies = none ? 0 : precomputed_copies_bytes(c.h, 4, 96);
    EXPECT_EQ(store.device_key_bytes(key, 0), tables + FakeDeviceBackend::kCircuitBytes + copies)
        << "step " << step;
    ASSERT_TRUE(store.make_resident(key, 0).ok()) << "step " << step;
    auto rk = store.resident(key, 0);
    ASSERT_TRUE(rk.ok());
    EXPECT_EQ(device.copies_asked, none ? 0u : 4u) << "step " << step;
    EXPECT_EQ(device.copies_table, none ? 0u : (*rk)->h.value) << "step " << step;

    test::BittyCircuit circuit(BittyFamily::options());
    WitnessConstraintSystem wcs;
    ASSERT_TRUE(synthesize_circuit(circuit, wcs).ok());
    const std::vector<Fr> z = wcs.take_assignment();
    const CompactWitness w = compact_witness_from_z(pool, z, key.dims().num_inputs).value();
    auto proof = prove_compact(pool, **rk, key.dims(), (*rk)->circuit(), w);
    ASSERT_TRUE(proof.ok()) << proof.status().to_string();
    auto ok = verify(key.pvk, std::span<const Fr>(z).subspan(1, key.dims().num_inputs - 1), *proof);
    ASSERT_TRUE(ok.ok());
    EXPECT_TRUE(*ok) << "step " << step;
    store.release_resident(key, 0);
  }
  std::filesystem::remove_all(dir);
}

// The direct path on a device whose arena holds the key but not the key and a partition: the
// placement is decided before anything is read, the largest query goes to the backend to be
// streamed (its raw .params bytes: the device keeps it packed in host memory), the SRS manager's
// figures say so before the copy is made, and a job proves and self-verifies. With room for both,
// nothing streams.
TEST(KeyStore, DirectKeyStreamsItsLargestQueryWhenAPartitionWouldNotFit) {
  auto bench_dir = temp_dir("rbench"), dir = temp_dir("room");
  const std::string params = bench10_params(bench_dir, dir);
  std::uint64_t whole = 0, largest = 0;
  {
    FakeDeviceBackend* device = nullptr;
    auto sizer = params_prover(temp_dir("room-sizer"), bench_dir, params, &device);
    auto key = sizer->load_key("params-10");
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    whole = sizer->device_key_bytes(**key, 0);
    const QueryCounts c = dynamic_cast<const Groth16Key&>(**key).counts();
    for (std::uint64_t g1 : {c.h, c.l, c.a, c.b_g1}) largest = std::max(largest, 96 * g1);
    largest = std::max(largest, 192 * c.b_g2);
    ASSERT_TRUE(sizer->make_resident(**key, 0).ok());
    EXPECT_EQ(device->streamed_loads.load(), 0);  // an arena of 2^40 B: all resident
  }
  const std::uint64_t working = whole / 2;
  for (const bool room : {true, false}) {
    FakeDeviceBackend* device = nullptr;
    const std::uint64_t arena = whole + working - (room ? 0 : 1);
    auto prover = params_prover(temp_dir(room ? "room-yes" : "room-no"), bench_dir, params, &device,
                                arena, working);
    auto key = prover->load_key("params-10");
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    EXPECT_EQ(prover->device_key_bytes(**key, 0), room ? whole : whole - largest - 256);
    EXPECT_EQ(prover->device_host_bytes_bound(**key, 0), room ? 0 : largest);
    EXPECT_EQ(device->encoded_loads.load(), 0);  // decided before anything is read
    auto e = Engine::create(EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    JobRequest r;
    r.request_id = room ? "with-room" : "streamed";
    r.circuit_id = "params-10";
    r.num_partitions = 2;
    r.vanilla_proof = fake_input(11);
    ASSERT_TRUE((*e)->submit(r).ok());
    auto o = (*e)->await(r.request_id);
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->status, AwaitStatus::completed) << o->error;  // self-verified
    EXPECT_EQ(device->encoded_loads.load(), 5);
    EXPECT_EQ(device->streamed_loads.load(), room ? 0 : 1);
    EXPECT_EQ(device->streamed_bytes.load(), room ? 0 : largest);  // 96 B a G1 point, 192 a G2
    EXPECT_EQ(device->decoded_loads.load(), 0);
    (*e)->shutdown(std::chrono::seconds(5));
  }
  for (const char* t : {"room-sizer", "room-yes", "room-no"})
    std::filesystem::remove_all(temp_dir(t));
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(bench_dir);
}

}  // namespace

}  // namespace cuzk::engine
