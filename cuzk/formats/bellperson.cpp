#include "cuzk/formats/bellperson.hpp"

#include <string>

#include "cuzk/ec/batch_decode.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/formats/mapped_file.hpp"

namespace cuzk {

namespace {

template <class V>
Status reject_identity(const V& pts, const std::string& where) {
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (pts[i].is_identity())
      return Status(Errc::bad_encoding,
                    where + ": point " + std::to_string(i) + ": point at infinity");
  return {};
}

// u32 count then count points of |bytes_per| bytes, decoded into |out|.
template <class Out, class Decode>
Status read_section(ByteReader& r, const char* name, std::size_t bytes_per, Out& out,
                    Decode&& decode) {
  const std::string where = std::string("params section ") + name;
  auto n = r.u32_be(where + " length");
  if (!n.ok()) return n.status();
  auto body = r.take(std::size_t{*n} * bytes_per, where + " (" + std::to_string(*n) + " points)");
  if (!body.ok()) return body.status();
  out.resize(*n);
  CUZK_RETURN_IF_ERROR(decode(*body, std::span(out.data(), out.size())).with_context(where));
  return reject_identity(out, where);
}

Status read_vk_part(ByteReader& r, VerifyingKey& vk, ThreadPool& pool) {
  auto hdr = r.take(3 * kG1UncompressedBytes + 3 * kG2UncompressedBytes, "verifying key");
  if (!hdr.ok()) return hdr.status();
  const std::uint8_t* p = hdr->data();
  auto g1 = [&](G1Affine& dst, const char* name) -> Status {
    auto v = g1_from_uncompressed(
        std::span<const std::uint8_t, kG1UncompressedBytes>(p, kG1UncompressedBytes));
    p += kG1UncompressedBytes;
    if (!v.ok()) return v.status().with_context(std::string("verifying key ") + name);
    dst = *v;
    return {};
  };
  auto g2 = [&](G2Affine& dst, const char* name) -> Status {
    auto v = g2_from_uncompressed(
        std::span<const std::uint8_t, kG2UncompressedBytes>(p, kG2UncompressedBytes));
    p += kG2UncompressedBytes;
    if (!v.ok()) return v.status().with_context(std::string("verifying key ") + name);
    dst = *v;
    return {};
  };
  CUZK_RETURN_IF_ERROR(g1(vk.alpha_g1, "alpha_g1"));
  CUZK_RETURN_IF_ERROR(g1(vk.beta_g1, "beta_g1"));
  CUZK_RETURN_IF_ERROR(g2(vk.beta_g2, "beta_g2"));
  CUZK_RETURN_IF_ERROR(g2(vk.gamma_g2, "gamma_g2"));
  CUZK_RETURN_IF_ERROR(g1(vk.delta_g1, "delta_g1"));
  CUZK_RETURN_IF_ERROR(g2(vk.delta_g2, "delta_g2"));
  auto n = r.u32_be("section ic length");
  if (!n.ok()) return n.status();
  auto body = r.take(std::size_t{*n} * kG1UncompressedBytes,
                     "section ic (" + std::to_string(*n) + " points)");
  if (!body.ok()) return body.status();
  vk.ic.resize(*n);
  CUZK_RETURN_IF_ERROR(
      decode_g1_batch(*body, vk.ic, pool, {.form = PointForm::uncompressed, .check_subgroup = true})
          .with_context("section ic"));
  return reject_identity(vk.ic, "section ic");
}

void put_vk(std::vector<std::uint8_t>& out, const VerifyingKey& vk) {
  auto g1 = [&](const G1Affine& p) {
    auto b = to_uncompressed(p);
    out.insert(out.end(), b.begin(), b.end());
  };
  auto g2 = [&](const G2Affine& p) {
    auto b = to_uncompressed(p);
    out.insert(out.end(), b.begin(), b.end());
  };
  g1(vk.alpha_g1);
  g1(vk.beta_g1);
  g2(vk.beta_g2);
  g2(vk.gamma_g2);
  g1(vk.delta_g1);
  g2(vk.delta_g2);
  put_u32_be(out, static_cast<std::uint32_t>(vk.ic.size()));
  for (const auto& p : vk.ic) g1(p);
}

}  // namespace

Result<ProvingKey> parse_params(std::span<const std::uint8_t> file, const ParamsReadOptions& opt) {
  ThreadPool serial(1);
  ThreadPool& pool = opt.pool != nullptr ? *opt.pool : serial;
  ByteReader r(file, "params");
  ProvingKey pk;
  pk.layout = KeyLayout::bellperson;
  CUZK_RETURN_IF_ERROR(read_vk_part(r, pk.vk, pool));
  const DecodeOptions d{.form = PointForm::uncompressed, .check_subgroup = opt.checked};
  auto g1 = [&](std::span<const std::uint8_t> b, std::span<G1Affine> out) {
    return decode_g1_batch(b, out, pool, d);
  };
  auto g2 = [&](std::span<const std::uint8_t> b, std::span<G2Affine> out) {
    return decode_g2_batch(b, out, pool, d);
  };
  CUZK_RETURN_IF_ERROR(read_section(r, "h", kG1UncompressedBytes, pk.h, g1));
  CUZK_RETURN_IF_ERROR(read_section(r, "l", kG1UncompressedBytes, pk.l, g1));
  CUZK_RETURN_IF_ERROR(read_section(r, "a", kG1UncompressedBytes, pk.a, g1));
  CUZK_RETURN_IF_ERROR(read_section(r, "b_g1", kG1UncompressedBytes, pk.b_g1, g1));
  CUZK_RETURN_IF_ERROR(read_section(r, "b_g2", kG2UncompressedBytes, pk.b_g2, g2));
  if (r.remaining() != 0)
    return Status(Errc::bad_encoding, "params: " + std::to_string(r.remaining()) +
                                          " trailing bytes after section b_g2");
  const std::uint64_t n = pk.h.size() + 1;
  if ((n & (n - 1)) != 0)
    return Status(Errc::size_mismatch,
                  "params section h: " + std::to_string(pk.h.size()) + " points is not 2^k − 1");
  if (pk.b_g1.size() != pk.b_g2.size())
    return Status(Errc::size_mismatch, "params sections b_g1 and b_g2 have " +
                                           std::to_string(pk.b_g1.size()) + " and " +
                                           std::to_string(pk.b_g2.size()) + " points");
  pk.domain_size = n;
  return pk;
}

Result<ParamsLayout> scan_params(std::span<const std::uint8_t> file) {
  ThreadPool serial(1);
  ByteReader r(file, "params");
  ParamsLayout out;
  CUZK_RETURN_IF_ERROR(read_vk_part(r, out.vk, serial));
  auto section = [&](const char* name, std::size_t bytes_per, ParamsSection& s) -> Status {
    const std::string where = std::string("params section ") + name;
    auto n = r.u32_be(where + " length");
    if (!n.ok()) return n.status();
    s.offset = r.offset();
    s.count = *n;
    return r.take(std::size_t{*n} * bytes_per, where + " (" + std::to_string(*n) + " points)")
        .status();
  };
  CUZK_RETURN_IF_ERROR(section("h", kG1UncompressedBytes, out.h));
  CUZK_RETURN_IF_ERROR(section("l", kG1UncompressedBytes, out.l));
  CUZK_RETURN_IF_ERROR(section("a", kG1UncompressedBytes, out.a));
  CUZK_RETURN_IF_ERROR(section("b_g1", kG1UncompressedBytes, out.b_g1));
  CUZK_RETURN_IF_ERROR(section("b_g2", kG2UncompressedBytes, out.b_g2));
  if (r.remaining() != 0)
    return Status(Errc::bad_encoding, "params: " + std::to_string(r.remaining()) +
                                          " trailing bytes after section b_g2");
  const std::uint64_t n = out.h.count + 1;
  if ((n & (n - 1)) != 0)
    return Status(Errc::size_mismatch,
                  "params section h: " + std::to_string(out.h.count) + " points is not 2^k − 1");
  if (out.b_g1.count != out.b_g2.count)
    return Status(Errc::size_mismatch, "params sections b_g1 and b_g2 have " +
                                           std::to_string(out.b_g1.count) + " and " +
                                           std::to_string(out.b_g2.count) + " points");
  out.domain_size = n;
  return out;
}

Result<ProvingKey> read_params(const std::string& path, const ParamsReadOptions& opt) {
  auto f = MappedFile::open(path);
  if (!f.ok()) return f.status();
  auto pk = parse_params(f->bytes(), opt);
  if (!pk.ok()) return pk.status().with_context(path);
  return pk;
}

Result<std::vector<std::uint8_t>> write_params(const ProvingKey& pk, ThreadPool* pool_opt) {
  if (pk.layout != KeyLayout::bellperson)
    return Status(Errc::invalid_argument, "write_params: the key has the snarkjs layout");
  ThreadPool serial(1);
  ThreadPool& pool = pool_opt != nullptr ? *pool_opt : serial;
  std::vector<std::uint8_t> out;
  out.reserve(868 + 96 * pk.vk.ic.size() + 20 +
              96 * (pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size()) +
              192 * pk.b_g2.size());
  put_vk(out, pk.vk);
  auto g1s = [&](std::span<const G1Affine> v) {
    put_u32_be(out, static_cast<std::uint32_t>(v.size()));
    const std::size_t at = out.size();
    out.resize(at + v.size() * kG1UncompressedBytes);
    (void)encode_g1_batch(v, std::span<std::uint8_t>(out).subspan(at), PointForm::uncompressed,
                          pool);
  };
  g1s(pk.h);
  g1s(pk.l);
  g1s(pk.a);
  g1s(pk.b_g1);
  put_u32_be(out, static_cast<std::uint32_t>(pk.b_g2.size()));
  const std::size_t at = out.size();
  out.resize(at + pk.b_g2.size() * kG2UncompressedBytes);
  (void)encode_g2_batch(pk.b_g2, std::span<std::uint8_t>(out).subspan(at), PointForm::uncompressed,
                        pool);
  return out;
}

std::vector<std::uint8_t> write_vk(const VerifyingKey& vk) {
  std::vector<std::uint8_t> out;
  put_vk(out, vk);
  return out;
}

Result<VerifyingKey> parse_vk(std::span<const std::uint8_t> file) {
  ThreadPool serial(1);
  ByteReader r(file, "vk");
  VerifyingKey vk;
  CUZK_RETURN_IF_ERROR(read_vk_part(r, vk, serial));
  if (r.remaining() != 0)
    return Status(Errc::bad_encoding,
                  "vk: " + std::to_string(r.remaining()) + " trailing bytes after section ic");
  return vk;
}

std::vector<std::uint8_t> write_proofs(std::span<const Proof> proofs) {
  std::vector<std::uint8_t> out;
  out.reserve(proofs.size() * kBellpersonProofBytes);
  for (const Proof& p : proofs) {
    auto a = to_compressed(p.a);
    auto b = to_compressed(p.b);
    auto c = to_compressed(p.c);
    out.insert(out.end(), a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

Result<std::vector<Proof>> parse_proofs(std::span<const std::uint8_t> bytes) {
  if (bytes.empty() || bytes.size() % kBellpersonProofBytes != 0)
    return Status(Errc::size_mismatch, "proof bytes: length " + std::to_string(bytes.size()) +
                                           " is not a non-zero multiple of 192");
  std::vector<Proof> out(bytes.size() / kBellpersonProofBytes);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint8_t* p = bytes.data() + i * kBellpersonProofBytes;
    const std::string where = "proof " + std::to_string(i);
    auto a = g1_from_compressed(
        std::span<const std::uint8_t, kG1CompressedBytes>(p, kG1CompressedBytes));
    if (!a.ok()) return a.status().with_context(where + " A");
    auto b = g2_from_compressed(
        std::span<const std::uint8_t, kG2CompressedBytes>(p + 48, kG2CompressedBytes));
    if (!b.ok()) return b.status().with_context(where + " B");
    auto c = g1_from_compressed(
        std::span<const std::uint8_t, kG1CompressedBytes>(p + 144, kG1CompressedBytes));
    if (!c.ok()) return c.status().with_context(where + " C");
    if (a->is_identity() || b->is_identity() || c->is_identity())
      return Status(Errc::bad_encoding, where + ": point at infinity");
    out[i] = {*a, *b, *c};
  }
  return out;
}

}  // namespace cuzk
