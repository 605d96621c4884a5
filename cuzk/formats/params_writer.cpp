#include "cuzk/formats/params_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "cuzk/ec/batch_decode.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/formats/bellperson.hpp"

namespace cuzk {

namespace {

constexpr std::size_t kMaxPending = 2;

void put_u32_be(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<std::uint8_t>(v >> s));
}

Status io_error(const std::string& what, const std::string& path) {
  return Status(Errc::io_error, what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

ParamsFileWriter::ParamsFileWriter(std::string path, ThreadPool* pool)
    : path_(std::move(path)), partial_(path_ + ".partial"), pool_(pool) {}

ParamsFileWriter::~ParamsFileWriter() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  if (fd_ >= 0) {
    ::close(fd_);
    if (!finished_) std::remove(partial_.c_str());
  }
}

void ParamsFileWriter::writer_loop() {
  for (;;) {
    std::vector<std::uint8_t> buf;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !pending_.empty(); });
      if (pending_.empty()) return;
      buf = std::move(pending_.front());
    }
    Status st;
    std::size_t done = 0;
    while (done < buf.size()) {
      const ssize_t w = ::write(fd_, buf.data() + done, buf.size() - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        st = io_error("cannot write", partial_);
        break;
      }
      done += static_cast<std::size_t>(w);
    }
    {
      std::lock_guard lock(mu_);
      pending_.pop_front();
      if (!st.ok() && write_error_.ok()) write_error_ = st;
    }
    cv_.notify_all();
  }
}

Status ParamsFileWriter::queue(std::vector<std::uint8_t> buf) {
  bytes_ += buf.size();
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return pending_.size() < kMaxPending; });
  if (!write_error_.ok()) return write_error_;
  pending_.push_back(std::move(buf));
  cv_.notify_all();
  return {};
}

Status ParamsFileWriter::verifying_key(const VerifyingKey& vk, KeyLayout layout,
                                       std::uint64_t domain_size) {
  (void)domain_size;  // implied by the h query's length
  if (layout != KeyLayout::bellperson)
    return Status(Errc::invalid_argument, "params writer: the key has the snarkjs layout");
  if (next_query_ != -1) return Status(Errc::invalid_argument, "params writer: VK given twice");
  fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) return io_error("cannot create", partial_);
  writer_ = std::thread([this] { writer_loop(); });
  next_query_ = 0;
  vk_ = vk;
  return queue(write_vk(vk));
}

Status ParamsFileWriter::begin_query(KeyQuery q, std::uint64_t count) {
  if (next_query_ < 0) return Status(Errc::invalid_argument, "params writer: query before the VK");
  if (static_cast<int>(q) != next_query_)
    return Status(Errc::invalid_argument,
                  "params writer: query " + std::to_string(static_cast<int>(q)) +
                      " out of order (expected " + std::to_string(next_query_) + ")");
  if (q != KeyQuery::h && left_ != 0)
    return Status(Errc::invalid_argument,
                  "params writer: the previous query lacks " + std::to_string(left_) + " points");
  if (count > 0xffffffffu)
    return Status(Errc::invalid_argument,
                  "params writer: " + std::to_string(count) + " points do not fit a u32 length");
  ++next_query_;
  left_ = count;
  std::vector<std::uint8_t> hdr;
  put_u32_be(hdr, static_cast<std::uint32_t>(count));
  return queue(std::move(hdr));
}

Status ParamsFileWriter::take_points(std::size_t n, bool g2) {
  const bool is_g2 = next_query_ == static_cast<int>(KeyQuery::b_g2) + 1;
  if (next_query_ <= 0 || g2 != is_g2)
    return Status(Errc::invalid_argument, "params writer: points of the wrong group or no query");
  if (n > left_)
    return Status(Errc::invalid_argument, "params writer: more points than the query's count");
  left_ -= n;
  return {};
}

Status ParamsFileWriter::append_g1(std::span<const G1Affine> points) {
  CUZK_RETURN_IF_ERROR(take_points(points.size(), false));
  ThreadPool serial(1);
  std::vector<std::uint8_t> buf(points.size() * kG1UncompressedBytes);
  CUZK_RETURN_IF_ERROR(
      encode_g1_batch(points, buf, PointForm::uncompressed, pool_ != nullptr ? *pool_ : serial));
  return queue(std::move(buf));
}

Status ParamsFileWriter::append_g2(std::span<const G2Affine> points) {
  CUZK_RETURN_IF_ERROR(take_points(points.size(), true));
  ThreadPool serial(1);
  std::vector<std::uint8_t> buf(points.size() * kG2UncompressedBytes);
  CUZK_RETURN_IF_ERROR(
      encode_g2_batch(points, buf, PointForm::uncompressed, pool_ != nullptr ? *pool_ : serial));
  return queue(std::move(buf));
}

Status ParamsFileWriter::finish() {
  if (next_query_ != static_cast<int>(KeyQuery::b_g2) + 1 || left_ != 0)
    return Status(Errc::invalid_argument, "params writer: finish before every query is complete");
  {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return pending_.empty(); });
    stop_ = true;
  }
  cv_.notify_all();
  writer_.join();
  if (!write_error_.ok()) return write_error_;
  if (::fsync(fd_) != 0) return io_error("cannot sync", partial_);
  if (::close(fd_) != 0) {
    fd_ = -1;
    return io_error("cannot close", partial_);
  }
  fd_ = -1;
  if (std::rename(partial_.c_str(), path_.c_str()) != 0)
    return io_error("cannot rename to " + path_ + ":", partial_);
  finished_ = true;
  return {};
}

}  // namespace cuzk
