#include "cuzk/circuits/filecoin/porep_witness.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>

#include "cuzk/circuits/filecoin/porep_circuit_steps.hpp"
#include "cuzk/r1cs/compact_witness_bound.hpp"
#include "cuzk/r1cs/counting_cs.hpp"
#include "cuzk/r1cs/gadgets/assign.hpp"
#include "cuzk/r1cs/witness_slice_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace {

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
  // The parts in synthesize_challenge's order, each counted on its own.
  auto part = [&](auto&& run) -> Status {
    const std::uint64_t in0 = cs.num_inputs(), aux0 = cs.num_aux();
    CUZK_RETURN_IF_ERROR(run());
    l.parts.push_back({cs.num_inputs() - in0, cs.num_aux() - aux0});
    return {};
  };
  AllocatedNum data_leaf;
  detail::PorepColumns columns;
  std::vector<AllocatedNum> labels(shape.layers);
  CUZK_RETURN_IF_ERROR(part([&]() -> Status {
    CUZK_ASSIGN_OR_RETURN(data_leaf, steps.synthesize_tree_d(cs, 0, prelude));
    return {};
  }));
  CUZK_RETURN_IF_ERROR(part([&]() -> Status {
    CUZK_ASSIGN_OR_RETURN(columns, steps.synthesize_columns(cs, 0, prelude));
    return {};
  }));
  for (unsigned layer = 1; layer <= shape.layers; ++layer) {
    CUZK_RETURN_IF_ERROR(part([&]() -> Status {
      CUZK_ASSIGN_OR_RETURN(labels[layer - 1],
                            steps.synthesize_label(cs, 0, layer, prelude, columns));
      return {};
    }));
  }
  CUZK_RETURN_IF_ERROR(
      part([&] { return steps.synthesize_tail(cs, 0, prelude, data_leaf, labels); }));
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

// Runs task(0..n) on every thread of |pool|, each thread claiming the next task (one at a time,
// in index order, so the largest tasks should come first); the first failed task's status in
// index order.
template <class F>
Status run_tasks(ThreadPool& pool, std::size_t n, F&& task) {
  std::vector<Status> status(n);
  std::atomic<std::size_t> next{0};
  pool.parallel_for(std::min(pool.size(), n), [&](std::size_t) {
    for (std::size_t t; (t = next.fetch_add(1, std::memory_order_relaxed)) < n;)
      status[t] = task(t);
  });
  for (Status& st : status)
    if (!st.ok()) return st;
  return {};
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

namespace {

// The partition's synthesis, the challenges' parts in parallel, each part writing its values into
// the slice |out| hands it: out.slice(a0, na, i0, ni) returns a slice whose .aux and .inputs
// (na and ni values) take the part's aux variables a0.. and inputs i0..; out.done(a0, i0, slice)
// takes it back once the part has filled it.
template <class Out>
Status synthesize_partition(const PorepCircuitShape& shape, const PorepCircuitPublic& pub,
                            const PorepCircuitPrivate& priv, ThreadPool& pool,
                            const WitnessOptions& opt, const PorepWitnessLayout& l, Out& out) {
  CUZK_ASSIGN_OR_RETURN(detail::PorepSteps steps, detail::PorepSteps::make(shape, &pub, &priv));
  auto run_slice = [&](std::uint64_t a0, std::uint64_t na, std::uint64_t i0, std::uint64_t ni,
                       auto&& synthesize, auto&& context) -> Status {
    auto slice = out.slice(a0, na, i0, ni);
    WitnessSliceConstraintSystem cs(slice.aux, static_cast<std::uint32_t>(a0), slice.inputs,
                                    static_cast<std::uint32_t>(i0), opt.fast_paths);
    CUZK_RETURN_IF_ERROR(synthesize(cs));
    CUZK_RETURN_IF_ERROR(cs.finish_slice().with_context(context()));
    out.done(a0, i0, std::move(slice));
    return {};
  };
  detail::PorepPrelude prelude;
  CUZK_RETURN_IF_ERROR(run_slice(
      0, l.prelude_aux, 1, l.prelude_inputs - 1,
      [&](ConstraintSystem& cs) -> Status {
        CUZK_ASSIGN_OR_RETURN(prelude, steps.synthesize_prelude(cs));
        return {};
      },
      [] { return std::string("PoRep witness prelude"); }));

  // Part k of challenge i on a system writing into its slice.
  const std::size_t parts = l.parts.size();
  std::vector<PorepWitnessLayout::Part> start(parts);  // offsets within a challenge
  for (std::size_t k = 1; k < parts; ++k)
    start[k] = {start[k - 1].inputs + l.parts[k - 1].inputs, start[k - 1].aux + l.parts[k - 1].aux};
  auto run_part = [&](std::size_t i, std::size_t k, auto&& synthesize) -> Status {
    const std::uint64_t a0 = l.prelude_aux + i * l.challenge_aux + start[k].aux;
    const std::uint64_t i0 = l.prelude_inputs + i * l.challenge_inputs + start[k].inputs;
    return run_slice(a0, l.parts[k].aux, i0, l.parts[k].inputs, synthesize, [&] {
      return "challenge " + std::to_string(i) + ", part " + std::to_string(k);
    });
  };

  const unsigned n = steps.challenges(), layers = shape.layers;
  std::vector<detail::PorepColumns> columns(n);
  std::vector<AllocatedNum> leaves(n);
  std::vector<std::vector<AllocatedNum>> labels(n, std::vector<AllocatedNum>(layers));
  // The columns parts first: the labels read their rows and the challenge.
  CUZK_RETURN_IF_ERROR(run_tasks(pool, n, [&](std::size_t i) {
    return run_part(i, 1, [&](ConstraintSystem& cs) -> Status {
      CUZK_ASSIGN_OR_RETURN(columns[i],
                            steps.synthesize_columns(cs, static_cast<unsigned>(i), prelude));
      return {};
    });
  }));
  // Every tree_d part (the largest tasks first), then every label.
  CUZK_RETURN_IF_ERROR(run_tasks(pool, n + std::size_t{n} * layers, [&](std::size_t t) {
    if (t < n) {
      return run_part(t, 0, [&](ConstraintSystem& cs) -> Status {
        CUZK_ASSIGN_OR_RETURN(leaves[t],
                              steps.synthesize_tree_d(cs, static_cast<unsigned>(t), prelude));
        return {};
      });
    }
    const std::size_t i = (t - n) / layers;
    const unsigned layer = static_cast<unsigned>((t - n) % layers) + 1;
    return run_part(i, 1 + layer, [&](ConstraintSystem& cs) -> Status {
      CUZK_ASSIGN_OR_RETURN(
          labels[i][layer - 1],
          steps.synthesize_label(cs, static_cast<unsigned>(i), layer, prelude, columns[i]));
      return {};
    });
  }));
  // The tails: the encoded node and the challenged column.
  return run_tasks(pool, n, [&](std::size_t i) {
    return run_part(i, parts - 1, [&](ConstraintSystem& cs) {
      return steps.synthesize_tail(cs, static_cast<unsigned>(i), prelude, leaves[i], labels[i]);
    });
  });
}

// Slices of one z.
struct IntoZ {
  struct Slice {
    std::span<Fr> aux, inputs;
  };
  std::span<Fr> aux, inputs;
  Slice slice(std::uint64_t a0, std::uint64_t na, std::uint64_t i0, std::uint64_t ni) {
    return {aux.subspan(a0, na), inputs.subspan(i0, ni)};
  }
  void done(std::uint64_t, std::uint64_t, Slice&&) {}
};

// Slices in scratch buffers (one per concurrent part, reused, freed with this object), each
// converted into a fragment of the compact witness once its part is done.
class IntoCompact {
 public:
  struct Slice {
    std::unique_ptr<std::vector<Fr>> buffer;
    std::span<Fr> aux, inputs;
  };
  IntoCompact(CompactWitnessBuilder& b, std::uint64_t num_inputs)
      : b_(b), num_inputs_(num_inputs) {}
  Slice slice(std::uint64_t, std::uint64_t na, std::uint64_t, std::uint64_t ni) {
    Slice s;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!free_.empty()) {
        s.buffer = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!s.buffer) s.buffer = std::make_unique<std::vector<Fr>>();
    if (s.buffer->capacity() < na + ni) {  // exactly the slice: resize alone could double
      std::vector<Fr>().swap(*s.buffer);
      s.buffer->reserve(na + ni);
    }
    s.buffer->resize(na + ni);  // capacity kept from part to part: no page faults after the first
    const std::span<Fr> all(*s.buffer);
    s.aux = all.first(na);
    s.inputs = all.subspan(na, ni);
    return s;
  }
  void done(std::uint64_t a0, std::uint64_t i0, Slice&& s) {
    b_.add(num_inputs_ + a0, s.aux);
    b_.add(i0, s.inputs);
    std::lock_guard<std::mutex> lock(mu_);
    free_.push_back(std::move(s.buffer));
  }

 private:
  CompactWitnessBuilder& b_;
  std::uint64_t num_inputs_;
  std::mutex mu_;
  std::vector<std::unique_ptr<std::vector<Fr>>> free_;
};

}  // namespace

Result<std::vector<Fr>> porep_partition_witness(const PorepCircuitShape& shape,
                                                const PorepCircuitPublic& pub,
                                                const PorepCircuitPrivate& priv, ThreadPool& pool,
                                                const WitnessOptions& opt,
                                                std::vector<Fr>&& storage) {
  CUZK_ASSIGN_OR_RETURN(PorepWitnessLayout l, porep_witness_layout(shape));
  std::vector<Fr> z = std::move(storage);
  z.resize(l.num_inputs + l.num_aux);  // a reused buffer of this size is not touched again
  z[0] = Fr::one();
  IntoZ out{std::span<Fr>(z).subspan(l.num_inputs), std::span<Fr>(z).first(l.num_inputs)};
  CUZK_RETURN_IF_ERROR(synthesize_partition(shape, pub, priv, pool, opt, l, out));
  return z;
}

Result<CompactWitness> porep_partition_compact_witness(const PorepCircuitShape& shape,
                                                       const PorepCircuitPublic& pub,
                                                       const PorepCircuitPrivate& priv,
                                                       ThreadPool& pool,
                                                       const WitnessOptions& opt) {
  CUZK_ASSIGN_OR_RETURN(PorepWitnessLayout l, porep_witness_layout(shape));
  CompactWitnessBuilder builder(l.num_inputs, l.num_aux);
  const Fr one = Fr::one();
  builder.add(0, std::span<const Fr>(&one, 1));
  {
    IntoCompact out(builder, l.num_inputs);
    CUZK_RETURN_IF_ERROR(synthesize_partition(shape, pub, priv, pool, opt, l, out));
  }  // the scratch buffers go before the fragments are joined
  return builder.finish();
}

namespace {

// The largest slice the synthesis writes: the prelude's (ONE aside) or a challenge part's.
std::uint64_t largest_slice(const PorepWitnessLayout& l) {
  std::uint64_t largest = l.prelude_aux + l.prelude_inputs - 1;
  for (const PorepWitnessLayout::Part& p : l.parts) largest = std::max(largest, p.aux + p.inputs);
  return largest;
}

}  // namespace

std::uint64_t porep_compact_witness_scratch_bytes(const PorepWitnessLayout& l,
                                                  std::size_t threads) {
  // Per thread: the buffer and the vector holding it (two allocations); the free list's array.
  constexpr std::uint64_t slack = CompactWitnessBound::kAllocationSlack;
  const std::uint64_t t = std::max<std::size_t>(threads, 1);
  return t * (sizeof(Fr) * largest_slice(l) + 2 * slack) + slack;
}

std::uint64_t porep_compact_witness_peak_bytes(const PorepWitnessLayout& l,
                                               const CompactWitnessBound& b, std::size_t threads) {
  const std::uint64_t t = std::max<std::size_t>(threads, 1);
  const std::uint64_t synthesis = porep_compact_witness_scratch_bytes(l, t) +
                                  t * CompactWitnessBound::add_bytes(largest_slice(l));
  // Both, although finish() runs once the scratch is freed: the smaller of the two is the room for
  // the synthesis's own objects (see the header).
  return b.fragment_bytes(porep_compact_witness_fragments(l)) + synthesis + b.finish_bytes();
}

std::uint64_t porep_compact_witness_fragments(const PorepWitnessLayout& l) {
  const std::uint64_t challenges =
      l.challenge_aux + l.challenge_inputs == 0
          ? 0
          : (l.num_aux - l.prelude_aux + l.num_inputs - l.prelude_inputs) /
                (l.challenge_aux + l.challenge_inputs);
  return 1 + 2 * (1 + challenges * l.parts.size());
}

}  // namespace cuzk::circuits::filecoin
