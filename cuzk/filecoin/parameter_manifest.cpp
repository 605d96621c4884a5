#include "cuzk/filecoin/parameter_manifest.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <system_error>

#include "cuzk/hash/blake2b.hpp"

namespace cuzk::filecoin {
namespace {

using json = nlohmann::json;

std::string hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (std::uint8_t b : bytes) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

bool lower_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A manifest name is joined to the directory: it must be one plain path component.
bool plain_file_name(std::string_view n) {
  return !n.empty() && n != "." && n != ".." && n.find('/') == std::string_view::npos &&
         n.find('\0') == std::string_view::npos;
}

std::string errno_text(int e) { return std::error_code(e, std::generic_category()).message(); }

// Closes a file descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<Manifest> parse_manifest(std::string_view text, std::string_view origin) {
  const std::string where(origin);
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    // parse_error for bad syntax, out_of_range for a number beyond double (1E400): both "not
    // JSON" to us, and neither may escape (the daemon reads the manifest at start).
    return Status(Errc::bad_encoding, where + ": not JSON (" + e.what() + ")");
  }
  if (!root.is_object())
    return Status(
        Errc::bad_encoding,
        where + ": must be a JSON object mapping file names to {cid, digest, sector_size}");
  Manifest m;
  for (const auto& [name, v] : root.items()) {
    const std::string at = where + ": entry '" + name + "'";
    if (!plain_file_name(name))
      return Status(Errc::bad_encoding, at + ": a file name without '/' is required");
    if (!v.is_object()) return Status(Errc::bad_encoding, at + ": must be an object");
    ManifestEntry e;
    auto cid = v.find("cid");
    if (cid == v.end() || !cid->is_string() || cid->get<std::string>().empty())
      return Status(Errc::bad_encoding, at + ": field 'cid' must be a non-empty string");
    e.cid = cid->get<std::string>();
    auto digest = v.find("digest");
    if (digest == v.end() || !digest->is_string())
      return Status(Errc::bad_encoding, at + ": field 'digest' must be a string");
    e.digest = digest->get<std::string>();
    if (e.digest.size() != 32 || !lower_hex(e.digest))
      return Status(
          Errc::bad_encoding,
          at + ": field 'digest' must be 32 lowercase hex digits, got '" + e.digest + "'");
    auto size = v.find("sector_size");
    if (size == v.end() || !size->is_number_unsigned())
      return Status(Errc::bad_encoding,
                    at + ": field 'sector_size' must be a non-negative integer");
    e.sector_size = size->get<std::uint64_t>();
    m.emplace(name, std::move(e));
  }
  return m;
}

Result<Manifest> load_manifest(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Status(Errc::io_error, "cannot read manifest " + path.string());
  std::stringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return Status(Errc::io_error, "reading manifest " + path.string() + " failed");
  return parse_manifest(ss.str(), path.string());
}

Result<FileDigest> parameter_file_digest(const std::filesystem::path& path,
                                         const DigestOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0)
    return Status(Errc::io_error, "cannot open " + path.string() + ": " + errno_text(errno));
  ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  // One chunk, no larger than the file (+1 to see its end in one read), left uninitialised.
  struct stat st {};
  std::size_t chunk = std::max<std::size_t>(options.chunk_bytes, 1);
  if (::fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode))
    chunk = std::min<std::size_t>(chunk, static_cast<std::size_t>(st.st_size) + 1);
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[chunk]);
  hash::Blake2b512 h;
  FileDigest d;
  for (;;) {
    const ssize_t n = ::read(f.fd, buf.get(), chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(Errc::io_error, "reading " + path.string() + " at offset " +
                                        std::to_string(d.bytes) + ": " + errno_text(errno));
    }
    if (n == 0) break;
    h.update({buf.get(), static_cast<std::size_t>(n)});
    d.bytes += static_cast<std::uint64_t>(n);
  }
  const hash::Digest64 full = h.finish();
  d.digest = hex(std::span(full).first(16));  // 16 bytes = the manifest's 32 hex digits
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return d;
}

std::string_view digest_check_name(DigestCheck c) {
  switch (c) {
    case DigestCheck::not_checked:
      return "not-checked";
    case DigestCheck::ok:
      return "ok";
    case DigestCheck::mismatch:
      return "mismatch";
    case DigestCheck::not_in_manifest:
      return "not-in-manifest";
    case DigestCheck::unreadable:
      return "unreadable";
  }
  return "?";
}

std::size_t DirectoryCheck::found() const {
  return std::count_if(files.begin(), files.end(), [](const auto& f) { return f.found; });
}
std::size_t DirectoryCheck::missing() const { return files.size() - found(); }
std::size_t DirectoryCheck::count(DigestCheck c) const {
  return std::count_if(files.begin(), files.end(), [c](const auto& f) { return f.check == c; });
}

Result<DirectoryCheck> check_parameter_directory(const std::filesystem::path& dir,
                                                 const DirectoryCheckOptions& options) {
  namespace fs = std::filesystem;
  if (options.verify_digests && !options.manifest)
    return Status(Errc::invalid_argument, "a digest check needs a manifest");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Status(Errc::not_found, "parameter directory " + dir.string() + " does not exist");
  std::set<std::string> present;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    present.insert(it->path().filename().string());
  if (ec) return Status(Errc::io_error, "cannot list " + dir.string() + ": " + ec.message());

  DirectoryCheck out;
  out.dir = dir;
  std::vector<std::string> names = options.names;
  if (names.empty() && options.manifest)
    for (const auto& [name, entry] : *options.manifest) names.push_back(name);
  std::set<std::string> expected(names.begin(), names.end());
  for (const std::string& name : names) {
    ParameterFileStatus s;
    s.name = name;
    if (options.manifest)
      if (auto it = options.manifest->find(name); it != options.manifest->end())
        s.manifest = it->second;
    s.found = present.count(name) > 0;
    if (s.found) {
      const fs::path p = dir / name;
      if (!fs::is_regular_file(p, ec)) {
        s.check = DigestCheck::unreadable;
        s.error = p.string() + " is not a regular file";
      } else {
        s.size = fs::file_size(p, ec);
        if (ec) {
          s.check = DigestCheck::unreadable;
          s.error = "cannot stat " + p.string() + ": " + ec.message();
        }
      }
      if (options.verify_digests && s.check == DigestCheck::not_checked) {
        if (!s.manifest) {
          s.check = DigestCheck::not_in_manifest;
        } else if (auto d = parameter_file_digest(p, options.digest); !d) {
          s.check = DigestCheck::unreadable;
          s.error = d.status().message();
        } else {
          s.digest = std::move(*d);
          s.check = s.digest.digest == s.manifest->digest ? DigestCheck::ok : DigestCheck::mismatch;
        }
      }
    }
    if (options.on_file) options.on_file(s);
    out.files.push_back(std::move(s));
  }
  for (const std::string& name : present)
    if (!expected.count(name)) out.unknown.push_back(name);
  return out;
}

Status verify_parameter_directory(const std::filesystem::path& dir,
                                  const std::filesystem::path& manifest_path,
                                  const std::function<void(const ParameterFileStatus&)>& on_file) {
  auto manifest = load_manifest(manifest_path);
  if (!manifest) return manifest.status();
  DirectoryCheckOptions o;
  o.manifest = &*manifest;
  o.verify_digests = true;
  o.on_file = on_file;
  auto r = check_parameter_directory(dir, o);
  if (!r) return r.status();
  std::string bad;
  for (const ParameterFileStatus& f : r->files) {
    if (f.check == DigestCheck::mismatch)
      bad += (bad.empty() ? "" : "; ") + (dir / f.name).string() + " has digest " +
             f.digest.digest + ", the manifest says " + f.manifest->digest;
    else if (f.check == DigestCheck::unreadable)
      bad += (bad.empty() ? "" : "; ") + f.error;
  }
  if (!bad.empty())
    return Status(Errc::unsatisfied,
                  "parameter files do not match " + manifest_path.string() + ": " + bad);
  return {};
}

}  // namespace cuzk::filecoin
