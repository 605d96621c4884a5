// bellperson formats end to end (setup → .params → read (mmap, checked and unchecked) → prove →
// proof bytes → .vk → verify), file sizes by FORMATS.md §1.3's formula, and malformed inputs:
// truncation, corrupt and off-subgroup points, bad counts, trailing bytes, a key for another circuit.
// Also snarkjs JSON and zkey damage. Random circuit sizes (not powers of two), seed printed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/snarkjs_json.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "tests/support/bench_key.hpp"

namespace cuzk {
namespace {

// A random bench circuit with its witness and a seeded key (tests/support/bench_key.hpp).
test::BenchKey make_env(KeyLayout layout, ThreadPool& pool) {
  return test::random_bench_key(layout, pool, 400);
}

// A G1 point on the curve but (with overwhelming probability) outside the subgroup.
G1Affine off_subgroup_g1() {
  for (std::uint64_t x = 1;; ++x) {
    const Fp fx = Fp::from_u64(x);
    auto y = (fx.square() * fx + Fp::from_u64(4)).sqrt();
    if (y) {
      G1Affine p{fx, *y, false};
      if (!is_in_subgroup(p)) return p;
    }
  }
}

TEST(Bellperson, ParamsEndToEnd) {
  ThreadPool pool(2);
  auto e = make_env(KeyLayout::bellperson, pool);
  const ProvingKey& pk = e.pk;
  auto img = write_params(pk, &pool);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->size(), 868 + 96 * pk.vk.ic.size() + 20 +
                             96 * (pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size()) +
                             192 * pk.b_g2.size());
  const std::string path =
      ::testing::TempDir() + "cuzk_fmt_" + std::to_string(::getpid()) + ".params";
  ASSERT_TRUE(write_whole_file(path, *img).ok());
  for (bool checked : {true, false}) {
    auto back = read_params(path, {.checked = checked, .pool = &pool});
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_TRUE(*back == pk) << "checked=" << checked << " seed=" << e.seed;
  }
  auto back = read_params(path, {.checked = false, .pool = &pool});
  std::remove(path.c_str());

  // Prove with the key read from disk, write the proof bytes (2 partitions), verify through the .vk.
  CpuBackend backend(pool);
  auto p1 = prove(backend, pool, *back, e.circuit.matrices, e.z);
  auto p2 = prove(backend, pool, *back, e.circuit.matrices, e.z);
  ASSERT_TRUE(p1.ok() && p2.ok()) << p1.status().to_string();
  const Proof both[2] = {*p1, *p2};
  auto bytes = write_proofs(both);
  ASSERT_EQ(bytes.size(), 2 * kBellpersonProofBytes);
  auto proofs = parse_proofs(bytes);
  ASSERT_TRUE(proofs.ok()) << proofs.status().to_string();
  ASSERT_EQ(proofs->size(), 2u);
  EXPECT_TRUE((*proofs)[0] == *p1 && (*proofs)[1] == *p2);
  auto vk = parse_vk(write_vk(pk.vk));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  EXPECT_TRUE(*vk == pk.vk);
  EXPECT_EQ(write_vk(pk.vk).size(), 868 + 96 * pk.vk.ic.size());
  const auto pvk = prepare_verifying_key(*vk);
  const std::span<const Fr> pub(e.z.data() + 1, e.circuit.matrices.num_inputs - 1);
  for (const Proof& p : *proofs) EXPECT_TRUE(*verify(pvk, pub, p)) << "seed=" << e.seed;
  // Tampered proof bytes: a flipped bit in C either fails to decode or fails to verify.
  bytes[150] ^= 0x01;
  auto bad = parse_proofs(bytes);
  if (bad.ok()) {
    EXPECT_FALSE(*verify(pvk, pub, (*bad)[0]));
  }
}

TEST(Bellperson, MalformedParamsNameSectionAndIndex) {
  ThreadPool pool(2);
  auto e = make_env(KeyLayout::bellperson, pool);
  const ProvingKey& pk = e.pk;
  auto img = *write_params(pk, &pool);
  const std::size_t vk_end = 864 + 4 + 96 * pk.vk.ic.size();
  const std::size_t h_at = vk_end + 4, l_at = h_at + 96 * pk.h.size() + 4;

  // Truncation anywhere: truncated, naming the section whose data ran out.
  std::mt19937_64 g(e.seed);
  for (int t = 0; t < 8; ++t) {
    const std::size_t cut = g() % img.size();
    auto r = parse_params(std::span<const std::uint8_t>(img).first(cut), {.checked = false});
    ASSERT_FALSE(r.ok()) << "cut=" << cut;
    EXPECT_EQ(r.status().code(), Errc::truncated) << r.status().to_string();
  }
  auto r = parse_params(std::span<const std::uint8_t>(img).first(l_at + 96 * 3 + 10));
  EXPECT_NE(r.status().message().find("section l"), std::string::npos) << r.status().to_string();

  // A coordinate byte changed in l[5]: off the curve (or out of range), reported as section l, point 5.
  auto bad = img;
  bad[l_at + 96 * 5 + 60] ^= 0x5a;
  r = parse_params(bad, {.checked = false});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("section l"), std::string::npos) << r.status().to_string();
  EXPECT_NE(r.status().message().find("point 5"), std::string::npos) << r.status().to_string();

  // A point on the curve outside the subgroup in h[3]: rejected only by the checked reader.
  bad = img;
  const auto off = to_uncompressed(off_subgroup_g1());
  std::copy(off.begin(), off.end(), bad.begin() + static_cast<std::ptrdiff_t>(h_at + 96 * 3));
  r = parse_params(bad, {.checked = true});
  EXPECT_EQ(r.status().code(), Errc::not_in_subgroup) << r.status().to_string();
  EXPECT_NE(r.status().message().find("section h"), std::string::npos) << r.status().to_string();
  EXPECT_NE(r.status().message().find("point 3"), std::string::npos) << r.status().to_string();
  EXPECT_TRUE(parse_params(bad, {.checked = false}).ok());

  // The identity in a query is rejected.
  bad = img;
  const auto inf = to_uncompressed(G1Affine::identity());
  std::copy(inf.begin(), inf.end(), bad.begin() + static_cast<std::ptrdiff_t>(l_at));
  r = parse_params(bad, {.checked = false});
  EXPECT_NE(r.status().message().find("infinity"), std::string::npos) << r.status().to_string();

  // A count too large, trailing bytes.
  bad = img;
  bad[h_at - 1] += 1;
  EXPECT_FALSE(parse_params(bad, {.checked = false}).ok());
  bad = img;
  bad.push_back(0);
  r = parse_params(bad, {.checked = false});
  EXPECT_EQ(r.status().code(), Errc::bad_encoding) << r.status().to_string();

  // A VK point off the subgroup is always rejected.
  bad = img;
  std::copy(off.begin(), off.end(), bad.begin());
  r = parse_params(bad, {.checked = false});
  EXPECT_EQ(r.status().code(), Errc::not_in_subgroup);
  EXPECT_NE(r.status().message().find("alpha_g1"), std::string::npos) << r.status().to_string();

  // A key for another circuit: size_mismatch naming the query.
  auto other = generate_bench_r1cs(
      {.rows = e.circuit.matrices.num_constraints + 3, .seed = e.seed + 1, .num_public = 2});
  ASSERT_TRUE(other.ok());
  CpuBackend backend(pool);
  auto p = prove(backend, pool, pk, other->matrices, other->assignment());
  EXPECT_EQ(p.status().code(), Errc::size_mismatch) << p.status().to_string();

  // Proof bytes: wrong length, identity.
  EXPECT_EQ(parse_proofs(std::vector<std::uint8_t>(191)).status().code(), Errc::size_mismatch);
  std::vector<std::uint8_t> inf_proof(192, 0);
  inf_proof[0] = 0xc0;
  inf_proof[48] = 0xc0;
  inf_proof[144] = 0xc0;
  EXPECT_FALSE(parse_proofs(inf_proof).ok());
}

TEST(Snarkjs, JsonRoundTripAndDamage) {
  ThreadPool pool(2);
  auto e = make_env(KeyLayout::snarkjs, pool);
  CpuBackend backend(pool);
  auto proof = prove(backend, pool, e.pk, e.circuit.matrices, e.z);
  ASSERT_TRUE(proof.ok());
  auto back = proof_from_snarkjs_json(proof_to_snarkjs_json(*proof));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_TRUE(*back == *proof);
  auto vk = vk_from_snarkjs_json(vk_to_snarkjs_json(e.pk.vk));
  ASSERT_TRUE(vk.ok()) << vk.status().to_string();
  EXPECT_TRUE(vk->alpha_g1 == e.pk.vk.alpha_g1 && vk->ic == e.pk.vk.ic &&
              vk->delta_g2 == e.pk.vk.delta_g2);
  const std::span<const Fr> pub(e.z.data() + 1, e.circuit.matrices.num_inputs - 1);
  auto pub_back = public_from_snarkjs_json(public_to_snarkjs_json(pub));
  ASSERT_TRUE(pub_back.ok());
  EXPECT_TRUE(*verify(prepare_verifying_key(*vk), *pub_back, *proof));

  // Damage: a coordinate off the curve, a value ≥ r, not JSON, a wrong alphabeta.
  std::string j = proof_to_snarkjs_json(*proof);
  const std::string x = proof->a.x.to_dec();
  std::string jb = j;
  jb.replace(jb.find(x), x.size(), (proof->a.x + Fp::one()).to_dec());
  EXPECT_EQ(proof_from_snarkjs_json(jb).status().code(), Errc::not_on_curve);
  EXPECT_NE(proof_from_snarkjs_json(jb).status().message().find("pi_a"), std::string::npos);
  EXPECT_EQ(
      public_from_snarkjs_json(
          "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]")
          .status()
          .code(),
      Errc::out_of_range);
  EXPECT_EQ(proof_from_snarkjs_json("{").status().code(), Errc::bad_encoding);
  std::string vj = vk_to_snarkjs_json(e.pk.vk);
  const std::string ax = e.pk.vk.alpha_g1.x.to_dec();
  VerifyingKey other = e.pk.vk;
  other.alpha_g1 = (G1Jacobian::from_affine(other.alpha_g1) + G1Affine::generator()).to_affine();
  std::string vj2 = vk_to_snarkjs_json(other);
  // Take alphabeta from one key and alpha from the other.
  const auto cut = [](const std::string& s) { return s.find("\"vk_alphabeta_12\""); };
  const std::string mixed = vj2.substr(0, cut(vj2)) + vj.substr(cut(vj));
  EXPECT_EQ(vk_from_snarkjs_json(mixed).status().code(), Errc::bad_encoding);

  // zkey image: round trip, truncation, a point off the curve in section 9 named with its index.
  auto img = write_zkey(e.pk, e.circuit.matrices, &pool);
  ASSERT_TRUE(img.ok()) << img.status().to_string();
  auto zk = parse_zkey(*img, {.pool = &pool});
  ASSERT_TRUE(zk.ok()) << zk.status().to_string();
  EXPECT_TRUE(zk->pk == e.pk);
  auto p2 = prove(backend, pool, zk->pk, zk->matrices, e.z);
  ASSERT_TRUE(p2.ok()) << p2.status().to_string();
  EXPECT_TRUE(*verify(prepare_verifying_key(e.pk.vk), pub, *p2));
  auto cut_img = std::vector<std::uint8_t>(img->begin(), img->end() - 7);
  EXPECT_EQ(parse_zkey(cut_img).status().code(), Errc::truncated);
  // Section 9 starts after 1, 2, 4, 3; find it by walking the headers.
  std::size_t pos = 12, h_at = 0, c_at = 0;
  for (int i = 0; i < 10; ++i) {
    std::uint32_t id = (*img)[pos] | (*img)[pos + 1] << 8;
    std::uint64_t size = 0;
    for (int b = 7; b >= 0; --b) size = size << 8 | (*img)[pos + 4 + b];
    if (id == 9) h_at = pos + 12;
    if (id == 4) c_at = pos + 12;
    pos += 12 + size;
  }
  ASSERT_NE(h_at, 0u);
  ASSERT_NE(c_at, 0u);
  // Section 4 (decoded in parallel): the lowest damaged coefficient is named, whatever the threads.
  {
    const std::uint32_t n_coef = (*img)[c_at] | (*img)[c_at + 1] << 8 | (*img)[c_at + 2] << 16;
    ASSERT_GT(n_coef, 40u);
    auto entry = [&](std::vector<std::uint8_t>& b, std::size_t i) {
      return b.data() + c_at + 4 + 44 * i;
    };
    auto expect_named = [&](const std::vector<std::uint8_t>& b, Errc code,
                            const std::string& what) {
      for (ThreadPool* p : {&pool, static_cast<ThreadPool*>(nullptr)}) {
        auto z = parse_zkey(b, {.check_subgroup = false, .pool = p});
        ASSERT_FALSE(z.ok()) << what;
        EXPECT_EQ(z.status().code(), code) << z.status().to_string();
        EXPECT_NE(z.status().message().find("section 4 (coefficients): " + what), std::string::npos)
            << z.status().to_string();
      }
    };
    auto b1 = *img;
    entry(b1, 31)[0] = 2;  // matrix 2
    entry(b1, n_coef - 1)[8] = 0xff,
                       entry(b1, n_coef - 1)[11] = 0xff;  // signal out of range, later
    expect_named(b1, Errc::bad_encoding, "coefficient 31: matrix 2");
    auto b2 = *img;
    entry(b2, 17)[11] = 0x7f;  // signal ≥ nVars
    entry(b2, 23)[0] = 5;
    expect_named(b2, Errc::out_of_range, "coefficient 17: signal");
    auto b3 = *img;
    std::fill(entry(b3, 9) + 12, entry(b3, 9) + 44, std::uint8_t{0xff});  // value ≥ r
    expect_named(b3, Errc::out_of_range, "coefficient 9: value");
    auto b4 = *img;
    entry(b4, 3)[7] = 0x40;  // constraint ≥ domainSize
    expect_named(b4, Errc::out_of_range, "coefficient 3: constraint");
    // Every coefficient in constraint 0: one constraint cannot need the key's domain, which the
    // prover and write_zkey would refuse, so the parser refuses it (a fuzzed key did parse).
    auto b5 = *img;
    for (std::size_t i = 0; i < n_coef; ++i) std::fill(entry(b5, i) + 4, entry(b5, i) + 8, 0);
    expect_named(b5, Errc::size_mismatch, "domainSize");
  }
  auto bad = *img;
  bad[h_at + 96 * 7 + 3] ^= 0x11;
  auto r = parse_zkey(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("section 9 (H)"), std::string::npos)
      << r.status().to_string();
  EXPECT_NE(r.status().message().find("point 7"), std::string::npos) << r.status().to_string();
}

}  // namespace
}  // namespace cuzk
