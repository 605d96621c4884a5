// The direct path's host side: scan_params (the VK and where the queries lie, nothing decoded)
// against parse_params, and the host twin of the device decode (ec/packed_decode.hpp: raw .params
// bytes → packed Montgomery (x, y), identity (0, 0)) against parse_params's unchecked decode,
// point by point, with the same refusals worded alike (bad flag bits, infinity with other bits, a
// coordinate ≥ p, off the curve, the identity); then a key resident from its encodings
// (ResidentKey::load_encoded on the CPU backend's default decode) proves what the decoded key
// proves for the same r, s. Random circuit sizes, seed printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "cuzk/backend/cpu_backend.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/packed_decode.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "tests/support/bench_key.hpp"

namespace cuzk {
namespace {

// A random bench circuit and its seeded key (tests/support/bench_key.hpp), and the key's .params.
struct Env : test::BenchKey {
  std::vector<std::uint8_t> file;
};

Env make_env(ThreadPool& pool) {
  Env e{test::random_bench_key(KeyLayout::bellperson, pool, 300), {}};
  e.file = *write_params(e.pk, &pool);
  return e;
}

template <class P>
bool packed_equals(const P& host, const PackedAffine<typename P::Field>& packed) {
  if (host.is_identity()) return packed.x.is_zero() && packed.y.is_zero();
  return host.x == packed.x && host.y == packed.y;
}

std::span<const std::uint8_t> section_bytes(const std::vector<std::uint8_t>& file,
                                            const ParamsSection& s, std::size_t per) {
  return std::span<const std::uint8_t>(file).subspan(s.offset, s.count * per);
}

// The host twin's error on the section, as the key store words it ("params section <name>").
template <class Packed>
Status twin(const std::vector<std::uint8_t>& file, const ParamsSection& s, const char* name,
            bool g2) {
  std::vector<Packed> out(s.count);
  Status st;
  if constexpr (std::is_same_v<Packed, PackedG2>)
    st = decode_packed_g2(section_bytes(file, s, 192), out, false);
  else
    st = decode_packed_g1(section_bytes(file, s, 96), out, false);
  (void)g2;
  return st.with_context(std::string("params section ") + name);
}

TEST(ParamsDirect, ScanFindsTheSectionsParseDecodes) {
  ThreadPool pool(2);
  Env e = make_env(pool);
  auto lay = scan_params(e.file);
  ASSERT_TRUE(lay.ok()) << lay.status().to_string();
  EXPECT_TRUE(lay->vk == e.pk.vk) << "seed=" << e.seed;
  EXPECT_EQ(lay->domain_size, e.pk.domain_size);
  const QueryCounts want = e.pk.query_counts();
  EXPECT_EQ(lay->h.count, want.h);
  EXPECT_EQ(lay->l.count, want.l);
  EXPECT_EQ(lay->a.count, want.a);
  EXPECT_EQ(lay->b_g1.count, want.b_g1);
  EXPECT_EQ(lay->b_g2.count, want.b_g2);
  // FORMATS.md §1.3: VK 864 bytes, ic, then each section's u32 count before its points.
  EXPECT_EQ(lay->h.offset, 864 + 4 + 96 * e.pk.vk.ic.size() + 4);
  EXPECT_EQ(lay->l.offset, lay->h.offset + 96 * want.h + 4);
  EXPECT_EQ(lay->b_g2.offset + 192 * want.b_g2, e.file.size());

  // Refusals as parse_params: truncation, trailing bytes, b_g1 and b_g2 of different lengths.
  std::mt19937_64 g(e.seed);
  for (int t = 0; t < 6; ++t) {
    const std::size_t cut = g() % e.file.size();
    auto r = scan_params(std::span<const std::uint8_t>(e.file).first(cut));
    ASSERT_FALSE(r.ok()) << "cut=" << cut;
    EXPECT_EQ(r.status().code(), parse_params(std::span(e.file).first(cut)).status().code());
  }
  auto bad = e.file;
  bad.push_back(0);
  EXPECT_EQ(scan_params(bad).status().code(), Errc::bad_encoding);
  EXPECT_EQ(scan_params(bad).status().to_string(),
            parse_params(bad, {.checked = false}).status().to_string());
}

TEST(ParamsDirect, HostTwinDecodesAsTheParamsReader) {
  ThreadPool pool(2);
  Env e = make_env(pool);
  auto lay = *scan_params(e.file);
  auto g1 = [&](const ParamsSection& s, const PointArray<G1Affine>& want, const char* name) {
    std::vector<PackedG1> out(s.count);
    ASSERT_TRUE(decode_packed_g1(section_bytes(e.file, s, 96), out, false).ok()) << name;
    for (std::size_t i = 0; i < s.count; ++i)
      ASSERT_TRUE(packed_equals(want[i], out[i])) << name << " " << i << " seed=" << e.seed;
  };
  g1(lay.h, e.pk.h, "h");
  g1(lay.l, e.pk.l, "l");
  g1(lay.a, e.pk.a, "a");
  g1(lay.b_g1, e.pk.b_g1, "b_g1");
  std::vector<PackedG2> out2(lay.b_g2.count);
  ASSERT_TRUE(decode_packed_g2(section_bytes(e.file, lay.b_g2, 192), out2, false).ok());
  for (std::size_t i = 0; i < lay.b_g2.count; ++i)
    ASSERT_TRUE(packed_equals(e.pk.b_g2[i], out2[i])) << "b_g2 " << i << " seed=" << e.seed;

  // The identity: packed (0, 0) where allowed; refused in a query like parse_params does.
  const auto inf1 = to_uncompressed(G1Affine::identity());
  const auto inf2 = to_uncompressed(G2Affine::identity());
  std::vector<PackedG1> one1(1);
  one1[0].x = Fp::one();
  ASSERT_TRUE(decode_packed_g1(inf1, one1, true).ok());
  EXPECT_TRUE(one1[0].x.is_zero() && one1[0].y.is_zero());
  std::vector<PackedG2> one2(1);
  ASSERT_TRUE(decode_packed_g2(inf2, one2, true).ok());
  EXPECT_TRUE(one2[0].x.is_zero() && one2[0].y.is_zero());

  // Damage at point 3 of l (G1) and point 2 of b_g2 (G2): the twin's error is parse_params's.
  struct Damage {
    const char* what;
    bool g2;
    std::function<void(std::uint8_t*)> apply;
    Errc code;
  };
  const std::vector<Damage> damages = {
      {"identity", false, [&](std::uint8_t* p) { std::copy(inf1.begin(), inf1.end(), p); },
       Errc::bad_encoding},
      {"compressed flag", false, [](std::uint8_t* p) { p[0] |= 0x80; }, Errc::bad_encoding},
      {"sign flag", true, [](std::uint8_t* p) { p[0] |= 0x20; }, Errc::bad_encoding},
      {"infinity with bits", false,
       [](std::uint8_t* p) {
         std::memset(p, 0, 96);
         p[0] = 0x40;
         p[95] = 1;
       },
       Errc::bad_encoding},
      {"x not below p", false,
       [](std::uint8_t* p) { std::memset(p, 0x1f, 1), std::memset(p + 1, 0xff, 47); },
       Errc::out_of_range},
      {"y not below p", true,
       [](std::uint8_t* p) { std::memset(p + 96, 0x1f, 1), std::memset(p + 97, 0xff, 47); },
       Errc::out_of_range},
      {"off the curve", false, [](std::uint8_t* p) { p[95] ^= 0x01; }, Errc::not_on_curve},
      {"G2 off the curve", true, [](std::uint8_t* p) { p[191] ^= 0x01; }, Errc::not_on_curve},
      {"G2 identity", true, [&](std::uint8_t* p) { std::copy(inf2.begin(), inf2.end(), p); },
       Errc::bad_encoding},
  };
  for (const Damage& d : damages) {
    auto bad = e.file;
    const ParamsSection& s = d.g2 ? lay.b_g2 : lay.l;
    const std::size_t k = d.g2 ? 2 : 3;
    ASSERT_GT(s.count, k);
    d.apply(bad.data() + s.offset + k * (d.g2 ? 192 : 96));
    auto want = parse_params(bad, {.checked = false});
    ASSERT_FALSE(want.ok()) << d.what;
    const Status got =
        d.g2 ? twin<PackedG2>(bad, s, "b_g2", true) : twin<PackedG1>(bad, s, "l", false);
    EXPECT_EQ(got.code(), d.code) << d.what << ": " << got.to_string();
    EXPECT_EQ(got.to_string(), want.status().to_string()) << d.what;
    // The backend's default load of encoded bases (the CPU backend) refuses it alike.
    CpuBackend backend(pool);
    auto enc = [&](const ParamsSection& s, std::size_t per) {
      EncodedBases b;
      b.bytes = section_bytes(bad, s, per);
      return b;
    };
    ResidentKey::EncodedQueries q{.h = enc(lay.h, 96),
                                  .l = enc(lay.l, 96),
                                  .a = enc(lay.a, 96),
                                  .b_g1 = enc(lay.b_g1, 96),
                                  .b_g2 = enc(lay.b_g2, 192)};
    ProvingKey shape;
    shape.vk = lay.vk;
    shape.domain_size = lay.domain_size;
    auto rk = ResidentKey::load_encoded(backend, shape, q);
    ASSERT_FALSE(rk.ok()) << d.what;
    EXPECT_EQ(rk.status().to_string(), want.status().to_string()) << d.what;
  }
}

TEST(ParamsDirect, KeyResidentFromItsEncodingsProvesAsTheDecodedKey) {
  ThreadPool pool(2);
  Env e = make_env(pool);
  auto lay = *scan_params(e.file);
  std::size_t consumed = 0;
  auto part = [&](const ParamsSection& s, std::size_t per) {
    return EncodedBases{.bytes = section_bytes(e.file, s, per),
                        .consumed = [&](std::size_t, std::size_t n) { consumed += n; }};
  };
  ProvingKey shape;  // what the key store keeps of a direct key: VK, layout, domain; no tables
  shape.vk = lay.vk;
  shape.domain_size = lay.domain_size;
  CpuBackend backend(pool);
  auto direct = ResidentKey::load_encoded(backend, shape,
                                          {.h = part(lay.h, 96),
                                           .l = part(lay.l, 96),
                                           .a = part(lay.a, 96),
                                           .b_g1 = part(lay.b_g1, 96),
                                           .b_g2 = part(lay.b_g2, 192)});
  ASSERT_TRUE(direct.ok()) << direct.status().to_string();
  EXPECT_EQ(consumed, e.file.size() - lay.h.offset - 4 * 4);  // every query byte, once
  EXPECT_TRUE((*direct)->counts() == e.pk.query_counts());
  auto decoded = ResidentKey::load(backend, e.pk);
  ASSERT_TRUE(decoded.ok());
  const auto z = e.circuit.assignment();
  const Fr r = Fr::from_u64(e.seed | 1), s = Fr::from_u64(e.seed + 7);
  auto p1 = prove(pool, **direct, e.circuit.matrices, z, {.r = r, .s = s});
  auto p2 = prove(pool, **decoded, e.circuit.matrices, z, {.r = r, .s = s});
  ASSERT_TRUE(p1.ok() && p2.ok()) << p1.status().to_string();
  EXPECT_TRUE(*p1 == *p2) << "seed=" << e.seed;
  // A key of another circuit is refused from the counts alone.
  auto other = generate_bench_r1cs(
      {.rows = e.circuit.matrices.num_constraints + 5, .seed = e.seed + 1, .num_public = 2});
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(prove(pool, **direct, other->matrices, other->assignment()).status().code(),
            Errc::size_mismatch);
}

}  // namespace
}  // namespace cuzk
