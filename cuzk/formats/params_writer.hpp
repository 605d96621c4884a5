// ParamsFileWriter: a bellperson .params file (formats/bellperson.hpp) written while the key is
// computed — a KeySink (groth16/key_sink.hpp) for setup_into, so a 47 GB key (32 GiB PoRep) never
// sits whole in memory. The bytes equal write_params of the same key: the VK and ic as write_vk,
// then per query its u32 big-endian length and its points uncompressed, each chunk encoded on the
// pool. A writer thread puts encoded chunks on disk while the next ones are computed (at most two
// chunks wait). The file is written as PATH.partial and renamed to PATH by finish(), so a failed
// or interrupted setup leaves no file under the final name.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/base/thread_pool.hpp"
#include "cuzk/groth16/key_sink.hpp"

namespace cuzk {

class ParamsFileWriter final : public KeySink {
 public:
  /// Writes PATH.partial (created or truncated on the first call), |pool| encodes (nullptr: one
  /// thread).
  explicit ParamsFileWriter(std::string path, ThreadPool* pool = nullptr);
  ~ParamsFileWriter() override;
  ParamsFileWriter(const ParamsFileWriter&) = delete;
  ParamsFileWriter& operator=(const ParamsFileWriter&) = delete;

  /// invalid_argument for the snarkjs layout; io_error when the file cannot be created.
  Status verifying_key(const VerifyingKey& vk, KeyLayout layout,
                       std::uint64_t domain_size) override;
  /// invalid_argument for queries out of order, a count over 2^32 − 1, or the previous query
  /// short of its count.
  Status begin_query(KeyQuery q, std::uint64_t count) override;
  Status append_g1(std::span<const G1Affine> points) override;
  Status append_g2(std::span<const G2Affine> points) override;
  /// Waits for the writes, checks every query was complete, renames PATH.partial to PATH.
  Status finish() override;

  /// The verifying key received (for the .vk file beside the .params).
  const VerifyingKey& vk() const { return vk_; }
  /// Bytes written (or queued) so far.
  std::uint64_t bytes() const { return bytes_; }

 private:
  Status queue(std::vector<std::uint8_t> buf);
  Status take_points(std::size_t n, bool g2);
  void writer_loop();

  std::string path_, partial_;
  VerifyingKey vk_;
  ThreadPool* pool_;
  int fd_ = -1;
  int next_query_ = -1;  // index of the query being filled (KeyQuery order); −1 before the VK
  std::uint64_t left_ = 0;
  std::uint64_t bytes_ = 0;
  bool finished_ = false;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<std::uint8_t>> pending_;
  bool stop_ = false;
  Status write_error_;
  std::thread writer_;
};

}  // namespace cuzk
