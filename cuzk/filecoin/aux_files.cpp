#include "cuzk/filecoin/aux_files.hpp"

#include <algorithm>
#include <cstring>

#include "cuzk/filecoin/poseidon_tree.hpp"

namespace cuzk::filecoin {
namespace {

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put_string(std::vector<std::uint8_t>& out, const std::string& s) {
  put_u64(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}
void put_store_config(std::vector<std::uint8_t>& out, const StoreConfig& c) {
  put_string(out, c.path);
  put_string(out, c.id);
  if (c.size) {
    out.push_back(1);
    put_u64(out, *c.size);
  } else {
    out.push_back(0);
  }
  put_u64(out, c.rows_to_discard);
}

// A bounds-checked reader over bincode bytes; errors name the field and the byte offset.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  std::size_t offset() const { return at_; }
  std::size_t left() const { return b_.size() - at_; }

  Result<std::uint64_t> u64(const std::string& what) {
    if (left() < 8) return short_of(what, 8);
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(b_[at_ + i]) << (8 * i);
    at_ += 8;
    return v;
  }
  Result<std::uint8_t> u8(const std::string& what) {
    if (left() < 1) return short_of(what, 1);
    return b_[at_++];
  }
  Result<std::string> string(const std::string& what) {
    const std::size_t start = at_;
    auto len = u64(what + " length");
    if (!len.ok()) return len.status();
    if (*len > left())
      return Status(Errc::truncated, what + " at byte " + std::to_string(start) + " claims " +
                                         std::to_string(*len) + " bytes, " +
                                         std::to_string(left()) + " remain");
    std::string s(reinterpret_cast<const char*>(b_.data() + at_), static_cast<std::size_t>(*len));
    at_ += static_cast<std::size_t>(*len);
    return s;
  }

 private:
  Status short_of(const std::string& what, std::size_t need) const {
    return Status(Errc::truncated, what + " at byte " + std::to_string(at_) + " needs " +
                                       std::to_string(need) + " bytes, " + std::to_string(left()) +
                                       " remain");
  }
  std::span<const std::uint8_t> b_;
  std::size_t at_ = 0;
};

Result<StoreConfig> read_store_config(Reader& r, const std::string& what) {
  StoreConfig c;
  auto path = r.string(what + ".path");
  if (!path.ok()) return path.status();
  c.path = std::move(path).value();
  auto id = r.string(what + ".id");
  if (!id.ok()) return id.status();
  c.id = std::move(id).value();
  const std::size_t tag_at = r.offset();
  auto tag = r.u8(what + ".size tag");
  if (!tag.ok()) return tag.status();
  if (*tag == 1) {
    auto size = r.u64(what + ".size");
    if (!size.ok()) return size.status();
    c.size = *size;
  } else if (*tag != 0) {
    return Status(Errc::bad_encoding, what + ".size at byte " + std::to_string(tag_at) +
                                          ": Option tag " + std::to_string(*tag) +
                                          " is neither 0 nor 1");
  }
  auto rows = r.u64(what + ".rows_to_discard");
  if (!rows.ok()) return rows.status();
  c.rows_to_discard = *rows;
  return c;
}

}  // namespace

std::vector<std::uint8_t> serialize_p_aux(const PersistentAux& p) {
  std::vector<std::uint8_t> out(p.comm_c.begin(), p.comm_c.end());
  out.insert(out.end(), p.comm_r_last.begin(), p.comm_r_last.end());
  return out;
}

Result<PersistentAux> parse_p_aux(std::span<const std::uint8_t> bytes) {
  if (bytes.size() != 64)
    return Status(Errc::size_mismatch,
                  "p_aux has " + std::to_string(bytes.size()) + " bytes, expected 64");
  PersistentAux p;
  std::memcpy(p.comm_c.data(), bytes.data(), 32);
  std::memcpy(p.comm_r_last.data(), bytes.data() + 32, 32);
  if (!fr_from_node(p.comm_c).ok())
    return Status(Errc::out_of_range, "p_aux comm_c (bytes 0..32) is not below r");
  if (!fr_from_node(p.comm_r_last).ok())
    return Status(Errc::out_of_range, "p_aux comm_r_last (bytes 32..64) is not below r");
  return p;
}

std::vector<std::uint8_t> serialize_t_aux(const TemporaryAux& t) {
  std::vector<std::uint8_t> out;
  put_u64(out, t.labels.size());
  for (const StoreConfig& c : t.labels) put_store_config(out, c);
  put_store_config(out, t.tree_d);
  put_store_config(out, t.tree_r_last);
  put_store_config(out, t.tree_c);
  return out;
}

Result<TemporaryAux> parse_t_aux(std::span<const std::uint8_t> bytes) {
  Reader r(bytes);
  TemporaryAux t;
  auto count = r.u64("t_aux labels count");
  if (!count.ok()) return count.status();
  // Each StoreConfig takes at least 25 bytes (two empty strings, tag, rows_to_discard).
  if (*count > r.left() / 25)
    return Status(Errc::truncated, "t_aux labels count " + std::to_string(*count) +
                                       " needs at least " + std::to_string(*count * 25) +
                                       " more bytes, " + std::to_string(r.left()) + " remain");
  for (std::uint64_t i = 0; i < *count; ++i) {
    auto c = read_store_config(r, "t_aux labels[" + std::to_string(i) + "]");
    if (!c.ok()) return c.status();
    t.labels.push_back(std::move(c).value());
  }
  for (auto [field, name] :
       {std::pair{&t.tree_d, "tree_d_config"}, std::pair{&t.tree_r_last, "tree_r_last_config"},
        std::pair{&t.tree_c, "tree_c_config"}}) {
    auto c = read_store_config(r, std::string("t_aux ") + name);
    if (!c.ok()) return c.status();
    *field = std::move(c).value();
  }
  if (r.left() != 0)
    return Status(Errc::size_mismatch, "t_aux has " + std::to_string(r.left()) +
                                           " bytes after its last field (byte " +
                                           std::to_string(r.offset()) + ")");
  return t;
}

std::uint64_t default_rows_to_discard(std::uint64_t leaves, unsigned arity) {
  const std::uint64_t rows = merkle_tree_rows(leaves, arity);
  if (rows <= 2) return 0;
  if (rows == 3) return 1;
  const std::uint64_t max = rows - 2;
  const std::uint64_t cap = arity == 2 ? 7 : arity == 4 ? 5 : 2;
  return std::min(max, cap);
}

TemporaryAux make_t_aux(std::uint64_t nodes, unsigned layers, const TreeShape& shape,
                        const std::string& cache_path) {
  TemporaryAux t;
  for (unsigned l = 1; l <= layers; ++l)
    t.labels.push_back({cache_path, "layer-" + std::to_string(l), nodes, 0});
  t.tree_d = {cache_path, "tree-d", 2 * nodes - 1, 0};
  const std::uint64_t base_leaves = nodes / shape.base_trees();
  const std::uint64_t len = merkle_tree_len(base_leaves, shape.base);
  t.tree_r_last = {cache_path, "tree-r-last", len,
                   default_rows_to_discard(base_leaves, shape.base)};
  t.tree_c = {cache_path, "tree-c", len, 0};
  return t;
}

StoreConfig split_store_config(const StoreConfig& c, unsigned i, unsigned count) {
  if (count == 1) return c;
  StoreConfig s = c;
  s.id += "-" + std::to_string(i);
  return s;
}

}  // namespace cuzk::filecoin
