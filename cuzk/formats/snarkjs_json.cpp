#include "cuzk/formats/snarkjs_json.hpp"

#include <nlohmann/json.hpp>

#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/fp.hpp"

namespace cuzk {

namespace {

using nlohmann::json;
using ordered = nlohmann::ordered_json;

ordered g1_json(const G1Affine& p) {
  if (p.is_identity()) return ordered::array({"0", "1", "0"});
  return ordered::array({p.x.to_dec(), p.y.to_dec(), "1"});
}
ordered fp2_json(const Fp2& a) { return ordered::array({a.c0.to_dec(), a.c1.to_dec()}); }
ordered g2_json(const G2Affine& p) {
  if (p.is_identity())
    return ordered::array(
        {ordered::array({"0", "0"}), ordered::array({"1", "0"}), ordered::array({"0", "0"})});
  return ordered::array({fp2_json(p.x), fp2_json(p.y), ordered::array({"1", "0"})});
}
ordered fp6_json(const Fp6& a) {
  return ordered::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)});
}

Result<Fp> fp_at(const json& j, const std::string& where) {
  if (!j.is_string()) return Status(Errc::bad_encoding, where + ": expected a decimal string");
  auto v = Fp::from_dec(j.get<std::string>());
  if (!v.ok()) return v.status().with_context(where);
  return *v;
}

Result<Fp2> fp2_at(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2)
    return Status(Errc::bad_encoding, where + ": expected [c0, c1]");
  auto c0 = fp_at(j[0], where + "[0]");
  if (!c0.ok()) return c0.status();
  auto c1 = fp_at(j[1], where + "[1]");
  if (!c1.ok()) return c1.status();
  return Fp2{*c0, *c1};
}

Result<G1Affine> g1_at(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 3)
    return Status(Errc::bad_encoding, where + ": expected [x, y, z]");
  auto x = fp_at(j[0], where + "[0]"), y = fp_at(j[1], where + "[1]"),
       z = fp_at(j[2], where + "[2]");
  if (!x.ok()) return x.status();
  if (!y.ok()) return y.status();
  if (!z.ok()) return z.status();
  if (z->is_zero()) return G1Affine::identity();
  if (!z->is_one())
    return Status(Errc::bad_encoding, where + ": z must be 1 (affine) or 0 (identity)");
  G1Affine p{*x, *y, false};
  if (!p.is_on_curve()) return Status(Errc::not_on_curve, where + ": point not on G1");
  if (!is_in_subgroup(p))
    return Status(Errc::not_in_subgroup, where + ": point not in the G1 subgroup");
  return p;
}

Result<G2Affine> g2_at(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 3)
    return Status(Errc::bad_encoding, where + ": expected [x, y, z]");
  auto x = fp2_at(j[0], where + "[0]"), y = fp2_at(j[1], where + "[1]"),
       z = fp2_at(j[2], where + "[2]");
  if (!x.ok()) return x.status();
  if (!y.ok()) return y.status();
  if (!z.ok()) return z.status();
  if (z->c0.is_zero() && z->c1.is_zero()) return G2Affine::identity();
  if (!z->c0.is_one() || !z->c1.is_zero())
    return Status(Errc::bad_encoding, where + ": z must be [1, 0] (affine) or [0, 0] (identity)");
  G2Affine p{*x, *y, false};
  if (!p.is_on_curve()) return Status(Errc::not_on_curve, where + ": point not on G2");
  if (!is_in_subgroup(p))
    return Status(Errc::not_in_subgroup, where + ": point not in the G2 subgroup");
  return p;
}

Result<json> parse(std::string_view text, const char* what) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return Status(Errc::bad_encoding, std::string(what) + ": not valid JSON");
  return j;
}

Status expect_field(const json& j, const char* key, const char* what) {
  if (!j.is_object() || !j.contains(key))
    return Status(Errc::bad_encoding, std::string(what) + ": missing \"" + key + "\"");
  return {};
}

Status check_protocol(const json& j, const char* what) {
  if (j.contains("protocol") && j["protocol"] != "groth16")
    return Status(Errc::unimplemented, std::string(what) + ": protocol is not groth16");
  if (j.contains("curve") && j["curve"] != "bls12381")
    return Status(Errc::unimplemented, std::string(what) + ": curve is not bls12381");
  return {};
}

}  // namespace

std::string proof_to_snarkjs_json(const Proof& proof) {
  ordered j;
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  return j.dump(1);
}

Result<Proof> proof_from_snarkjs_json(std::string_view text) {
  auto j = parse(text, "proof.json");
  if (!j.ok()) return j.status();
  for (const char* k : {"pi_a", "pi_b", "pi_c"})
    CUZK_RETURN_IF_ERROR(expect_field(*j, k, "proof.json"));
  CUZK_RETURN_IF_ERROR(check_protocol(*j, "proof.json"));
  auto a = g1_at((*j)["pi_a"], "proof.json pi_a");
  if (!a.ok()) return a.status();
  auto b = g2_at((*j)["pi_b"], "proof.json pi_b");
  if (!b.ok()) return b.status();
  auto c = g1_at((*j)["pi_c"], "proof.json pi_c");
  if (!c.ok()) return c.status();
  return Proof{*a, *b, *c};
}

std::string public_to_snarkjs_json(std::span<const Fr> inputs) {
  ordered j = ordered::array();
  for (const Fr& x : inputs) j.push_back(x.to_dec());
  return j.dump(1);
}

Result<std::vector<Fr>> public_from_snarkjs_json(std::string_view text) {
  auto j = parse(text, "public.json");
  if (!j.ok()) return j.status();
  if (!j->is_array())
    return Status(Errc::bad_encoding, "public.json: expected an array of decimal strings");
  std::vector<Fr> out;
  for (std::size_t i = 0; i < j->size(); ++i) {
    const auto& v = (*j)[i];
    const std::string where = "public.json[" + std::to_string(i) + "]";
    if (!v.is_string()) return Status(Errc::bad_encoding, where + ": expected a decimal string");
    auto x = Fr::from_dec(v.get<std::string>());
    if (!x.ok()) return x.status().with_context(where);
    out.push_back(*x);
  }
  return out;
}

std::string vk_to_snarkjs_json(const VerifyingKey& vk) {
  ordered j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["nPublic"] = vk.num_public();
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  const Fp12 ab = pairing(vk.alpha_g1, vk.beta_g2);
  j["vk_alphabeta_12"] = ordered::array({fp6_json(ab.c0), fp6_json(ab.c1)});
  ordered ic = ordered::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = ic;
  return j.dump(1);
}

Result<VerifyingKey> vk_from_snarkjs_json(std::string_view text) {
  const char* what = "verification_key.json";
  auto j = parse(text, what);
  if (!j.ok()) return j.status();
  for (const char* k : {"vk_alpha_1", "vk_beta_2", "vk_gamma_2", "vk_delta_2", "IC"})
    CUZK_RETURN_IF_ERROR(expect_field(*j, k, what));
  CUZK_RETURN_IF_ERROR(check_protocol(*j, what));
  VerifyingKey vk;
  auto alpha = g1_at((*j)["vk_alpha_1"], std::string(what) + " vk_alpha_1");
  if (!alpha.ok()) return alpha.status();
  auto beta = g2_at((*j)["vk_beta_2"], std::string(what) + " vk_beta_2");
  if (!beta.ok()) return beta.status();
  auto gamma = g2_at((*j)["vk_gamma_2"], std::string(what) + " vk_gamma_2");
  if (!gamma.ok()) return gamma.status();
  auto delta = g2_at((*j)["vk_delta_2"], std::string(what) + " vk_delta_2");
  if (!delta.ok()) return delta.status();
  vk.alpha_g1 = *alpha;
  vk.beta_g2 = *beta;
  vk.gamma_g2 = *gamma;
  vk.delta_g2 = *delta;
  const auto& ic = (*j)["IC"];
  if (!ic.is_array() || ic.empty())
    return Status(Errc::bad_encoding, std::string(what) + ": IC must be a non-empty array");
  for (std::size_t i = 0; i < ic.size(); ++i) {
    auto p = g1_at(ic[i], std::string(what) + " IC[" + std::to_string(i) + "]");
    if (!p.ok()) return p.status();
    vk.ic.push_back(*p);
  }
  if (j->contains("nPublic") && (!(*j)["nPublic"].is_number_unsigned() ||
                                 (*j)["nPublic"].get<std::size_t>() + 1 != ic.size()))
    return Status(Errc::size_mismatch, std::string(what) + ": nPublic disagrees with the " +
                                           std::to_string(ic.size()) + " IC points");
  if (j->contains("vk_alphabeta_12")) {
    const Fp12 ab = pairing(vk.alpha_g1, vk.beta_g2);
    if (ordered::parse((*j)["vk_alphabeta_12"].dump()) !=
        ordered::array({fp6_json(ab.c0), fp6_json(ab.c1)}))
      return Status(Errc::bad_encoding,
                    std::string(what) + ": vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)");
  }
  return vk;
}

}  // namespace cuzk
