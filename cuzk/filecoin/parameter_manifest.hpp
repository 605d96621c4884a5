// The parameter manifest (rust-fil-proofs parameters.json) and the integrity check of parameter
// files against it (docs/filecoin/parameters.md).
//
// parameters.json maps a file name to {"cid": IPFS CID, "digest": the first 32 hex digits of the
// file's BLAKE2b-512, "sector_size": bytes}. rust-fil-proofs checks a file the same way when
// verify_production_params is set (parameter_cache.rs `verify_production_entry`). Parameter files
// reach 47 GB: the digest streams the file in large chunks and never holds it whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.hpp"

namespace cuzk::filecoin {

struct ManifestEntry {
  std::string cid;
  std::string digest;  ///< 32 lowercase hex digits
  std::uint64_t sector_size = 0;
};
/// File name → entry, sorted by name.
using Manifest = std::map<std::string, ManifestEntry>;

/// Parses parameters.json text; errors name |origin|, the entry and the field.
Result<Manifest> parse_manifest(std::string_view json_text, std::string_view origin = "manifest");
/// Reads and parses a parameters.json file.
Result<Manifest> load_manifest(const std::filesystem::path& path);

/// A file's manifest digest and how fast it was read.
struct FileDigest {
  std::string digest;  ///< first 32 hex digits of BLAKE2b-512 of the whole file
  std::uint64_t bytes = 0;
  double seconds = 0;
  double bytes_per_second() const { return seconds > 0 ? bytes / seconds : 0; }
};
struct DigestOptions {
  std::size_t chunk_bytes = std::size_t{16} << 20;  ///< read size (at least 1)
};
/// Streams |path| through BLAKE2b-512 in chunks of options.chunk_bytes.
Result<FileDigest> parameter_file_digest(const std::filesystem::path& path,
                                         const DigestOptions& options = {});

/// What the digest check found for one file.
enum class DigestCheck {
  not_checked,      ///< missing, or a regular file whose digest was not asked for
  ok,               ///< equals the manifest's digest
  mismatch,         ///< differs from the manifest's digest
  not_in_manifest,  ///< present, but the manifest does not name it
  unreadable,       ///< present, but not a regular file (with or without a digest check) or
                    ///< not readable
};
/// "not-checked", "ok", "mismatch", "not-in-manifest", "unreadable".
std::string_view digest_check_name(DigestCheck c);

struct ParameterFileStatus {
  std::string name;
  bool found = false;
  std::uint64_t size = 0;                 ///< bytes on disk, when found
  std::optional<ManifestEntry> manifest;  ///< the manifest's entry, when it names the file
  DigestCheck check = DigestCheck::not_checked;
  FileDigest digest;  ///< when read (ok, mismatch, not_in_manifest)
  std::string error;  ///< unreadable: why
};

struct DirectoryCheck {
  std::filesystem::path dir;
  std::vector<ParameterFileStatus> files;  ///< the expected names, in the order given
  std::vector<std::string> unknown;        ///< other entries of dir, sorted (not errors)
  std::size_t found() const;
  std::size_t missing() const;
  std::size_t count(DigestCheck c) const;
  /// True when no file has a mismatching or unreadable digest.
  bool digests_ok() const {
    return count(DigestCheck::mismatch) + count(DigestCheck::unreadable) == 0;
  }
};

struct DirectoryCheckOptions {
  /// The names expected in the directory; empty = every name in the manifest.
  std::vector<std::string> names{};
  const Manifest* manifest = nullptr;  ///< digests and sizes; may be null without verify_digests
  bool verify_digests = false;         ///< read every found file and compare (needs manifest)
  DigestOptions digest{};
  /// Called with each file's status once it is known (progress for multi-GB files); may be empty.
  std::function<void(const ParameterFileStatus&)> on_file{};
};
/// Lists which expected files |dir| holds and, with verify_digests, checks each one found against
/// the manifest. A directory that cannot be listed is an error; a file that cannot be read is
/// reported as unreadable.
Result<DirectoryCheck> check_parameter_directory(const std::filesystem::path& dir,
                                                 const DirectoryCheckOptions& options);

/// The daemon's start-up check: every file of |dir| that |manifest_path| names is read and
/// compared; the error names each mismatching file (with both digests) and each unreadable one.
/// Files the manifest does not name, and missing ones, are not errors.
Status verify_parameter_directory(
    const std::filesystem::path& dir, const std::filesystem::path& manifest_path,
    const std::function<void(const ParameterFileStatus&)>& on_file = {});

}  // namespace cuzk::filecoin
