#include "cuzk/circuits/filecoin/porep_witness.hpp"

#include <map>
#include <mutex>
#include <span>
#include <string>
#include <tuple>

#include "cuzk/circuits/filecoin/porep_circuit_steps.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/witness_slice_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace {

// Counts variables and constraints and asks for no value: a blank circuit's synthesis through the
// witness-mode gadget code (wants_constraints() false, so no LC is built).
class CountingConstraintSystem final : public ConstraintSystem {
 public:
  CountingConstraintSystem() { skip_constraints_ = true; }
  Result<Variable> alloc_aux_fn(NameFn, ValueFn) override {
    return Variable::aux(static_cast<std::uint32_t>(aux_++));
  }
  Result<Variable> alloc_input_fn(NameFn, ValueFn) override {
    return Variable::input(static_cast<std::uint32_t>(inputs_++));
  }
  void enforce_lc(NameFn, const LC&, const LC&, const LC&) override { ++skipped_constraints_; }
  void push_scope(NameFn) override {}
  void pop_scope() override {}
  bool wants_constraints() const override { return false; }
  Status finish() override { return {}; }
  std::size_t num_inputs() const override { return inputs_; }
  std::size_t num_aux() const override { return aux_; }
  std::size_t num_constraints() const override { return skipped_constraints_; }

 private:
  std::size_t inputs_ = 1, aux_ = 0;  // ONE
};

Result<PorepWitnessLayout> count_layout(const PorepCircuitShape& shape) {
  PorepCircuitShape one = shape;
  one.challenges = 1;
  CUZK_ASSIGN_OR_RETURN(detail::PorepSteps steps, detail::PorepSteps::make(one, nullptr, nullptr));
  CountingConstraintSystem cs;
  CUZK_ASSIGN_OR_RETURN(detail::PorepPrelude prelude, steps.synthesize_prelude(cs));
  PorepWitnessLayout l;
  l.prelude_inputs = cs.num_inputs();
  l.prelude_aux = cs.num_aux();
  const std::uint64_t prelude_constraints = cs.num_constraints();
  CUZK_RETURN_IF_ERROR(steps.synthesize_challenge(cs, 0, prelude));
  l.challenge_inputs = cs.num_inputs() - l.prelude_inputs;
  l.challenge_aux = cs.num_aux() - l.prelude_aux;
  const std::uint64_t challenge_constraints = cs.num_constraints() - prelude_constraints;
  l.num_inputs = l.prelude_inputs + shape.challenges * l.challenge_inputs;
  l.num_aux = l.prelude_aux + shape.challenges * l.challenge_aux;
  l.num_constraints = prelude_constraints + shape.challenges * challenge_constraints + l.num_inputs;
  if (l.num_aux >= (std::uint64_t{1} << 32))
    return Status(Errc::out_of_range, "PoRep witness: more aux variables than 32-bit indexes hold");
  return l;
}

}  // namespace

Result<PorepWitnessLayout> porep_witness_layout(const PorepCircuitShape& shape) {
  using Key = std::tuple<std::uint64_t, unsigned, unsigned, unsigned, unsigned, unsigned>;
  static std::mutex mu;
  static std::map<Key, PorepWitnessLayout> cache;
  const Key key{shape.nodes,    shape.layers,   shape.tree.base,
                shape.tree.sub, shape.tree.top, shape.challenges};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  CUZK_ASSIGN_OR_RETURN(PorepWitnessLayout l, count_layout(shape));  // outside the lock
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(key, l);
  return l;
}

Result<std::vector<Fr>> porep_partition_witness(const PorepCircuitShape& shape,
                                                const PorepCircuitPublic& pub,
                                                const PorepCircuitPrivate& priv, ThreadPool& pool,
                                                const WitnessOptions& opt,
                                                std::vector<Fr>&& storage) {
  CUZK_ASSIGN_OR_RETURN(detail::PorepSteps steps, detail::PorepSteps::make(shape, &pub, &priv));
  CUZK_ASSIGN_OR_RETURN(PorepWitnessLayout l, porep_witness_layout(shape));
  std::vector<Fr> z = std::move(storage);
  z.resize(l.num_inputs + l.num_aux);  // a reused buffer of this size is not touched again
  z[0] = Fr::one();
  const std::span<Fr> inputs = std::span<Fr>(z).first(l.num_inputs);
  const std::span<Fr> aux = std::span<Fr>(z).subspan(l.num_inputs);

  WitnessSliceConstraintSystem head(aux.first(l.prelude_aux), 0,
                                    inputs.subspan(1, l.prelude_inputs - 1), 1, opt.fast_paths);
  CUZK_ASSIGN_OR_RETURN(detail::PorepPrelude prelude, steps.synthesize_prelude(head));
  CUZK_RETURN_IF_ERROR(head.finish_slice().with_context("PoRep witness prelude"));

  std::vector<Status> status(steps.challenges());
  pool.parallel_for(steps.challenges(), [&](std::size_t i) {
    const std::uint64_t a0 = l.prelude_aux + i * l.challenge_aux;
    const std::uint64_t i0 = l.prelude_inputs + i * l.challenge_inputs;
    WitnessSliceConstraintSystem cs(
        aux.subspan(a0, l.challenge_aux), static_cast<std::uint32_t>(a0),
        inputs.subspan(i0, l.challenge_inputs), static_cast<std::uint32_t>(i0), opt.fast_paths);
    Status st = steps.synthesize_challenge(cs, static_cast<unsigned>(i), prelude);
    if (st.ok()) st = cs.finish_slice().with_context("challenge " + std::to_string(i));
    status[i] = std::move(st);
  });
  for (Status& st : status)
    if (!st.ok()) return st;
  return z;
}

}  // namespace cuzk::circuits::filecoin
