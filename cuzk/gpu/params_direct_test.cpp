// The direct path on a GPU: a bellperson .params written from a setup key, its query sections
// decoded on the device (CudaBackend::load_bases_*_encoded, gpu/encoded_bases.cuh):
//   * backend level — resident tables made from the raw bytes in several chunks, and streamed
//     ones (StreamBases::always), prove byte-identical proofs to the host-decoded key's upload
//     and the CPU backend's for the same r, s; every byte handed back once; a damaged point is
//     refused with parse_params's words (section, index);
//   * key store level — a Groth16Prover whose only backend is cuda:0 serves the .params with no
//     key image written and no decoded tables in the key (pk's tables empty), and a job proves
//     and self-verifies through the engine.
// Skips where no GPU is present. Seed printed.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/circuits/bench/bench_family.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/fake_prover.hpp"
#include "cuzk/engine/groth16_prover.hpp"
#include "cuzk/engine/key_store.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/gpu/cuda_backend.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"

namespace cuzk {
namespace {

#define SKIP_WITHOUT_GPU() \
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present: GPU test skipped"

std::span<const std::uint8_t> section(std::span<const std::uint8_t> f, const ParamsSection& s,
                                      std::size_t per) {
  return f.subspan(s.offset, s.count * per);
}

TEST(ParamsDirectGpu, DeviceDecodedTablesProveAsUploadedOnes) {
  SKIP_WITHOUT_GPU();
  const std::uint64_t seed = std::random_device{}();
  std::printf("seed=%llu\n", static_cast<unsigned long long>(seed));
  ThreadPool pool(4);
  auto circuit = generate_bench_r1cs(pool, {.log_rows = 12, .seed = seed, .num_public = 3});
  ASSERT_TRUE(circuit.ok());
  const R1csMatrices& m = circuit->matrices;
  const std::vector<Fr> z = circuit->assignment();
  SeededRng rng(seed);
  auto pk = setup(m, rng, {.layout = KeyLayout::bellperson, .pool = &pool});
  ASSERT_TRUE(pk.ok());
  const std::vector<std::uint8_t> file = *write_params(*pk, &pool);
  auto lay = scan_params(file);
  ASSERT_TRUE(lay.ok()) << lay.status().to_string();
  ProvingKey shape;  // what the key store keeps of a direct key
  shape.vk = lay->vk;
  shape.domain_size = lay->domain_size;
  const Fr r = random_fr(rng), s = random_fr(rng);

  CpuBackend cpu(pool);
  auto want = prove(cpu, pool, *pk, m, z, {.r = r, .s = s});
  ASSERT_TRUE(want.ok());
  for (StreamBases mode : {StreamBases::automatic, StreamBases::always}) {
    auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30,
                                            .pinned_host_bytes = std::size_t{64} << 20,
                                            .stream_bases = mode});
    ASSERT_TRUE(gpu.ok()) << gpu.status().to_string();
    std::size_t consumed = 0;
    auto enc = [&](const ParamsSection& sec, std::size_t per) {
      EncodedBases e;
      e.bytes = section(file, sec, per);
      e.consumed = [&](std::size_t, std::size_t n) { consumed += n; };
      e.chunk_bytes = 1000 * per + 7;  // several chunks, the last one short
      return e;
    };
    auto direct = ResidentKey::load_encoded(**gpu, shape,
                                            {.h = enc(lay->h, 96),
                                             .l = enc(lay->l, 96),
                                             .a = enc(lay->a, 96),
                                             .b_g1 = enc(lay->b_g1, 96),
                                             .b_g2 = enc(lay->b_g2, 192)});
    ASSERT_TRUE(direct.ok()) << direct.status().to_string();
    EXPECT_EQ(consumed, file.size() - lay->h.offset - 16);
    auto uploaded = ResidentKey::load(**gpu, *pk);
    ASSERT_TRUE(uploaded.ok());
    auto p1 = prove(pool, **direct, m, z, {.r = r, .s = s});
    auto p2 = prove(pool, **uploaded, m, z, {.r = r, .s = s});
    ASSERT_TRUE(p1.ok() && p2.ok()) << p1.status().to_string() << p2.status().to_string();
    EXPECT_TRUE(*p1 == *p2) << "mode=" << static_cast<int>(mode) << " seed=" << seed;
    EXPECT_TRUE(*p1 == *want) << "mode=" << static_cast<int>(mode) << " seed=" << seed;
  }

  // Damage: the device refuses what parse_params refuses, worded alike.
  auto gpu = make_cuda_backend("cuda:0", {.arena_bytes = std::size_t{1} << 30});
  ASSERT_TRUE(gpu.ok());
  const std::vector<std::pair<std::size_t, std::uint8_t>> damages = {
      {lay->l.offset + 1001 * 96, 0x80},          // compressed flag, second chunk
      {lay->h.offset + 5 * 96 + 95, 0x01},        // off the curve
      {lay->b_g2.offset + 3 * 192 + 191, 0x01}};  // G2 off the curve
  for (auto [at, x] : damages) {
    auto bad = file;
    if (x == 0x80)
      bad[at] |= x;
    else
      bad[at] ^= x;
    auto expect = parse_params(bad, {.checked = false});
    ASSERT_FALSE(expect.ok());
    auto enc = [&](const ParamsSection& sec, std::size_t per) {
      EncodedBases e;
      e.bytes = section(bad, sec, per);
      e.chunk_bytes = 1000 * per;
      return e;
    };
    auto rk = ResidentKey::load_encoded(**gpu, shape,
                                        {.h = enc(lay->h, 96),
                                         .l = enc(lay->l, 96),
                                         .a = enc(lay->a, 96),
                                         .b_g1 = enc(lay->b_g1, 96),
                                         .b_g2 = enc(lay->b_g2, 192)});
    ASSERT_FALSE(rk.ok()) << "byte " << at;
    EXPECT_EQ(rk.status().to_string(), expect.status().to_string());
  }
}

// bench-<K>'s circuit served as "params-<K>", its key the bellperson .params at |params|.
class ParamsFamily final : public circuits::CircuitFamily {
 public:
  ParamsFamily(std::shared_ptr<circuits::BenchFamily> bench, int k, std::string params)
      : bench_(std::move(bench)), k_(k), params_(std::move(params)) {}
  std::string name() const override { return "params"; }
  bool serves_circuit(const std::string& id) const override { return id == id_(); }
  Result<circuits::PartitionPlan> plan(const engine::JobRequest& req) override {
    auto p = bench_->plan(as_bench(req));
    if (p) p->key_id = id_();
    return p;
  }
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string&) override {
    return bench_->shape("bench-" + std::to_string(k_));
  }
  Result<circuits::KeySource> key_source(const std::string&) override {
    return circuits::KeySource{
        .kind = circuits::KeySource::Kind::params, .path = params_, .image_name = id_() + ".kimg"};
  }
  Status witness(const engine::JobRequest& req, const circuits::PartitionPlan& plan,
                 std::uint32_t k, std::vector<Fr>& z, const circuits::CancelFlag& cancel) override {
    return bench_->witness(as_bench(req), plan, k, z, cancel);
  }
  Result<std::vector<Fr>> public_inputs(const engine::JobRequest& req,
                                        const circuits::PartitionPlan& plan,
                                        std::uint32_t k) override {
    return bench_->public_inputs(as_bench(req), plan, k);
  }

 private:
  std::string id_() const { return "params-" + std::to_string(k_); }
  engine::JobRequest as_bench(engine::JobRequest req) const {
    req.circuit_id = "bench-" + std::to_string(k_);
    return req;
  }
  std::shared_ptr<circuits::BenchFamily> bench_;
  int k_;
  std::string params_;
};

TEST(ParamsDirectGpu, CudaOnlyProverServesParamsWithoutImageOrHostTables) {
  SKIP_WITHOUT_GPU();
  spdlog::set_level(spdlog::level::warn);
  namespace fs = std::filesystem;
  const fs::path root =
      fs::temp_directory_path() / ("cuzk-params-gpu-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const std::string bench_dir = (root / "bench").string(), dir = (root / "direct").string();
  fs::create_directories(bench_dir);
  fs::create_directories(dir);
  const std::string params = dir + "/v28-gpu.params";
  {  // bench-14's key as the .params file (generated on the CPU).
    engine::Groth16ProverOptions o;
    o.cache_dir = bench_dir;
    o.threads = 4;
    auto gen = engine::Groth16Prover::create(o);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE((*gen)->load_key("bench-14").ok());
    fs::copy_file((*gen)->key_path("bench-14"), params);
  }
  auto reg = std::make_shared<circuits::Registry>();
  auto bench =
      std::make_shared<circuits::BenchFamily>(circuits::BenchFamilyOptions{.cache_dir = bench_dir});
  ASSERT_TRUE(reg->add(std::make_shared<ParamsFamily>(bench, 14, params)).ok());
  engine::Groth16ProverOptions o;
  o.cache_dir = dir;
  o.threads = 4;
  o.families = reg;
  o.backends = {"cuda:0"};
  auto made = engine::Groth16Prover::create(o);
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  std::shared_ptr<engine::Groth16Prover> prover(std::move(*made));
  {
    auto key = prover->load_key("params-14");
    ASSERT_TRUE(key.ok()) << key.status().to_string();
    const auto* gk = dynamic_cast<const engine::Groth16Key*>(key->get());
    ASSERT_NE(gk, nullptr);
    EXPECT_NE(gk->params, nullptr);  // the direct path
    EXPECT_TRUE(gk->pk.h.empty() && gk->pk.l.empty() && gk->pk.a.empty() && gk->pk.b_g1.empty() &&
                gk->pk.b_g2.empty());  // no decoded host tables
    ASSERT_TRUE(prover->make_resident(**key, 0).ok());
    EXPECT_GT(prover->device_key_bytes(**key, 0), 96u << 14);
  }
  {
    auto e = engine::Engine::create(engine::EngineOptions{}, {prover});
    ASSERT_TRUE(e.ok()) << e.status().to_string();
    engine::JobRequest r;
    r.request_id = "g1";
    r.circuit_id = "params-14";
    r.num_partitions = 3;
    r.vanilla_proof = engine::fake_input(5);
    ASSERT_TRUE((*e)->submit(r).ok());
    auto out = (*e)->await("g1");
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out->status, engine::AwaitStatus::completed) << out->error;  // self-verified
    for (auto& k : (*e)->status().keys)
      if (k.key_id == "params-14") {
        EXPECT_EQ(k.tier, "vram");
        EXPECT_EQ(k.backing, "params");
      }
    (*e)->shutdown(std::chrono::seconds(10));
  }
  EXPECT_FALSE(fs::exists(prover->image_path("params-14")));
  fs::remove_all(root);
}

}  // namespace
}  // namespace cuzk
