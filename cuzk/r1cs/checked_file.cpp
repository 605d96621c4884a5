#include "cuzk/r1cs/checked_file.hpp"

#include <cerrno>
#include <cstring>

#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

Status io_error(const std::string& what, const std::string& path) {
  return Status(Errc::io_error, what + " " + path + ": " + std::strerror(errno));
}

std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace

void BodyChecksum::add(const void* p, std::size_t n) {
  parts_.push_back(checksum64(p, n, parts_.size()));
}

std::uint64_t BodyChecksum::value() const {
  return checksum64(parts_.data(), parts_.size() * 8, seed_);
}

Status write_checked_file(const std::string& path, const CheckedFileFormat& format,
                          std::vector<std::uint64_t> fields, const BodyArrays& arrays) {
  std::uint64_t body_size = 0;
  BodyChecksum hash(format.body_seed);
  arrays([&](const void* p, std::size_t n) {
    body_size += n;
    hash.add(p, n);
  });
  fields.push_back(body_size);
  fields.push_back(hash.value());
  if (fields.size() != format.fields)
    return Status(Errc::invalid_argument,
                  std::string(format.name) + ": " + std::to_string(fields.size()) +
                      " header fields, the format has " + std::to_string(format.fields));
  std::vector<unsigned char> header(format.header_size());
  unsigned char* p = header.data();
  std::memcpy(p, format.magic, 8);
  const std::uint32_t size32 = static_cast<std::uint32_t>(header.size());
  std::memcpy(p + 8, &format.version, 4);
  std::memcpy(p + 12, &size32, 4);
  p += 16;
  for (std::uint64_t v : fields) {
    std::memcpy(p, &v, 8);
    p += 8;
  }
  const std::uint64_t header_sum = checksum64(header.data(), header.size() - 8, format.header_seed);
  std::memcpy(p, &header_sum, 8);

  const std::string tmp = path + ".tmp";
  std::FILE* raw = std::fopen(tmp.c_str(), "wb");
  if (raw == nullptr) return io_error("cannot create", tmp);
  bool ok = std::fwrite(header.data(), 1, header.size(), raw) == header.size();
  arrays([&](const void* data, std::size_t n) {
    ok = ok && (n == 0 || std::fwrite(data, 1, n, raw) == n);
  });
  if (!ok) {
    Status s = io_error("cannot write", tmp);
    std::fclose(raw);
    std::remove(tmp.c_str());
    return s;
  }
  if (std::fclose(raw) != 0) return io_error("cannot close", tmp);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return io_error("cannot rename into", path);
  return {};
}

Result<CheckedFileReader> CheckedFileReader::open(const std::string& path,
                                                  const CheckedFileFormat& format,
                                                  std::uint64_t key) {
  CheckedFileReader r(format, path);
  r.file_.reset(std::fopen(path.c_str(), "rb"));
  if (!r.file_) {
    if (errno == ENOENT)
      return Status(Errc::not_found, std::string(format.name) + " " + path + " does not exist");
    return io_error(std::string("cannot open ") + format.name, path);
  }
  const std::size_t size = format.header_size();
  std::vector<unsigned char> header(size);
  const std::size_t got = std::fread(header.data(), 1, size, r.file_.get());
  if (got < 8)
    return r.error(Errc::truncated,
                   "file is " + std::to_string(got) + " bytes, shorter than the header");
  if (std::memcmp(header.data(), format.magic, 8) != 0)
    return r.error(Errc::bad_encoding, std::string("wrong magic (not a cuzk ") + format.name + ")");
  if (got < size)
    return r.error(Errc::truncated,
                   "header is " + std::to_string(got) + " of " + std::to_string(size) + " bytes");
  std::uint32_t version = 0, header_size = 0;
  std::memcpy(&version, header.data() + 8, 4);
  std::memcpy(&header_size, header.data() + 12, 4);
  if (version != format.version)
    return r.error(Errc::bad_encoding, "version " + std::to_string(version) +
                                           ", this build reads version " +
                                           std::to_string(format.version) + " (stale)");
  if (header_size != size ||
      load64(header.data() + size - 8) != checksum64(header.data(), size - 8, format.header_seed))
    return r.error(Errc::bad_encoding, "header checksum mismatch (corrupt header)");
  for (std::size_t i = 0; i < format.fields; ++i)
    r.fields_.push_back(load64(header.data() + 16 + 8 * i));
  if (r.fields_[0] != key)
    return r.error(Errc::invalid_argument, "stale: written for " + std::string(format.key_name) +
                                               " " + std::to_string(r.fields_[0]) + ", expected " +
                                               std::to_string(key));
  // The file length against the header before the format allocates anything large.
  if (std::fseek(r.file_.get(), 0, SEEK_END) != 0) return io_error("cannot seek", path);
  const long end = std::ftell(r.file_.get());
  if (end < 0) return io_error("cannot tell", path);
  const auto file_body = static_cast<std::uint64_t>(end) - size;
  if (file_body < r.body_size())
    return r.error(Errc::truncated, "body is " + std::to_string(file_body) +
                                        " bytes, header says " + std::to_string(r.body_size()));
  if (file_body > r.body_size())
    return r.error(Errc::size_mismatch,
                   std::to_string(file_body - r.body_size()) + " trailing bytes after the body");
  if (std::fseek(r.file_.get(), static_cast<long>(size), SEEK_SET) != 0)
    return io_error("cannot seek", path);
  return r;
}

bool CheckedFileReader::read(void* dst, std::size_t n) {
  const bool ok = n == 0 || std::fread(dst, 1, n, file_.get()) == n;
  hash_.add(dst, n);
  return ok;
}

Status CheckedFileReader::check_body() const {
  if (hash_.value() != fields_[fields_.size() - 1])
    return error(Errc::bad_encoding, "body checksum mismatch (corrupt body)");
  return {};
}

Status CheckedFileReader::error(Errc code, const std::string& what) const {
  return Status(code, std::string(format_->name) + " " + path_ + ": " + what);
}

void put_matrix_arrays(const SparseMatrix& s, std::vector<std::uint32_t>& lens,
                       const std::function<void(const void*, std::size_t)>& put) {
  lens.resize(s.num_rows());
  for (std::size_t k = 0; k < lens.size(); ++k)
    lens[k] = static_cast<std::uint32_t>(s.row_ptr[k + 1] - s.row_ptr[k]);
  put(lens.data(), lens.size() * 4);
  put(s.col.data(), s.col.size() * 4);
  put(s.gen_idx.data(), s.gen_idx.size() * 4);
  put(s.coeffs.data(), s.coeffs.size() * sizeof(Fr));
}

Status read_matrix_arrays(CheckedFileReader& f, SparseMatrix& s, std::uint64_t rows,
                          std::uint64_t nnz, std::uint64_t general, std::uint64_t distinct,
                          std::vector<std::uint32_t>& lens, const std::string& what) {
  lens.resize(rows);
  s.col.resize(nnz);
  s.gen_idx.resize(general);
  s.coeffs.resize(distinct);
  if (!f.read(lens.data(), lens.size() * 4) || !f.read(s.col.data(), s.col.size() * 4) ||
      !f.read(s.gen_idx.data(), s.gen_idx.size() * 4) ||
      !f.read(s.coeffs.data(), s.coeffs.size() * sizeof(Fr)))
    return f.error(Errc::truncated, what + " ends early");
  s.row_ptr.assign(rows + 1, 0);
  std::uint64_t off = 0;
  for (std::uint64_t k = 0; k < rows; ++k) {
    off += lens[k];
    if (off > s.col.size())
      return f.error(Errc::bad_encoding, what + " row lengths exceed its non-zeros");
    s.row_ptr[k + 1] = off;
  }
  if (off != s.col.size())
    return f.error(Errc::bad_encoding, what + " row lengths disagree with its non-zeros");
  s.rebuild_blocks();
  return {};
}

}  // namespace cuzk
