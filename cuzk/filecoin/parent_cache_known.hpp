// Test data: upstream's parent cache manifest, pinned, and the graphs it was made from.
//
// The ten entries are rust-fil-proofs @ 87348a74 storage-proofs-porep/parent_cache.json (copy in
// $CUZK_FILECOIN_DATA/parent_cache.json): file id → (sector size, SHA-256 of the whole cache).
// fil-proofs-tooling gen_graph_cache made them from porep_id = [id, 0, …] for ids 0–4 under API
// 1.0.0 (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB) and ids 5–9 under 1.1.0, the poseidon hasher.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "cuzk/filecoin/registered_proof.hpp"

namespace cuzk::filecoin::known {

struct ManifestEntry {
  std::string_view id;
  std::uint64_t sector_size;
  std::string_view digest;
};

inline constexpr std::array<ManifestEntry, 10> kParentCacheManifest = {{
    {"v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117", 34359738368,
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {"v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42", 536870912,
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899", 2048,
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {"v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b", 68719476736,
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
    {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b", 2048,
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5", 8388608,
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {"v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34", 536870912,
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {"v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6", 68719476736,
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc", 8388608,
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {"v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13", 34359738368,
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
}};

/// The entry whose file id is |id|, or nullptr.
inline const ManifestEntry* manifest_entry(std::string_view id) {
  for (const ManifestEntry& e : kParentCacheManifest)
    if (e.id == id) return &e;
  return nullptr;
}

/// The graphs gen_graph_cache made the manifest from: seal proof id 0–9 (porep_id_of(id)), the
/// sector size of id % 5, API 1.0.0 for ids 0–4 and 1.1.0 for 5–9.
struct ManifestGraph {
  std::uint64_t porep;
  SectorSize size;
  ApiVersion api;
};
inline ManifestGraph manifest_graph(std::uint64_t porep) {
  return {porep, kSectorSizes[porep % 5], porep < 5 ? ApiVersion::v1_0_0 : ApiVersion::v1_1_0};
}

}  // namespace cuzk::filecoin::known
