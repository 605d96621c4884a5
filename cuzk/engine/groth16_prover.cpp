#include "cuzk/engine/groth16_prover.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <shared_mutex>
#include <sstream>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/backend_factory/make_backend.hpp"
#include "cuzk/base/pinned_host.hpp"
#include "cuzk/engine/bench_circuit_id.hpp"
#include "cuzk/engine/buffer_pool.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/key_image.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/bench_circuit.hpp"
#include "cuzk/r1cs/checksum.hpp"
#include "cuzk/r1cs/circom.hpp"
#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_cache.hpp"

namespace cuzk::engine {
namespace {

constexpr char kMagic[8] = {'c', 'u', 'z', 'k',
                            'f', 'a', 'k', 'e'};  // the bench client's input tag
constexpr std::uint32_t kNumPublic = 4;           // BenchCircuitParams default
constexpr std::uint32_t kMaxPartitions = 64;
constexpr int kKeyCacheVersion = 1;
constexpr std::size_t kMaxKeptInputs = 4096;  // partitions whose public inputs wait for verify

std::uint64_t splitmix(std::uint64_t s) {
  std::uint64_t z = s + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One row of one matrix evaluated over the known values; the (single) unknown column noted.
struct RowEval {
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  Fr acc = Fr::zero();
  std::uint64_t unknown = kNone;
  Fr ucoeff = Fr::zero();
  bool two_unknowns = false;
};

void eval_row(const SparseMatrix& s, std::size_t r, std::uint64_t& g, const std::vector<Fr>& z,
              const std::vector<std::uint8_t>& known, RowEval& out) {
  out = RowEval{};
  for (std::uint64_t e = s.row_ptr[r]; e < s.row_ptr[r + 1]; ++e) {
    const std::uint32_t w = s.col[e];
    const std::uint32_t c = SparseMatrix::column_of(w);
    const CoeffKind kind = SparseMatrix::kind_of(w);
    const Fr* coeff = kind == CoeffKind::general ? &s.coeffs[s.gen_idx[g++]] : nullptr;
    if (!known[c]) {
      if (out.unknown != RowEval::kNone && out.unknown != c) out.two_unknowns = true;
      out.unknown = c;
      out.ucoeff = kind == CoeffKind::plus_one    ? Fr::one()
                   : kind == CoeffKind::minus_one ? kFrMinusOne
                                                  : *coeff;
      continue;
    }
    switch (kind) {
      case CoeffKind::plus_one:
        out.acc += z[c];
        break;
      case CoeffKind::minus_one:
        out.acc -= z[c];
        break;
      default:
        if (!z[c].is_zero()) out.acc += *coeff * z[c];
        break;
    }
  }
}

class Groth16Key final : public ProvingKeyData {
 public:
  std::uint64_t size_bytes() const override { return bytes; }
  bool circom = false;
  int log_rows = 0;
  std::uint64_t bytes = 0;
  std::shared_ptr<const R1csMatrices> m;
  // The tables are owned or views of |image| (the SRS manager's mmap tier); they change only in
  // switch_tables, under |tier_mu| held exclusively, with no device stage on a host backend.
  ProvingKey pk;
  PreparedVerifyingKey pvk;
  std::shared_ptr<const KeyImage> image;
  mutable std::shared_mutex tier_mu;
  mutable bool mapped = false;  // under tier_mu
  // By device ordinal; destroyed before pk. Device copies come and go while the key is shared
  // (make_resident / release_resident), hence mutable under |resident_mu|.
  mutable std::mutex resident_mu;
  mutable std::map<int, std::unique_ptr<ResidentKey>> resident;
  ~Groth16Key() override { resident.clear(); }
};

// A partition's vectors come from the prover's FrBufferPool and go back to it: a, b, c when
// released after the device stage (if the stage handed them back), z when the partition ends.
// A bench partition first tries a pinned pool (base/pinned_host.hpp, reserved at start-up by a
// CUDA device context) for all four: then they live in pz/pa/pb/pc (w.z and abc stay empty) and
// the device copies them by DMA with no staging; when no pool has room it uses the buffer pool.
class Groth16Partition final : public SynthesizedPartition {
 public:
  explicit Groth16Partition(std::shared_ptr<FrBufferPool> buffers) : buffers_(std::move(buffers)) {}
  ~Groth16Partition() override {
    release_abc();
    buffers_->give(std::move(w.z));
  }
  void release_abc() override {
    buffers_->give(std::move(abc.a));
    buffers_->give(std::move(abc.b));
    buffers_->give(std::move(abc.c));
    abc = AbcVectors{};
    pa.reset();
    pb.reset();
    pc.reset();
  }
  /// z of |cols| and a, b, c of |rows| entries from the pinned pools: all four or none.
  bool take_pinned(std::size_t cols, std::size_t rows) {
    if (!PinnedHostPools::any()) return false;
    pz = PinnedArray<Fr>::take(cols);
    pa = PinnedArray<Fr>::take(rows);
    pb = PinnedArray<Fr>::take(rows);
    pc = PinnedArray<Fr>::take(rows);
    if (pz.empty() || pa.empty() || pb.empty() || pc.empty()) {
      pz.reset(), pa.reset(), pb.reset(), pc.reset();
      return false;
    }
    return true;
  }
  bool pinned() const { return !pz.empty(); }
  /// Pinned z, a, b, c are bytes of the pool the daemon took out of the budget at start-up. a/b/c
  /// count only while they are the whole domain (|rows| a power of two, as every bench circuit's):
  /// otherwise the device stage copies them into plain vectors the reservation must cover.
  PooledBytes pooled_bytes() const override {
    if (!pinned()) return {};
    const std::uint64_t abc = std::has_single_bit(pa.size()) ? 3 * sizeof(Fr) * pa.size() : 0;
    return {.abc = abc, .other = sizeof(Fr) * pz.size()};
  }
  std::span<const Fr> z() const {
    return pinned() ? std::span<const Fr>(pz.data(), pz.size()) : std::span<const Fr>(w.z);
  }
  bool has_abc() const { return pinned() ? !pa.empty() : !abc.a.empty(); }
  PinnedArray<Fr> pz, pa, pb, pc;
  /// a, b, c of |rows| entries in buffers of capacity |capacity| (≥ rows: the H step extends
  /// them to the domain in place).
  void take_abc(std::size_t rows, std::size_t capacity) {
    for (std::vector<Fr>* v : {&abc.a, &abc.b, &abc.c}) {
      *v = buffers_->take(capacity);
      v->resize(rows);
    }
  }
  BenchWitness w;
  AbcVectors abc;

 private:
  std::shared_ptr<FrBufferPool> buffers_;
};

std::string inputs_key(const std::string& circuit, std::uint64_t seed, std::uint32_t k) {
  return circuit + "/" + std::to_string(seed) + "/" + std::to_string(k);
}

// Fingerprint of a circuit's matrices (structure and coefficients), so a key cached for other
// matrices (a changed generator, a replaced matrix cache) is never paired with these.
std::uint64_t matrices_fingerprint(const R1csMatrices& m) {
  std::uint64_t h = checksum64(&m.num_inputs, sizeof m.num_inputs, m.num_aux);
  for (const SparseMatrix* s : {&m.a, &m.b, &m.c}) {
    h = checksum64(s->row_ptr.data(), s->row_ptr.size() * sizeof(std::uint64_t), h);
    h = checksum64(s->col.data(), s->col.size() * sizeof(std::uint32_t), h);
    h = checksum64(s->gen_idx.data(), s->gen_idx.size() * sizeof(std::uint32_t), h);
    h = checksum64(s->coeffs.data(), s->coeffs.size() * sizeof(Fr), h);
  }
  return h;
}

std::string sum_line(int log_rows, const Groth16ProverOptions& o, std::uint64_t circuit,
                     std::uint64_t size, std::uint64_t hash) {
  std::ostringstream s;
  s << "cuzk-bench-key v" << kKeyCacheVersion << " K=" << log_rows
    << " structure_seed=" << o.structure_seed << " key_seed=" << o.key_seed
    << " circuit=" << std::hex << circuit << " bytes=" << std::dec << size << " hash=" << std::hex
    << hash << "\n";
  return s.str();
}

Status write_file_atomic(const std::string& path, std::span<const std::uint8_t> bytes) {
  const std::string tmp = path + ".tmp";
  CUZK_RETURN_IF_ERROR(write_whole_file(tmp, bytes));
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status(Errc::io_error, "rename " + tmp + ": " + ec.message());
  return {};
}

// A circom job's witness: the .wtns bytes of the request, checked against the circuit.
Result<BenchWitness> circom_witness(const JobRequest& req, const R1csMatrices& m) {
  auto w = parse_snarkjs_wtns(std::span(
      reinterpret_cast<const std::uint8_t*>(req.vanilla_proof.data()), req.vanilla_proof.size()));
  if (!w) return w.status().with_context("witness (.wtns in vanilla_proof)");
  if (w->size() != m.num_columns())
    return Status(Errc::size_mismatch, "witness has " + std::to_string(w->size()) +
                                           " values, circuit '" + req.circuit_id + "' has " +
                                           std::to_string(m.num_columns()) + " signals");
  if (!fr_is_one((*w)[0]))
    return Status(Errc::bad_encoding, "witness value 0 (the constant ONE) is not 1");
  BenchWitness out;
  out.z = std::move(*w);
  out.public_inputs.assign(out.z.begin() + 1,
                           out.z.begin() + static_cast<std::ptrdiff_t>(m.num_inputs));
  return out;
}

}  // namespace

Result<BenchWitness> solve_bench_witness(const R1csMatrices& m, std::uint64_t seed,
                                         const CancelFlag* cancel, std::vector<Fr> storage) {
  const std::uint64_t cols = m.num_columns();
  BenchWitness out;
  out.z = std::move(storage);
  out.z.assign(cols, Fr::zero());
  std::vector<std::uint8_t> known(cols, 0);
  if (cols == 0 || m.num_inputs == 0)
    return Status(Errc::invalid_argument, "circuit without the ONE variable");
  out.z[0] = Fr::one();
  known[0] = 1;
  std::uint64_t ga = 0, gb = 0, gc = 0;
  RowEval a, b, c;
  for (std::size_t r = 0; r < m.num_constraints; ++r) {
    if (cancel && (r & 0xffff) == 0 && cancel->load(std::memory_order_relaxed))
      return Status(Errc::cancelled, "witness cancelled");
    eval_row(m.a, r, ga, out.z, known, a);
    eval_row(m.b, r, gb, out.z, known, b);
    eval_row(m.c, r, gc, out.z, known, c);
    std::uint64_t f = RowEval::kNone;
    bool bad = a.two_unknowns || b.two_unknowns || c.two_unknowns;
    for (const RowEval* e : {&a, &b, &c}) {
      if (e->unknown == RowEval::kNone) continue;
      if (f != RowEval::kNone && f != e->unknown) bad = true;
      f = e->unknown;
    }
    if (bad)
      return Status(Errc::unsatisfied, "row " + std::to_string(r) + " has two unknown variables");
    if (f != RowEval::kNone) {
      if (a.unknown == f || b.unknown == f) {
        // A boolean: the bit is free; the row's check below confirms the shape.
        const Fr bit =
            (splitmix(seed ^ (0xd1b54a32d192ed03ULL * (f + 1))) & 1) ? Fr::one() : Fr::zero();
        out.z[f] = bit;
        if (a.unknown == f) a.acc += a.ucoeff * bit;
        if (b.unknown == f) b.acc += b.ucoeff * bit;
        if (c.unknown == f) c.acc += c.ucoeff * bit;
      } else {
        // c_rest + coeff·z_f = a·b
        const Fr v = a.acc * b.acc - c.acc;
        if (fr_is_one(c.ucoeff))
          out.z[f] = v;
        else if (fr_is_minus_one(c.ucoeff))
          out.z[f] = -v;
        else
          out.z[f] = v * c.ucoeff.inverse_vartime();
        c.acc += c.ucoeff * out.z[f];
      }
      known[f] = 1;
    }
    if (!fr_eq(a.acc * b.acc, c.acc))
      return Status(Errc::unsatisfied, "row " + std::to_string(r) + " does not hold after solving");
  }
  for (std::uint64_t i = 0; i < cols; ++i)
    if (!known[i])
      return Status(Errc::unsatisfied,
                    "variable " + std::to_string(i) + " occurs in no row that fixes it");
  out.public_inputs.assign(out.z.begin() + 1,
                           out.z.begin() + static_cast<std::ptrdiff_t>(m.num_inputs));
  return out;
}

Result<std::uint64_t> bench_job_seed(const JobRequest& req) {
  const std::string& b = req.vanilla_proof;
  if (b.empty()) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : req.request_id) h = (h ^ ch) * 0x100000001b3ULL;
    return h;
  }
  if (b.size() != 16 || std::memcmp(b.data(), kMagic, 8) != 0)
    return Status(Errc::bad_encoding,
                  "bench input must be empty or \"cuzkfake\" ‖ u64 seed (16 bytes), got " +
                      std::to_string(b.size()) + " bytes");
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i)
    seed |= std::uint64_t(static_cast<unsigned char>(b[8 + i])) << (8 * i);
  return seed;
}

std::uint64_t bench_partition_seed(std::uint64_t job_seed, std::uint32_t k) {
  return splitmix(job_seed * 0x2545f4914f6cdd1dULL +
                  0x9e3779b97f4a7c15ULL * (std::uint64_t{k} + 1));
}

Groth16Prover::Groth16Prover(Groth16ProverOptions opt) : opt_(std::move(opt)) {}

Groth16Prover::~Groth16Prover() = default;

Result<std::unique_ptr<Groth16Prover>> Groth16Prover::create(Groth16ProverOptions opt) {
  if (opt.default_partitions == 0 || opt.default_partitions > kMaxPartitions)
    return Status(Errc::out_of_range, "default_partitions must be 1..64");
  if (opt.backends.empty()) return Status(Errc::invalid_argument, "groth16 prover: no backend");
  std::unique_ptr<Groth16Prover> p(new Groth16Prover(std::move(opt)));
  p->pool_ = std::make_unique<ThreadPool>(p->opt_.threads);
  std::string names;
  if (p->opt_.backends.size() == 1 && p->opt_.backends[0] == "auto") {
    p->opt_.backends.clear();
    for (int d = 0; cuda_backend_built() && d < 64; ++d) {
      auto be = p->new_backend("cuda:" + std::to_string(d));
      if (!be) break;
      p->backends_[d] = std::move(*be);
      names += (names.empty() ? "" : "+") + ("cuda:" + std::to_string(d));
    }
    if (p->backends_.empty()) p->opt_.backends = {"cpu"};
  }
  for (const auto& spec : p->opt_.backends) {
    auto be = p->new_backend(spec);
    if (!be) return be.status().with_context("backend '" + spec + "'");
    int ordinal = spec.rfind("cuda:", 0) == 0 ? std::stoi(spec.substr(5)) : 0;
    if (p->backends_.count(ordinal))
      return Status(Errc::invalid_argument, "two backends for device " + std::to_string(ordinal));
    p->backends_[ordinal] = std::move(*be);
    names += (names.empty() ? "" : "+") + spec;
  }
  p->name_ = "groth16-" + names;
  std::error_code ec;
  std::filesystem::create_directories(p->opt_.cache_dir, ec);
  if (ec)
    return Status(Errc::io_error, "cache directory " + p->opt_.cache_dir + ": " + ec.message());
  return p;
}

bool Groth16Prover::supports(const std::string& circuit_id) const {
  return opt_.circom.count(circuit_id) || parse_bench_log2(circuit_id).ok();
}

Result<std::shared_ptr<const Groth16Prover::CircomShape>> Groth16Prover::circom_shape(
    const std::string& id) {
  auto path = opt_.circom.find(id);
  if (path == opt_.circom.end()) return Status(Errc::not_found, "unknown circuit '" + id + "'");
  std::lock_guard build(build_mu_);
  if (auto it = circom_.find(id); it != circom_.end()) return it->second;
  ZkeyReadOptions ro;
  ro.check_subgroup = false;  // the shape only; load_key reads the points checked
  ro.pool = pool_.get();
  auto zk = read_zkey(path->second, ro);
  if (!zk) return zk.status().with_context("circuit '" + id + "' (" + path->second + ")");
  auto shape = std::make_shared<CircomShape>();
  shape->domain_size = zk->pk.domain_size;
  shape->n_vars = zk->n_vars;
  shape->n_public = zk->n_public;
  shape->m = std::make_shared<const R1csMatrices>(std::move(zk->matrices));
  // Once per circuit, like the matrices: every proof's SpMV then runs the compiled rows.
  shape->plan = std::make_shared<const PcePlan>(pce_plan(*shape->m));
  circom_[id] = shape;
  return std::shared_ptr<const CircomShape>(shape);
}

Result<std::shared_ptr<const PcePlan>> Groth16Prover::circom_plan(const std::string& id) {
  auto shape = circom_shape(id);
  if (!shape) return shape.status();
  return (*shape)->plan;
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load_circom_key(const std::string& id,
                                                                             bool mapped_only) {
  auto shape = circom_shape(id);
  if (!shape) return shape.status();
  auto bytes = key_bytes(id);
  if (!bytes) return bytes.status();
  auto key = std::make_shared<Groth16Key>();
  key->circom = true;
  key->bytes = *bytes;
  key->m = (*shape)->m;
  // The image is bound to the zkey file as it is now (path, size, mtime) and the image format.
  const std::string& zpath = opt_.circom.at(id);
  std::uint64_t tag = 0;
  {
    struct stat st {};
    if (::stat(zpath.c_str(), &st) != 0) return Status(Errc::not_found, zpath + ": cannot stat");
    const std::string s = "cuzk-circom-key v" + std::to_string(kKeyCacheVersion) + " " + zpath +
                          " " + std::to_string(st.st_size) + " " +
                          std::to_string(st.st_mtim.tv_sec) + "." +
                          std::to_string(st.st_mtim.tv_nsec);
    tag = checksum64(s.data(), s.size());
  }
  bool from_image = false;
  if (opt_.key_images) {
    auto img = KeyImage::open(image_path(id), tag, pool_.get());
    if (img.ok()) {
      key->pk = (*img)->key();
      key->image = *img;
      from_image = check_key_matches(key->pk, *key->m).ok() && key->pk.layout == KeyLayout::snarkjs;
      if (!from_image) key->image.reset();
    } else if (img.status().code() != Errc::not_found) {
      spdlog::warn("circuit '{}': {}; rebuilding the key image", id, img.status().to_string());
    }
  }
  if (!from_image && mapped_only)
    return Status(Errc::out_of_memory,
                  "circuit '" + id + "': no usable key image; the key needs room for a host copy");
  if (!from_image) {
    ZkeyReadOptions ro;
    ro.pool = pool_.get();
    auto zk = read_zkey(zpath, ro);
    if (!zk) return zk.status().with_context("circuit '" + id + "'");
    key->pk = std::move(zk->pk);
  }
  CUZK_RETURN_IF_ERROR(check_key_matches(key->pk, *key->m));
  attach_image(*key, id, tag, from_image, mapped_only);
  key->pvk = prepare_verifying_key(key->pk.vk);
  CUZK_RETURN_IF_ERROR(load_host_resident(*key, "'" + id + "'"));
  return std::shared_ptr<const ProvingKeyData>(std::move(key));
}

std::string Groth16Prover::image_path(const std::string& key_id) const {
  std::string name = key_id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  if (opt_.circom.count(key_id)) name = "circom-" + name;
  return (std::filesystem::path(opt_.cache_dir) / (name + ".kimg")).string();
}

void Groth16Prover::attach_image(ProvingKeyData& kd, const std::string& key_id, std::uint64_t tag,
                                 bool from_image, bool mapped_only) {
  auto& key = static_cast<Groth16Key&>(kd);
  if (!opt_.key_images) return;
  if (!from_image) {
    const std::string path = image_path(key_id);
    if (Status st = write_key_image(path, key.pk, tag, pool_.get()); !st.ok()) {
      spdlog::warn("{}: key image not written: {}", key_id, st.to_string());
      return;
    }
    auto img = KeyImage::open(path, tag, pool_.get());
    if (!img) {
      spdlog::warn("{}: key image written but not readable: {}", key_id, img.status().to_string());
      return;
    }
    key.image = *img;
  }
  // The tier the backends want: mapped when no host backend proves from the tables (a device
  // uploads from the mapping), owned otherwise.
  const bool want_mapped = mapped_only || !host_tables_used(key);
  if (want_mapped && !from_image) key.image->view_queries(key.pk);  // the decoded copy is freed
  if (want_mapped) key.image->release_pages();  // read by the checksum; a device reads it on upload
  if (!want_mapped && from_image) {
    key.pk.h = PointArray<G1Affine>::copy_of(key.pk.h.span(), pool_.get());
    key.pk.l = PointArray<G1Affine>::copy_of(key.pk.l.span(), pool_.get());
    key.pk.a = PointArray<G1Affine>::copy_of(key.pk.a.span(), pool_.get());
    key.pk.b_g1 = PointArray<G1Affine>::copy_of(key.pk.b_g1.span(), pool_.get());
    key.pk.b_g2 = PointArray<G2Affine>::copy_of(key.pk.b_g2.span(), pool_.get());
  }
  key.mapped = want_mapped;
}

std::string Groth16Prover::key_path(int log_rows) const {
  return (std::filesystem::path(opt_.cache_dir) / ("bench-" + std::to_string(log_rows) + ".params"))
      .string();
}

std::vector<DeviceInfo> Groth16Prover::devices() const {
  std::vector<DeviceInfo> out;
  for (const auto& [ord, be] : backends_)
    out.push_back(DeviceInfo{.ordinal = ord, .name = be->name()});
  return out;
}

Result<JobPlan> Groth16Prover::plan(const JobRequest& req) {
  if (opt_.circom.count(req.circuit_id)) {
    auto shape = circom_shape(req.circuit_id);
    if (!shape) return shape.status();
    auto w = circom_witness(req, *(*shape)->m);
    if (!w) return w.status();
    if (req.num_partitions > 1)
      return Status(Errc::out_of_range, "circom circuits take one partition per job");
    JobPlan p;
    p.key_id = req.circuit_id;
    p.partitions = 1;
    // a, b, c over the domain (the H step writes h over a: no vector of its own), and the witness.
    p.abc_bytes = 3 * sizeof(Fr) * (*shape)->domain_size;
    p.partition_bytes = p.abc_bytes + sizeof(Fr) * (*shape)->m->num_columns();
    return p;
  }
  auto k = parse_bench_log2(req.circuit_id);
  if (!k) return k.status();
  auto seed = bench_job_seed(req);
  if (!seed) return seed.status();
  JobPlan p;
  p.key_id = req.circuit_id;
  p.partitions = req.num_partitions ? req.num_partitions : opt_.default_partitions;
  if (p.partitions > kMaxPartitions)
    return Status(Errc::out_of_range,
                  "num_partitions must be 1..64, got " + std::to_string(p.partitions));
  // Rows n = 2^K (input constraints included); columns = n − num_public (each circuit row
  // allocates one variable, num_public of them inputs). Held per partition: witness z (32 B per
  // column), a/b/c (3 · 32 B per row) until the device stage ends (the H step writes its output
  // over a: no vector of its own). The one-pass solve (bench_solve.hpp) needs nothing else.
  const std::uint64_t n = std::uint64_t{1} << *k;
  const std::uint64_t cols = n - kNumPublic;
  p.abc_bytes = 3 * sizeof(Fr) * n;
  p.partition_bytes = p.abc_bytes + sizeof(Fr) * cols;
  return p;
}

Result<std::shared_ptr<const R1csMatrices>> Groth16Prover::matrices(int log_rows) {
  {
    std::lock_guard lock(mu_);
    if (auto it = matrices_.find(log_rows); it != matrices_.end()) return it->second;
  }
  std::lock_guard build(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = matrices_.find(log_rows); it != matrices_.end()) return it->second;
  }
  const std::string id = "bench-" + std::to_string(log_rows) +
                         " structure_seed=" + std::to_string(opt_.structure_seed) +
                         " num_public=" + std::to_string(kNumPublic);
  const std::string path =
      (std::filesystem::path(opt_.cache_dir) / ("bench-" + std::to_string(log_rows) + ".r1cs"))
          .string();
  auto r = load_or_build_r1cs(path, r1cs_topology_key(id), [&]() -> Result<R1csMatrices> {
    BenchCircuitParams bp;
    bp.log_rows = static_cast<unsigned>(log_rows);
    bp.seed = opt_.structure_seed;
    bp.num_public = kNumPublic;
    auto g = generate_bench_r1cs(bp, /*with_witness=*/false);
    if (!g) return g.status();
    return std::move(g->matrices);
  });
  if (!r) return r.status();
  if (!r->from_cache)
    spdlog::info("bench-{}: matrices built ({})", log_rows, r->load_error.to_string());
  if (!r->save_error.ok())
    spdlog::warn("bench-{}: matrix cache not written: {}", log_rows, r->save_error.to_string());
  auto m = std::make_shared<const R1csMatrices>(std::move(r->matrices));
  std::lock_guard lock(mu_);
  matrices_[log_rows] = m;
  return m;
}

Result<std::shared_ptr<const BenchSolvePlan>> Groth16Prover::solve_plan(int log_rows) {
  {
    std::lock_guard lock(mu_);
    if (auto it = solve_plans_.find(log_rows); it != solve_plans_.end()) return it->second;
  }
  auto m = matrices(log_rows);
  if (!m) return m.status();
  std::lock_guard build(build_mu_);
  {
    std::lock_guard lock(mu_);
    if (auto it = solve_plans_.find(log_rows); it != solve_plans_.end()) return it->second;
  }
  auto plan = bench_solve_plan(**m);
  if (!plan) return plan.status().with_context("bench-" + std::to_string(log_rows) + " solve plan");
  std::lock_guard lock(mu_);
  solve_plans_[log_rows] = *plan;
  return *plan;
}

Result<std::uint64_t> Groth16Prover::key_bytes(const std::string& key_id) {
  const std::uint64_t copies = 1;  // the CPU backend proves from the key's tables in place
  if (opt_.circom.count(key_id)) {
    auto shape = circom_shape(key_id);
    if (!shape) return shape.status();
    // snarkjs layout: h n points, l one per aux, a/b_g1/b_g2 one per variable.
    const auto& sh = **shape;
    const std::uint64_t g1 = sh.domain_size + (sh.n_vars - sh.n_public - 1) + 2 * sh.n_vars;
    return (sizeof(G1Affine) * g1 + sizeof(G2Affine) * sh.n_vars) * copies;
  }
  auto k = parse_bench_log2(key_id);
  if (!k) return k.status();
  auto m = matrices(*k);
  if (!m) return m.status();
  const R1csMatrices& mm = **m;
  // Exact point counts of the bellperson layout: h n − 1, l one per aux, a inputs + A-dense aux,
  // b B-dense inputs and aux (G1 and G2).
  const std::uint64_t n = std::uint64_t{1} << *k;
  const std::uint64_t b = mm.b_input_density.count() + mm.b_aux_density.count();
  const std::uint64_t g1 = (n - 1) + mm.num_aux + (mm.num_inputs + mm.a_aux_density.count()) + b;
  const std::uint64_t points = sizeof(G1Affine) * g1 + sizeof(G2Affine) * b;
  return points * copies + mm.memory_bytes();
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load_key(const std::string& key_id) {
  return load(key_id, false);
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load_key_mapped(
    const std::string& key_id) {
  return load(key_id, true);
}

std::optional<std::uint64_t> Groth16Prover::mapped_load_bytes(const std::string& key_id) {
  if (!opt_.key_images) return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::exists(image_path(key_id), ec)) return std::nullopt;
  if (opt_.circom.count(key_id)) return std::uint64_t{0};  // key_bytes counts the points only
  auto k = parse_bench_log2(key_id);
  if (!k) return std::nullopt;
  auto m = matrices(*k);
  if (!m) return std::nullopt;
  return (*m)->memory_bytes();  // what stays owned: the matrices (key_bytes' share of them)
}

Result<std::shared_ptr<const ProvingKeyData>> Groth16Prover::load(const std::string& key_id,
                                                                  bool mapped_only) {
  if (opt_.circom.count(key_id)) return load_circom_key(key_id, mapped_only);
  auto k = parse_bench_log2(key_id);
  if (!k) return k.status();
  auto m = matrices(*k);
  if (!m) return m.status();
  auto bytes = key_bytes(key_id);
  if (!bytes) return bytes.status();
  auto key = std::make_shared<Groth16Key>();
  key->log_rows = *k;
  key->bytes = *bytes;
  key->m = *m;
  const std::string path = key_path(*k);
  const std::string sum_path = path + ".sum";
  const std::uint64_t circuit = matrices_fingerprint(**m);

  // The key image first: bound to the cache's checksum line (the .params hash, the circuit and
  // the seeds) and the .params file's size and mtime, so a regenerated, replaced or damaged
  // cache makes it stale.
  auto image_tag = [&](const std::string& line) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::uint64_t{0};
    const std::string s = line + std::to_string(st.st_size) + " " +
                          std::to_string(st.st_mtim.tv_sec) + "." +
                          std::to_string(st.st_mtim.tv_nsec);
    return checksum64(s.data(), s.size(), kKeyCacheVersion);
  };
  auto try_image = [&]() -> Status {
    if (!opt_.key_images) return Status(Errc::not_found, "key images off");
    std::ifstream sf(sum_path);
    std::string line;
    if (!sf || !std::getline(sf, line))
      return Status(Errc::not_found, "no checksum file " + sum_path);
    auto img = KeyImage::open(image_path("bench-" + std::to_string(*k)), image_tag(line + "\n"),
                              pool_.get());
    if (!img) return img.status();
    ProvingKey pk = (*img)->key();
    if (pk.layout != KeyLayout::bellperson)
      return Status(Errc::bad_encoding, "key image with the snarkjs layout");
    CUZK_RETURN_IF_ERROR(check_key_matches(pk, **m));
    key->pk = std::move(pk);
    key->image = *img;
    return {};
  };
  std::uint64_t tag = 0;
  // The cache: sidecar line must match what this file's bytes hash to; then VK checked, queries
  // unchecked (our own hash-protected file), then the key must fit the circuit.
  auto try_cache = [&]() -> Status {
    if (!std::filesystem::exists(path)) return Status(Errc::not_found, "no cached key");
    std::ifstream sf(sum_path);
    std::string line;
    if (!sf || !std::getline(sf, line))
      return Status(Errc::not_found, "no checksum file " + sum_path);
    tag = image_tag(line + "\n");
    auto mf = MappedFile::open(path);
    if (!mf) return mf.status();
    auto span = mf->bytes();
    if (line + "\n" !=
        sum_line(*k, opt_, circuit, span.size(), checksum64(span.data(), span.size())))
      return Status(Errc::bad_encoding,
                    "cached key " + path + " does not match its checksum file (corrupt or stale)");
    ParamsReadOptions ro;
    ro.checked = false;
    ro.pool = pool_.get();
    auto pk = parse_params(span, ro);
    if (!pk) return pk.status().with_context(path);
    CUZK_RETURN_IF_ERROR(check_key_matches(*pk, **m));
    key->pk = std::move(*pk);
    return {};
  };
  bool from_image = false;
  {
    std::lock_guard build(build_mu_);  // one generation per key, never two writers of a file
    Status imaged = try_image();
    from_image = imaged.ok();
    if (!from_image && imaged.code() != Errc::not_found)
      spdlog::warn("bench-{}: {}; rebuilding the key image", *k, imaged.to_string());
    if (!from_image && mapped_only)
      return Status(Errc::out_of_memory,
                    "bench-" + std::to_string(*k) +
                        ": no usable key image; the key needs room for a host copy");
    Status cached = from_image ? Status() : try_cache();
    if (!cached.ok()) {
      if (cached.code() != Errc::not_found)
        spdlog::warn("bench-{}: {}; regenerating the key", *k, cached.to_string());
      spdlog::info("bench-{}: generating the proving key (benchmark setup, seeded; cached in {})",
                   *k, path);
      tag = 0;  // an image only of a key whose cache was written
      SeededRng rng(opt_.key_seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(*k)));
      SetupOptions so;
      so.pool = pool_.get();
      auto pk = setup(**m, rng, so);
      if (!pk) return pk.status().with_context("setup bench-" + std::to_string(*k));
      auto img = write_params(*pk, pool_.get());
      if (!img) return img.status();
      if (auto st = write_file_atomic(path, *img); !st.ok()) {
        spdlog::warn("bench-{}: key cache not written: {}", *k, st.to_string());
      } else {
        std::string line =
            sum_line(*k, opt_, circuit, img->size(), checksum64(img->data(), img->size()));
        auto st2 = write_file_atomic(
            sum_path, std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
        if (!st2.ok())
          spdlog::warn("bench-{}: key checksum not written: {}", *k, st2.to_string());
        else
          tag = image_tag(line);
      }
      key->pk = std::move(*pk);
      ++keys_generated_;
    }
    if (tag != 0 || from_image)
      attach_image(*key, "bench-" + std::to_string(*k), tag, from_image, mapped_only);
  }
  key->pvk = prepare_verifying_key(key->pk.vk);
  CUZK_RETURN_IF_ERROR(load_host_resident(*key, "bench-" + std::to_string(*k)));
  return std::shared_ptr<const ProvingKeyData>(std::move(key));
}

Result<std::unique_ptr<SynthesizedPartition>> Groth16Prover::synthesize(const JobRequest& req,
                                                                        const JobPlan& plan,
                                                                        std::uint32_t k,
                                                                        const CancelFlag& cancel) {
  if (opt_.circom.count(req.circuit_id)) {
    auto shape = circom_shape(req.circuit_id);
    if (!shape) return shape.status();
    auto part = std::make_unique<Groth16Partition>(buffers_);
    auto w = circom_witness(req, *(*shape)->m);
    if (!w) return w.status();
    part->w = std::move(*w);
    if (cancel.load()) return Status(Errc::cancelled, "synthesis cancelled");
    const R1csMatrices& cm = *(*shape)->m;
    part->take_abc(cm.num_constraints,
                   std::max<std::size_t>(cm.num_constraints, (*shape)->domain_size));
    PceOptions po;
    po.plan = (*shape)->plan.get();
    CUZK_RETURN_IF_ERROR(
        pce_evaluate_into(*pool_, cm, part->w.z, part->abc.a, part->abc.b, part->abc.c, po));
    return std::unique_ptr<SynthesizedPartition>(std::move(part));
  }
  auto lr = parse_bench_log2(req.circuit_id);
  if (!lr) return lr.status();
  auto seed = bench_job_seed(req);
  if (!seed) return seed.status();
  if (k >= plan.partitions)
    return Status(Errc::out_of_range, "partition beyond the job's partitions");
  auto m = matrices(*lr);
  if (!m) return m.status();
  auto sp = solve_plan(*lr);
  if (!sp) return sp.status();
  auto part = std::make_unique<Groth16Partition>(buffers_);
  // One pass: the witness and a/b/c (rows = 2^K = the domain: the H step extends nothing), into
  // pinned vectors when a pool has room, else into the buffer pool's.
  const std::size_t cols = (*m)->num_columns(), rows = (*m)->num_constraints;
  if (part->take_pinned(cols, rows)) {
    CUZK_RETURN_IF_ERROR(solve_bench_partition(**m, **sp, bench_partition_seed(*seed, k), &cancel,
                                               std::span<Fr>(part->pz.data(), cols),
                                               std::span<Fr>(part->pa.data(), rows),
                                               std::span<Fr>(part->pb.data(), rows),
                                               std::span<Fr>(part->pc.data(), rows))
                             .with_context("partition " + std::to_string(k) + " witness"));
  } else {
    part->w.z = buffers_->take(cols);
    part->take_abc(rows, rows);
    CUZK_RETURN_IF_ERROR(solve_bench_partition(**m, **sp, bench_partition_seed(*seed, k), &cancel,
                                               part->w.z, part->abc.a, part->abc.b, part->abc.c)
                             .with_context("partition " + std::to_string(k) + " witness"));
  }
  const std::span<const Fr> z = part->z();
  part->w.public_inputs.assign(z.begin() + 1,
                               z.begin() + static_cast<std::ptrdiff_t>((*m)->num_inputs));
  {
    std::lock_guard lock(mu_);
    if (inputs_.size() >= kMaxKeptInputs) inputs_.clear();  // verify recomputes what is missing
    inputs_[inputs_key(req.circuit_id, *seed, k)] = part->w.public_inputs;
  }
  return std::unique_ptr<SynthesizedPartition>(std::move(part));
}

Result<std::string> Groth16Prover::prove_partition(int device, const ProvingKeyData& key,
                                                   const JobRequest& req, std::uint32_t k,
                                                   SynthesizedPartition& part,
                                                   const CancelFlag& cancel) {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto* gp = dynamic_cast<Groth16Partition*>(&part);
  if (!gk || !gp)
    return Status(Errc::invalid_argument, "groth16 prover given another prover's key or partition");
  if (!backends_.count(device))
    return Status(Errc::invalid_argument, "no backend for device " + std::to_string(device));
  if (cancel.load()) return Status(Errc::cancelled, "device stage cancelled");
  if (!gp->has_abc())
    return Status(Errc::invalid_argument, "partition " + std::to_string(k) + " has no a/b/c");
  // The engine pins the device copy (SrsLease::on_device) before this stage, so it stays until
  // the stage ends; a caller without the engine gets it placed here.
  const ResidentKey* rk = nullptr;
  for (int attempt = 0; !rk && attempt < 2; ++attempt) {
    {
      std::lock_guard lock(gk->resident_mu);
      if (auto it = gk->resident.find(device); it != gk->resident.end()) rk = it->second.get();
    }
    if (!rk && attempt == 0) CUZK_RETURN_IF_ERROR(make_resident(key, device));
  }
  if (!rk)
    return Status(Errc::invalid_argument, "key not resident on device " + std::to_string(device));
  Result<Proof> proof = Status(Errc::invalid_argument, "no proof");
  if (gp->pinned() && gp->pa.size() == gk->pk.domain_size) {
    // Pinned a, b, c, z: the device reads them by DMA; scratch afterwards, given back by release_abc().
    proof = prove_with_abc_spans(*pool_, *rk, *gk->m, std::span<Fr>(gp->pa.data(), gp->pa.size()),
                                 std::span<Fr>(gp->pb.data(), gp->pb.size()),
                                 std::span<Fr>(gp->pc.data(), gp->pc.size()), gp->z(), {});
  } else {
    if (gp->pinned()) {  // a domain longer than the rows: extend copies in plain vectors
      gp->take_abc(gp->pa.size(), gp->pa.size());
      std::copy_n(gp->pa.data(), gp->pa.size(), gp->abc.a.data());
      std::copy_n(gp->pb.data(), gp->pb.size(), gp->abc.b.data());
      std::copy_n(gp->pc.data(), gp->pc.size(), gp->abc.c.data());
      gp->pa.reset(), gp->pb.reset(), gp->pc.reset();
    }
    AbcVectors used;  // a/b/c come back (scratch) for the buffer pool: release_abc() gives them
    proof = prove_with_abc(*pool_, *rk, *gk->m, std::move(gp->abc), gp->z(), {.used_abc = &used});
    gp->abc = std::move(used);
  }
  if (!proof) return proof.status().with_context("partition " + std::to_string(k));
  auto bytes = write_proofs(std::span<const Proof>(&*proof, 1));
  return std::string(bytes.begin(), bytes.end());
}

Result<std::unique_ptr<Backend>> Groth16Prover::new_backend(const std::string& spec) {
  if (opt_.backend_factory) return opt_.backend_factory(spec, *pool_);
  return make_backend(spec, *pool_, opt_.device);
}

Status Groth16Prover::load_host_resident(const ProvingKeyData& key, const std::string& what) {
  const auto& gk = static_cast<const Groth16Key&>(key);
  for (const auto& [ord, be] : backends_) {
    if (device_memory_report(*be)) continue;  // a device copy: make_resident, on demand
    auto rk = ResidentKey::load(*be, gk.pk);
    if (!rk) return rk.status().with_context("loading " + what + " on " + be->name());
    std::lock_guard lock(gk.resident_mu);
    gk.resident[ord] = std::move(*rk);
  }
  return {};
}

std::optional<DeviceArena> Groth16Prover::device_arena(int device) const {
  auto it = backends_.find(device);
  if (it == backends_.end()) return std::nullopt;
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return std::nullopt;
  DeviceMemory m = r->device_memory();
  return DeviceArena{.total = m.total,
                     .used = m.used,
                     .pinned_total = m.pinned_total,
                     .pinned_used = m.pinned_used,
                     .streamed_bytes = m.streamed_bytes};
}

std::uint64_t Groth16Prover::device_key_bytes(const ProvingKeyData& key, int device) const {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return 0;
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return 0;
  std::shared_lock tier(gk->tier_mu);
  const ProvingKey& pk = gk->pk;
  // Tables the backend streams from host memory (larger than half its arena) occupy nothing there.
  std::uint64_t g1 = 0, g2 = 0;
  std::uint32_t tables = 0;
  for (std::size_t n : {pk.h.size(), pk.l.size(), pk.a.size(), pk.b_g1.size()})
    if (!r->streams_table(n, false)) g1 += n, ++tables;
  if (!r->streams_table(pk.b_g2.size(), true)) g2 += pk.b_g2.size(), ++tables;
  return tables ? r->resident_bases_bytes(g1, g2, tables) : 0;
}

Status Groth16Prover::make_resident(const ProvingKeyData& key, int device) {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  if (!gk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  auto it = backends_.find(device);
  if (it == backends_.end())
    return Status(Errc::invalid_argument, "no backend for device " + std::to_string(device));
  {
    std::lock_guard lock(gk->resident_mu);
    if (gk->resident.count(device)) return {};
  }
  std::shared_lock tier(gk->tier_mu);  // the tables stay as they are while the device reads them
  auto rk = ResidentKey::load(*it->second, gk->pk);
  if (!rk) return rk.status().with_context("loading the key on " + it->second->name());
  // Uploaded from the mapping: its pages leave the process (page cache keeps them).
  if (gk->mapped && device_memory_report(*it->second)) gk->image->release_pages();
  std::lock_guard lock(gk->resident_mu);
  gk->resident.try_emplace(device, std::move(*rk));  // a concurrent load won: ours is freed
  return {};
}

PartitionProver::DeviceHostBytes Groth16Prover::device_host_bytes(const ProvingKeyData& key,
                                                                  int device) const {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return {};
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return {};
  std::lock_guard lock(gk->resident_mu);
  auto rk = gk->resident.find(device);
  if (rk == gk->resident.end()) return {};
  DeviceHostBytes out;
  for (BasesId id :
       {rk->second->h, rk->second->l, rk->second->a, rk->second->b_g1, rk->second->b_g2}) {
    out.plain += r->table_plain_host_bytes(id);
    out.pinned += r->table_pinned_bytes(id);
  }
  return out;
}

std::uint64_t Groth16Prover::device_host_bytes_bound(const ProvingKeyData& key, int device) const {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return 0;
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return 0;
  std::shared_lock tier(gk->tier_mu);
  const ProvingKey& pk = gk->pk;
  std::uint64_t bytes = 0;  // the packed streamed layout: 96 B per G1 point, 192 per G2
  for (std::size_t n : {pk.h.size(), pk.l.size(), pk.a.size(), pk.b_g1.size()})
    if (r->streams_table(n, false)) bytes += 96 * std::uint64_t{n};
  if (r->streams_table(pk.b_g2.size(), true)) bytes += 192 * std::uint64_t{pk.b_g2.size()};
  return bytes;
}

std::optional<PartitionProver::KeyMapping> Groth16Prover::key_mapping(
    const ProvingKeyData& key) const {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  if (!gk || !gk->image) return std::nullopt;
  std::shared_lock tier(gk->tier_mu);
  const std::uint64_t tables = gk->pk.query_bytes();
  return KeyMapping{.charged_bytes = gk->bytes > tables ? gk->bytes - tables : 0,
                    .image_bytes = gk->image->file_bytes()};
}

bool Groth16Prover::key_is_mapped(const ProvingKeyData& key) const {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  if (!gk) return false;
  std::shared_lock tier(gk->tier_mu);
  return gk->mapped;
}

bool Groth16Prover::host_tables_used(const ProvingKeyData& key) const {
  (void)key;
  for (const auto& [ord, be] : backends_)
    if (!device_memory_report(*be)) return true;
  return false;
}

Status Groth16Prover::map_key(const ProvingKeyData& key) { return switch_tables(key, true); }

Status Groth16Prover::unmap_key(const ProvingKeyData& key) {
  try {
    return switch_tables(key, false);
  } catch (const std::bad_alloc&) {  // the copies are made before anything changes: still mapped
    return Status(Errc::out_of_memory, "no host memory for an owned copy of the key's tables");
  }
}

Status Groth16Prover::switch_tables(const ProvingKeyData& key, bool to_mapped) {
  const auto* cgk = dynamic_cast<const Groth16Key*>(&key);
  if (!cgk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  if (!cgk->image) return Status(Errc::unimplemented, "the key has no image");
  auto& gk = const_cast<Groth16Key&>(*cgk);  // the tables are the tier's to change (see Groth16Key)
  std::unique_lock tier(gk.tier_mu);
  if (gk.mapped == to_mapped) return {};
  // The new storage first (a failed copy changes nothing).
  ProvingKey next;
  if (to_mapped) {
    gk.image->view_queries(next);
  } else {
    const ProvingKey& pk = gk.pk;
    next.h = PointArray<G1Affine>::copy_of(pk.h.span(), pool_.get());
    next.l = PointArray<G1Affine>::copy_of(pk.l.span(), pool_.get());
    next.a = PointArray<G1Affine>::copy_of(pk.a.span(), pool_.get());
    next.b_g1 = PointArray<G1Affine>::copy_of(pk.b_g1.span(), pool_.get());
    next.b_g2 = PointArray<G2Affine>::copy_of(pk.b_g2.span(), pool_.get());
  }
  // Host backends prove from the tables in place: their tables go first and come back over the
  // new storage (the caller guarantees no device stage runs on them).
  std::vector<int> host;
  {
    std::lock_guard lock(gk.resident_mu);
    for (auto it = gk.resident.begin(); it != gk.resident.end();) {
      if (!device_memory_report(*backends_.at(it->first))) {
        host.push_back(it->first);
        it = gk.resident.erase(it);
      } else {
        ++it;
      }
    }
  }
  ProvingKey& pk = gk.pk;
  if (to_mapped) gk.image->release_pages();  // resident again only where a host backend reads it
  pk.h = std::move(next.h);
  pk.l = std::move(next.l);
  pk.a = std::move(next.a);
  pk.b_g1 = std::move(next.b_g1);
  pk.b_g2 = std::move(next.b_g2);
  gk.mapped = to_mapped;
  for (int ord : host) {
    auto rk = ResidentKey::load(*backends_.at(ord), pk);
    if (!rk) return rk.status().with_context("reloading the key on " + backends_.at(ord)->name());
    std::lock_guard lock(gk.resident_mu);
    gk.resident[ord] = std::move(*rk);
  }
  return {};
}

void Groth16Prover::release_resident(const ProvingKeyData& key, int device) {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end() || !device_memory_report(*it->second))
    return;  // host copies stay with the key
  std::unique_ptr<ResidentKey> victim;
  {
    std::lock_guard lock(gk->resident_mu);
    auto r = gk->resident.find(device);
    if (r == gk->resident.end()) return;
    victim = std::move(r->second);
    gk->resident.erase(r);
  }
  victim.reset();  // releases the tables on the device
}

std::vector<DiskKey> Groth16Prover::disk_keys() const {
  std::vector<DiskKey> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(opt_.cache_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("bench-", 0) != 0 || entry.path().extension() != ".params") continue;
    if (!std::filesystem::exists(entry.path().string() + ".sum", ec)) continue;
    const std::string id = entry.path().stem().string();
    if (!parse_bench_log2(id).ok()) continue;
    out.push_back(
        DiskKey{.key_id = id, .path = entry.path().string(), .bytes = entry.file_size(ec)});
  }
  for (const auto& [id, path] : opt_.circom) {
    auto size = std::filesystem::file_size(path, ec);
    if (!ec) out.push_back(DiskKey{.key_id = id, .path = path, .bytes = size});
  }
  std::sort(out.begin(), out.end(),
            [](const DiskKey& a, const DiskKey& b) { return a.key_id < b.key_id; });
  return out;
}

Status Groth16Prover::verify(const ProvingKeyData& key, const JobRequest& req,
                             const std::string& proof) {
  const auto* gk = dynamic_cast<const Groth16Key*>(&key);
  if (!gk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  if (gk->circom) {
    auto proofs =
        parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
    if (!proofs) return proofs.status().with_context("self-verification");
    if (proofs->size() != 1) return Status(Errc::size_mismatch, "a circom job has one proof");
    auto w = circom_witness(req, *gk->m);
    if (!w) return w.status();
    auto ok = cuzk::verify(gk->pvk, w->public_inputs, (*proofs)[0]);
    if (!ok) return ok.status().with_context("self-verification");
    if (!*ok)
      return Status(Errc::unsatisfied, "self-verification failed: the proof does not verify");
    return {};
  }
  auto seed = bench_job_seed(req);
  if (!seed) return seed.status();
  auto proofs =
      parse_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
  if (!proofs) return proofs.status().with_context("self-verification");
  for (std::uint32_t k = 0; k < proofs->size(); ++k) {
    std::vector<Fr> inputs;
    bool have = false;
    {
      std::lock_guard lock(mu_);
      if (auto it = inputs_.find(inputs_key(req.circuit_id, *seed, k)); it != inputs_.end()) {
        inputs = std::move(it->second);
        inputs_.erase(it);
        have = true;
      }
    }
    if (!have) {
      auto w = solve_bench_witness(*gk->m, bench_partition_seed(*seed, k));
      if (!w) return w.status().with_context("self-verification, partition " + std::to_string(k));
      inputs = std::move(w->public_inputs);
    }
    auto ok = cuzk::verify(gk->pvk, inputs, (*proofs)[k]);
    if (!ok) return ok.status().with_context("self-verification, partition " + std::to_string(k));
    if (!*ok)
      return Status(Errc::unsatisfied, "self-verification failed: partition " + std::to_string(k) +
                                           " proof does not verify");
  }
  return {};
}

}  // namespace cuzk::engine
