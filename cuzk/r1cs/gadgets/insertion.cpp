#include "cuzk/r1cs/gadgets/insertion.hpp"

#include <string>

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {
namespace {

Result<AllocatedNum> named_pick(ConstraintSystem& cs, const char* name, const Boolean& cond,
                                const AllocatedNum& a, const AllocatedNum& b) {
  Namespace ns(cs, name);
  return pick(cs, cond, a, b);
}

#define CUZK_WITNESS(var, cond, a, b) \
  CUZK_ASSIGN_OR_RETURN(AllocatedNum var, named_pick(cs, #var, cond, a, b))

Result<std::vector<AllocatedNum>> insert_2(ConstraintSystem& cs, const AllocatedNum& x,
                                           std::span<const Boolean> bits,
                                           std::span<const AllocatedNum> e) {
  CUZK_ASSIGN_OR_RETURN(AllocatedNum p0, named_pick(cs, "binary insert 0", bits[0], e[0], x));
  CUZK_ASSIGN_OR_RETURN(AllocatedNum p1, named_pick(cs, "binary insert 1", bits[0], x, e[0]));
  return std::vector<AllocatedNum>{p0, p1};
}

// Positions for A inserted into [b, c, d] at n = b0 + 2·b1.
Result<std::vector<AllocatedNum>> insert_4(ConstraintSystem& cs, const AllocatedNum& a,
                                           std::span<const Boolean> bits,
                                           std::span<const AllocatedNum> e) {
  const Boolean &b0 = bits[0], &b1 = bits[1];
  const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
  CUZK_WITNESS(p0_x0, b0, b, a);
  CUZK_WITNESS(p0, b1, b, p0_x0);
  CUZK_WITNESS(p1_x0, b0, a, b);
  CUZK_WITNESS(p1, b1, c, p1_x0);
  CUZK_WITNESS(p2_x1, b0, d, a);
  CUZK_WITNESS(p2, b1, p2_x1, c);
  CUZK_WITNESS(p3_x1, b0, a, d);
  CUZK_WITNESS(p3, b1, p3_x1, d);
  return std::vector<AllocatedNum>{p0, p1, p2, p3};
}

// Positions for A inserted into [b..h] at n = b0 + 2·b1 + 4·b2; the bits must be allocated and
// not negated (rust-fil-proofs panics otherwise; here invalid_argument).
Result<std::vector<AllocatedNum>> insert_8(ConstraintSystem& cs, const AllocatedNum& a,
                                           std::span<const Boolean> bits,
                                           std::span<const AllocatedNum> el) {
  if (bits[0].kind() != Boolean::Kind::is || bits[1].kind() != Boolean::Kind::is) {
    return Status(Errc::invalid_argument, "insert_8: bits must be allocated and unnegated");
  }
  const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
  const AllocatedNum &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5],
                     &h = el[6];
  Result<AllocatedBit> nor_r = Status(), and_r = Status();
  {
    Namespace ns(cs, "b0 nor b1");
    nor_r = AllocatedBit::nor(cs, b0.bit(), b1.bit());
  }
  if (!nor_r) return nor_r.status();
  {
    Namespace ns(cs, "b0 and b1");
    and_r = AllocatedBit::bit_and(cs, b0.bit(), b1.bit());
  }
  if (!and_r) return and_r.status();
  const Boolean b0_nor_b1 = Boolean::from(*nor_r), b0_and_b1 = Boolean::from(*and_r);
  CUZK_WITNESS(p0_xx0, b0_nor_b1, a, b);
  CUZK_WITNESS(p0, b2, b, p0_xx0);
  CUZK_WITNESS(p1_x00, b0, a, b);
  CUZK_WITNESS(p1_xx0, b1, c, p1_x00);
  CUZK_WITNESS(p1, b2, c, p1_xx0);
  CUZK_WITNESS(p2_x10, b0, d, a);
  CUZK_WITNESS(p2_xx0, b1, p2_x10, c);
  CUZK_WITNESS(p2, b2, d, p2_xx0);
  CUZK_WITNESS(p3_xx0, b0_and_b1, a, d);
  CUZK_WITNESS(p3, b2, e, p3_xx0);
  CUZK_WITNESS(p4_xx1, b0_nor_b1, a, f);
  CUZK_WITNESS(p4, b2, p4_xx1, e);
  CUZK_WITNESS(p5_x01, b0, a, f);
  CUZK_WITNESS(p5_xx1, b1, g, p5_x01);
  CUZK_WITNESS(p5, b2, p5_xx1, f);
  CUZK_WITNESS(p6_x11, b0, h, a);
  CUZK_WITNESS(p6_xx1, b1, p6_x11, g);
  CUZK_WITNESS(p6, b2, p6_xx1, g);
  CUZK_WITNESS(p7_xx1, b0_and_b1, a, h);
  CUZK_WITNESS(p7, b2, p7_xx1, h);
  return std::vector<AllocatedNum>{p0, p1, p2, p3, p4, p5, p6, p7};
}

#undef CUZK_WITNESS

}  // namespace

Result<AllocatedNum> select(ConstraintSystem& cs, std::span<const AllocatedNum> from,
                            std::span<const Boolean> bits) {
  if (from.size() != (std::size_t{1} << bits.size()))
    return Status(Errc::size_mismatch, "select: 2^bits != size");
  std::vector<AllocatedNum> state(from.begin(), from.end());
  std::size_t half = from.size() / 2;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    const Boolean& bit = bits[bits.size() - 1 - i];
    std::vector<AllocatedNum> next;
    for (std::size_t j = 0; j < half; ++j) {
      Namespace ns(cs, [i, j] { return "pick " + std::to_string(i) + ", " + std::to_string(j); });
      CUZK_ASSIGN_OR_RETURN(AllocatedNum p, pick(cs, bit, state[half + j], state[j]));
      next.push_back(p);
    }
    state = std::move(next);
    half /= 2;
  }
  return state[0];
}

Result<std::vector<AllocatedNum>> insert(ConstraintSystem& cs, const AllocatedNum& element,
                                         std::span<const Boolean> bits,
                                         std::span<const AllocatedNum> elements) {
  const std::size_t size = elements.size() + 1;
  if (size != (std::size_t{1} << bits.size()))
    return Status(Errc::size_mismatch, "insert: 2^bits != size");
  if (size == 2) return insert_2(cs, element, bits, elements);
  if (size == 4) return insert_4(cs, element, bits, elements);
  if (size == 8) return insert_8(cs, element, bits, elements);
  std::vector<AllocatedNum> result;
  for (std::size_t pos = 0; pos < size; ++pos) {
    std::vector<AllocatedNum> choices;
    for (std::size_t index = 0; index < size; ++index) {
      if (pos < index)
        choices.push_back(elements[pos]);
      else if (pos == index)
        choices.push_back(element);
      else
        choices.push_back(elements[pos - 1]);
    }
    Namespace ns(cs, [pos] { return "choice at " + std::to_string(pos); });
    CUZK_ASSIGN_OR_RETURN(AllocatedNum s, select(cs, choices, bits));
    result.push_back(s);
  }
  return result;
}

}  // namespace cuzk
