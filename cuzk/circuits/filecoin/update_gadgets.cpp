#include "cuzk/circuits/filecoin/update_gadgets.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/gadgets/bit_decomposition.hpp"
#include "cuzk/r1cs/gadgets/gen_randomness.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"

namespace cuzk::circuits::filecoin {

Result<std::vector<std::vector<AllocatedBit>>> gen_challenge_bits(ConstraintSystem& cs,
                                                                  const AllocatedNum& comm_r_new,
                                                                  const AllocatedNum& partition,
                                                                  unsigned challenges,
                                                                  unsigned bits_per_challenge) {
  if (bits_per_challenge == 0 || bits_per_challenge > kFrCapacity)
    return Status(
        Errc::invalid_argument,
        "gen_challenge_bits: " + std::to_string(bits_per_challenge) + " bits per challenge");
  const unsigned per_digest = static_cast<unsigned>(kFrCapacity) / bits_per_challenge;
  const unsigned digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  out.reserve(challenges);
  for (unsigned j = 0; j < digests; ++j) {
    const Fr dpp = Fr::from_u64(digests), fj = Fr::from_u64(j);
    std::optional<Fr> index_value;
    if (partition.value()) index_value = *partition.value() * dpp + fj;
    Result<AllocatedNum> index = Status();
    {
      Namespace ns(cs, [j] { return "digest_index_" + std::to_string(j); });
      index = AllocatedNum::alloc(cs, index_value);
    }
    if (!index) return index.status();
    cs.enforce(
        [j] {
          return "digest_index_" + std::to_string(j) + " == k * digests_per_partition + " +
                 std::to_string(j);
        },
        [&] {
          LC lc;
          lc.add(dpp, partition.variable());
          lc.add(fj, Variable::one());
          return lc;
        },
        Variable::one(), index->variable());
    Result<AllocatedNum> digest = Status();
    {
      Namespace ns(cs, [j] { return "digest_" + std::to_string(j); });
      digest = gen_randomness_circuit(cs, comm_r_new, *index);
    }
    if (!digest) return digest.status();
    Result<std::vector<AllocatedBit>> bits = Status();
    {
      Namespace ns(cs, [j] { return "digest_" + std::to_string(j) + "_bits"; });
      bits = num_into_bits_le_packed(cs, *digest);
    }
    if (!bits) return bits.status();
    const unsigned take =
        j + 1 == digests ? challenges - static_cast<unsigned>(out.size()) : per_digest;
    for (unsigned c = 0; c < take; ++c) {
      const auto first = bits->begin() + std::ptrdiff_t{c} * bits_per_challenge;
      out.emplace_back(first, first + bits_per_challenge);
    }
  }
  return out;
}

Result<AllocatedNum> challenge_high_bits(ConstraintSystem& cs, std::span<const AllocatedBit> c_bits,
                                         std::span<const AllocatedBit> h_select_bits,
                                         const std::array<unsigned, 6>& hs) {
  if (h_select_bits.size() != hs.size())
    return Status(Errc::size_mismatch,
                  "challenge_high_bits: " + std::to_string(h_select_bits.size()) +
                      " h_select bits for 6 h values");
  const std::size_t bit_len = c_bits.size();
  std::vector<AllocatedNum> c_high_or_zero;
  for (std::size_t k = 0; k < hs.size(); ++k) {
    const unsigned h = hs[k];
    if (h > bit_len)
      return Status(Errc::invalid_argument, "challenge_high_bits: h = " + std::to_string(h) +
                                                " of a " + std::to_string(bit_len) +
                                                "-bit challenge");
    const auto tag = [h, k] {
      return "(h=" + std::to_string(h) + ", k=" + std::to_string(k) + ")";
    };
    std::vector<Boolean> high;
    for (std::size_t i = bit_len - h; i < bit_len; ++i) high.push_back(Boolean::from(c_bits[i]));
    Result<AllocatedNum> c_high = Status();
    {
      Namespace ns(cs, [&] { return "c_high " + tag(); });
      c_high = pack_bits(cs, high);
    }
    if (!c_high) return c_high.status();
    std::optional<Fr> v;
    if (h_select_bits[k].value() && c_high->value())
      v = *h_select_bits[k].value() ? *c_high->value() : Fr::zero();
    Result<AllocatedNum> selected = Status();
    {
      Namespace ns(cs, [&] { return "c_high_or_zero " + tag(); });
      selected = AllocatedNum::alloc(cs, v);
    }
    if (!selected) return selected.status();
    cs.enforce([&] { return "c_high_or_zero == c_high * h_select_bit " + tag(); },
               c_high->variable(), h_select_bits[k].variable(), selected->variable());
    c_high_or_zero.push_back(*selected);
  }
  std::optional<Fr> sum = Fr::zero();
  for (const AllocatedNum& x : c_high_or_zero) {
    if (!x.value()) {
      sum.reset();
      break;
    }
    *sum += *x.value();
  }
  Result<AllocatedNum> c_high_selected = Status();
  {
    Namespace ns(cs, "c_high_selected");
    c_high_selected = AllocatedNum::alloc(cs, sum);
  }
  if (!c_high_selected) return c_high_selected;
  cs.enforce(
      "c_high_selected == dot(c_highs, h_select_bits)",
      [&] {
        LC lc;
        for (const AllocatedNum& x : c_high_or_zero) lc.add(x.variable());
        return lc;
      },
      Variable::one(), c_high_selected->variable());
  return c_high_selected;
}

Result<AllocatedNum> label_r_new(ConstraintSystem& cs, const AllocatedNum& label_r_old,
                                 const AllocatedNum& label_d_new, const AllocatedNum& rho) {
  Result<AllocatedNum> d_rho = Status();
  {
    Namespace ns(cs, "label_d_new * rho");
    d_rho = label_d_new.mul(cs, rho);
  }
  if (!d_rho) return d_rho;
  std::optional<Fr> v;
  if (label_r_old.value() && d_rho->value()) v = *label_r_old.value() + *d_rho->value();
  Result<AllocatedNum> out = Status();
  {
    Namespace ns(cs, "label_r_new");
    out = AllocatedNum::alloc(cs, v);
  }
  if (!out) return out;
  cs.enforce(
      "label_r_new == label_r_old + label_d_new * rho",
      [&] {
        LC lc(label_r_old.variable());
        lc.add(d_rho->variable());
        return lc;
      },
      Variable::one(), out->variable());
  return out;
}

}  // namespace cuzk::circuits::filecoin
