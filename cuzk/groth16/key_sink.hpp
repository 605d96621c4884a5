// KeySink: where a Groth16 setup (groth16/setup.hpp) delivers the key it computes, part by part in
// the order of bellperson's .params file (formats/bellperson.hpp): the verifying key (with ic),
// then the queries h, l, a, b_g1, b_g2, each announced with its length and then appended in
// chunks. So a key of 47 GB (32 GiB PoRep) can go to its file as it is computed, never whole in
// memory (formats/params_writer.hpp); ProvingKeyCollector assembles an in-memory ProvingKey.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk {

/// The five queries, in the order setup delivers them.
enum class KeyQuery { h, l, a, b_g1, b_g2 };

class KeySink {
 public:
  virtual ~KeySink() = default;
  /// First: the verifying key (ic included), the layout and the domain size.
  virtual Status verifying_key(const VerifyingKey& vk, KeyLayout layout,
                               std::uint64_t domain_size) = 0;
  /// Then per query, in KeyQuery order: its length, then its points in order, in chunks.
  virtual Status begin_query(KeyQuery q, std::uint64_t count) = 0;
  virtual Status append_g1(std::span<const G1Affine> points) = 0;
  virtual Status append_g2(std::span<const G2Affine> points) = 0;
  /// Last, once every query is complete.
  virtual Status finish() = 0;
};

/// Collects the parts into a ProvingKey (take() after finish()).
class ProvingKeyCollector final : public KeySink {
 public:
  Status verifying_key(const VerifyingKey& vk, KeyLayout layout,
                       std::uint64_t domain_size) override {
    pk_.vk = vk;
    pk_.layout = layout;
    pk_.domain_size = domain_size;
    return {};
  }
  Status begin_query(KeyQuery q, std::uint64_t count) override {
    flush();
    q_ = q;
    if (q == KeyQuery::b_g2)
      g2_.reserve(count);
    else
      g1_.reserve(count);
    return {};
  }
  Status append_g1(std::span<const G1Affine> points) override {
    g1_.insert(g1_.end(), points.begin(), points.end());
    return {};
  }
  Status append_g2(std::span<const G2Affine> points) override {
    g2_.insert(g2_.end(), points.begin(), points.end());
    return {};
  }
  Status finish() override {
    flush();
    return {};
  }
  ProvingKey take() { return std::move(pk_); }

 private:
  // Moves the points gathered so far into the query being filled.
  void flush() {
    switch (q_) {
      case KeyQuery::h:
        if (!g1_.empty()) pk_.h = std::move(g1_);
        break;
      case KeyQuery::l:
        pk_.l = std::move(g1_);
        break;
      case KeyQuery::a:
        pk_.a = std::move(g1_);
        break;
      case KeyQuery::b_g1:
        pk_.b_g1 = std::move(g1_);
        break;
      case KeyQuery::b_g2:
        pk_.b_g2 = std::move(g2_);
        break;
    }
    g1_ = {};
    g2_ = {};
  }
  ProvingKey pk_;
  KeyQuery q_ = KeyQuery::h;
  std::vector<G1Affine> g1_;
  std::vector<G2Affine> g2_;
};

}  // namespace cuzk
