#include "cuzk/filecoin/c1_json.hpp"

#include <simdjson.h>

#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <type_traits>

namespace cuzk::filecoin {

// ---------------------------------------------------------------------------------------------
// Writing

namespace {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  void raw(std::string_view s) { out_.append(s); }
  void u64(std::uint64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  void bytes32(const Bytes32& b) {
    out_.push_back('[');
    for (std::size_t i = 0; i < 32; ++i) {
      if (i) out_.push_back(',');
      const Dec& d = decimal(b[i]);
      out_.append(d.text, d.len);
    }
    out_.push_back(']');
  }
  void bytes32_list(const std::vector<Bytes32>& v) {
    out_.push_back('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out_.push_back(',');
      bytes32(v[i]);
    }
    out_.push_back(']');
  }

  void path(const InclusionPath& p) {
    raw("{\"path\":[");
    for (std::size_t l = 0; l < p.size(); ++l) {
      if (l) raw(",");
      raw("{\"hashes\":");
      bytes32_list(p[l].hashes);
      raw(",\"index\":");
      u64(p[l].index);
      raw("}");
    }
    raw("]}");
  }

  void merkle(const MerkleProof& p) {
    raw("{\"data\":{\"");
    raw(merkle_proof_kind_name(p.kind));
    raw("\":{");
    if (p.kind == MerkleProofKind::single) {
      raw("\"root\":");
      bytes32(p.root);
      raw(",\"leaf\":");
      bytes32(p.leaf);
      raw(",\"path\":");
      path(p.base_path);
    } else {
      raw("\"base_proof\":");
      path(p.base_path);
      raw(",\"sub_proof\":");
      path(p.sub_path);
      if (p.kind == MerkleProofKind::top) {
        raw(",\"top_proof\":");
        path(p.top_path);
      }
      raw(",\"root\":");
      bytes32(p.root);
      raw(",\"leaf\":");
      bytes32(p.leaf);
    }
    raw("}}}");
  }

  void column_proof(const ColumnProof& c) {
    raw("{\"column\":{\"index\":");
    u64(c.column.index);
    raw(",\"rows\":");
    bytes32_list(c.column.rows);
    raw(",\"_h\":null},\"inclusion_proof\":");
    merkle(c.inclusion_proof);
    raw("}");
  }

  void column_proofs(const std::vector<ColumnProof>& v) {
    raw("[");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) raw(",");
      column_proof(v[i]);
    }
    raw("]");
  }

  void labeling(const LabelingProof& l) {
    raw("{\"parents\":");
    bytes32_list(l.parents);
    raw(",\"layer_index\":");
    u64(l.layer_index);
    raw(",\"node\":");
    u64(l.node);
    raw("}");
  }

  void challenge(const PorepChallengeProof& p) {
    raw("{\"comm_d_proofs\":");
    merkle(p.comm_d_proofs);
    raw(",\"comm_r_last_proof\":");
    merkle(p.comm_r_last_proof);
    raw(",\"replica_column_proofs\":{\"c_x\":");
    column_proof(p.replica_column_proofs.c_x);
    raw(",\"drg_parents\":");
    column_proofs(p.replica_column_proofs.drg_parents);
    raw(",\"exp_parents\":");
    column_proofs(p.replica_column_proofs.exp_parents);
    raw("},\"labeling_proofs\":[");
    for (std::size_t i = 0; i < p.labeling_proofs.size(); ++i) {
      if (i) raw(",");
      labeling(p.labeling_proofs[i]);
    }
    raw("],\"encoding_proof\":");
    labeling(p.encoding_proof);
    raw("}");
  }

 private:
  struct Dec {
    char text[4];
    std::size_t len;
  };
  static const Dec& decimal(std::uint8_t b) {
    static const std::array<Dec, 256> table = [] {
      std::array<Dec, 256> t{};
      for (unsigned i = 0; i < 256; ++i) {
        auto r = std::to_chars(t[i].text, t[i].text + 4, i);
        t[i].len = static_cast<std::size_t>(r.ptr - t[i].text);
      }
      return t;
    }();
    return table[b];
  }

  std::string& out_;
};

}  // namespace

std::string write_c1_json(const SealCommitPhase1Output& c1) {
  std::string out;
  JsonWriter w(out);
  w.raw("{\"registered_proof\":\"");
  w.raw(c1.registered_proof);
  w.raw("\",\"vanilla_proofs\":{\"StackedDrg");
  w.raw(sector_size_name(c1.vanilla_size));
  w.raw("V1\":[");
  for (std::size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) w.raw(",");
    w.raw("[");
    for (std::size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) w.raw(",");
      w.challenge(c1.vanilla_proofs[k][i]);
    }
    w.raw("]");
  }
  w.raw("]},\"comm_r\":");
  w.bytes32(c1.comm_r);
  w.raw(",\"comm_d\":");
  w.bytes32(c1.comm_d);
  w.raw(",\"replica_id\":");
  w.bytes32(c1.replica_id);
  w.raw(",\"seed\":");
  w.bytes32(c1.seed);
  w.raw(",\"ticket\":");
  w.bytes32(c1.ticket);
  w.raw("}");
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading

namespace {

namespace od = simdjson::ondemand;

class JsonReader {
 public:
  /// Names the field being read while it lives; |index| ≥ 0 appends "[index]".
  class Field {
   public:
    Field(JsonReader& r, std::string_view name, std::int64_t index = -1) : r_(r) {
      r_.path_.push_back({name, index});
    }
    ~Field() { r_.path_.pop_back(); }
    Field(const Field&) = delete;
    Field& operator=(const Field&) = delete;

   private:
    JsonReader& r_;
  };

  std::string field_path() const {
    std::string s;
    for (const Frame& f : path_) {
      if (!f.name.empty()) {
        if (!s.empty()) s += '.';
        s += f.name;
      }
      if (f.index >= 0) s += "[" + std::to_string(f.index) + "]";
    }
    return s.empty() ? std::string("(top)") : s;
  }

  /// Lets errors name the byte offset of the token being read.
  void locate(od::document* doc, const char* base) {
    doc_ = doc;
    base_ = base;
  }

  Status error(Errc code, const std::string& what) const {
    std::string at;
    if (doc_) {
      const char* loc = nullptr;
      if (!doc_->current_location().get(loc)) at = "byte " + std::to_string(loc - base_) + ", ";
    }
    return Status(code, "C1 JSON, " + at + "field " + field_path() + ": " + what);
  }
  Status error(simdjson::error_code e, const std::string& expected) const {
    if (e == simdjson::INCORRECT_TYPE) return error(Errc::bad_encoding, "expected " + expected);
    if (e == simdjson::NUMBER_OUT_OF_RANGE)
      return error(Errc::out_of_range, "expected " + expected + ", the number is out of range");
    if (e == simdjson::TAPE_ERROR || e == simdjson::INCOMPLETE_ARRAY_OR_OBJECT ||
        e == simdjson::UNCLOSED_STRING || e == simdjson::EMPTY)
      return error(Errc::truncated,
                   std::string("malformed or truncated JSON (") + simdjson::error_message(e) + ")");
    return error(Errc::bad_encoding,
                 "expected " + expected + " (" + simdjson::error_message(e) + ")");
  }

  using FieldReader = std::function<Status(od::value&)>;
  struct Member {
    std::string_view name;
    FieldReader read;
  };

  /// Reads an object with exactly the named members (any order; others ignored, as serde does).
  Status object(od::value& v, std::initializer_list<Member> members) {
    od::object obj;
    if (auto e = v.get_object().get(obj)) return error(e, "an object");
    return object_fields(obj, members);
  }

  Status object_fields(od::object& obj, std::initializer_list<Member> members) {
    std::uint32_t seen = 0;
    for (auto field : obj) {
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return error(e, "a field name");
      std::uint32_t bit = 1;
      for (const Member& m : members) {
        if (m.name == key) {
          if (seen & bit)
            return error(Errc::bad_encoding, "duplicate field `" + std::string(key) + "`");
          seen |= bit;
          od::value val;
          Field f(*this, m.name);
          if (auto e = field.value().get(val)) return error(e, "a value");
          CUZK_RETURN_IF_ERROR(m.read(val));
          break;
        }
        bit <<= 1;
      }
    }
    std::uint32_t bit = 1;
    for (const Member& m : members) {
      if (!(seen & bit))
        return error(Errc::bad_encoding, "missing field `" + std::string(m.name) + "`");
      bit <<= 1;
    }
    return {};
  }

  /// An array, each element read by |read_item| under "[i]".
  template <class F>
  Status array(od::value& v, F&& read_item) {
    od::array arr;
    if (auto e = v.get_array().get(arr)) return error(e, "an array");
    std::int64_t i = 0;
    for (auto item : arr) {
      od::value val;
      Field f(*this, "", i);
      if (auto e = item.get(val)) return error(e, "a value");
      CUZK_RETURN_IF_ERROR(read_item(val));
      ++i;
    }
    return {};
  }

  Status u64(od::value& v, std::uint64_t& out) {
    if (auto e = v.get_uint64().get(out)) return error(e, "an unsigned integer (u64)");
    return {};
  }

  Status u32(od::value& v, std::uint32_t& out) {
    std::uint64_t x = 0;
    if (auto e = v.get_uint64().get(x)) return error(e, "an unsigned integer (u32)");
    if (x > 0xffffffffu)
      return error(Errc::out_of_range, std::to_string(x) + " does not fit a u32");
    out = static_cast<std::uint32_t>(x);
    return {};
  }

  Status bytes32(od::value& v, Bytes32& out) {
    od::array arr;
    if (auto e = v.get_array().get(arr)) return error(e, "an array of 32 integers 0..255");
    std::size_t i = 0;
    for (auto item : arr) {
      std::uint64_t x = 0;
      if (auto e = item.get_uint64().get(x)) {
        Field f(*this, "", static_cast<std::int64_t>(i));
        return error(e, "an integer 0..255");
      }
      if (i >= 32) return error(Errc::size_mismatch, "more than 32 bytes");
      if (x > 255) {
        Field f(*this, "", static_cast<std::int64_t>(i));
        return error(Errc::out_of_range, std::to_string(x) + " is not a byte 0..255");
      }
      out[i++] = static_cast<std::uint8_t>(x);
    }
    if (i != 32) return error(Errc::size_mismatch, std::to_string(i) + " bytes, expected 32");
    return {};
  }

  Status bytes32_list(od::value& v, std::vector<Bytes32>& out) {
    out.clear();
    return array(v, [&](od::value& item) {
      out.emplace_back();
      return bytes32(item, out.back());
    });
  }

  Status path(od::value& v, InclusionPath& out) {
    out.clear();
    return object(v, {{"path", [&](od::value& p) {
                         return array(p, [&](od::value& el) {
                           out.emplace_back();
                           PathElement& e = out.back();
                           return object(
                               el,
                               {{"hashes", [&](od::value& h) { return bytes32_list(h, e.hashes); }},
                                {"index", [&](od::value& x) { return u64(x, e.index); }}});
                         });
                       }}});
  }

  Status merkle(od::value& v, MerkleProof& out) {
    out = MerkleProof{};
    return object(v, {{"data", [&](od::value& d) { return proof_data(d, out); }}});
  }

  Status proof_data(od::value& v, MerkleProof& out) {
    od::object obj;
    if (auto e = v.get_object().get(obj))
      return error(e, "an object {\"Single\"|\"Sub\"|\"Top\": ...}");
    int variants = 0;
    for (auto field : obj) {
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return error(e, "a variant name");
      if (++variants > 1) return error(Errc::bad_encoding, "more than one ProofData variant");
      if (key == "Single")
        out.kind = MerkleProofKind::single;
      else if (key == "Sub")
        out.kind = MerkleProofKind::sub;
      else if (key == "Top")
        out.kind = MerkleProofKind::top;
      else
        return error(Errc::bad_encoding, "unknown ProofData variant `" + std::string(key) +
                                             "` (known: Single, Sub, Top)");
      Field f(*this, merkle_proof_kind_name(out.kind));
      od::value val;
      if (auto e = field.value().get(val)) return error(e, "a value");
      auto root = [&](od::value& x) { return bytes32(x, out.root); };
      auto leaf = [&](od::value& x) { return bytes32(x, out.leaf); };
      auto base = [&](od::value& x) { return path(x, out.base_path); };
      auto sub = [&](od::value& x) { return path(x, out.sub_path); };
      auto top = [&](od::value& x) { return path(x, out.top_path); };
      if (out.kind == MerkleProofKind::single) {
        CUZK_RETURN_IF_ERROR(object(val, {{"root", root}, {"leaf", leaf}, {"path", base}}));
      } else if (out.kind == MerkleProofKind::sub) {
        CUZK_RETURN_IF_ERROR(object(
            val, {{"base_proof", base}, {"sub_proof", sub}, {"root", root}, {"leaf", leaf}}));
      } else {
        CUZK_RETURN_IF_ERROR(object(val, {{"base_proof", base},
                                          {"sub_proof", sub},
                                          {"top_proof", top},
                                          {"root", root},
                                          {"leaf", leaf}}));
      }
    }
    if (variants == 0)
      return error(Errc::bad_encoding, "empty ProofData (expected Single, Sub or Top)");
    return {};
  }

  Status column_proof(od::value& v, ColumnProof& out) {
    return object(
        v, {{"column",
             [&](od::value& c) {
               return object(
                   c, {{"index", [&](od::value& x) { return u32(x, out.column.index); }},
                       {"rows", [&](od::value& x) { return bytes32_list(x, out.column.rows); }},
                       {"_h", [&](od::value& x) {
                          bool is_null = false;
                          if (auto e = x.is_null().get(is_null)) return error(e, "null");
                          if (!is_null)
                            return error(Errc::bad_encoding, "expected null (PhantomData)");
                          return Status();
                        }}});
             }},
            {"inclusion_proof", [&](od::value& x) { return merkle(x, out.inclusion_proof); }}});
  }

  Status column_proofs(od::value& v, std::vector<ColumnProof>& out) {
    out.clear();
    return array(v, [&](od::value& item) {
      out.emplace_back();
      return column_proof(item, out.back());
    });
  }

  Status labeling(od::value& v, LabelingProof& out) {
    return object(v, {{"parents", [&](od::value& x) { return bytes32_list(x, out.parents); }},
                      {"layer_index", [&](od::value& x) { return u32(x, out.layer_index); }},
                      {"node", [&](od::value& x) { return u64(x, out.node); }}});
  }

  Status challenge(od::value& v, PorepChallengeProof& out) {
    return object(
        v,
        {{"comm_d_proofs", [&](od::value& x) { return merkle(x, out.comm_d_proofs); }},
         {"comm_r_last_proof", [&](od::value& x) { return merkle(x, out.comm_r_last_proof); }},
         {"replica_column_proofs",
          [&](od::value& x) {
            ReplicaColumnProof& rc = out.replica_column_proofs;
            return object(
                x,
                {{"c_x", [&](od::value& y) { return column_proof(y, rc.c_x); }},
                 {"drg_parents", [&](od::value& y) { return column_proofs(y, rc.drg_parents); }},
                 {"exp_parents", [&](od::value& y) { return column_proofs(y, rc.exp_parents); }}});
          }},
         {"labeling_proofs",
          [&](od::value& x) {
            out.labeling_proofs.clear();
            return array(x, [&](od::value& item) {
              out.labeling_proofs.emplace_back();
              return labeling(item, out.labeling_proofs.back());
            });
          }},
         {"encoding_proof", [&](od::value& x) { return labeling(x, out.encoding_proof); }}});
  }

  Status vanilla_proofs(od::value& v, SealCommitPhase1Output& out) {
    od::object obj;
    if (auto e = v.get_object().get(obj))
      return error(e, "an object {\"StackedDrg<size>V1\": [...]}");
    int variants = 0;
    for (auto field : obj) {
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return error(e, "a variant name");
      if (++variants > 1)
        return error(Errc::bad_encoding, "more than one VanillaSealProof variant");
      std::optional<SectorSize> size;
      if (key.starts_with("StackedDrg") && key.ends_with("V1")) {
        auto s = parse_sector_size(key.substr(10, key.size() - 12));
        if (s.ok()) size = *s;
      }
      if (!size)
        return error(Errc::bad_encoding,
                     "unknown VanillaSealProof variant `" + std::string(key) +
                         "` (known: StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1)");
      out.vanilla_size = *size;
      od::value val;
      if (auto e = field.value().get(val)) return error(e, "a value");
      out.vanilla_proofs.clear();
      CUZK_RETURN_IF_ERROR(array(val, [&](od::value& part) {
        out.vanilla_proofs.emplace_back();
        auto& proofs = out.vanilla_proofs.back();
        return array(part, [&](od::value& item) {
          proofs.emplace_back();
          return challenge(item, proofs.back());
        });
      }));
    }
    if (variants == 0) return error(Errc::bad_encoding, "empty VanillaSealProof (no variant)");
    return {};
  }

 private:
  struct Frame {
    std::string_view name;
    std::int64_t index;
  };
  std::vector<Frame> path_;
  od::document* doc_ = nullptr;
  const char* base_ = nullptr;
};

}  // namespace

namespace {

Result<SealCommitPhase1Output> read_c1_padded(simdjson::padded_string_view padded) {
  od::parser parser;
  od::document doc;
  JsonReader r;
  if (auto e = parser.iterate(padded).get(doc)) return r.error(e, "a JSON document");
  r.locate(&doc, padded.data());
  od::object obj;
  if (auto e = doc.get_object().get(obj)) return r.error(e, "a JSON object");
  SealCommitPhase1Output out;
  CUZK_RETURN_IF_ERROR(r.object_fields(
      obj, {{"registered_proof",
             [&](od::value& v) {
               std::string_view name;
               if (auto e = v.get_string().get(name)) return r.error(e, "a string");
               auto p = seal_proof(name);
               if (!p.ok()) return r.error(Errc::bad_encoding, p.status().message());
               out.registered_proof = std::string(name);
               return Status();
             }},
            {"vanilla_proofs", [&](od::value& v) { return r.vanilla_proofs(v, out); }},
            {"comm_r", [&](od::value& v) { return r.bytes32(v, out.comm_r); }},
            {"comm_d", [&](od::value& v) { return r.bytes32(v, out.comm_d); }},
            {"replica_id", [&](od::value& v) { return r.bytes32(v, out.replica_id); }},
            {"seed", [&](od::value& v) { return r.bytes32(v, out.seed); }},
            {"ticket", [&](od::value& v) { return r.bytes32(v, out.ticket); }}}));
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS)
    return r.error(Errc::bad_encoding, "trailing characters after the JSON object");
  const SectorSize size = seal_proof(out.registered_proof)->size;
  if (size != out.vanilla_size)
    return r.error(Errc::size_mismatch, "vanilla_proofs is the StackedDrg" +
                                            std::string(sector_size_name(out.vanilla_size)) +
                                            "V1 variant but registered_proof " +
                                            out.registered_proof + " is " +
                                            std::string(sector_size_name(size)));
  return out;
}

}  // namespace

Result<SealCommitPhase1Output> read_c1_json_reference(std::string_view json) {
  const simdjson::padded_string padded(json);
  return read_c1_padded(padded);
}

// ---------------------------------------------------------------------------------------------
// Fast reader: one pass over the raw characters for the JSON serde_json writes — fields in
// declaration order, whitespace allowed between tokens. It gives up (nullopt) at the first thing
// outside that form; the reference reader above then reads the text and names any error.

namespace {

class FastReader {
 public:
  explicit FastReader(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}

  bool document(SealCommitPhase1Output& out) {
    std::string_view name, variant;
    if (!lit('{') || !key("registered_proof") || !string(name)) return false;
    auto proof = seal_proof(name);
    if (!proof.ok()) return false;
    out.registered_proof = std::string(name);
    if (!lit(',') || !key("vanilla_proofs") || !lit('{') || !string(variant) || !lit(':'))
      return false;
    if (!variant.starts_with("StackedDrg") || !variant.ends_with("V1")) return false;
    auto size = parse_sector_size(variant.substr(10, variant.size() - 12));
    if (!size.ok() || *size != proof->size) return false;
    out.vanilla_size = *size;
    if (!array(out.vanilla_proofs, [&](std::vector<PorepChallengeProof>& part) {
          return array(part, [&](PorepChallengeProof& c) { return challenge(c); });
        }))
      return false;
    if (!lit('}') || !lit(',') || !key("comm_r") || !bytes32(out.comm_r) || !lit(',') ||
        !key("comm_d") || !bytes32(out.comm_d) || !lit(',') || !key("replica_id") ||
        !bytes32(out.replica_id) || !lit(',') || !key("seed") || !bytes32(out.seed) || !lit(',') ||
        !key("ticket") || !bytes32(out.ticket) || !lit('}'))
      return false;
    skip_ws();
    return p_ == end_;
  }

 private:
  static bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  void skip_ws() {
    while (p_ < end_ && is_ws(*p_)) ++p_;
  }
  bool lit(char c) {
    skip_ws();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  /// `"name":`
  template <std::size_t N>
  bool key(const char (&name)[N]) {
    constexpr std::size_t n = N - 1;
    if (!lit('"') || static_cast<std::size_t>(end_ - p_) < n + 1 || std::memcmp(p_, name, n) != 0 ||
        p_[n] != '"')
      return false;
    p_ += n + 1;
    return lit(':');
  }
  /// A string without escapes.
  bool string(std::string_view& out) {
    if (!lit('"')) return false;
    const char* start = p_;
    while (p_ < end_ && *p_ != '"') {
      if (*p_ == '\\' || static_cast<unsigned char>(*p_) < 0x20 ||
          static_cast<unsigned char>(*p_) >= 0x80)
        return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    ++p_;
    return true;
  }
  /// After a number: what may follow it in the document.
  bool number_ends() const {
    return p_ < end_ && (*p_ == ',' || *p_ == ']' || *p_ == '}' || is_ws(*p_));
  }
  bool u64(std::uint64_t& out) {
    skip_ws();
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    std::uint64_t x = static_cast<std::uint64_t>(*p_++ - '0');
    if (x == 0) {
      out = 0;
      return number_ends();
    }
    int digits = 1;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
      if (++digits > 19) return false;  // leave 20-digit numbers to the reference reader
      x = x * 10 + static_cast<std::uint64_t>(*p_++ - '0');
    }
    out = x;
    return number_ends();
  }
  bool u32(std::uint32_t& out) {
    std::uint64_t x = 0;
    if (!u64(x) || x > 0xffffffffu) return false;
    out = static_cast<std::uint32_t>(x);
    return true;
  }
  bool null() {
    skip_ws();
    if (end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) return false;
    p_ += 4;
    return number_ends();
  }

  /// `[d,d,…]`: 32 integers 0..255, the hot loop of the whole reader.
  bool bytes32(Bytes32& out) {
    if (!lit('[')) return false;
    for (std::size_t i = 0; i < 32; ++i) {
      if (p_ < end_ && is_ws(*p_)) skip_ws();
      if (end_ - p_ < 4) {  // too near the end for the unchecked loads below
        std::uint64_t x = 0;
        if (!u64(x) || x > 255 || !lit(i == 31 ? ']' : ',')) return false;
        out[i] = static_cast<std::uint8_t>(x);
        continue;
      }
      // The next 4 characters as a word (first character in the low byte): the number's digits
      // found and combined without branching on their count (random bytes have 1, 2 or 3 digits
      // unpredictably).
      std::uint32_t w;
      std::memcpy(&w, p_, 4);
      if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap32(w);
      const std::uint32_t t = w ^ 0x30303030u;  // digits become 0..9
      const std::uint32_t not_digit = (((t & 0x7f7f7f7fu) + 0x76767676u) | t) & 0x80808080u;
      if (not_digit == 0) return false;  // 4 or more digits
      const unsigned n = static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
      if (n == 0 || (n > 1 && (t & 0xff) == 0)) return false;  // not a number; a leading zero
      const std::uint32_t v = t << (8 * (4 - n));              // digits in bytes 4−n..3
      const unsigned x = ((v >> 8) & 0xff) * 100 + ((v >> 16) & 0xff) * 10 + (v >> 24);
      if (x > 255) return false;
      p_ += n;
      char c = *p_;
      if (is_ws(c)) {
        skip_ws();
        if (p_ == end_) return false;
        c = *p_;
      }
      if (c != (i == 31 ? ']' : ',')) return false;
      ++p_;
      out[i] = static_cast<std::uint8_t>(x);
    }
    return true;
  }

  /// A list of 32-byte values, read into a reused scratch buffer and copied out in one allocation.
  bool bytes32_list(std::vector<Bytes32>& out) {
    if (!lit('[')) return false;
    scratch_.clear();
    if (!lit(']')) {
      do {
        scratch_.emplace_back();
        if (!bytes32(scratch_.back())) return false;
      } while (lit(','));
      if (!lit(']')) return false;
    }
    out.assign(scratch_.begin(), scratch_.end());
    return true;
  }

  /// An array of T, each read by |item|; |out| reserved for as many as the last array of T had.
  template <class T, class F>
  bool array(std::vector<T>& out, F&& item) {
    if (!lit('[')) return false;
    out.clear();
    std::size_t& hint = size_hint<T>();
    out.reserve(hint);
    if (!lit(']')) {
      do {
        out.emplace_back();
        if (!item(out.back())) return false;
      } while (lit(','));
      if (!lit(']')) return false;
    }
    hint = out.size();
    return true;
  }
  template <class T>
  std::size_t& size_hint() {
    if constexpr (std::is_same_v<T, PathElement>) return path_hint_;
    if constexpr (std::is_same_v<T, ColumnProof>) return column_hint_;
    if constexpr (std::is_same_v<T, LabelingProof>) return labeling_hint_;
    if constexpr (std::is_same_v<T, PorepChallengeProof>) return challenge_hint_;
    return partition_hint_;
  }

  bool path(InclusionPath& out) {
    return lit('{') && key("path") &&
           array(out,
                 [&](PathElement& e) {
                   return lit('{') && key("hashes") && bytes32_list(e.hashes) && lit(',') &&
                          key("index") && u64(e.index) && lit('}');
                 }) &&
           lit('}');
  }

  bool merkle(MerkleProof& out) {
    std::string_view variant;
    if (!lit('{') || !key("data") || !lit('{') || !string(variant) || !lit(':') || !lit('{'))
      return false;
    if (variant == "Single") {
      out.kind = MerkleProofKind::single;
      if (!key("root") || !bytes32(out.root) || !lit(',') || !key("leaf") || !bytes32(out.leaf) ||
          !lit(',') || !key("path") || !path(out.base_path))
        return false;
    } else if (variant == "Sub" || variant == "Top") {
      out.kind = variant == "Sub" ? MerkleProofKind::sub : MerkleProofKind::top;
      if (!key("base_proof") || !path(out.base_path) || !lit(',') || !key("sub_proof") ||
          !path(out.sub_path))
        return false;
      if (out.kind == MerkleProofKind::top &&
          (!lit(',') || !key("top_proof") || !path(out.top_path)))
        return false;
      if (!lit(',') || !key("root") || !bytes32(out.root) || !lit(',') || !key("leaf") ||
          !bytes32(out.leaf))
        return false;
    } else {
      return false;
    }
    return lit('}') && lit('}') && lit('}');
  }

  bool column_proof(ColumnProof& out) {
    return lit('{') && key("column") && lit('{') && key("index") && u32(out.column.index) &&
           lit(',') && key("rows") && bytes32_list(out.column.rows) && lit(',') && key("_h") &&
           null() && lit('}') && lit(',') && key("inclusion_proof") &&
           merkle(out.inclusion_proof) && lit('}');
  }

  bool labeling(LabelingProof& out) {
    return lit('{') && key("parents") && bytes32_list(out.parents) && lit(',') &&
           key("layer_index") && u32(out.layer_index) && lit(',') && key("node") && u64(out.node) &&
           lit('}');
  }

  bool challenge(PorepChallengeProof& out) {
    ReplicaColumnProof& rc = out.replica_column_proofs;
    auto col = [&](ColumnProof& c) { return column_proof(c); };
    return lit('{') && key("comm_d_proofs") && merkle(out.comm_d_proofs) && lit(',') &&
           key("comm_r_last_proof") && merkle(out.comm_r_last_proof) && lit(',') &&
           key("replica_column_proofs") && lit('{') && key("c_x") && column_proof(rc.c_x) &&
           lit(',') && key("drg_parents") && array(rc.drg_parents, col) && lit(',') &&
           key("exp_parents") && array(rc.exp_parents, col) && lit('}') && lit(',') &&
           key("labeling_proofs") &&
           array(out.labeling_proofs, [&](LabelingProof& l) { return labeling(l); }) && lit(',') &&
           key("encoding_proof") && labeling(out.encoding_proof) && lit('}');
  }

  const char* p_;
  const char* end_;
  std::vector<Bytes32> scratch_;
  std::size_t path_hint_ = 0, column_hint_ = 0, labeling_hint_ = 0, challenge_hint_ = 0,
              partition_hint_ = 0;
};

}  // namespace

std::optional<SealCommitPhase1Output> read_c1_json_fast(std::string_view json) {
  SealCommitPhase1Output out;
  if (!FastReader(json).document(out)) return std::nullopt;
  return out;
}

Result<SealCommitPhase1Output> read_c1_json(std::string_view json) {
  if (auto fast = read_c1_json_fast(json)) return std::move(*fast);
  return read_c1_json_reference(json);
}

Result<SealCommitPhase1Output> read_c1_json_in_place(std::string& json) {
  if (auto fast = read_c1_json_fast(json)) return std::move(*fast);
  if (json.capacity() < json.size() + simdjson::SIMDJSON_PADDING)
    json.reserve(json.size() + simdjson::SIMDJSON_PADDING);
  return read_c1_padded(simdjson::padded_string_view(json.data(), json.size(), json.capacity()));
}

}  // namespace cuzk::filecoin
