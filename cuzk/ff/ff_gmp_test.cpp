// Fp and Fr against GMP's mpz: every operation on random inputs and on edge values (0, 1, 2,
// p − 1, p − 2, (p − 1)/2, (p + 1)/2, values at and above p given as bytes and strings), each run
// on the mulx/adx path and on the portable path; plus the `field_arith` known answers of
// tests/data/bls12_381_vectors.json (Fp, Fr, Fp2).
#include <gmp.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ff/fp.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/fr.hpp"

namespace cuzk {
namespace {

// A small RAII wrapper over mpz_t (no gmpxx: the C library is what CMake finds).
class Mpz {
 public:
  Mpz() { mpz_init(v_); }
  explicit Mpz(unsigned long x) { mpz_init_set_ui(v_, x); }
  explicit Mpz(const char* s, int base = 0) { mpz_init_set_str(v_, s, base); }
  Mpz(const Mpz& o) { mpz_init_set(v_, o.v_); }
  Mpz& operator=(const Mpz& o) {
    mpz_set(v_, o.v_);
    return *this;
  }
  ~Mpz() { mpz_clear(v_); }
  mpz_ptr get() { return v_; }
  mpz_srcptr get() const { return v_; }
  friend bool operator==(const Mpz& a, const Mpz& b) { return mpz_cmp(a.v_, b.v_) == 0; }
  std::string hex() const {
    std::vector<char> buf(mpz_sizeinbase(v_, 16) + 2);
    mpz_get_str(buf.data(), 16, v_);
    return std::string("0x") + buf.data();
  }
  std::string dec() const {
    std::vector<char> buf(mpz_sizeinbase(v_, 10) + 2);
    mpz_get_str(buf.data(), 10, v_);
    return buf.data();
  }

 private:
  mpz_t v_;
};

std::ostream& operator<<(std::ostream& os, const Mpz& m) { return os << m.hex(); }

template <std::size_t N>
Mpz mpz_from_limbs(const Limbs<N>& l) {
  Mpz r;
  mpz_import(r.get(), N, -1, sizeof(std::uint64_t), 0, 0, l.data());
  return r;
}

// The low 64·N bits of |m| (m ≥ 0).
template <std::size_t N>
Limbs<N> limbs_from_mpz(const Mpz& m) {
  Limbs<N> l{};
  Mpz t;
  mpz_fdiv_r_2exp(t.get(), m.get(), 64 * N);
  size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(std::uint64_t), 0, 0, t.get());
  return l;
}

template <class F>
Mpz modulus() {
  return mpz_from_limbs(F::kModulus);
}

template <class F>
Mpz value_of(const F& a) {
  return mpz_from_limbs(a.to_canonical());
}

template <class F>
F field_of(const Mpz& m) {  // m already in [0, p)
  return F::from_canonical(limbs_from_mpz<F::N>(m)).value();
}

template <class F>
Mpz random_mpz(std::mt19937_64& rng) {  // uniform enough in [0, p): 64 extra bits, then mod p
  Limbs<F::N + 1> l{};
  for (auto& w : l) w = rng();
  Mpz r = mpz_from_limbs(l), out;
  mpz_mod(out.get(), r.get(), modulus<F>().get());
  return out;
}

// Edge values in [0, p).
template <class F>
std::vector<Mpz> edge_values() {
  const Mpz p = modulus<F>();
  std::vector<Mpz> v;
  for (unsigned long s : {0ul, 1ul, 2ul, 3ul}) v.emplace_back(s);
  for (unsigned long s : {1ul, 2ul, 3ul}) {
    Mpz t;
    mpz_sub_ui(t.get(), p.get(), s);
    v.push_back(t);
  }
  Mpz half, halfp1;
  mpz_sub_ui(half.get(), p.get(), 1);
  mpz_fdiv_q_2exp(half.get(), half.get(), 1);  // (p − 1)/2
  mpz_add_ui(halfp1.get(), half.get(), 1);     // (p + 1)/2
  v.push_back(half);
  v.push_back(halfp1);
  v.emplace_back(~0ul);  // 2^64 − 1
  Mpz r;                 // R mod p and R² mod p (the Montgomery constants as values)
  r = mpz_from_limbs(F::kR);
  v.push_back(r);
  r = mpz_from_limbs(F::kR2);
  v.push_back(r);
  Mpz top;  // 2^(64N − 1) mod p
  mpz_setbit(top.get(), F::kModulus.size() * 64 - 1);
  mpz_mod(top.get(), top.get(), p.get());
  v.push_back(top);
  return v;
}

// Runs each test twice: Asm = true with the mulx/adx multiplication, false with the portable CIOS.
template <class F, bool Asm>
struct Config {
  using Field = F;
  static constexpr bool kAsm = Asm;
};

template <class C>
class GmpCross : public ::testing::Test {
 protected:
  using F = typename C::Field;
  void SetUp() override {
    if constexpr (C::kAsm) {
      if (!F::kHasAsmPath || !mont_x86::cpu_has_mulx_adx()) GTEST_SKIP() << "no mulx/adx path here";
    }
    prev_ = mont_x86::set_asm_enabled(C::kAsm);
    ASSERT_EQ(mont_x86::g_use_asm, C::kAsm);
    seed_ = std::random_device{}();
    std::printf("seed=%llu\n", static_cast<unsigned long long>(seed_));
    rng_.seed(seed_);
    p_ = modulus<F>();
  }
  void TearDown() override { mont_x86::set_asm_enabled(prev_); }

  // Random values followed by all edge values, each paired with every other edge value.
  std::vector<Mpz> inputs(int n_random) {
    std::vector<Mpz> v = edge_values<F>();
    for (int i = 0; i < n_random; ++i) v.push_back(random_mpz<F>(rng_));
    return v;
  }

  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  Mpz p_;
  bool prev_ = false;
};

using Configs =
    ::testing::Types<Config<Fp, true>, Config<Fp, false>, Config<Fr, true>, Config<Fr, false>>;
TYPED_TEST_SUITE(GmpCross, Configs);

TYPED_TEST(GmpCross, AddSubMulSquareNeg) {
  using F = typename TestFixture::F;
  const auto xs = this->inputs(300);
  const auto ys = this->inputs(0);
  auto check = [&](const Mpz& x, const Mpz& y) {
    const F a = field_of<F>(x), b = field_of<F>(y);
    Mpz e;
    mpz_add(e.get(), x.get(), y.get());
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(a + b), e) << "add " << x << " " << y << " seed=" << this->seed_;
    F c = a;
    c += b;
    ASSERT_EQ(value_of(c), e) << "add in place " << x << " " << y << " seed=" << this->seed_;
    mpz_sub(e.get(), x.get(), y.get());
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(a - b), e) << "sub " << x << " " << y << " seed=" << this->seed_;
    c = a;
    c -= b;
    ASSERT_EQ(value_of(c), e) << "sub in place " << x << " " << y << " seed=" << this->seed_;
    mpz_mul(e.get(), x.get(), y.get());
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(a * b), e) << "mul " << x << " " << y << " seed=" << this->seed_;
    // the Montgomery form itself: a·R mod p
    Mpz m;
    mpz_mul_2exp(m.get(), x.get(), 64 * F::N);
    mpz_mod(m.get(), m.get(), this->p_.get());
    ASSERT_EQ(mpz_from_limbs(a.l), m) << "mont form " << x << " seed=" << this->seed_;
    c = a;
    c *= b;
    ASSERT_EQ(value_of(c), e) << "mul in place " << x << " " << y << " seed=" << this->seed_;
    mpz_mul(e.get(), x.get(), x.get());
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(a.square()), e) << "square " << x << " seed=" << this->seed_;
    c = a;
    c.square_inplace();
    ASSERT_EQ(value_of(c), e) << "square in place " << x << " seed=" << this->seed_;
    mpz_neg(e.get(), x.get());
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(-a), e) << "neg " << x << " seed=" << this->seed_;
    mpz_mul_2exp(e.get(), x.get(), 1);
    mpz_mod(e.get(), e.get(), this->p_.get());
    ASSERT_EQ(value_of(a.dbl()), e) << "dbl " << x << " seed=" << this->seed_;
  };
  for (const auto& x : xs)
    for (std::size_t j = 0; j < ys.size(); ++j) check(x, ys[j]);
  // random pairs
  for (int i = 0; i < 2000; ++i) check(random_mpz<F>(this->rng_), random_mpz<F>(this->rng_));
}

TYPED_TEST(GmpCross, InverseAndPow) {
  using F = typename TestFixture::F;
  for (const auto& x : this->inputs(150)) {
    const F a = field_of<F>(x);
    Mpz e;
    if (mpz_sgn(x.get()) == 0) {
      EXPECT_TRUE(a.inverse().is_zero());
      EXPECT_TRUE(a.inverse_vartime().is_zero());
    } else {
      ASSERT_NE(mpz_invert(e.get(), x.get(), this->p_.get()), 0);
      ASSERT_EQ(value_of(a.inverse()), e) << "inverse " << x << " seed=" << this->seed_;
      ASSERT_EQ(value_of(a.inverse_vartime()), e)
          << "inverse_vartime " << x << " seed=" << this->seed_;
    }
    // exponents: random of 1..N limbs plus a few fixed ones
    const Mpz k = random_mpz<F>(this->rng_);
    const auto kl = limbs_from_mpz<F::N>(k);
    mpz_powm(e.get(), x.get(), k.get(), this->p_.get());
    ASSERT_EQ(value_of(a.pow(kl)), e) << "pow " << x << "^" << k << " seed=" << this->seed_;
    ASSERT_EQ(value_of(a.pow_vartime(kl)), e)
        << "pow_vartime " << x << "^" << k << " seed=" << this->seed_;
    // exponents of every length (the windowed path starts above 32 bits; lengths not multiples of 4)
    Mpz kk = random_mpz<F>(this->rng_);
    const unsigned len = 1 + static_cast<unsigned>(this->rng_() % (64 * F::N - 1));
    mpz_fdiv_r_2exp(kk.get(), kk.get(), len);
    mpz_setbit(kk.get(), len - 1);
    mpz_powm(e.get(), x.get(), kk.get(), this->p_.get());
    ASSERT_EQ(value_of(a.pow_vartime(limbs_from_mpz<F::N>(kk))), e)
        << "pow_vartime " << x << "^" << kk << " seed=" << this->seed_;
    ASSERT_EQ(value_of(a.pow(limbs_from_mpz<F::N>(kk))), e)
        << "pow " << x << "^" << kk << " seed=" << this->seed_;
    const std::uint64_t small = this->rng_() % 1000;
    mpz_powm_ui(e.get(), x.get(), small, this->p_.get());
    ASSERT_EQ(value_of(a.pow_u64(small)), e)
        << "pow_u64 " << x << "^" << small << " seed=" << this->seed_;
    ASSERT_TRUE(a.pow_u64(0).is_one());
  }
}

// The variable-time inverse has data-dependent control flow: many random inputs, plus small
// values and powers of two (long runs of halvings).
TYPED_TEST(GmpCross, InverseVartimeMany) {
  using F = typename TestFixture::F;
  std::vector<Mpz> xs;
  for (int i = 0; i < 1500; ++i) xs.push_back(random_mpz<F>(this->rng_));
  for (unsigned long s = 1; s < 70; ++s) xs.emplace_back(s);
  for (unsigned b = 0; b + 1 < F::kModulus.size() * 64 - 2; b += 7) {
    Mpz t;
    mpz_setbit(t.get(), b);
    mpz_mod(t.get(), t.get(), this->p_.get());
    xs.push_back(t);
  }
  for (const auto& x : xs) {
    if (mpz_sgn(x.get()) == 0) continue;
    Mpz e;
    ASSERT_NE(mpz_invert(e.get(), x.get(), this->p_.get()), 0);
    ASSERT_EQ(value_of(field_of<F>(x).inverse_vartime()), e)
        << "inverse_vartime " << x << " seed=" << this->seed_;
  }
}

TYPED_TEST(GmpCross, SqrtAndLegendre) {
  using F = typename TestFixture::F;
  Mpz half;
  mpz_sub_ui(half.get(), this->p_.get(), 1);
  mpz_fdiv_q_2exp(half.get(), half.get(), 1);
  int squares = 0, non_squares = 0;
  for (const auto& x : this->inputs(120)) {
    const F a = field_of<F>(x);
    const int expect = mpz_legendre(x.get(), this->p_.get());  // p is an odd prime
    ASSERT_EQ(a.legendre(), expect) << "legendre " << x << " seed=" << this->seed_;
    auto s = a.sqrt();
    ASSERT_EQ(s.has_value(), expect >= 0) << "sqrt existence " << x << " seed=" << this->seed_;
    if (s) {
      Mpz r = value_of(*s), sq;
      mpz_mul(sq.get(), r.get(), r.get());
      mpz_mod(sq.get(), sq.get(), this->p_.get());
      ASSERT_EQ(sq, x) << "sqrt " << x << " seed=" << this->seed_;
      ++squares;
    } else {
      ++non_squares;
    }
    ASSERT_EQ(a.is_lexicographically_largest(), mpz_cmp(x.get(), half.get()) > 0)
        << "lexicographically largest " << x << " seed=" << this->seed_;
  }
  EXPECT_GT(squares, 20);  // about half of the random inputs are squares
  EXPECT_GT(non_squares, 20);
}

TYPED_TEST(GmpCross, BytesHexDecRoundTrip) {
  using F = typename TestFixture::F;
  constexpr std::size_t kB = F::kBytes;
  for (const auto& x : this->inputs(100)) {
    const F a = field_of<F>(x);
    // big-endian bytes as GMP writes them, left-padded to kB
    std::array<std::uint8_t, kB> be{}, le{}, want{};
    size_t count = 0;
    std::vector<std::uint8_t> raw(kB + 8);
    mpz_export(raw.data(), &count, 1, 1, 1, 0, x.get());
    ASSERT_LE(count, kB);
    std::copy(raw.begin(), raw.begin() + count, want.begin() + (kB - count));
    a.to_bytes_be(be);
    ASSERT_EQ(be, want) << "to_bytes_be " << x << " seed=" << this->seed_;
    a.to_bytes_le(le);
    std::reverse(want.begin(), want.end());
    ASSERT_EQ(le, want) << "to_bytes_le " << x << " seed=" << this->seed_;
    ASSERT_EQ(F::from_bytes_be(be).value(), a);
    ASSERT_EQ(F::from_bytes_le(le).value(), a);
    // strings
    ASSERT_EQ(a.to_hex(), x.hex()) << "seed=" << this->seed_;
    ASSERT_EQ(a.to_dec(), x.dec()) << "seed=" << this->seed_;
    ASSERT_EQ(F::from_hex(x.hex()).value(), a);
    ASSERT_EQ(F::from_hex(x.hex().substr(2)).value(), a);
    ASSERT_EQ(F::from_dec(x.dec()).value(), a);
    ASSERT_EQ(F::from_string(x.dec()).value(), a);
    ASSERT_EQ(F::from_string(x.hex()).value(), a);
    // upper-case hex and leading zeros parse too
    std::string up = x.hex().substr(2);
    for (auto& ch : up) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    ASSERT_EQ(F::from_hex("0X000" + up).value(), a);
    ASSERT_EQ(F::from_dec("00" + x.dec()).value(), a);
  }
}

// Values ≥ p given as bytes and strings must be rejected with out_of_range, not reduced.
TYPED_TEST(GmpCross, RejectsValuesAtOrAboveModulus) {
  using F = typename TestFixture::F;
  constexpr std::size_t kB = F::kBytes;
  std::vector<Mpz> bad;
  bad.push_back(this->p_);
  for (unsigned long s : {1ul, 2ul, 0xfffful}) {
    Mpz t;
    mpz_add_ui(t.get(), this->p_.get(), s);
    bad.push_back(t);
  }
  Mpz twop;
  mpz_mul_2exp(twop.get(), this->p_.get(), 1);
  if (mpz_sizeinbase(twop.get(), 256) <= kB) bad.push_back(twop);
  Mpz top;  // 2^bits − 1 and 2^(8·kB) − 1 (all bytes 0xff) and 2^bits
  mpz_setbit(top.get(), F::kModulus.size() * 64 == 384 ? 381 : 255);
  bad.push_back(top);
  mpz_sub_ui(top.get(), top.get(), 1);
  bad.push_back(top);
  Mpz ff;
  mpz_setbit(ff.get(), 8 * kB);
  mpz_sub_ui(ff.get(), ff.get(), 1);
  bad.push_back(ff);
  for (int i = 0; i < 50; ++i) {  // random values in [p, 2^(8·kB))
    Mpz r = random_mpz<F>(this->rng_), t;
    mpz_add(t.get(), r.get(), this->p_.get());
    if (mpz_sizeinbase(t.get(), 2) <= 8 * kB) bad.push_back(t);
  }
  for (const auto& x : bad) {
    ASSERT_GE(mpz_cmp(x.get(), this->p_.get()), 0);
    std::array<std::uint8_t, kB> be{};
    size_t count = 0;
    std::vector<std::uint8_t> raw(kB + 8);
    mpz_export(raw.data(), &count, 1, 1, 1, 0, x.get());
    ASSERT_LE(count, kB);
    std::copy(raw.begin(), raw.begin() + count, be.begin() + (kB - count));
    auto rb = F::from_bytes_be(be);
    ASSERT_FALSE(rb.ok()) << "from_bytes_be accepted " << x;
    EXPECT_EQ(rb.status().code(), Errc::out_of_range);
    std::array<std::uint8_t, kB> le = be;
    std::reverse(le.begin(), le.end());
    auto rl = F::from_bytes_le(le);
    ASSERT_FALSE(rl.ok()) << "from_bytes_le accepted " << x;
    EXPECT_EQ(rl.status().code(), Errc::out_of_range);
    auto rh = F::from_hex(x.hex());
    ASSERT_FALSE(rh.ok()) << "from_hex accepted " << x;
    EXPECT_EQ(rh.status().code(), Errc::out_of_range);
    auto rd = F::from_dec(x.dec());
    ASSERT_FALSE(rd.ok()) << "from_dec accepted " << x;
    EXPECT_EQ(rd.status().code(), Errc::out_of_range);
    EXPECT_FALSE(F::from_canonical(limbs_from_mpz<F::N>(x)).has_value());
  }
  // strings too long for N limbs and bad characters
  EXPECT_EQ(F::from_hex("0x1" + std::string(16 * F::N, '0')).status().code(), Errc::out_of_range);
  EXPECT_EQ(F::from_dec(std::string(200, '9')).status().code(), Errc::out_of_range);
  EXPECT_EQ(F::from_hex("0x12g4").status().code(), Errc::bad_encoding);
  EXPECT_EQ(F::from_hex("").status().code(), Errc::bad_encoding);
  EXPECT_EQ(F::from_hex("0x").status().code(), Errc::bad_encoding);
  EXPECT_EQ(F::from_dec("12a").status().code(), Errc::bad_encoding);
  EXPECT_EQ(F::from_dec("-1").status().code(), Errc::bad_encoding);
  EXPECT_EQ(F::from_dec("").status().code(), Errc::bad_encoding);
}

// from_limbs_reduce takes any N-limb integer mod p.
TYPED_TEST(GmpCross, FromLimbsReduce) {
  using F = typename TestFixture::F;
  for (int i = 0; i < 500; ++i) {
    typename F::Repr l{};
    for (auto& w : l) w = this->rng_();
    if (i == 0) l.fill(~std::uint64_t{0});
    Mpz x = mpz_from_limbs(l), e;
    mpz_mod(e.get(), x.get(), this->p_.get());
    ASSERT_EQ(value_of(F::from_limbs_reduce(l)), e) << x << " seed=" << this->seed_;
  }
}

// The assembly and portable multiplications agree word for word, including on the edge values
// whose products carry through every limb.
template <class F>
void asm_matches_portable() {
  if constexpr (F::kHasAsmPath) {
    if (!mont_x86::cpu_has_mulx_adx()) GTEST_SKIP() << "no mulx/adx on this CPU";
    const std::uint64_t seed = std::random_device{}();
    std::mt19937_64 rng(seed);
    std::vector<typename F::Repr> v;
    for (const auto& m : edge_values<F>()) v.push_back(field_of<F>(m).l);
    v.push_back(limbs_sub_small(F::kModulus, 1));  // p − 1 as raw Montgomery limbs
    for (int i = 0; i < 200; ++i) v.push_back(field_of<F>(random_mpz<F>(rng)).l);
    for (const auto& a : v)
      for (const auto& b : v) {
        typename F::Repr r1{}, r2{};
        F::mul_asm_unchecked(r1, a, b);
        F::mul_portable(r2, a, b);
        ASSERT_EQ(r1, r2) << "seed=" << seed;
      }
    for (const auto& a : v) {
      typename F::Repr r1{}, r2{};
      F::sqr_asm_unchecked(r1, a);
      F::mul_portable(r2, a, a);
      ASSERT_EQ(r1, r2) << "square, seed=" << seed;
      // in place (output aliasing the input) gives the same words
      typename F::Repr x = a, y = a;
      F::sqr_asm_unchecked(x, x);
      ASSERT_EQ(x, r2) << "seed=" << seed;
      F::mul_asm_unchecked(y, y, a);
      ASSERT_EQ(y, r2) << "seed=" << seed;
    }
  } else {
    GTEST_SKIP() << "built without the asm path";
  }
}
TEST(AsmVsPortable, Fp) { asm_matches_portable<Fp>(); }

// The Fp squaring loop (mont_x86::sqr_n6_nonred, behind square_n_inplace / square_n_mul_inplace)
// against the plain chain of portable Montgomery squarings: fully reduced inputs (edge values 0, 1,
// p − 1, … and random), and for the partly reduced kernel inputs in [p, 2p) as well (p + k,
// 2p − 1, values around 2^381), whose results must stay below 2p and agree mod p.
TEST(AsmVsPortable, FpSquareLoop) {
  if constexpr (Fp::kHasAsmPath) {
    if (!mont_x86::cpu_has_mulx_adx()) GTEST_SKIP() << "no mulx/adx on this CPU";
    const std::uint64_t seed = std::random_device{}();
    std::mt19937_64 rng(seed);
    using R = Fp::Repr;
    auto chain = [](R a, unsigned n) {  // n portable squarings of any a < 2p, result < p
      if (limbs_cmp(a, Fp::kModulus) >= 0) limbs_sub(a, a, Fp::kModulus);
      for (unsigned i = 0; i < n; ++i) Fp::mul_portable(a, a, a);
      return a;
    };
    std::vector<R> v;
    for (const auto& m : edge_values<Fp>()) v.push_back(field_of<Fp>(m).l);
    v.push_back(limbs_sub_small(Fp::kModulus, 1));
    v.push_back(R{});
    v.push_back(Fp::one().l);
    for (int i = 0; i < 100; ++i) v.push_back(field_of<Fp>(random_mpz<Fp>(rng)).l);
    const std::size_t reduced = v.size();
    R two_p{};
    limbs_add(two_p, Fp::kModulus, Fp::kModulus);
    v.push_back(Fp::kModulus);  // p ≡ 0
    v.push_back(limbs_add_small(Fp::kModulus, 1));
    v.push_back(limbs_sub_small(two_p, 1));  // 2p − 1
    R near{};
    near[5] = std::uint64_t{1} << 61;  // 2^381
    v.push_back(near);
    v.push_back(limbs_sub_small(near, 1));
    v.push_back(limbs_add_small(near, 12345));
    for (int i = 0; i < 50; ++i) {  // random in [p, 2p)
      R r = field_of<Fp>(random_mpz<Fp>(rng)).l;
      limbs_add(r, r, Fp::kModulus);
      v.push_back(r);
    }
    for (std::size_t k = 0; k < v.size(); ++k) {
      const R& a = v[k];
      for (unsigned n : {1u, 2u, 3u, 5u, 32u, 100u}) {
        const R want = chain(a, n);
        R x = a;
        Fp::sqr_n_nonred_asm_unchecked(x, n);
        ASSERT_LT(limbs_cmp(x, two_p), 0) << "n=" << n << " k=" << k << " seed=" << seed;
        ASSERT_EQ(chain(x, 0), want) << "n=" << n << " k=" << k << " seed=" << seed;
        if (k >= reduced) continue;
        // the field-element forms, asm against the portable twin
        Fp f = Fp::from_mont_unchecked(a), g = f;
        const Fp b = Fp::from_mont_unchecked(v[(k * 7 + n) % reduced]);
        f.square_n_inplace(n);
        ASSERT_EQ(f.l, want) << "n=" << n << " k=" << k << " seed=" << seed;
        Fp h = g;
        g.square_n_mul_inplace(n, b);
        R wm{};
        Fp::mul_portable(wm, want, b.l);
        ASSERT_EQ(g.l, wm) << "n=" << n << " k=" << k << " seed=" << seed;
        mont_x86::set_asm_enabled(false);
        h.square_n_mul_inplace(n, b);
        mont_x86::set_asm_enabled(true);
        ASSERT_EQ(h.l, wm) << "portable, n=" << n << " k=" << k << " seed=" << seed;
      }
      Fp z = Fp::from_mont_unchecked(a);
      if (k < reduced) {
        ASSERT_EQ(z.square_n_inplace(0).l, a);
        const Fp b = Fp::from_mont_unchecked(v[(k + 1) % reduced]);
        R wm{};
        Fp::mul_portable(wm, a, b.l);
        ASSERT_EQ(z.square_n_mul_inplace(0, b).l, wm) << "k=" << k;
      }
    }
  } else {
    GTEST_SKIP() << "built without the asm path";
  }
}
TEST(AsmVsPortable, Fr) { asm_matches_portable<Fr>(); }

// Constant evaluation keeps the portable path (std::is_constant_evaluated).
TEST(AsmVsPortable, ConstexprStillWorks) {
  constexpr Fp a = Fp::from_u64(7), b = Fp::from_u64(6);
  constexpr Fp c = a * b;
  static_assert(c == Fp::from_u64(42));
  EXPECT_EQ(c, Fp::from_u64(42));
  constexpr Fr d = Fr::from_u64(3).square();
  static_assert(d == Fr::from_u64(9));
}

// ---- field_arith known answers from tests/data ----

nlohmann::json load_vectors() {
  std::ifstream in(std::string(CUZK_TEST_DATA_DIR) + "/bls12_381_vectors.json");
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

template <class F>
void check_field_arith(const nlohmann::json& cases) {
  ASSERT_TRUE(cases.is_array());
  ASSERT_GT(cases.size(), 0u);
  for (const auto& c : cases) {
    auto get = [&](const char* k) {
      auto r = F::from_hex(c.at(k).template get<std::string>());
      EXPECT_TRUE(r.ok()) << k << ": " << r.status().to_string();
      return r.ok() ? r.value() : F::zero();
    };
    const F a = get("a"), b = get("b");
    EXPECT_EQ(a * b, get("a_mul_b")) << c.at("a");
    EXPECT_EQ(a + b, get("a_add_b")) << c.at("a");
    EXPECT_EQ(a - b, get("a_sub_b")) << c.at("a");
    EXPECT_EQ(a.square(), get("a_sqr")) << c.at("a");
    EXPECT_EQ(a.inverse(), get("a_inv")) << c.at("a");
    EXPECT_EQ(a.inverse_vartime(), get("a_inv")) << c.at("a");
    EXPECT_EQ(a.pow(b.to_canonical()), get("a_pow_b")) << c.at("a");
    // the *_montgomery entries are the stored limbs
    auto mont = [&](const char* k) {
      auto r = F::from_hex(c.at(k).template get<std::string>());  // < p, so it parses
      EXPECT_TRUE(r.ok());
      return r.ok() ? r.value().to_canonical() : typename F::Repr{};
    };
    EXPECT_EQ(a.l, mont("a_montgomery")) << c.at("a");
    EXPECT_EQ((a * b).l, mont("a_mul_b_montgomery")) << c.at("a");
  }
}

class Vectors : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam() && !mont_x86::cpu_has_mulx_adx()) GTEST_SKIP() << "no mulx/adx on this CPU";
    prev_ = mont_x86::set_asm_enabled(GetParam());
    json_ = load_vectors();
    ASSERT_FALSE(json_.is_null() || json_.is_discarded())
        << "cannot read " << CUZK_TEST_DATA_DIR << "/bls12_381_vectors.json";
  }
  void TearDown() override { mont_x86::set_asm_enabled(prev_); }
  nlohmann::json json_;
  bool prev_ = false;
};

TEST_P(Vectors, FpFieldArith) { check_field_arith<Fp>(json_.at("field_arith").at("Fp")); }
TEST_P(Vectors, FrFieldArith) { check_field_arith<Fr>(json_.at("field_arith").at("Fr")); }

TEST_P(Vectors, Fp2FieldArith) {
  const auto& cases = json_.at("field_arith").at("Fp2");
  ASSERT_GT(cases.size(), 0u);
  auto fp2 = [](const nlohmann::json& j) {
    return Fp2{Fp::from_hex(j.at(0).get<std::string>()).value(),
               Fp::from_hex(j.at(1).get<std::string>()).value()};
  };
  for (const auto& c : cases) {
    const Fp2 a = fp2(c.at("a")), b = fp2(c.at("b"));
    EXPECT_EQ(a * b, fp2(c.at("a_mul_b")));
    EXPECT_EQ(a.square(), fp2(c.at("a_sqr")));
    EXPECT_EQ(a.inverse(), fp2(c.at("a_inv")));
    EXPECT_EQ(a.inverse_vartime(), fp2(c.at("a_inv")));
  }
}

// The published Montgomery constants equal the derived ones.
TEST_P(Vectors, MontgomeryConstants) {
  auto limbs6 = [&](const char* k) {
    return Fp::from_hex(json_.at("fields").at("Fp").at(k).get<std::string>())
        .value()
        .to_canonical();
  };
  EXPECT_EQ(limbs6("R"), Fp::kR);
  EXPECT_EQ(limbs6("R2"), Fp::kR2);
  EXPECT_EQ(limbs6("R3"), Fp::kR3);
  auto limbs4 = [&](const char* k) {
    return Fr::from_hex(json_.at("fields").at("Fr").at(k).get<std::string>())
        .value()
        .to_canonical();
  };
  EXPECT_EQ(limbs4("R"), Fr::kR);
  EXPECT_EQ(limbs4("R2"), Fr::kR2);
  EXPECT_EQ(limbs4("R3"), Fr::kR3);
  EXPECT_EQ(Fp::from_dec(json_.at("fields").at("Fp").at("modulus_dec").get<std::string>())
                .status()
                .code(),
            Errc::out_of_range);
}

INSTANTIATE_TEST_SUITE_P(Paths, Vectors, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "asm" : "portable"; });

}  // namespace
}  // namespace cuzk
