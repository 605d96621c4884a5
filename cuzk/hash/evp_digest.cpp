// SHA-256 and BLAKE2b-512 through OpenSSL's EVP interface. The digest algorithms are fetched once
// (EVP_MD_fetch is a provider lookup); a context per hasher object. OpenSSL failures here can
// only be allocation failures, which end the process as any failed allocation does.
#include <openssl/evp.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "cuzk/hash/blake2b.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::hash {
namespace {

const EVP_MD* md_sha256() {
  static const EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}
const EVP_MD* md_blake2b512() {
  static const EVP_MD* md = EVP_MD_fetch(nullptr, "BLAKE2B-512", nullptr);
  return md;
}

EVP_MD_CTX* new_ctx(const EVP_MD* md) {
  EVP_MD_CTX* c = EVP_MD_CTX_new();
  if (!c || !md || EVP_DigestInit_ex2(c, md, nullptr) != 1) throw std::bad_alloc();
  return c;
}

void update_ctx(void* ctx, const void* data, std::size_t n) {
  if (n && EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx), data, n) != 1) throw std::bad_alloc();
}

template <std::size_t N>
std::array<std::uint8_t, N> finish_ctx(void* ctx, const EVP_MD* md) {
  auto* c = static_cast<EVP_MD_CTX*>(ctx);
  std::array<std::uint8_t, N> out{};
  unsigned len = 0;
  if (EVP_DigestFinal_ex(c, out.data(), &len) != 1 || len != N ||
      EVP_DigestInit_ex2(c, md, nullptr) != 1)
    throw std::bad_alloc();
  return out;
}

template <std::size_t N>
std::array<std::uint8_t, N> one_shot(const EVP_MD* md, const void* data, std::size_t n) {
  std::array<std::uint8_t, N> out{};
  unsigned len = 0;
  if (EVP_Digest(data, n, out.data(), &len, md, nullptr) != 1 || len != N) throw std::bad_alloc();
  return out;
}

}  // namespace

Digest32 sha256(std::span<const std::uint8_t> data) {
  return one_shot<32>(md_sha256(), data.data(), data.size());
}
Digest32 sha256(std::string_view text) {
  return one_shot<32>(md_sha256(), text.data(), text.size());
}

Sha256::Sha256() : ctx_(new_ctx(md_sha256())) {}
Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }
Sha256& Sha256::update(std::span<const std::uint8_t> data) {
  update_ctx(ctx_, data.data(), data.size());
  return *this;
}
Sha256& Sha256::update(std::string_view text) {
  update_ctx(ctx_, text.data(), text.size());
  return *this;
}
Digest32 Sha256::finish() { return finish_ctx<32>(ctx_, md_sha256()); }

Digest64 blake2b512(std::span<const std::uint8_t> data) {
  return one_shot<64>(md_blake2b512(), data.data(), data.size());
}

Blake2b512::Blake2b512() : ctx_(new_ctx(md_blake2b512())) {}
Blake2b512::~Blake2b512() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }
Blake2b512& Blake2b512::update(std::span<const std::uint8_t> data) {
  update_ctx(ctx_, data.data(), data.size());
  return *this;
}
Digest64 Blake2b512::finish() { return finish_ctx<64>(ctx_, md_blake2b512()); }

}  // namespace cuzk::hash
