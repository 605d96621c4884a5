#include "cuzk/circuits/filecoin/parts_witness.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "cuzk/r1cs/witness_slice_cs.hpp"

namespace cuzk::circuits::filecoin {
namespace {

// Counts variables and asks for no value (wants_constraints() false: no LC is built).
class CountingSystem final : public ConstraintSystem {
 public:
  CountingSystem() { skip_constraints_ = true; }
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

// Synthesizes one slice into |buffer| (resized to exactly the slice, its capacity kept) and hands
// its inputs and aux to |b|.
Status run_slice(std::vector<Fr>& buffer, std::uint64_t a0, std::uint64_t na, std::uint64_t i0,
                 std::uint64_t ni, std::uint64_t num_inputs, bool fast_paths,
                 CompactWitnessBuilder& b, FunctionRef<Status(ConstraintSystem&)> synthesize) {
  if (buffer.capacity() < na + ni) {  // exactly the slice: a growing resize could double
    std::vector<Fr>().swap(buffer);
    buffer.reserve(na + ni);
  }
  buffer.resize(na + ni);
  const std::span<Fr> all(buffer);
  WitnessSliceConstraintSystem cs(all.first(na), static_cast<std::uint32_t>(a0),
                                  all.subspan(na, ni), static_cast<std::uint32_t>(i0), fast_paths);
  CUZK_RETURN_IF_ERROR(synthesize(cs));
  CUZK_RETURN_IF_ERROR(cs.finish_slice());
  b.add(num_inputs + a0, all.first(na));
  b.add(i0, all.subspan(na, ni));
  return {};
}

}  // namespace

Result<PartsLayout> count_parts_layout(PrefixFn prefix, PartFn part, std::uint64_t parts) {
  CountingSystem cs;
  CUZK_RETURN_IF_ERROR(prefix(cs));
  PartsLayout l;
  l.prefix_inputs = cs.num_inputs();
  l.prefix_aux = cs.num_aux();
  l.parts = parts;
  if (parts > 0) {
    CUZK_RETURN_IF_ERROR(part(cs, 0));
    l.part_inputs = cs.num_inputs() - l.prefix_inputs;
    l.part_aux = cs.num_aux() - l.prefix_aux;
  }
  if (l.num_aux() >= (std::uint64_t{1} << 32))
    return Status(Errc::invalid_argument, "witness by parts: " + std::to_string(l.num_aux()) +
                                              " aux variables, more than 32-bit indexes hold");
  return l;
}

Result<CompactWitness> compact_witness_by_parts(const PartsLayout& l, ThreadPool& pool,
                                                PrefixFn prefix, PartFn part,
                                                const PartsOptions& opt) {
  if (l.prefix_inputs == 0)
    return Status(Errc::invalid_argument, "witness by parts: the prefix must count ONE");
  const std::uint64_t num_inputs = l.num_inputs();
  CompactWitnessBuilder builder(num_inputs, l.num_aux());
  const Fr one = Fr::one();
  builder.add(0, std::span<const Fr>(&one, 1));
  auto cancelled = [&] { return opt.cancel != nullptr && opt.cancel->load(); };
  auto cancel_status = [] { return Status(Errc::cancelled, "witness by parts: cancelled"); };
  {
    std::vector<Fr> scratch;  // freed before the parts start
    Status st = run_slice(scratch, 0, l.prefix_aux, 1, l.prefix_inputs - 1, num_inputs,
                          opt.fast_paths, builder, prefix);
    if (!st.ok()) return st.with_context("prefix");
  }
  const std::size_t n = l.parts;
  std::vector<Status> status(n);
  std::atomic<std::size_t> next{0};
  const std::size_t workers = std::min<std::size_t>(std::max<std::size_t>(pool.size(), 1), n);
  pool.parallel_for(workers, [&](std::size_t) {
    std::vector<Fr> scratch;  // this worker's, reused from part to part, freed when it ends
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      if (cancelled()) {
        status[i] = cancel_status();
        continue;
      }
      const std::uint64_t a0 = l.prefix_aux + i * l.part_aux;
      const std::uint64_t i0 = l.prefix_inputs + i * l.part_inputs;
      status[i] = run_slice(scratch, a0, l.part_aux, i0, l.part_inputs, num_inputs, opt.fast_paths,
                            builder, [&](ConstraintSystem& cs) { return part(cs, i); })
                      .with_context(std::string(opt.part_noun) + " " + std::to_string(i));
    }
  });
  for (const Status& st : status)
    if (!st.ok()) return st;
  if (cancelled()) return cancel_status();
  return builder.finish();
}

std::uint64_t parts_scratch_bytes(const PartsLayout& l, std::size_t threads) {
  // malloc's usable size over the bytes asked: at most a page (a mapped chunk's rounding).
  constexpr std::uint64_t slack = 4096;
  const std::uint64_t workers = std::min<std::uint64_t>(std::max<std::size_t>(threads, 1), l.parts);
  const std::uint64_t buffers = std::max(sizeof(Fr) * l.prefix_values() + slack,
                                         workers * (sizeof(Fr) * l.part_values() + slack));
  return buffers + l.parts * sizeof(Status) + slack;
}

std::uint64_t parts_fragments(const PartsLayout& l) { return 1 + 2 + 2 * l.parts; }

std::uint64_t parts_peak_bytes(const PartsLayout& l, const CompactWitnessBound& b,
                               std::size_t threads) {
  // The builder for F fragments (CompactWitnessBound::build_bytes): the result, the fragments'
  // bits (⌈n/64⌉ + F words), their runs and values at up to twice their 40 B per value, and each
  // fragment's header; beside it, each running add()'s classification of one slice (two mask
  // words per 64 values) and a page of slack for the result's arrays and the builder's list.
  constexpr std::uint64_t slack = 4096;
  const std::uint64_t f = parts_fragments(l);
  const std::uint64_t workers = std::min<std::uint64_t>(std::max<std::size_t>(threads, 1), l.parts);
  const std::uint64_t largest = std::max(l.prefix_values(), l.part_values());
  const std::uint64_t builder = b.witness_bytes() + 8 * ((b.variables + 63) / 64 + f) +
                                80 * b.others() + f * CompactWitnessBound::kFragmentBytes;
  const std::uint64_t adds =
      std::max<std::uint64_t>(workers, 1) * (16 * ((largest + 63) / 64) + slack);
  return parts_scratch_bytes(l, threads) + builder + adds + 5 * slack;
}

}  // namespace cuzk::circuits::filecoin
