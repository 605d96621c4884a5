#include "cuzk/engine/key_store.hpp"

#include <spdlog/spdlog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "cuzk/backend/device_memory.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/formats/zkey.hpp"
#include "cuzk/groth16/key_placement.hpp"
#include "cuzk/groth16/rng.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/checksum.hpp"

namespace cuzk::engine {
namespace {

using circuits::KeySource;

constexpr int kKeyCacheVersion = 1;

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

// The sidecar's line: the family's identity, then the circuit and the file's figures.
std::string sum_line(const std::string& identity, std::uint64_t circuit, std::uint64_t size,
                     std::uint64_t hash) {
  std::ostringstream s;
  s << identity << " circuit=" << std::hex << circuit << " bytes=" << std::dec << size
    << " hash=" << std::hex << hash << "\n";
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

// " <size> <mtime>" of a file, binding an image to the file as it is now; nullopt when absent.
std::optional<std::string> file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

const Groth16Key* as_key(const ProvingKeyData& key) {
  return dynamic_cast<const Groth16Key*>(&key);
}

// The key's placement on a device (groth16/key_placement.hpp): its tables, one partition's working
// set (the key's domain, the circuit's columns) and the circuit's device copy (|circuit_bytes|)
// against the device's arena. The same answer before the copy is made (its bytes, its host bytes)
// and when it is made.
// |opt| bounds the H table's window copies (rule 3): none below its least domain.
KeyPlacement placement_of(const Groth16Key& key, const DeviceMemoryReport& device,
                          std::uint64_t circuit_bytes, const KeyStoreOptions& opt) {
  const std::uint64_t domain = key.pk.domain_size;
  return plan_key_placement(device, key.counts(), domain, key.dims().num_columns(),
                            domain >= opt.h_copies_min_domain ? opt.max_h_copies : 1,
                            circuit_bytes);
}

}  // namespace

EncodedBases ParamsMapping::encoded(const ParamsSection& s, bool g2) const {
  EncodedBases e;
  e.bytes =
      file.bytes().subspan(s.offset, s.count * (g2 ? kG2UncompressedBytes : kG1UncompressedBytes));
  e.consumed = [this, at = s.offset](std::size_t offset, std::size_t length) {
    release_pages(at + offset, length);
  };
  return e;
}

void ParamsMapping::release_pages(std::size_t offset, std::size_t length) const {
  // Whole pages inside the range only: a page shared with bytes not yet read stays.
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t lo = (offset + page - 1) / page * page;
  const std::size_t hi = std::min(offset + length, file.bytes().size()) / page * page;
  if (hi <= lo) return;
  (void)::madvise(const_cast<std::uint8_t*>(file.bytes().data()) + lo, hi - lo, MADV_DONTNEED);
}

Result<circuits::CircuitFamily*> KeyStore::family(const std::string& key_id) const {
  circuits::CircuitFamily* f = families_->find_circuit(key_id);
  if (!f) return Status(Errc::not_found, "unknown circuit '" + key_id + "'");
  return f;
}

Result<KeySource> KeyStore::source(const std::string& key_id) const {
  auto f = family(key_id);
  if (!f) return f.status();
  return (*f)->key_source(key_id);
}

Result<std::shared_ptr<const circuits::CircuitShape>> KeyStore::shape(
    const std::string& key_id) const {
  auto f = family(key_id);
  if (!f) return f.status();
  return (*f)->shape(key_id);
}

Result<std::uint64_t> KeyStore::key_bytes(const std::string& key_id) {
  auto src = source(key_id);
  if (!src) return src.status();
  auto sh = shape(key_id);
  if (!sh) return sh.status();
  const circuits::CircuitShape& s = **sh;
  if (!s.has_form())
    return Status(Errc::invalid_argument, key_id + ": the family gave no circuit form");
  if (direct_params(*src)) return direct_key_bytes(s);
  const R1csDims m = s.dims();
  const std::uint64_t copies = 1;  // the CPU backend proves from the key's tables in place
  const std::uint64_t n = s.domain_size;
  std::uint64_t g1 = 0, g2 = 0;
  if (src->kind == KeySource::Kind::zkey) {
    // snarkjs layout: h n points, l one per aux, a/b_g1/b_g2 one per variable.
    g1 = n + m.num_aux + 2 * m.num_columns();
    g2 = m.num_columns();
  } else {
    // Exact point counts of the bellperson layout: h n − 1, l one per aux, a inputs + A-dense
    // aux, b B-dense inputs and aux (G1 and G2).
    const std::uint64_t b = m.b_query_points();
    g1 = (n - 1) + m.num_aux + m.a_query_points() + b;
    g2 = b;
  }
  const std::uint64_t points = sizeof(G1Affine) * g1 + sizeof(G2Affine) * g2;
  return points * copies + (s.charge_matrices ? s.form_bytes() : 0);
}

std::uint64_t KeyStore::direct_key_bytes(const circuits::CircuitShape& s) {
  // The VK's ic (one G1 point per input) and what the circuit's form adds; the queries stay in
  // the file (page cache) and on the devices.
  return sizeof(G1Affine) * s.dims().num_inputs + (s.charge_matrices ? s.form_bytes() : 0);
}

bool KeyStore::direct_params(const KeySource& src) const {
  return opt_.params_direct && src.kind == KeySource::Kind::params && !backends_.empty() &&
         !host_tables_used();
}

std::optional<std::uint64_t> KeyStore::mapped_load_bytes(const std::string& key_id) {
  if (auto src = source(key_id); src && direct_params(*src)) {  // always "mapped": its .params
    auto sh = shape(key_id);
    if (!sh || !(*sh)->has_form()) return std::nullopt;
    return direct_key_bytes(**sh);
  }
  if (!opt_.key_images) return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::exists(image_path(key_id), ec)) return std::nullopt;
  auto sh = shape(key_id);
  if (!sh) return std::nullopt;
  // What stays owned: the circuit's form when charged with the key (key_bytes' share of it).
  return (*sh)->charge_matrices ? (*sh)->form_bytes() : std::uint64_t{0};
}

std::string KeyStore::image_path(const std::string& key_id) const {
  auto src = source(key_id);
  const std::string name = src ? src->image_name : circuits::file_safe_name(key_id) + ".kimg";
  return (std::filesystem::path(opt_.cache_dir) / name).string();
}

std::vector<DiskKey> KeyStore::disk_keys() const {
  std::vector<DiskKey> out;
  for (const auto& f : families_->families())
    for (auto& k : f->key_files())
      out.push_back(
          DiskKey{.key_id = std::move(k.key_id), .path = std::move(k.path), .bytes = k.bytes});
  std::sort(out.begin(), out.end(),
            [](const DiskKey& a, const DiskKey& b) { return a.key_id < b.key_id; });
  return out;
}

Result<std::shared_ptr<const ProvingKeyData>> KeyStore::load(const std::string& key_id,
                                                             bool mapped_only) {
  auto src = source(key_id);
  if (!src) return src.status();
  auto sh = shape(key_id);
  if (!sh) return sh.status();
  auto bytes = key_bytes(key_id);
  if (!bytes) return bytes.status();
  auto key = std::make_shared<Groth16Key>();
  key->bytes = *bytes;
  key->shape = *sh;
  if (direct_params(*src)) {
    CUZK_RETURN_IF_ERROR(load_params_direct(*key, key_id, *src));
    key->pvk = prepare_verifying_key(key->pk.vk);
    return std::shared_ptr<const ProvingKeyData>(std::move(key));
  }
  if (src->kind == KeySource::Kind::seeded_setup)
    CUZK_RETURN_IF_ERROR(load_seeded(*key, key_id, *src, mapped_only));
  else
    CUZK_RETURN_IF_ERROR(load_file(*key, key_id, *src, mapped_only));
  key->pvk = prepare_verifying_key(key->pk.vk);
  CUZK_RETURN_IF_ERROR(load_host_resident(*key, key_id));
  return std::shared_ptr<const ProvingKeyData>(std::move(key));
}

Status KeyStore::load_seeded(Groth16Key& key, const std::string& key_id, const KeySource& src,
                             bool mapped_only) {
  // A seeded key is made by setup() over the plain matrices (a compact-only circuit has none).
  if (!key.shape->matrices)
    return Status(Errc::invalid_argument,
                  key_id +
                      ": a seeded setup needs the circuit's plain matrices, its family "
                      "gives only the compact form");
  const R1csMatrices& m = *key.shape->matrices;
  const std::string& path = src.path;
  const std::string sum_path = path + ".sum";
  const std::uint64_t circuit = matrices_fingerprint(m);

  // The key image first: bound to the cache's checksum line (the .params hash, the circuit and
  // the family's identity) and the .params file's size and mtime, so a regenerated, replaced or
  // damaged cache makes it stale.
  auto image_tag = [&](const std::string& line) {
    auto stamp = file_stamp(path);
    if (!stamp) return std::uint64_t{0};
    const std::string s = line + *stamp;
    return checksum64(s.data(), s.size(), kKeyCacheVersion);
  };
  auto try_image = [&]() -> Status {
    if (!opt_.key_images) return Status(Errc::not_found, "key images off");
    std::ifstream sf(sum_path);
    std::string line;
    if (!sf || !std::getline(sf, line))
      return Status(Errc::not_found, "no checksum file " + sum_path);
    auto img = KeyImage::open(image_path(key_id), image_tag(line + "\n"), &pool_);
    if (!img) return img.status();
    ProvingKey pk = (*img)->key();
    if (pk.layout != KeyLayout::bellperson)
      return Status(Errc::bad_encoding, "key image with the snarkjs layout");
    CUZK_RETURN_IF_ERROR(check_key_matches(pk, m));
    key.pk = std::move(pk);
    key.image = *img;
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
        sum_line(src.identity, circuit, span.size(), checksum64(span.data(), span.size())))
      return Status(Errc::bad_encoding,
                    "cached key " + path + " does not match its checksum file (corrupt or stale)");
    ParamsReadOptions ro;
    ro.checked = false;
    ro.pool = &pool_;
    auto pk = parse_params(span, ro);
    if (!pk) return pk.status().with_context(path);
    CUZK_RETURN_IF_ERROR(check_key_matches(*pk, m));
    key.pk = std::move(*pk);
    return {};
  };
  std::lock_guard build(build_mu_);  // one generation per key, never two writers of a file
  Status imaged = try_image();
  const bool from_image = imaged.ok();
  if (!from_image && imaged.code() != Errc::not_found)
    spdlog::warn("{}: {}; rebuilding the key image", key_id, imaged.to_string());
  if (!from_image && mapped_only)
    return Status(Errc::out_of_memory,
                  key_id + ": no usable key image; the key needs room for a host copy");
  Status cached = from_image ? Status() : try_cache();
  if (!cached.ok()) {
    if (cached.code() != Errc::not_found)
      spdlog::warn("{}: {}; regenerating the key", key_id, cached.to_string());
    spdlog::info("{}: generating the proving key (benchmark setup, seeded; cached in {})", key_id,
                 path);
    tag = 0;  // an image only of a key whose cache was written
    SeededRng rng(src.seed);
    SetupOptions so;
    so.pool = &pool_;
    auto pk = setup(m, rng, so);
    if (!pk) return pk.status().with_context("setup " + key_id);
    auto img = write_params(*pk, &pool_);
    if (!img) return img.status();
    if (auto st = write_file_atomic(path, *img); !st.ok()) {
      spdlog::warn("{}: key cache not written: {}", key_id, st.to_string());
    } else {
      std::string line =
          sum_line(src.identity, circuit, img->size(), checksum64(img->data(), img->size()));
      auto st2 = write_file_atomic(
          sum_path, std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
      if (!st2.ok())
        spdlog::warn("{}: key checksum not written: {}", key_id, st2.to_string());
      else
        tag = image_tag(line);
    }
    key.pk = std::move(*pk);
    ++keys_generated_;
  }
  if (tag != 0 || from_image) attach_image(key, key_id, tag, from_image, mapped_only);
  return {};
}

Status KeyStore::load_params_direct(Groth16Key& key, const std::string& key_id,
                                    const KeySource& src) {
  auto pm = std::make_shared<ParamsMapping>();
  pm->path = src.path;
  auto mf = MappedFile::open(src.path);
  if (!mf) return mf.status();
  pm->file = std::move(*mf);
  auto lay = scan_params(pm->file.bytes());
  if (!lay) return lay.status().with_context(src.path);
  pm->layout = std::move(*lay);
  // The VK and the header were read: their pages leave the process too.
  pm->release_pages(0, pm->layout.h.offset);
  key.pk.layout = KeyLayout::bellperson;
  key.pk.vk = pm->layout.vk;
  key.pk.domain_size = pm->layout.domain_size;
  CUZK_RETURN_IF_ERROR(check_key_matches(key.pk, pm->counts(), key.dims()).with_context(key_id));
  key.params = std::move(pm);
  key.mapped = true;  // the mmap tier, over the .params file itself (no image)
  spdlog::info("{}: served from {} as mapped (queries decoded on the device, no key image)", key_id,
               src.path);
  return {};
}

Status KeyStore::load_file(Groth16Key& key, const std::string& key_id, const KeySource& src,
                           bool mapped_only) {
  const bool zkey = src.kind == KeySource::Kind::zkey;
  const KeyLayout layout = zkey ? KeyLayout::snarkjs : KeyLayout::bellperson;
  // The image is bound to the key file as it is now (path, size, mtime) and the image format.
  auto stamp = file_stamp(src.path);
  if (!stamp) return Status(Errc::not_found, src.path + ": cannot stat");
  const std::string s = std::string(zkey ? "cuzk-circom-key v" : "cuzk-params-key v") +
                        std::to_string(kKeyCacheVersion) + " " + src.path + " " + *stamp;
  const std::uint64_t tag = checksum64(s.data(), s.size());
  bool from_image = false;
  if (opt_.key_images) {
    auto img = KeyImage::open(image_path(key_id), tag, &pool_);
    if (img.ok()) {
      key.pk = (*img)->key();
      key.image = *img;
      from_image = check_key_matches(key.pk, key.dims()).ok() && key.pk.layout == layout;
      if (!from_image) key.image.reset();
    } else if (img.status().code() != Errc::not_found) {
      spdlog::warn("{}: {}; rebuilding the key image", key_id, img.status().to_string());
    }
  }
  if (!from_image && mapped_only)
    return Status(Errc::out_of_memory,
                  key_id + ": no usable key image; the key needs room for a host copy");
  if (!from_image) {
    if (zkey) {
      ZkeyReadOptions ro;
      ro.pool = &pool_;
      auto zk = read_zkey(src.path, ro);
      if (!zk) return zk.status().with_context("circuit '" + key_id + "'");
      key.pk = std::move(zk->pk);
    } else {
      auto mf = MappedFile::open(src.path);
      if (!mf) return mf.status();
      ParamsReadOptions ro;
      ro.checked = false;
      ro.pool = &pool_;
      auto pk = parse_params(mf->bytes(), ro);
      if (!pk) return pk.status().with_context(src.path);
      key.pk = std::move(*pk);
    }
  }
  CUZK_RETURN_IF_ERROR(check_key_matches(key.pk, key.dims()).with_context(key_id));
  attach_image(key, key_id, tag, from_image, mapped_only);
  return {};
}

void KeyStore::attach_image(Groth16Key& key, const std::string& key_id, std::uint64_t tag,
                            bool from_image, bool mapped_only) {
  if (!opt_.key_images) return;
  if (!from_image) {
    const std::string path = image_path(key_id);
    if (Status st = write_key_image(path, key.pk, tag, &pool_); !st.ok()) {
      spdlog::warn("{}: key image not written: {}", key_id, st.to_string());
      return;
    }
    auto img = KeyImage::open(path, tag, &pool_);
    if (!img) {
      spdlog::warn("{}: key image written but not readable: {}", key_id, img.status().to_string());
      return;
    }
    key.image = *img;
  }
  // The tier the backends want: mapped when no host backend proves from the tables (a device
  // uploads from the mapping), owned otherwise.
  const bool want_mapped = mapped_only || !host_tables_used();
  if (want_mapped && !from_image) key.image->view_queries(key.pk);  // the decoded copy is freed
  if (want_mapped) key.image->release_pages();  // read by the checksum; a device reads it on upload
  if (!want_mapped && from_image) {
    key.pk.h = PointArray<G1Affine>::copy_of(key.pk.h.span(), &pool_);
    key.pk.l = PointArray<G1Affine>::copy_of(key.pk.l.span(), &pool_);
    key.pk.a = PointArray<G1Affine>::copy_of(key.pk.a.span(), &pool_);
    key.pk.b_g1 = PointArray<G1Affine>::copy_of(key.pk.b_g1.span(), &pool_);
    key.pk.b_g2 = PointArray<G2Affine>::copy_of(key.pk.b_g2.span(), &pool_);
  }
  key.mapped = want_mapped;
}

Status KeyStore::load_host_resident(const Groth16Key& key, const std::string& what) {
  for (const auto& [ord, be] : backends_) {
    if (device_memory_report(*be)) continue;  // a device copy: make_resident, on demand
    auto rk = ResidentKey::load(*be, key.pk);
    if (!rk) return rk.status().with_context("loading " + what + " on " + be->name());
    CUZK_RETURN_IF_ERROR(load_key_circuit(key, **rk));
    std::lock_guard lock(key.resident_mu);
    key.resident[ord] = std::move(*rk);
  }
  return {};
}

std::optional<DeviceArena> KeyStore::device_arena(int device) const {
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

std::uint64_t KeyStore::device_key_bytes(const ProvingKeyData& key, int device) const {
  const auto* gk = as_key(key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return 0;
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return 0;
  // The circuit's device copy (compact form), loaded with the key (make_resident).
  const std::uint64_t circuit = circuit_bytes_on(*gk, device, *it->second);
  std::shared_lock tier(gk->tier_mu);
  // Tables that stream from host memory (the placement's choice) occupy nothing there; the H
  // table's window copies do.
  const KeyPlacement p = placement_of(*gk, *r, circuit, opt_);
  return circuit + p.resident_bytes + p.h_copies_bytes;
}

std::uint64_t KeyStore::circuit_bytes_on(const Groth16Key& key, int device,
                                         const Backend& backend) {
  if (!key.shape || !key.shape->compact) return 0;
  {
    std::lock_guard lock(key.resident_mu);
    if (auto c = key.circuit_device_bytes.find(device); c != key.circuit_device_bytes.end())
      return c->second;
  }
  // Computed outside the lock (a device backend lays the circuit out to count its bytes).
  const std::uint64_t bytes = backend.device_circuit_bytes(*key.shape->compact);
  std::lock_guard lock(key.resident_mu);
  return key.circuit_device_bytes.try_emplace(device, bytes).first->second;
}

Status KeyStore::load_key_circuit(const Groth16Key& key, ResidentKey& rk) {
  if (!key.shape || !key.shape->compact) return {};
  return rk.load_circuit(key.shape->compact)
      .with_context("loading the key's circuit on " + rk.backend().name());
}

Status KeyStore::make_resident(const ProvingKeyData& key, int device) {
  const auto* gk = as_key(key);
  if (!gk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  auto it = backends_.find(device);
  if (it == backends_.end())
    return Status(Errc::invalid_argument, "no backend for device " + std::to_string(device));
  {
    std::lock_guard lock(gk->resident_mu);
    if (gk->resident.count(device)) return {};
  }
  const DeviceMemoryReport* report = device_memory_report(*it->second);
  const std::uint64_t circuit = report ? circuit_bytes_on(*gk, device, *it->second) : 0;
  std::shared_lock tier(gk->tier_mu);  // the tables stay as they are while the device reads them
  const KeyPlacement placement =
      report ? placement_of(*gk, *report, circuit, opt_) : KeyPlacement{};
  const StreamedQueries& streamed = placement.streamed;
  Result<std::unique_ptr<ResidentKey>> rk = Status(Errc::not_found, "no key tables");
  if (const ParamsMapping* pm = gk->params.get()) {  // the direct path: decoded on the device
    const ParamsLayout& l = pm->layout;
    rk = ResidentKey::load_encoded(*it->second, gk->pk,
                                   {.h = pm->encoded(l.h, false),
                                    .l = pm->encoded(l.l, false),
                                    .a = pm->encoded(l.a, false),
                                    .b_g1 = pm->encoded(l.b_g1, false),
                                    .b_g2 = pm->encoded(l.b_g2, true)},
                                   streamed);
    if (!rk) return rk.status().with_context(pm->path + " on " + it->second->name());
  } else {
    rk = ResidentKey::load(*it->second, gk->pk, streamed);
  }
  if (!rk) return rk.status().with_context("loading the key on " + it->second->name());
  CUZK_RETURN_IF_ERROR(load_key_circuit(*gk, **rk));
  // The H table's window copies (rule 3): the same proofs without them, so a failure is logged.
  if (placement.h_copies > 1) {
    auto made = it->second->add_window_copies((*rk)->h, placement.h_copies);
    if (made)
      spdlog::info("{}: {} window copies of a key's H table ({} points, {} MiB)",
                   it->second->name(), placement.h_copies - 1, gk->counts().h, *made >> 20);
    else
      spdlog::warn("{}: no window copies of a key's H table ({} points): {}", it->second->name(),
                   gk->counts().h, made.status().to_string());
  }
  // Uploaded from the mapping: its pages leave the process (page cache keeps them).
  if (gk->mapped && gk->image && device_memory_report(*it->second)) gk->image->release_pages();
  std::lock_guard lock(gk->resident_mu);
  gk->resident.try_emplace(device, std::move(*rk));  // a concurrent load won: ours is freed
  return {};
}

Result<const ResidentKey*> KeyStore::resident(const Groth16Key& key, int device) {
  // The engine pins the device copy (SrsLease::on_device) before a device stage, so it stays
  // until the stage ends; a caller without the engine gets it placed here.
  for (int attempt = 0; attempt < 2; ++attempt) {
    {
      std::lock_guard lock(key.resident_mu);
      if (auto it = key.resident.find(device); it != key.resident.end()) return it->second.get();
    }
    if (attempt == 0) CUZK_RETURN_IF_ERROR(make_resident(key, device));
  }
  return Status(Errc::invalid_argument, "key not resident on device " + std::to_string(device));
}

PartitionProver::DeviceHostBytes KeyStore::device_host_bytes(const ProvingKeyData& key,
                                                             int device) const {
  const auto* gk = as_key(key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return {};
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return {};
  std::lock_guard lock(gk->resident_mu);
  auto rk = gk->resident.find(device);
  if (rk == gk->resident.end()) return {};
  PartitionProver::DeviceHostBytes out;
  for (BasesId id :
       {rk->second->h, rk->second->l, rk->second->a, rk->second->b_g1, rk->second->b_g2}) {
    out.plain += r->table_plain_host_bytes(id);
    out.pinned += r->table_pinned_bytes(id);
  }
  return out;
}

std::uint64_t KeyStore::device_host_bytes_bound(const ProvingKeyData& key, int device) const {
  const auto* gk = as_key(key);
  auto it = backends_.find(device);
  if (!gk || it == backends_.end()) return 0;
  const DeviceMemoryReport* r = device_memory_report(*it->second);
  if (!r) return 0;
  const std::uint64_t circuit = circuit_bytes_on(*gk, device, *it->second);
  std::shared_lock tier(gk->tier_mu);
  // Packed: 96 B per G1 point, 192 per G2.
  return placement_of(*gk, *r, circuit, opt_).streamed_host_bytes;
}

std::optional<PartitionProver::KeyMapping> KeyStore::key_mapping(const ProvingKeyData& key) const {
  const auto* gk = as_key(key);
  if (gk && gk->params)  // the direct path: "mapped" over its .params, charged the VK and form
    return PartitionProver::KeyMapping{
        .charged_bytes = gk->bytes, .image_bytes = gk->params->file.bytes().size(), .params = true};
  if (!gk || !gk->image) return std::nullopt;
  std::shared_lock tier(gk->tier_mu);
  const std::uint64_t tables = gk->pk.query_bytes();
  return PartitionProver::KeyMapping{.charged_bytes = gk->bytes > tables ? gk->bytes - tables : 0,
                                     .image_bytes = gk->image->file_bytes()};
}

bool KeyStore::key_is_mapped(const ProvingKeyData& key) const {
  const auto* gk = as_key(key);
  if (!gk) return false;
  std::shared_lock tier(gk->tier_mu);
  return gk->mapped;
}

bool KeyStore::host_tables_used() const {
  for (const auto& [ord, be] : backends_)
    if (!device_memory_report(*be)) return true;
  return false;
}

Status KeyStore::unmap(const ProvingKeyData& key) {
  try {
    return switch_tables(key, false);
  } catch (const std::bad_alloc&) {  // the copies are made before anything changes: still mapped
    return Status(Errc::out_of_memory, "no host memory for an owned copy of the key's tables");
  }
}

Status KeyStore::switch_tables(const ProvingKeyData& key, bool to_mapped) {
  const auto* cgk = as_key(key);
  if (!cgk) return Status(Errc::invalid_argument, "groth16 prover given another prover's key");
  if (cgk->params) {  // the direct path: always mapped, never decoded on the host
    if (to_mapped) return {};
    return Status(Errc::unimplemented,
                  "the key is served from its .params file; it has no host copy");
  }
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
    next.h = PointArray<G1Affine>::copy_of(pk.h.span(), &pool_);
    next.l = PointArray<G1Affine>::copy_of(pk.l.span(), &pool_);
    next.a = PointArray<G1Affine>::copy_of(pk.a.span(), &pool_);
    next.b_g1 = PointArray<G1Affine>::copy_of(pk.b_g1.span(), &pool_);
    next.b_g2 = PointArray<G2Affine>::copy_of(pk.b_g2.span(), &pool_);
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
    CUZK_RETURN_IF_ERROR(load_key_circuit(gk, **rk));
    std::lock_guard lock(gk.resident_mu);
    gk.resident[ord] = std::move(*rk);
  }
  return {};
}

void KeyStore::release_resident(const ProvingKeyData& key, int device) {
  const auto* gk = as_key(key);
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

}  // namespace cuzk::engine
