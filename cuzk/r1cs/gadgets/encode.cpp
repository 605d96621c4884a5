#include "cuzk/r1cs/gadgets/encode.hpp"

#include "cuzk/r1cs/gadgets/assign.hpp"

namespace cuzk {

Result<AllocatedNum> encode(ConstraintSystem& cs, const AllocatedNum& key,
                            const AllocatedNum& value) {
  Namespace ns(cs, "encode_add");
  std::optional<Fr> sum;
  if (key.value() && value.value()) sum = *key.value() + *value.value();
  Result<AllocatedNum> res = Status();
  {
    Namespace na(cs, "add_num");
    res = AllocatedNum::alloc(cs, sum);
  }
  if (!res) return res;
  cs.enforce("sum constraint", LC(key.variable()) + value.variable(), Variable::one(),
             res->variable());
  return res;
}

}  // namespace cuzk
