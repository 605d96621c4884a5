#include "cuzk/formats/key_image.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#include "cuzk/r1cs/checksum.hpp"

namespace cuzk {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'K', 'I', 'M', 'G'};
constexpr std::size_t kHeaderBytes = 4096;
constexpr std::size_t kAlign = 4096;
constexpr std::size_t kTableAt = 64, kGenAt = 464, kFrOneAt = 568, kDimsAt = 600, kFlagsAt = 648,
                      kHeaderSumAt = 656;
constexpr std::size_t kChunk = std::size_t{16} << 20;
// The point sections, then per matrix (A, B, C) its five SparseMatrix arrays, then the three
// density bitmaps' words.
enum { kVk, kIc, kH, kL, kA, kBG1, kBG2, kMat0, kDensity0 = kMat0 + 15, kSections = kDensity0 + 3 };
enum { kRowPtr, kCol, kGenIdx, kCoeffs, kBlockGen, kMatArrays };
constexpr const char* kNames[kSections] = {"vk",
                                           "ic",
                                           "h",
                                           "l",
                                           "a",
                                           "b_g1",
                                           "b_g2",
                                           "A row_ptr",
                                           "A col",
                                           "A gen_idx",
                                           "A coeffs",
                                           "A block_gen",
                                           "B row_ptr",
                                           "B col",
                                           "B gen_idx",
                                           "B coeffs",
                                           "B block_gen",
                                           "C row_ptr",
                                           "C col",
                                           "C gen_idx",
                                           "C coeffs",
                                           "C block_gen",
                                           "a_aux density",
                                           "b_input density",
                                           "b_aux density"};
constexpr std::size_t kVkBytes = 3 * sizeof(G1Affine) + 3 * sizeof(G2Affine);
static_assert(kTableAt + 16 * kSections == kGenAt && kGenAt + sizeof(G1Affine) == kFrOneAt &&
              kFrOneAt + sizeof(Fr) == kDimsAt && kDimsAt + 6 * 8 == kFlagsAt &&
              kFlagsAt + 8 == kHeaderSumAt);

std::size_t align_up(std::size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

void put32(std::uint8_t* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint32_t get32(const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint64_t get64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The generator's coordinates as this build stores them (Montgomery limbs).
void put_generator(std::uint8_t* p) {
  const G1Affine g = G1Affine::generator();
  std::memcpy(p, &g.x, sizeof g.x);
  std::memcpy(p + sizeof g.x, &g.y, sizeof g.y);
}
void put_fr_one(std::uint8_t* p) {
  const Fr one = Fr::one();
  std::memcpy(p, &one, sizeof one);
}

std::size_t element_bytes(int s) {
  if (s >= kDensity0) return 8;
  if (s >= kMat0) {
    switch ((s - kMat0) % kMatArrays) {
      case kCol:
      case kGenIdx:
        return 4;
      case kCoeffs:
        return sizeof(Fr);
      default:
        return 8;
    }
  }
  return s == kVk ? kVkBytes : s == kBG2 ? sizeof(G2Affine) : sizeof(G1Affine);
}

// Calls f(section, vector) for every stored array of |m| (R1csMatrices, const or not) in section
// order: A, B, C with their five arrays each, then the three density bitmaps' words. The one list
// that write_key_image and KeyImage::matrices both follow.
template <class M, class F>
void for_each_matrix_section(M& m, F&& f) {
  int s = kMat0;
  for (auto* x : {&m.a, &m.b, &m.c}) {
    f(s + kRowPtr, x->row_ptr);
    f(s + kCol, x->col);
    f(s + kGenIdx, x->gen_idx);
    f(s + kCoeffs, x->coeffs);
    f(s + kBlockGen, x->block_gen);
    s += kMatArrays;
  }
  for (auto* d : {&m.a_aux_density, &m.b_input_density, &m.b_aux_density}) f(s++, d->words);
}

// Files whose data this process has checked: (device, inode, size, mtime ns).
using FileId = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::int64_t>;
std::mutex g_checked_mu;
std::set<FileId> g_checked;

Result<FileId> file_id(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return Status(errno == ENOENT ? Errc::not_found : Errc::io_error,
                  path + ": " + std::strerror(errno));
  return FileId{st.st_dev, st.st_ino, static_cast<std::uint64_t>(st.st_size),
                static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

Result<std::uint64_t> key_image_file_tag(const std::string& path, std::uint64_t mode) {
  auto id = file_id(path);
  if (!id.ok()) return id.status();
  const auto& [dev, ino, size, mtime_ns] = *id;
  const std::uint64_t parts[] = {dev, ino, size, static_cast<std::uint64_t>(mtime_ns), mode};
  std::uint64_t tag = 0x9e3779b97f4a7c15ull;
  for (std::uint64_t v : parts) tag = (tag ^ v) * 0xff51afd7ed558ccdull, tag ^= tag >> 29;
  return tag;
}

namespace {

Status write_all(int fd, const void* data, std::size_t n, const std::string& path) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (n) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Status(Errc::io_error, path + ": write: " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return {};
}

}  // namespace

std::uint64_t key_image_checksum(std::span<const std::uint8_t> bytes, ThreadPool* pool) {
  const std::size_t chunks = (bytes.size() + kChunk - 1) / kChunk;
  std::vector<std::uint64_t> sums(chunks);
  auto one = [&](std::size_t i) {
    const std::size_t at = i * kChunk;
    sums[i] = checksum64(bytes.data() + at, std::min(kChunk, bytes.size() - at), i);
  };
  if (pool)
    pool->parallel_for(chunks, one);
  else
    for (std::size_t i = 0; i < chunks; ++i) one(i);
  return checksum64(sums.data(), sums.size() * sizeof(std::uint64_t), bytes.size());
}

Status write_key_image(const std::string& path, const ProvingKey& pk, std::uint64_t source_tag,
                       ThreadPool* pool, const R1csMatrices* matrices) {
  // Section table.
  std::uint64_t counts[kSections] = {1,           pk.vk.ic.size(), pk.h.size(),   pk.l.size(),
                                     pk.a.size(), pk.b_g1.size(),  pk.b_g2.size()};
  const void* data[kSections] = {nullptr,     pk.vk.ic.data(), pk.h.data(),   pk.l.data(),
                                 pk.a.data(), pk.b_g1.data(),  pk.b_g2.data()};
  std::uint64_t dims[6] = {};
  if (matrices != nullptr) {
    const R1csMatrices& m = *matrices;
    for_each_matrix_section(
        m, [&](int s, const auto& v) { counts[s] = v.size(), data[s] = v.data(); });
    dims[0] = m.num_inputs, dims[1] = m.num_aux, dims[2] = m.num_constraints;
    dims[3] = m.a_aux_density.bits, dims[4] = m.b_input_density.bits,
    dims[5] = m.b_aux_density.bits;
  }
  std::uint64_t offset[kSections];
  std::size_t at = kHeaderBytes;
  for (int s = 0; s < kSections; ++s) {
    offset[s] = at;
    at = align_up(at + counts[s] * element_bytes(s));
  }
  const std::uint64_t file_bytes = at;
  std::vector<std::uint8_t> vk(kVkBytes, 0);
  {
    std::uint8_t* p = vk.data();
    for (const G1Affine* g : {&pk.vk.alpha_g1, &pk.vk.beta_g1})
      std::memcpy(p, g, sizeof *g), p += sizeof *g;
    for (const G2Affine* g : {&pk.vk.beta_g2, &pk.vk.gamma_g2})
      std::memcpy(p, g, sizeof *g), p += sizeof *g;
    std::memcpy(p, &pk.vk.delta_g1, sizeof(G1Affine)), p += sizeof(G1Affine);
    std::memcpy(p, &pk.vk.delta_g2, sizeof(G2Affine));
  }
  data[kVk] = vk.data();

  const std::string tmp =
      path + ".tmp." + std::to_string(::getpid());  // two writers never share one
  const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status(Errc::io_error, tmp + ": " + std::strerror(errno));
  auto fail = [&](Status st) {
    ::close(fd);
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    return st;
  };
  std::vector<std::uint8_t> header(kHeaderBytes, 0);
  if (Status st = write_all(fd, header.data(), header.size(), tmp); !st.ok()) return fail(st);
  std::uint64_t pos = kHeaderBytes;
  const std::vector<std::uint8_t> zeros(kAlign, 0);
  for (int s = 0; s < kSections; ++s) {
    if (Status st = write_all(fd, zeros.data(), offset[s] - pos, tmp); !st.ok()) return fail(st);
    const std::size_t n = counts[s] * element_bytes(s);
    if (n != 0)
      if (Status st = write_all(fd, data[s], n, tmp); !st.ok()) return fail(st);
    pos = offset[s] + n;
  }
  if (Status st = write_all(fd, zeros.data(), file_bytes - pos, tmp); !st.ok()) return fail(st);
  // The data checksum from the file as written (page cache), then the header.
  std::uint64_t sum = 0;
  {
    ::close(fd);
    auto mf = MappedFile::open(tmp);
    if (!mf) return fail(mf.status());
    sum = key_image_checksum(mf->bytes().subspan(kHeaderBytes), pool);
  }
  const int fd2 = ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd2 < 0) return Status(Errc::io_error, tmp + ": " + std::strerror(errno));
  std::uint8_t* h = header.data();
  std::memcpy(h, kMagic, 8);
  put32(h + 8, kKeyImageVersion);
  put32(h + 12, kHeaderBytes);
  put32(h + 16, sizeof(G1Affine));
  put32(h + 20, sizeof(G2Affine));
  put32(h + 24, pk.layout == KeyLayout::snarkjs ? 1 : 0);
  put32(h + 28, sizeof(Fr));
  put64(h + 32, pk.domain_size);
  put64(h + 40, source_tag);
  put64(h + 48, file_bytes);
  put64(h + 56, sum);
  for (int s = 0; s < kSections; ++s) {
    put64(h + kTableAt + 16 * s, offset[s]);
    put64(h + kTableAt + 8 + 16 * s, counts[s]);
  }
  put_generator(h + kGenAt);
  put_fr_one(h + kFrOneAt);
  for (int i = 0; i < 6; ++i) put64(h + kDimsAt + 8 * i, dims[i]);
  put64(h + kFlagsAt, matrices != nullptr ? 1 : 0);
  put64(h + kHeaderSumAt, checksum64(h, kHeaderSumAt));
  Status st;
  if (::pwrite(fd2, h, kHeaderBytes, 0) != static_cast<ssize_t>(kHeaderBytes))
    st = Status(Errc::io_error, tmp + ": header write: " + std::strerror(errno));
  ::close(fd2);
  if (!st.ok()) return st;
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return Status(Errc::io_error, "rename " + tmp + ": " + ec.message());
  if (auto id = file_id(path); id.ok()) {
    std::lock_guard lock(g_checked_mu);
    g_checked.insert(*id);
  }
  return {};
}

Result<std::shared_ptr<const KeyImage>> KeyImage::open(const std::string& path,
                                                       std::uint64_t source_tag, ThreadPool* pool,
                                                       KeyImageCheck check) {
  auto id = file_id(path);
  if (!id) return id.status();
  auto mf = MappedFile::open(path);
  if (!mf) return mf.status();
  const auto bytes = mf->bytes();
  auto bad = [&](const std::string& why) {
    return Status(Errc::bad_encoding, "key image " + path + ": " + why);
  };
  if (bytes.size() < kHeaderBytes) return bad("shorter than its header");
  const std::uint8_t* h = bytes.data();
  if (std::memcmp(h, kMagic, 8) != 0) return bad("bad magic");
  // The version first: another version's header has its checksum elsewhere.
  if (get32(h + 8) != kKeyImageVersion)
    return bad("version " + std::to_string(get32(h + 8)) + ", this build reads version " +
               std::to_string(kKeyImageVersion));
  if (get64(h + kHeaderSumAt) != checksum64(h, kHeaderSumAt))
    return bad("header checksum mismatch");
  std::uint8_t gen[sizeof(G1Affine)] = {}, one[sizeof(Fr)] = {};
  put_generator(gen);
  put_fr_one(one);
  if (get32(h + 12) != kHeaderBytes || get32(h + 16) != sizeof(G1Affine) ||
      get32(h + 20) != sizeof(G2Affine) || get32(h + 28) != sizeof(Fr) ||
      std::memcmp(h + kGenAt, gen, 2 * sizeof(Fp)) != 0 ||
      std::memcmp(h + kFrOneAt, one, sizeof(Fr)) != 0)
    return bad("written by a build with another point layout");
  if (get64(h + 48) != bytes.size())
    return bad("file has " + std::to_string(bytes.size()) + " bytes, the header says " +
               std::to_string(get64(h + 48)));
  std::shared_ptr<KeyImage> img(new KeyImage());
  img->layout_ = get32(h + 24) == 1 ? KeyLayout::snarkjs : KeyLayout::bellperson;
  img->domain_size_ = get64(h + 32);
  for (int s = 0; s < kSections; ++s) {
    Section& sec = img->sec_[s];
    sec.offset = get64(h + kTableAt + 16 * s);
    sec.count = get64(h + kTableAt + 8 + 16 * s);
    const std::uint64_t eb = element_bytes(s);
    if (sec.offset < kHeaderBytes || sec.offset % kAlign != 0 || sec.offset > bytes.size() ||
        sec.count > (bytes.size() - sec.offset) / eb)
      return bad(std::string("section ") + kNames[s] + " outside the file");
  }
  if (img->sec_[kVk].count != 1) return bad("no verifying key");
  const std::uint64_t flags = get64(h + kFlagsAt);
  if (flags > 1) return bad("unknown flags " + std::to_string(flags));
  img->has_matrices_ = flags == 1;
  for (int i = 0; i < 6; ++i) img->dims_[i] = get64(h + kDimsAt + 8 * i);
  if (!img->has_matrices_)
    for (int s = kMat0; s < kSections; ++s)
      if (img->sec_[s].count != 0)
        return bad(std::string("section ") + kNames[s] + " without the matrices flag");
  if (get64(h + 40) != source_tag)
    return Status(Errc::invalid_argument,
                  "key image " + path + " is stale (made from another key file or circuit)");
  const bool seen = [&] {
    std::lock_guard lock(g_checked_mu);
    return g_checked.count(*id) != 0;
  }();
  if (check == KeyImageCheck::always || (check == KeyImageCheck::once_per_process && !seen)) {
    if (key_image_checksum(bytes.subspan(kHeaderBytes), pool) != get64(h + 56))
      return bad("data checksum mismatch");
    img->data_checked_ = true;
    std::lock_guard lock(g_checked_mu);
    g_checked.insert(*id);
  }
  img->file_ = std::move(*mf);
  img->path_ = path;
  return std::shared_ptr<const KeyImage>(std::move(img));
}

void KeyImage::release_pages() const {
  const auto b = file_.bytes();
  if (!b.empty()) (void)::madvise(const_cast<std::uint8_t*>(b.data()), b.size(), MADV_DONTNEED);
}

void KeyImage::view_queries(ProvingKey& pk) const {
  const std::uint8_t* base = file_.bytes().data();
  auto self = shared_from_this();
  auto g1 = [&](int s) {
    return PointArray<G1Affine>::view(
        {reinterpret_cast<const G1Affine*>(base + sec_[s].offset), sec_[s].count}, self);
  };
  pk.h = g1(kH);
  pk.l = g1(kL);
  pk.a = g1(kA);
  pk.b_g1 = g1(kBG1);
  pk.b_g2 = PointArray<G2Affine>::view(
      {reinterpret_cast<const G2Affine*>(base + sec_[kBG2].offset), sec_[kBG2].count}, self);
}

Result<R1csMatrices> KeyImage::matrices() const {
  if (!has_matrices_) return Status(Errc::not_found, "key image " + path_ + " holds no matrices");
  const std::uint8_t* base = file_.bytes().data();
  R1csMatrices m;
  m.num_inputs = dims_[0];
  m.num_aux = dims_[1];
  m.num_constraints = dims_[2];
  for_each_matrix_section(m, [&]<class T>(int s, std::vector<T>& dst) {
    const T* p = reinterpret_cast<const T*>(base + sec_[s].offset);
    dst.assign(p, p + sec_[s].count);
  });
  for (SparseMatrix* x : {&m.a, &m.b, &m.c}) x->rebuild_index();  // for rows appended later
  DensityBitmap* d[3] = {&m.a_aux_density, &m.b_input_density, &m.b_aux_density};
  for (int i = 0; i < 3; ++i) {
    d[i]->bits = dims_[3 + i];
    if (d[i]->words.size() != (d[i]->bits + 63) / 64)
      return Status(Errc::bad_encoding, "key image " + path_ + ": density bitmap sizes disagree");
  }
  // Offsets, block offsets, kinds, columns and coefficient indices: all that SpMV indexes by.
  if (Status st = m.validate(); !st.ok())
    return Status(Errc::bad_encoding, "key image " + path_ + ": " + st.to_string());
  return m;
}

ProvingKey KeyImage::key() const {
  const std::uint8_t* base = file_.bytes().data();
  ProvingKey pk;
  pk.layout = layout_;
  pk.domain_size = domain_size_;
  const std::uint8_t* p = base + sec_[kVk].offset;
  auto g1 = [&p](G1Affine& dst) { std::memcpy(&dst, p, sizeof dst), p += sizeof dst; };
  auto g2 = [&p](G2Affine& dst) { std::memcpy(&dst, p, sizeof dst), p += sizeof dst; };
  g1(pk.vk.alpha_g1);
  g1(pk.vk.beta_g1);
  g2(pk.vk.beta_g2);
  g2(pk.vk.gamma_g2);
  g1(pk.vk.delta_g1);
  g2(pk.vk.delta_g2);
  const auto* ic = reinterpret_cast<const G1Affine*>(base + sec_[kIc].offset);
  pk.vk.ic.assign(ic, ic + sec_[kIc].count);
  view_queries(pk);
  return pk;
}

}  // namespace cuzk
