#include "cuzk/formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace cuzk {

Result<MappedFile> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status(errno == ENOENT ? Errc::not_found : Errc::io_error,
                  path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return Status(Errc::io_error, path + ": " + std::strerror(e));
  }
  MappedFile f;
  f.size_ = static_cast<std::size_t>(st.st_size);
  if (f.size_ > 0) {
    void* p = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int e = errno;
      ::close(fd);
      return Status(Errc::io_error, path + ": mmap: " + std::strerror(e));
    }
    f.data_ = static_cast<const std::uint8_t*>(p);
  }
  ::close(fd);
  return f;
}

MappedFile::MappedFile(MappedFile&& o) noexcept : data_(o.data_), size_(o.size_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

Result<std::vector<std::uint8_t>> read_whole_file(const std::string& path) {
  auto m = MappedFile::open(path);
  if (!m.ok()) return m.status();
  return std::vector<std::uint8_t>(m->bytes().begin(), m->bytes().end());
}

Status write_whole_file(const std::string& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return Status(Errc::io_error, path + ": cannot open for writing: " + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return Status(Errc::io_error, path + ": write failed");
  return {};
}

Result<std::span<const std::uint8_t>> ByteReader::take(std::size_t n, const std::string& field) {
  if (n > remaining())
    return Status(Errc::truncated, what_ + ": " + field + ": need " + std::to_string(n) +
                                       " bytes at offset " + std::to_string(pos_) + ", " +
                                       std::to_string(remaining()) + " left");
  auto s = b_.subspan(pos_, n);
  pos_ += n;
  return s;
}

Result<std::uint32_t> ByteReader::u32_le(const std::string& field) {
  auto s = take(4, field);
  if (!s.ok()) return s.status();
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | (*s)[i];
  return v;
}

Result<std::uint64_t> ByteReader::u64_le(const std::string& field) {
  auto s = take(8, field);
  if (!s.ok()) return s.status();
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | (*s)[i];
  return v;
}

Result<std::uint32_t> ByteReader::u32_be(const std::string& field) {
  auto s = take(4, field);
  if (!s.ok()) return s.status();
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | (*s)[i];
  return v;
}

void put_u32_le(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u64_le(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_u32_be(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace cuzk
