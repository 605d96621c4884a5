// cuzk-vectors FILE.json: checks every entry of a test-vector file with the layout of
// tests/data/bls12_381_vectors.json (fields, encodings, scalar multiples, group operations,
// the small MSM, pairings, field arithmetic) against this build's arithmetic. Sections a file
// lacks are skipped; a malformed entry is a failure that names it. Prints failures, then
// "N passed, M failed"; exits 1 on any failure, 2 when the file cannot be read.
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/g1.hpp"
#include "cuzk/ec/g2.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

using json = nlohmann::json;

/// A failed check: thrown inside one check only, caught by Checker::check (never escapes main).
struct CheckFailure {
  std::string what;
};

class Checker {
 public:
  void check(const std::string& name, const std::function<void()>& body) {
    try {
      body();
      ++passed_;
    } catch (const CheckFailure& f) {
      fail(name, f.what);
    } catch (const json::exception& e) {
      fail(name, std::string("malformed entry: ") + e.what());
    }
  }
  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  void fail(const std::string& name, const std::string& why) {
    ++failed_;
    std::printf("FAIL %s: %s\n", name.c_str(), why.c_str());
  }
  int passed_ = 0, failed_ = 0;
};

void expect(bool ok, const std::string& what) {
  if (!ok) throw CheckFailure{what};
}

template <class T>
T value_or_fail(Result<T> r, const std::string& what) {
  if (!r) throw CheckFailure{what + ": " + r.status().to_string()};
  return std::move(r).value();
}

std::vector<std::uint8_t> unhex(const std::string& s) {
  std::vector<std::uint8_t> out;
  if (s.size() % 2) throw CheckFailure{"odd-length hex string"};
  auto nib = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw CheckFailure{std::string("bad hex digit '") + c + "'"};
  };
  for (std::size_t i = 0; i < s.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(nib(s[i]) * 16 + nib(s[i + 1])));
  return out;
}

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& b) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (auto v : b) {
    s.push_back(d[v >> 4]);
    s.push_back(d[v & 15]);
  }
  return s;
}

template <std::size_t N>
std::span<const std::uint8_t, N> fixed(const std::vector<std::uint8_t>& v, const char* what) {
  if (v.size() != N)
    throw CheckFailure{std::string(what) + ": expected " + std::to_string(N) + " bytes"};
  return std::span<const std::uint8_t, N>(v.data(), N);
}

template <class F>
F field(const json& j) {
  return value_or_fail(F::from_string(j.get<std::string>()), "field element");
}
Fp2 fp2(const json& j) {
  if (j.is_array()) return {field<Fp>(j.at(0)), field<Fp>(j.at(1))};
  return {field<Fp>(j.at("c0")), field<Fp>(j.at("c1"))};
}
Fp12 fp12(const json& j) {
  // [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each Fp2 = [c0, c1]
  auto f6 = [](const json& k) { return Fp6{fp2(k.at(0)), fp2(k.at(1)), fp2(k.at(2))}; };
  return {f6(j.at(0)), f6(j.at(1))};
}
Fr scalar(const json& j) {
  // Scalars in vector files may exceed r (e.g. k = r − 1 is fine, k ≥ r reduced).
  std::string s = j.get<std::string>();
  auto f = Fr::from_string(s);
  if (f) return *f;
  throw CheckFailure{"scalar " + s + " is not below r"};
}

/// Checks a G1 point entry {x, y | infinity, compressed, uncompressed, snarkjs_lem} against |p|.
void check_g1_entry(const json& e, const G1Affine& p, const std::string& name) {
  if (e.value("infinity", false)) expect(p.is_identity(), name + ": expected the identity");
  if (e.contains("x")) {
    expect(!p.is_identity(), name + ": got the identity");
    expect(p.x == field<Fp>(e["x"]) && p.y == field<Fp>(e["y"]), name + ": coordinates differ");
  }
  if (e.contains("compressed")) {
    expect(hex(to_compressed(p)) == e["compressed"].get<std::string>(),
           name + ": compressed encoding differs");
    auto bytes = unhex(e["compressed"]);
    expect(value_or_fail(g1_from_compressed(fixed<kG1CompressedBytes>(bytes, "compressed")),
                         name) == p,
           name + ": compressed decoding differs");
  }
  if (e.contains("uncompressed")) {
    expect(hex(to_uncompressed(p)) == e["uncompressed"].get<std::string>(),
           name + ": uncompressed encoding differs");
    auto bytes = unhex(e["uncompressed"]);
    expect(value_or_fail(g1_from_uncompressed(fixed<kG1UncompressedBytes>(bytes, "uncompressed")),
                         name) == p,
           name + ": uncompressed decoding differs");
  }
  if (e.contains("snarkjs_lem")) {
    expect(hex(to_snarkjs_lem(p)) == e["snarkjs_lem"].get<std::string>(),
           name + ": snarkjs LEM encoding differs");
    auto bytes = unhex(e["snarkjs_lem"]);
    expect(value_or_fail(g1_from_snarkjs_lem(fixed<kG1LemBytes>(bytes, "snarkjs_lem")), name) == p,
           name + ": snarkjs LEM decoding differs");
  }
}

void check_g2_entry(const json& e, const G2Affine& p, const std::string& name) {
  if (e.value("infinity", false)) expect(p.is_identity(), name + ": expected the identity");
  if (e.contains("x")) {
    expect(!p.is_identity(), name + ": got the identity");
    expect(p.x == fp2(e["x"]) && p.y == fp2(e["y"]), name + ": coordinates differ");
  }
  if (e.contains("compressed")) {
    expect(hex(to_compressed(p)) == e["compressed"].get<std::string>(),
           name + ": compressed encoding differs");
    auto bytes = unhex(e["compressed"]);
    expect(value_or_fail(g2_from_compressed(fixed<kG2CompressedBytes>(bytes, "compressed")),
                         name) == p,
           name + ": compressed decoding differs");
  }
  if (e.contains("uncompressed")) {
    expect(hex(to_uncompressed(p)) == e["uncompressed"].get<std::string>(),
           name + ": uncompressed encoding differs");
    auto bytes = unhex(e["uncompressed"]);
    expect(value_or_fail(g2_from_uncompressed(fixed<kG2UncompressedBytes>(bytes, "uncompressed")),
                         name) == p,
           name + ": uncompressed decoding differs");
  }
  if (e.contains("snarkjs_lem")) {
    expect(hex(to_snarkjs_lem(p)) == e["snarkjs_lem"].get<std::string>(),
           name + ": snarkjs LEM encoding differs");
    auto bytes = unhex(e["snarkjs_lem"]);
    expect(value_or_fail(g2_from_snarkjs_lem(fixed<kG2LemBytes>(bytes, "snarkjs_lem")), name) == p,
           name + ": snarkjs LEM decoding differs");
  }
}

G1Affine g1_of(const json& e) {
  if (e.value("infinity", false)) return G1Affine::identity();
  G1Affine p{field<Fp>(e.at("x")), field<Fp>(e.at("y")), false};
  expect(p.is_on_curve(), "point not on G1");
  return p;
}
G2Affine g2_of(const json& e) {
  if (e.value("infinity", false)) return G2Affine::identity();
  G2Affine p{fp2(e.at("x")), fp2(e.at("y")), false};
  expect(p.is_on_curve(), "point not on G2");
  return p;
}

/// Parses a hex integer of at most N limbs (any value, not reduced).
template <std::size_t N>
Limbs<N> parse_limbs(const std::string& h) {
  std::string s = h.rfind("0x", 0) == 0 ? h.substr(2) : h;
  Limbs<N> v{};
  for (char c : s) {
    int d = (c >= '0' && c <= '9')   ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : -1;
    if (d < 0) throw CheckFailure{"bad hex digit in " + h};
    if (limbs_mul_small(v, 16, static_cast<std::uint64_t>(d)) != 0)
      throw CheckFailure{"integer too large: " + h};
  }
  return v;
}

template <class F>
void check_field_constants(Checker& ck, const json& f, const char* name) {
  auto limbs_eq = [](const typename F::Repr& v, const json& j) {
    return v == parse_limbs<F::N>(j.get<std::string>());
  };
  std::string n = std::string("fields.") + name;
  if (f.contains("modulus_hex"))
    ck.check(n + ".modulus", [&] {
      expect(limbs_eq(F::kModulus, f["modulus_hex"]), "modulus differs");
      if (f.contains("modulus_dec"))
        expect(
            F::from_dec(f["modulus_dec"].get<std::string>()).status().code() == Errc::out_of_range,
            "the decimal modulus must be rejected as out of range");
    });
  for (const char* key : {"R", "R2", "R3"}) {
    if (!f.contains(key)) continue;
    ck.check(n + "." + key, [&] {
      const auto& want = std::string(key) == "R"    ? F::kR
                         : std::string(key) == "R2" ? F::kR2
                                                    : F::kR3;
      expect(limbs_eq(want, f[key]), std::string(key) + " differs");
    });
  }
  if (f.contains("inv64"))
    ck.check(n + ".inv64", [&] {
      expect(std::stoull(f["inv64"].get<std::string>(), nullptr, 16) == F::kInv, "inv64 differs");
    });
  if (f.contains("two_adicity"))
    ck.check(n + ".two_adicity",
             [&] { expect(F::kTwoAdicity == f["two_adicity"].get<unsigned>(), "differs"); });
}

void check_fields(Checker& ck, const json& doc) {
  if (!doc.contains("fields")) return;
  const auto& fs = doc["fields"];
  if (fs.contains("Fp")) check_field_constants<Fp>(ck, fs["Fp"], "Fp");
  if (!fs.contains("Fr")) return;
  const auto& fr = fs["Fr"];
  check_field_constants<Fr>(ck, fr, "Fr");
  if (fr.contains("arkworks_blst_bellman_root_of_unity_32"))
    ck.check("fields.Fr.root_of_unity_32 (bellman)", [&] {
      expect(field<Fr>(fr["arkworks_blst_bellman_root_of_unity_32"]) ==
                 Fr::from_canonical(kFrRootOfUnity32).value(),
             "differs from kFrRootOfUnity32");
    });
  if (fr.contains("root_of_unity") && fr.contains("ffjs_nqr")) {
    // ffjavascript roots: w[s] = nqr^t, w[i−1] = w[i]².
    const Fr nqr = Fr::from_u64(std::stoull(fr["ffjs_nqr"].get<std::string>()));
    Fr w = nqr.pow_vartime(Fr::kOddPart);
    for (int i = static_cast<int>(Fr::kTwoAdicity); i >= 0; --i) {
      const std::string key = std::to_string(i);
      if (fr["root_of_unity"].contains(key)) {
        ck.check("fields.Fr.root_of_unity[" + key + "]",
                 [&] { expect(field<Fr>(fr["root_of_unity"][key]) == w, "differs"); });
      }
      w = w.square();
    }
  }
}

void check_generators(Checker& ck, const json& doc) {
  if (doc.contains("G1_generator"))
    ck.check("G1_generator",
             [&] { check_g1_entry(doc["G1_generator"], G1Affine::generator(), "G1_generator"); });
  if (doc.contains("G2_generator"))
    ck.check("G2_generator",
             [&] { check_g2_entry(doc["G2_generator"], G2Affine::generator(), "G2_generator"); });
}

void check_scalar_mul(Checker& ck, const json& doc) {
  if (!doc.contains("scalar_mul")) return;
  for (const auto& e : doc["scalar_mul"]) {
    const std::string k = e.value("k", std::string("?"));
    if (e.contains("kG1"))
      ck.check("scalar_mul k=" + k + " G1", [&] {
        const Fr s = scalar(e["k"]);
        G1Affine p = mul(G1Jacobian::generator(), s).to_affine();
        check_g1_entry(e["kG1"], p, "kG1");
        expect(is_in_subgroup(p), "kG1 fails the subgroup test");
      });
    if (e.contains("kG2"))
      ck.check("scalar_mul k=" + k + " G2", [&] {
        const Fr s = scalar(e["k"]);
        G2Affine p = mul(G2Jacobian::generator(), s).to_affine();
        check_g2_entry(e["kG2"], p, "kG2");
        expect(is_in_subgroup(p), "kG2 fails the subgroup test");
      });
  }
}

template <class Affine, class Jac, class Of, class CheckEntry>
void check_group(Checker& ck, const json& g, const std::string& name, Of of,
                 CheckEntry check_entry) {
  if (!g.contains("P") || !g.contains("Q")) return;
  auto P = [&] { return of(g["P"]); };
  auto Q = [&] { return of(g["Q"]); };
  ck.check(name + ".P", [&] { check_entry(g["P"], P(), "P"); });
  ck.check(name + ".Q", [&] { check_entry(g["Q"], Q(), "Q"); });
  if (g.contains("P_plus_Q"))
    ck.check(name + ".P_plus_Q", [&] {
      check_entry(g["P_plus_Q"], (Jac::from_affine(P()) + Jac::from_affine(Q())).to_affine(),
                  "P+Q");
      check_entry(g["P_plus_Q"], (Jac::from_affine(P()) + Q()).to_affine(), "P+Q (mixed)");
    });
  if (g.contains("P_minus_Q"))
    ck.check(name + ".P_minus_Q", [&] {
      check_entry(g["P_minus_Q"], (Jac::from_affine(P()) - Jac::from_affine(Q())).to_affine(),
                  "P-Q");
    });
  if (g.contains("two_P"))
    ck.check(name + ".two_P",
             [&] { check_entry(g["two_P"], Jac::from_affine(P()).doubled().to_affine(), "2P"); });
  if (g.contains("neg_P")) ck.check(name + ".neg_P", [&] { check_entry(g["neg_P"], -P(), "-P"); });
}

void check_group_ops(Checker& ck, const json& doc) {
  if (!doc.contains("group_ops")) return;
  const auto& go = doc["group_ops"];
  if (go.contains("G1"))
    check_group<G1Affine, G1Jacobian>(ck, go["G1"], "group_ops.G1", g1_of, check_g1_entry);
  if (go.contains("G2"))
    check_group<G2Affine, G2Jacobian>(ck, go["G2"], "group_ops.G2", g2_of, check_g2_entry);
}

void check_msm(Checker& ck, const json& doc) {
  if (!doc.contains("msm_g1")) return;
  ck.check("msm_g1", [&] {
    const auto& m = doc["msm_g1"];
    expect(m.at("points").size() == m.at("scalars").size(), "points and scalars differ in count");
    G1Jacobian acc = G1Jacobian::identity();
    for (std::size_t i = 0; i < m["points"].size(); ++i) {
      const auto& pe = m["points"][i];
      G1Affine p = g1_of(pe);
      check_g1_entry(pe, p, "points[" + std::to_string(i) + "]");
      acc += mul(p, scalar(m["scalars"][i]));
    }
    check_g1_entry(m.at("result"), acc.to_affine(), "result");
  });
}

void check_pairing(Checker& ck, const json& doc) {
  if (!doc.contains("pairing")) return;
  const auto& p = doc["pairing"];
  const G1Affine g1 = G1Affine::generator();
  const G2Affine g2 = G2Affine::generator();
  if (p.contains("e_G1_G2"))
    ck.check("pairing.e_G1_G2", [&] { expect(pairing(g1, g2) == fp12(p["e_G1_G2"]), "differs"); });
  if (p.contains("a") && p.contains("b")) {
    auto ag1 = [&] { return mul(G1Jacobian::generator(), scalar(p["a"])).to_affine(); };
    auto bg2 = [&] { return mul(G2Jacobian::generator(), scalar(p["b"])).to_affine(); };
    if (p.contains("e_aG1_bG2"))
      ck.check("pairing.e_aG1_bG2",
               [&] { expect(pairing(ag1(), bg2()) == fp12(p["e_aG1_bG2"]), "differs"); });
    if (p.contains("e_G1_G2_pow_ab"))
      ck.check("pairing.e_G1_G2_pow_ab", [&] {
        const Fr ab = scalar(p["a"]) * scalar(p["b"]);
        expect(pairing(g1, g2).pow_vartime(ab.to_canonical()) == fp12(p["e_G1_G2_pow_ab"]),
               "differs");
      });
    if (p.contains("equal"))
      ck.check("pairing.equal", [&] {
        const Fr ab = scalar(p["a"]) * scalar(p["b"]);
        const bool eq = pairing(ag1(), bg2()) == pairing(g1, g2).pow_vartime(ab.to_canonical());
        expect(eq == p["equal"].get<bool>(), "e(aG1,bG2) == e(G1,G2)^(ab) disagrees");
      });
    if (p.contains("product_check"))
      ck.check("pairing.product_check", [&] {
        // e(−a·G1, b·G2) · e(ab·G1, G2) == 1
        const Fr ab = scalar(p["a"]) * scalar(p["b"]);
        const G1Affine ps[2] = {-ag1(), mul(G1Jacobian::generator(), ab).to_affine()};
        const G2Affine qs[2] = {bg2(), g2};
        const bool one =
            pairing_product_is_one(std::span<const G1Affine>(ps), std::span<const G2Affine>(qs));
        const std::string want = p["product_check"].get<std::string>();
        expect(one == (want.find("true") != std::string::npos),
               "product check disagrees with: " + want);
      });
  }
}

template <class F>
void check_field_arith_list(Checker& ck, const json& list, const std::string& name) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& e = list[i];
    const std::string n = name + "[" + std::to_string(i) + "]";
    ck.check(n, [&] {
      const F a = field<F>(e.at("a")), b = field<F>(e.at("b"));
      if (e.contains("a_mul_b")) expect(a * b == field<F>(e["a_mul_b"]), "a*b differs");
      if (e.contains("a_add_b")) expect(a + b == field<F>(e["a_add_b"]), "a+b differs");
      if (e.contains("a_sub_b")) expect(a - b == field<F>(e["a_sub_b"]), "a-b differs");
      if (e.contains("a_sqr")) expect(a.square() == field<F>(e["a_sqr"]), "a^2 differs");
      if (e.contains("a_inv")) {
        expect(a.inverse() == field<F>(e["a_inv"]), "a^-1 (constant time) differs");
        expect(a.inverse_vartime() == field<F>(e["a_inv"]), "a^-1 (variable time) differs");
      }
      if (e.contains("a_pow_b"))
        expect(a.pow_vartime(b.to_canonical()) == field<F>(e["a_pow_b"]), "a^b differs");
      if (e.contains("a_montgomery"))
        expect(a.l == parse_limbs<F::N>(e["a_montgomery"].get<std::string>()),
               "Montgomery form of a differs");
      if (e.contains("a_mul_b_montgomery"))
        expect((a * b).l == parse_limbs<F::N>(e["a_mul_b_montgomery"].get<std::string>()),
               "Montgomery form of a*b differs");
    });
  }
}

void check_field_arith(Checker& ck, const json& doc) {
  if (!doc.contains("field_arith")) return;
  const auto& fa = doc["field_arith"];
  if (fa.contains("Fp")) check_field_arith_list<Fp>(ck, fa["Fp"], "field_arith.Fp");
  if (fa.contains("Fr")) check_field_arith_list<Fr>(ck, fa["Fr"], "field_arith.Fr");
  if (fa.contains("Fp2"))
    for (std::size_t i = 0; i < fa["Fp2"].size(); ++i) {
      const auto& e = fa["Fp2"][i];
      ck.check("field_arith.Fp2[" + std::to_string(i) + "]", [&] {
        const Fp2 a = fp2(e.at("a")), b = fp2(e.at("b"));
        if (e.contains("a_mul_b")) expect(a * b == fp2(e["a_mul_b"]), "a*b differs");
        if (e.contains("a_sqr")) expect(a.square() == fp2(e["a_sqr"]), "a^2 differs");
        if (e.contains("a_inv")) expect(a.inverse() == fp2(e["a_inv"]), "a^-1 differs");
      });
    }
}

}  // namespace
}  // namespace cuzk

int main(int argc, char** argv) {
  using namespace cuzk;
  if (argc != 2) {
    std::fprintf(stderr, "usage: cuzk-vectors FILE.json\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cuzk-vectors: cannot open %s\n", argv[1]);
    return 2;
  }
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    std::fprintf(stderr, "cuzk-vectors: %s is not a JSON object\n", argv[1]);
    return 2;
  }
  Checker ck;
  check_fields(ck, doc);
  check_generators(ck, doc);
  check_scalar_mul(ck, doc);
  check_group_ops(ck, doc);
  check_msm(ck, doc);
  check_pairing(ck, doc);
  check_field_arith(ck, doc);
  std::printf("%d passed, %d failed\n", ck.passed(), ck.failed());
  return ck.failed() == 0 ? 0 : 1;
}
