// bincode 1.x with its default options, as rust-fil-proofs and filecoin-proofs-api call it
// (`bincode::serialize` / `bincode::deserialize`): integers little-endian at fixed width, a Vec or
// String as u64 length then the items, a fixed array ([u8; 32]) as its items with no length, an enum
// as a u32 variant index then the variant's fields, a struct as its fields in declaration order,
// unit and PhantomData as nothing. FORMATS.md §7.
//
// The reader never trusts a length: a Vec length is refused unless its items, at their smallest,
// fit in the bytes that remain, so a crafted length cannot make it allocate. Every error names the
// byte offset and the field path being read ("inclusion_proofs[3].base_proof[2].hashes").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/status.hpp"
#include "cuzk/filecoin/bytes32.hpp"

namespace cuzk::filecoin {

class BincodeReader {
 public:
  explicit BincodeReader(std::span<const std::uint8_t> in) : in_(in) {}

  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }

  Status u32(std::uint32_t& out);
  Status u64(std::uint64_t& out);
  Status bytes32(Bytes32& out);
  /// A Vec length whose |min_item_bytes|-byte (at least) items must fit in what remains.
  Status length(std::uint64_t& out, std::size_t min_item_bytes);

  /// An error of kind |code| at the current offset and field path.
  Status error(Errc code, const std::string& what) const { return error_at(pos_, code, what); }
  /// The same at byte |at| (the start of a value already read).
  Status error_at(std::size_t at, Errc code, const std::string& what) const;
  /// The current field path, e.g. "vanilla_proof.sectors[0].comm_c".
  std::string field_path() const;

  /// Names the field being read while it lives; |index| ≥ 0 appends "[index]".
  class Field {
   public:
    Field(BincodeReader& r, const char* name, std::int64_t index = -1) : r_(r) {
      r_.path_.push_back({name, index});
    }
    ~Field() { r_.path_.pop_back(); }
    Field(const Field&) = delete;
    Field& operator=(const Field&) = delete;

   private:
    BincodeReader& r_;
  };

 private:
  struct Frame {
    const char* name;
    std::int64_t index;
  };
  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
  std::vector<Frame> path_;
};

class BincodeWriter {
 public:
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void bytes32(const Bytes32& b) { out_.insert(out_.end(), b.begin(), b.end()); }
  const std::vector<std::uint8_t>& bytes() const { return out_; }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

}  // namespace cuzk::filecoin
