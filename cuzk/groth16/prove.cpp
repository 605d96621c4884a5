#include "cuzk/groth16/prove.hpp"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/base/clock.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/poly/domain.hpp"

namespace cuzk {

namespace {

using Clock = std::chrono::steady_clock;

Status size_error(const char* query, std::size_t have, std::size_t want) {
  return Status(Errc::size_mismatch, std::string("proving key query ") + query + " has " +
                                         std::to_string(have) + " points, the circuit needs " +
                                         std::to_string(want));
}

bool is_power_of_two(std::uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace

Result<std::unique_ptr<ResidentKey>> ResidentKey::load(Backend& backend, const ProvingKey& pk,
                                                       const StreamedQueries& streamed) {
  std::unique_ptr<ResidentKey> k(new ResidentKey());
  k->backend_ = &backend;
  k->pk_ = &pk;
  // Tables are shared with the key's storage where the backend can use them in place (the CPU).
  auto g1 = [&](const PointArray<G1Affine>& v, bool stream, BasesId& id) -> Status {
    auto r = stream ? backend.load_bases_g1_streamed(v.span())
                    : backend.load_bases_g1_shared(v.span(), v.owner());
    if (!r.ok()) return r.status();
    id = *r;
    return {};
  };
  CUZK_RETURN_IF_ERROR(g1(pk.h, streamed.h, k->h));
  CUZK_RETURN_IF_ERROR(g1(pk.l, streamed.l, k->l));
  CUZK_RETURN_IF_ERROR(g1(pk.a, streamed.a, k->a));
  CUZK_RETURN_IF_ERROR(g1(pk.b_g1, streamed.b_g1, k->b_g1));
  auto r2 = streamed.b_g2 ? backend.load_bases_g2_streamed(pk.b_g2.span())
                          : backend.load_bases_g2_shared(pk.b_g2.span(), pk.b_g2.owner());
  if (!r2.ok()) return r2.status();
  k->b_g2 = *r2;
  k->counts_ = pk.query_counts();
  if (pk.layout == KeyLayout::snarkjs &&
      (!is_power_of_two(pk.domain_size) || pk.domain_size > (std::uint64_t{1} << 31)))
    return Status(Errc::invalid_argument, "domain size " + std::to_string(pk.domain_size) +
                                              " is not a power of two ≤ 2^31");
  return k;
}

Result<std::unique_ptr<ResidentKey>> ResidentKey::load_encoded(Backend& backend,
                                                               const ProvingKey& pk,
                                                               const EncodedQueries& q,
                                                               const StreamedQueries& streamed) {
  if (pk.layout != KeyLayout::bellperson)
    return Status(Errc::invalid_argument, "encoded queries are bellperson .params sections");
  std::unique_ptr<ResidentKey> k(new ResidentKey());
  k->backend_ = &backend;
  k->pk_ = &pk;
  auto put = [&](const EncodedBases& e, bool g2, bool stream, const char* name, BasesId& id,
                 std::uint64_t& count) -> Status {
    auto r =
        g2 ? (stream ? backend.load_bases_g2_encoded_streamed(e) : backend.load_bases_g2_encoded(e))
           : (stream ? backend.load_bases_g1_encoded_streamed(e)
                     : backend.load_bases_g1_encoded(e));
    if (!r.ok()) return r.status().with_context(std::string("params section ") + name);
    id = *r;
    count = e.bytes.size() / (g2 ? kG2UncompressedBytes : kG1UncompressedBytes);
    return {};
  };
  const StreamedQueries& s = streamed;
  CUZK_RETURN_IF_ERROR(put(q.h, false, s.h, "h", k->h, k->counts_.h));
  CUZK_RETURN_IF_ERROR(put(q.l, false, s.l, "l", k->l, k->counts_.l));
  CUZK_RETURN_IF_ERROR(put(q.a, false, s.a, "a", k->a, k->counts_.a));
  CUZK_RETURN_IF_ERROR(put(q.b_g1, false, s.b_g1, "b_g1", k->b_g1, k->counts_.b_g1));
  CUZK_RETURN_IF_ERROR(put(q.b_g2, true, s.b_g2, "b_g2", k->b_g2, k->counts_.b_g2));
  return k;
}

Status ResidentKey::load_circuit(std::shared_ptr<const CompactR1cs> circuit) {
  if (circuit_.value != 0)
    return Status(Errc::invalid_argument, "the key's circuit is loaded already");
  auto id = backend_->load_circuit(std::move(circuit));
  if (!id.ok()) return id.status();
  circuit_ = *id;
  return {};
}

ResidentKey::~ResidentKey() {
  if (backend_ == nullptr) return;
  if (circuit_.value != 0) (void)backend_->release_circuit(circuit_);
  for (BasesId id : {h, l, a, b_g1, b_g2})
    if (id.value != 0) (void)backend_->release_bases(id);
}

Status check_key_matches(const ProvingKey& pk, const R1csDims& m) {
  return check_key_matches(pk, pk.query_counts(), m);
}

bool domain_fits(std::uint64_t domain, std::uint64_t constraints) {
  return is_power_of_two(domain) && domain >= constraints &&
         (domain / 2 < constraints || domain <= 2);
}

Status check_key_matches(const ProvingKey& pk, const QueryCounts& c, const R1csDims& m) {
  const std::uint64_t n = pk.domain_size;
  if (!is_power_of_two(n) || n < m.num_constraints)
    return Status(Errc::size_mismatch, "proving key domain size " + std::to_string(n) +
                                           " does not hold the circuit's " +
                                           std::to_string(m.num_constraints) + " constraints");
  if (!domain_fits(n, m.num_constraints))
    return Status(Errc::size_mismatch, "proving key domain size " + std::to_string(n) +
                                           " is larger than the " +
                                           std::to_string(m.num_constraints) + " constraints need");
  if (pk.vk.ic.size() != m.num_inputs) return size_error("ic", pk.vk.ic.size(), m.num_inputs);
  if (c.l != m.num_aux) return size_error("l", c.l, m.num_aux);
  if (pk.layout == KeyLayout::snarkjs) {
    if (c.h != n) return size_error("h", c.h, n);
    if (c.a != m.num_columns()) return size_error("a", c.a, m.num_columns());
    if (c.b_g1 != m.num_columns()) return size_error("b_g1", c.b_g1, m.num_columns());
    if (c.b_g2 != m.num_columns()) return size_error("b_g2", c.b_g2, m.num_columns());
  } else {
    if (c.h != n - 1) return size_error("h", c.h, n - 1);
    const std::size_t na = m.a_query_points();
    const std::size_t nb = m.b_query_points();
    if (c.a != na) return size_error("a", c.a, na);
    if (c.b_g1 != nb) return size_error("b_g1", c.b_g1, nb);
    if (c.b_g2 != nb) return size_error("b_g2", c.b_g2, nb);
  }
  return {};
}

Result<Proof> prove(ThreadPool& pool, const ResidentKey& key, const R1csMatrices& m,
                    std::span<const Fr> z, const ProveOptions& opt) {
  const auto t0 = Clock::now();
  if (z.size() != m.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z.size()) +
                                           " values, the circuit has " +
                                           std::to_string(m.num_columns()) + " variables");
  auto abc = pce_evaluate(pool, m, z);
  if (!abc.ok()) return abc.status();
  const double t_abc = seconds_since(t0);
  auto p = prove_with_abc(pool, key, m, std::move(*abc), z, opt);
  if (p.ok() && opt.timings != nullptr) {
    opt.timings->abc = t_abc;
    opt.timings->total = seconds_since(t0);
  }
  return p;
}

Result<Proof> prove_with_abc(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                             AbcVectors abc, std::span<const Fr> z, const ProveOptions& opt) {
  CUZK_RETURN_IF_ERROR(check_key_matches(key.key(), key.counts(), m));
  if (z.size() != m.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(z.size()) +
                                           " values, the circuit has " +
                                           std::to_string(m.num_columns()) + " variables");
  if (abc.a.size() != m.num_constraints || abc.b.size() != m.num_constraints ||
      abc.c.size() != m.num_constraints)
    return Status(Errc::size_mismatch, "a/b/c lengths disagree with the constraint count");
  const std::size_t n = key.key().domain_size;
  if (n >= m.num_constraints) {
    abc.a.resize(n, Fr::zero());
    abc.b.resize(n, Fr::zero());
    abc.c.resize(n, Fr::zero());
  }
  auto proof = prove_with_abc_spans(pool, key, m, abc.a, abc.b, abc.c, z, opt);
  if (opt.used_abc != nullptr) *opt.used_abc = std::move(abc);
  return proof;
}

namespace {

// The key's query tables, densities and H convention: what a partition call reads besides the
// witness (CompactPartitionInputs without the witness, circuit and domain).
CompactPartitionInputs key_terms(const ResidentKey& key, const R1csDims& m) {
  const bool snarkjs = key.key().layout == KeyLayout::snarkjs;
  CompactPartitionInputs t{.domain_size = key.key().domain_size,
                           .convention = snarkjs ? HConvention::snarkjs : HConvention::bellperson,
                           .a = key.a,
                           .b_g1 = key.b_g1,
                           .b_g2 = key.b_g2,
                           .l = key.l,
                           .h = key.h};
  if (!snarkjs) {
    t.a_aux = {.bits = m.a_aux_density->words, .base_offset = m.num_inputs};
    t.b_input = {.bits = m.b_input_density->words, .base_offset = 0};
    t.b_aux = {.bits = m.b_aux_density->words, .base_offset = m.b_input_density->count()};
  }
  return t;
}

// What prove_with_abc_spans and prove_compact share around their one backend call |run|
// (key terms, stage times → sums): the key's checks, r and s, the call, the assembly
//   A = α + A_q + r·δ₁, B = β₂ + B2_q + s·δ₂, B₁ = β₁ + B1_q + s·δ₁,
//   C = H + L + s·A + r·B₁ − r·s·δ₁,
// and the timings. |check| runs after the key's checks (the witness's own).
template <class Check, class Run>
Result<Proof> prove_one_partition(const ResidentKey& key, const R1csDims& m,
                                  const ProveOptions& opt, Check check, Run run) {
  auto t0 = Clock::now();
  const auto start = t0;
  const ProvingKey& pk = key.key();
  CUZK_RETURN_IF_ERROR(check_key_matches(pk, key.counts(), m));
  CUZK_RETURN_IF_ERROR(check());
  if (pk.vk.delta_g1.is_identity() || pk.vk.delta_g2.is_identity())
    return Status(Errc::invalid_argument, "proving key delta is the identity");
  ProveTimings tm;

  // r, s.
  OsRng os;
  Rng& rng = opt.rng != nullptr ? *opt.rng : os;
  const Fr r = opt.r ? *opt.r : random_fr(rng);
  const Fr s = opt.s ? *opt.s : random_fr(rng);

  // H and the MSMs (and, for a compact witness, a, b, c): one backend call.
  PartitionTimings pt;
  Result<PartitionSums> sums = run(key_terms(key, m), pt);
  if (!sums.ok()) return sums.status();
  tm.partition = seconds_since(t0);
  tm.h = pt.h, tm.msm_a = pt.msm_a, tm.msm_b1 = pt.msm_b1, tm.msm_b2 = pt.msm_b2,
  tm.msm_l = pt.msm_l;
  tm.msm_h = pt.msm_h, tm.upload = pt.upload, tm.upload_bytes = pt.upload_bytes;
  t0 = Clock::now();
  const G1Jacobian &a_q = sums->a, &b1_q = sums->b_g1, &l_q = sums->l, &h_q = sums->h;
  const G2Jacobian& b2_q = sums->b_g2;

  // Assembly.
  const VerifyingKey& vk = pk.vk;
  G1Jacobian a = a_q + G1Jacobian::from_affine(vk.alpha_g1) + mul_vartime(vk.delta_g1, r);
  G2Jacobian b = b2_q + G2Jacobian::from_affine(vk.beta_g2) + mul_vartime(vk.delta_g2, s);
  G1Jacobian b1 = b1_q + G1Jacobian::from_affine(vk.beta_g1) + mul_vartime(vk.delta_g1, s);
  G1Jacobian c =
      h_q + l_q + mul_vartime(a, s) + mul_vartime(b1, r) - mul_vartime(vk.delta_g1, r * s);
  Proof proof{a.to_affine(), b.to_affine(), c.to_affine()};
  tm.assemble = seconds_since(t0);
  if (opt.timings != nullptr) {
    // prove() times a, b, c itself; prove_compact's come from the backend.
    const double abc_t = pt.abc > 0 ? pt.abc : opt.timings->abc;
    *opt.timings = tm;
    opt.timings->abc = abc_t;
    opt.timings->total = seconds_since(start);
  }
  return proof;
}

Status check_witness_size(std::size_t values, const R1csDims& m) {
  if (values != m.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(values) +
                                           " values, the circuit has " +
                                           std::to_string(m.num_columns()) + " variables");
  return {};
}

}  // namespace

Result<Proof> prove_with_abc_spans(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                                   std::span<Fr> abc_a, std::span<Fr> abc_b, std::span<Fr> abc_c,
                                   std::span<const Fr> z, const ProveOptions& opt) {
  (void)pool;
  Backend& be = key.backend();
  const std::size_t n = key.key().domain_size;
  auto check = [&]() -> Status {
    CUZK_RETURN_IF_ERROR(check_witness_size(z.size(), m));
    if (abc_a.size() != n || abc_b.size() != n || abc_c.size() != n || n < m.num_constraints)
      return Status(Errc::size_mismatch, "a/b/c lengths disagree with the constraint count");
    return {};
  };
  auto run = [&](const CompactPartitionInputs& t, PartitionTimings& pt) {
    const PartitionInputs in{
        .abc = {.a = abc_a, .b = abc_b, .c = abc_c, .convention = t.convention},
        .z = z,
        .num_inputs = m.num_inputs,
        .a = t.a,
        .b_g1 = t.b_g1,
        .b_g2 = t.b_g2,
        .l = t.l,
        .h = t.h,
        .a_aux = t.a_aux,
        .b_input = t.b_input,
        .b_aux = t.b_aux};
    return opt.stepwise ? be.prove_partition_steps(in, &pt) : be.prove_partition(in, &pt);
  };
  return prove_one_partition(key, m, opt, check, run);
}

Result<Proof> prove_compact(ThreadPool& pool, const ResidentKey& key, const R1csDims& m,
                            CircuitId circuit, const CompactWitness& witness,
                            const ProveOptions& opt) {
  auto check = [&]() -> Status {
    CUZK_RETURN_IF_ERROR(check_witness_size(witness.num_variables(), m));
    if (witness.num_inputs != m.num_inputs)
      return Status(Errc::size_mismatch,
                    "compact witness has " + std::to_string(witness.num_inputs) +
                        " inputs, the circuit has " + std::to_string(m.num_inputs));
    return {};
  };
  auto run = [&](CompactPartitionInputs t, PartitionTimings& pt) {
    t.witness = &witness;
    t.circuit = circuit;
    t.host_pool = &pool;
    t.host_vectors = opt.host_vectors;
    return key.backend().prove_partition_compact(t, &pt);
  };
  return prove_one_partition(key, m, opt, check, run);
}

Result<Proof> prove(Backend& backend, ThreadPool& pool, const ProvingKey& pk, const R1csMatrices& m,
                    std::span<const Fr> z, const ProveOptions& opt) {
  auto key = ResidentKey::load(backend, pk);
  if (!key.ok()) return key.status();
  return prove(pool, **key, m, z, opt);
}

}  // namespace cuzk
