// KeyStore: Groth16 proving keys for the circuit families of a registry — where a key comes from,
// its caches on disk, its image, and the memory its tables live in (the tiers the SRS manager
// moves it between, engine/srs_manager.hpp).
//
// Sources (circuits::KeySource, given by the key's family):
//   seeded_setup — generated with setup() over the family's plain matrices, then cached as a
//                  bellperson .params with a sidecar <...>.sum (the family's identity line, a
//                  fingerprint of the matrices, byte count, a 64-bit hash of the file). A later
//                  load checks the sidecar first (any mismatch or a hash failure: the key is
//                  generated again), then decodes with the VK checked and the queries unchecked
//                  (our own cache, hash-protected), then checks the key against the circuit.
//   zkey         — a snarkjs .zkey, points range/curve/subgroup-checked.
//   params       — a bellperson .params read unchecked from a mapping, checked against the circuit.
//                  The direct path (a daemon whose backends all have device memory: no host
//                  backend proves from host tables): load() reads only the VK and where the
//                  queries lie (formats/bellperson scan_params), keeps the file mapped and writes
//                  no image; make_resident hands each query's raw bytes to the device backend,
//                  which decodes them where the table lives (Backend::load_bases_*_encoded:
//                  CudaBackend streams them through bounded staging to a decode kernel), dropping
//                  the mapping's pages as they are read. The key is charged the VK and the
//                  circuit's form only; a device copy released and made again re-reads the file.
// "Checked against the circuit" (check_key_matches): the domain, ic, l, and the a / b query sizes
// that the circuit's counts and density bitmaps give — CircuitShape::dims(), from the plain
// matrices or the compact form alike, so a key of another circuit is refused naming the query.
//
// Images (formats/key_image.hpp, <cache_dir>/<image_name>): written after a key's first decode
// or generation, bound to its source (sidecar line or the file's path, size and mtime), then
// mapped instead of decoded; they back the mmap tier.
//
// Tiers: load() decodes the key into host memory and loads it onto the backends that keep tables
// in host memory (the CPU backend); a backend with device memory (DeviceMemoryReport: the CUDA
// arena) gets its copy only from make_resident, which the SRS manager calls before a device stage
// and undoes (release_resident) to demote an idle key. device_key_bytes is the backend's own
// prediction of the resident tables' bytes, plus the circuit's device copy
// (Backend::device_circuit_bytes) when the shape has a compact form: each copy of the key, host or
// device, loads the circuit on its backend with it (ResidentKey::circuit(), for prove_compact)
// and releases it with it. A tier change (map/unmap) swaps the tables under the
// key's exclusive lock and reloads the host backends' views.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/circuits/circuit_family.hpp"
#include "cuzk/engine/partition_prover.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/key_image.hpp"
#include "cuzk/formats/mapped_file.hpp"
#include "cuzk/groth16/prove.hpp"
#include "cuzk/groth16/verify.hpp"
#include "cuzk/r1cs/matrices.hpp"

namespace cuzk::engine {

/// The backends a prover drives, by engine device ordinal.
using Backends = std::map<int, std::unique_ptr<Backend>>;

/// A key served straight from its mapped .params file (the direct path): the mapping and where
/// its queries lie; their points are decoded only by the device backends, never on the host.
struct ParamsMapping {
  std::string path;
  MappedFile file;
  ParamsLayout layout;
  QueryCounts counts() const {
    return {.h = layout.h.count,
            .l = layout.l.count,
            .a = layout.a.count,
            .b_g1 = layout.b_g1.count,
            .b_g2 = layout.b_g2.count};
  }
  /// The query's raw bytes, their pages dropped from the process once the backend has read them.
  EncodedBases encoded(const ParamsSection& s, bool g2) const;
  /// Drops the pages of bytes [offset, offset + length) of the file (whole pages inside it).
  void release_pages(std::size_t offset, std::size_t length) const;
};

/// A loaded Groth16 proving key.
class Groth16Key final : public ProvingKeyData {
 public:
  std::uint64_t size_bytes() const override { return bytes; }
  std::uint64_t bytes = 0;
  /// The key's circuit (its family's shape): counts and densities for the proof, kept alive
  /// with the key.
  std::shared_ptr<const circuits::CircuitShape> shape;
  R1csDims dims() const { return shape->dims(); }
  // The tables are owned or views of |image| (the SRS manager's mmap tier); they change only in
  // KeyStore::switch_tables, under |tier_mu| held exclusively, with no device stage on a host
  // backend.
  ProvingKey pk;
  PreparedVerifyingKey pvk;
  std::shared_ptr<const KeyImage> image;
  /// The direct path: the .params file the device copies are made from (pk's tables stay empty).
  std::shared_ptr<const ParamsMapping> params;
  /// Points per query: pk's tables, or the .params sections on the direct path.
  QueryCounts counts() const { return params ? params->counts() : pk.query_counts(); }
  mutable std::shared_mutex tier_mu;
  mutable bool mapped = false;  // under tier_mu
  // By device ordinal; destroyed before pk. Device copies come and go while the key is shared
  // (make_resident / release_resident), hence mutable under |resident_mu|.
  mutable std::mutex resident_mu;
  mutable std::map<int, std::unique_ptr<ResidentKey>> resident;
  /// Per device, the bytes its backend takes for the circuit's compact form
  /// (Backend::device_circuit_bytes, computed once), under |resident_mu|.
  mutable std::map<int, std::uint64_t> circuit_device_bytes;
  ~Groth16Key() override { resident.clear(); }
};

struct KeyStoreOptions {
  std::string cache_dir = "cuzk-cache";  ///< key images
  bool key_images = true;
  /// The direct path for .params keys when no host backend proves from host tables (see above);
  /// false decodes them on the host as for a CPU backend (tests compare the two).
  bool params_direct = true;
  /// Most copies of a key's H table a device keeps for its H MSM (key placement rule 3: as many
  /// as fit, up to this; 1: none). Config [gpu] h_window_copies.
  unsigned max_h_copies = 4;
  /// Keys of a smaller domain get none: the H MSM with copies measured slower at 2^24 (+3 %),
  /// faster at 2^26 (−2.6 %) and 2^27 (−7 % with 4), docs/perf/gpu.md.
  std::uint64_t h_copies_min_domain = std::uint64_t{1} << 26;
};

class KeyStore {
 public:
  KeyStore(KeyStoreOptions opt, std::shared_ptr<const circuits::Registry> families,
           ThreadPool& pool, const Backends& backends)
      : opt_(std::move(opt)), families_(std::move(families)), pool_(pool), backends_(backends) {}

  /// Bytes load(key_id) will occupy in host memory (exact point counts of the key's layout, and
  /// the circuit's form — matrices or compact — when the family charges it with the key).
  Result<std::uint64_t> key_bytes(const std::string& key_id);
  /// Loads (or generates and caches) a key; with |mapped_only|, from its image into the mmap tier
  /// or out_of_memory.
  Result<std::shared_ptr<const ProvingKeyData>> load(const std::string& key_id, bool mapped_only);
  /// The bytes a load straight into the mmap tier is charged; nullopt without an image.
  std::optional<std::uint64_t> mapped_load_bytes(const std::string& key_id);
  /// The key's source (its family's answer).
  Result<circuits::KeySource> source(const std::string& key_id) const;
  /// The key's circuit (its family's answer).
  Result<std::shared_ptr<const circuits::CircuitShape>> shape(const std::string& key_id) const;
  /// The key image path of a key id.
  std::string image_path(const std::string& key_id) const;
  /// Key files on disk (cached or registered) of every family.
  std::vector<DiskKey> disk_keys() const;
  /// Keys generated (not read from a cache) since start.
  std::uint64_t keys_generated() const { return keys_generated_; }

  // The mmap tier.
  std::optional<PartitionProver::KeyMapping> key_mapping(const ProvingKeyData& key) const;
  bool key_is_mapped(const ProvingKeyData& key) const;
  /// Whether a host backend (the CPU) proves from keys' tables in host memory.
  bool host_tables_used() const;
  /// Whether a key of |src| takes the direct path (a .params, no host backend).
  bool direct_params(const circuits::KeySource& src) const;
  Status map(const ProvingKeyData& key) { return switch_tables(key, true); }
  Status unmap(const ProvingKeyData& key);

  // Device copies (the vram tier).
  std::optional<DeviceArena> device_arena(int device) const;
  std::uint64_t device_key_bytes(const ProvingKeyData& key, int device) const;
  Status make_resident(const ProvingKeyData& key, int device);
  /// The key's tables on |device|'s backend, placed now when absent.
  Result<const ResidentKey*> resident(const Groth16Key& key, int device);
  PartitionProver::DeviceHostBytes device_host_bytes(const ProvingKeyData& key, int device) const;
  std::uint64_t device_host_bytes_bound(const ProvingKeyData& key, int device) const;
  void release_resident(const ProvingKeyData& key, int device);

 private:
  Result<circuits::CircuitFamily*> family(const std::string& key_id) const;
  /// A seeded_setup key: from its image, its cache, or generated now.
  Status load_seeded(Groth16Key& key, const std::string& key_id, const circuits::KeySource& src,
                     bool mapped_only);
  /// The direct path: the VK and the queries' places from the mapped .params, nothing decoded.
  Status load_params_direct(Groth16Key& key, const std::string& key_id,
                            const circuits::KeySource& src);
  /// Bytes a direct key is charged: its VK's ic and the circuit's form when charged with it.
  static std::uint64_t direct_key_bytes(const circuits::CircuitShape& s);
  /// A zkey or params key: from its image or decoded from the file.
  Status load_file(Groth16Key& key, const std::string& key_id, const circuits::KeySource& src,
                   bool mapped_only);
  /// The bytes |backend| (device |device|) takes for the key's circuit (0 without a compact form);
  /// computed once per device and kept in the key.
  static std::uint64_t circuit_bytes_on(const Groth16Key& key, int device, const Backend& backend);
  /// Loads the key's circuit with |rk| when its shape has a compact form (ResidentKey::
  /// load_circuit: prove_compact's CircuitId, released with the key's copy).
  static Status load_key_circuit(const Groth16Key& key, ResidentKey& rk);
  /// Loads the key onto the backends that keep their tables in host memory (part of the host tier).
  Status load_host_resident(const Groth16Key& key, const std::string& what);
  /// Attaches the key's image (written now when absent) and puts its tables in the tier that
  /// fits the backends: mapped when no host backend proves from them, owned otherwise.
  void attach_image(Groth16Key& key, const std::string& key_id, std::uint64_t tag, bool from_image,
                    bool mapped_only);
  /// Moves the key's tables to views of its image (to_mapped) or to owned memory.
  Status switch_tables(const ProvingKeyData& key, bool to_mapped);

  KeyStoreOptions opt_;
  std::shared_ptr<const circuits::Registry> families_;
  ThreadPool& pool_;
  const Backends& backends_;
  std::mutex build_mu_;  // one key generation at a time; never two writers of a file
  std::atomic<std::uint64_t> keys_generated_{0};
};

}  // namespace cuzk::engine
