#include "cuzk/r1cs/gadgets/poseidon_witness.hpp"

#include <array>

namespace cuzk {
namespace {

constexpr unsigned kMaxWidth = 12;  // arity 11

// The state's values and the output cursor; linear layers as LegacyCircuit's.
class Permutation {
 public:
  Permutation(const PoseidonConstants& c, Fr* out) : c_(c), out_(out) {}

  Fr run(const Fr& tag, std::span<const AllocatedNum> preimage) {
    const unsigned t = c_.width, half = c_.full_rounds / 2;
    s_[0] = tag;
    for (unsigned i = 1; i < t; ++i) s_[i] = *preimage[i - 1].value();
    // First round: the tag's S-box is a constant; the preimage elements are allocated already.
    const Fr* pre = &c_.compressed[0];
    const Fr* post = &c_.compressed[t];
    offset_ = 2 * t;
    s_[0] = pow5(s_[0] + pre[0]) + post[0];
    for (unsigned i = 1; i < t; ++i) {
      const Fr l = s_[i] + pre[i];
      const Fr l2 = l.square();
      const Fr l4 = l2.square();
      emit(l2);
      emit(l4);
      s_[i] = emit(l * l4 + post[i]);
    }
    mix();
    for (unsigned r = 1; r < half; ++r) full_round(false);
    for (unsigned r = 0; r < c_.partial_rounds; ++r) {
      s_[0] = s_box(s_[0], &c_.compressed[offset_++]);
      mix();
    }
    for (unsigned r = 0; r + 1 < half; ++r) full_round(false);
    full_round(true);
    return emit(s_[1]);
  }

 private:
  static Fr pow5(const Fr& x) { return x.square().square() * x; }

  Fr emit(const Fr& v) {
    *out_++ = v;
    return v;
  }

  // quintic_s_box: l materialised, l², l⁴, then (l4 · l) + k′.
  Fr s_box(const Fr& l, const Fr* post) {
    emit(l);
    const Fr l2 = emit(l.square());
    const Fr l4 = emit(l2.square());
    Fr l5 = l * l4;
    if (post) l5 += *post;
    return emit(l5);
  }

  void full_round(bool last) {
    const unsigned t = c_.width;
    const Fr* post = nullptr;
    if (!last) {
      post = &c_.compressed[offset_];
      offset_ += t;
    }
    for (unsigned i = 0; i < t; ++i) s_[i] = s_box(s_[i], post ? &post[i] : nullptr);
    mix();
  }

  // product_mds: P after round R_F/2 − 1, the sparse M″ in the partial rounds, M otherwise.
  void mix() {
    const unsigned t = c_.width, half = c_.full_rounds / 2, sparse_offset = half - 1;
    std::array<Fr, kMaxWidth> out;
    if (round_ == sparse_offset) {
      matrix(c_.pre_sparse, out);
    } else if (round_ > sparse_offset && round_ < half + c_.partial_rounds) {
      const PoseidonConstants::Sparse& m = c_.sparse[round_ - sparse_offset - 1];
      Fr v = Fr::zero();
      for (unsigned i = 0; i < t; ++i) v += s_[i] * m.w_hat[i];
      out[0] = v;
      for (unsigned j = 1; j < t; ++j) out[j] = s_[j] + s_[0] * m.v_rest[j - 1];
    } else {
      matrix(c_.mds, out);
    }
    s_ = out;
    ++round_;
  }

  void matrix(const std::vector<std::vector<Fr>>& m, std::array<Fr, kMaxWidth>& out) const {
    const unsigned t = c_.width;
    for (unsigned j = 0; j < t; ++j) {
      Fr v = Fr::zero();
      for (unsigned i = 0; i < t; ++i) v += s_[i] * m[i][j];
      out[j] = v;
    }
  }

  const PoseidonConstants& c_;
  Fr* out_;
  std::array<Fr, kMaxWidth> s_{};
  std::size_t offset_ = 0;
  unsigned round_ = 0;
};

}  // namespace

AllocatedNum poseidon_hash_witness(ConstraintSystem& cs, const PoseidonConstants& c, const Fr& tag,
                                   std::span<const AllocatedNum> preimage) {
  const std::size_t n =
      3 * c.arity + 4 * (std::size_t{c.width} * (c.full_rounds - 1) + c.partial_rounds) + 1;
  const ConstraintSystem::AuxBlock blk = cs.alloc_aux_block(n);
  const Fr out = Permutation(c, blk.values).run(tag, preimage);
  cs.count_skipped_constraints(n);
  return AllocatedNum(Variable::aux(static_cast<std::uint32_t>(blk.first + n - 1)), out);
}

}  // namespace cuzk
