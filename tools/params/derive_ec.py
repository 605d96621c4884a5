#!/usr/bin/env python3
"""Derives and checks the BLS12-381 curve constants used in cuzk/ec (python3 only, no packages).

Prints: the G1 endomorphism constant beta (cube root of unity in Fp with sigma(P) = (beta*x, y) =
[-x^2]P on G1), the G2 untwist-Frobenius-twist constants psi_x = 1/(u+1)^((p-1)/3) and
psi_y = 1/(u+1)^((p-1)/2), psi^2 constants, and checks psi(Q) = [x]Q on G2, the Budroni-Pintore
cofactor clearing = [h_eff]P on random curve points, and the G1 cofactor clearing [1 - x]P.
Limbs are printed as 64-bit little-endian words of the canonical value (cuzk/ec/*.hpp).
"""
import random

p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
X = -0xd201000000010000  # BLS parameter x
H1 = 0x396c8c005555e1568c00aaab0000aaab  # G1 cofactor
# h_eff of hash-to-curve (RFC 9380 section 8.8.2) for G2
H2_EFF = 0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec0ec69d7477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551


class F2:
    """c0 + c1*u, u^2 = -1."""
    def __init__(s, a, b=0): s.a, s.b = a % p, b % p
    def __add__(s, o): o = lift(o); return F2(s.a + o.a, s.b + o.b)
    def __sub__(s, o): o = lift(o); return F2(s.a - o.a, s.b - o.b)
    def __neg__(s): return F2(-s.a, -s.b)
    def __mul__(s, o): o = lift(o); return F2(s.a * o.a - s.b * o.b, s.a * o.b + s.b * o.a)
    def __eq__(s, o): o = lift(o); return s.a == o.a and s.b == o.b
    def conj(s): return F2(s.a, -s.b)
    def inv(s):
        n = pow(s.a * s.a + s.b * s.b, p - 2, p)
        return F2(s.a * n, -s.b * n)
    def __pow__(s, e):
        r_, b = F2(1), s
        while e:
            if e & 1: r_ = r_ * b
            b = b * b; e >>= 1
        return r_
    def is_zero(s): return s.a == 0 and s.b == 0
    def sqrt(s):
        # brute: p = 3 mod 4 algorithm (Adj/Rodriguez-Henriquez alg. 9)
        a1 = s ** ((p - 3) // 4)
        alpha = a1 * a1 * s
        x0 = a1 * s
        if alpha == F2(-1): res = F2(0, 1) * x0
        else: res = (alpha + 1) ** ((p - 1) // 2) * x0
        return res if res * res == s else None


def lift(o): return o if isinstance(o, F2) else F2(o)


class Fpe(F2):
    """An Fp element embedded as F2 with b = 0 (keeps one arithmetic)."""


# Affine arithmetic on y^2 = x^3 + B, None = identity.
def add(P, Q, B):
    if P is None: return Q
    if Q is None: return P
    (x1, y1), (x2, y2) = P, Q
    if x1 == x2:
        if (y1 + y2).is_zero(): return None
        lam = x1 * x1 * 3 * (y1 * 2).inv()
    else:
        lam = (y2 - y1) * (x2 - x1).inv()
    x3 = lam * lam - x1 - x2
    return (x3, lam * (x1 - x3) - y1)


def neg(P): return None if P is None else (P[0], -P[1])


def mul(P, k, B):
    if k < 0: return mul(neg(P), -k, B)
    R = None
    while k:
        if k & 1: R = add(R, P, B)
        P = add(P, P, B); k >>= 1
    return R


def rand_point(B, fp2):
    while True:
        x = F2(random.randrange(p), random.randrange(p) if fp2 else 0)
        y = (x * x * x + B).sqrt()
        if y is not None: return (x, y)


def limbs(v, n=6):
    return "{" + ", ".join("0x%016xULL" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


def main():
    random.seed(1)
    B1, B2 = F2(4), F2(4, 4)
    G1 = (F2(0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb),
          F2(0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1))
    G2 = (F2(0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
             0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e),
          F2(0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
             0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be))
    assert mul(G1, r, B1) is None and mul(G2, r, B2) is None

    # G1: beta with sigma(P) = [-x^2]P.
    g = 2
    while pow(g, (p - 1) // 3, p) == 1: g += 1
    w = pow(g, (p - 1) // 3, p)
    target = mul(G1, -X * X, B1)
    beta = next(b for b in (w, w * w % p) if (G1[0] * b, G1[1]) == target)
    print("G1 beta (sigma(x,y) = (beta*x, y) = [-x^2]P):", hex(beta))
    print("  limbs", limbs(beta))

    # G2: psi(x, y) = (conj(x)*cx, conj(y)*cy).
    xi = F2(1, 1)
    cx = (xi ** ((p - 1) // 3)).inv()
    cy = (xi ** ((p - 1) // 2)).inv()
    psi = lambda P: None if P is None else (P[0].conj() * cx, P[1].conj() * cy)
    assert psi(G2) == mul(G2, X, B2), "psi(G2) must be [x]G2"
    print("psi_x c0", hex(cx.a), limbs(cx.a)); print("psi_x c1", hex(cx.b), limbs(cx.b))
    print("psi_y c0", hex(cy.a), limbs(cy.a)); print("psi_y c1", hex(cy.b), limbs(cy.b))
    c2x, c2y = cx * cx.conj(), cy * cy.conj()
    print("psi^2: x * ", hex(c2x.a), "(c1 = %d)" % c2x.b, limbs(c2x.a), "; y * ", hex(c2y.a), "(c1 = %d)" % c2y.b)

    # Cofactor clearing checks on random points of the whole curve group.
    P = rand_point(B1, False)
    assert mul(P, r, B1) is not None
    Q = mul(P, 1 - X, B1)
    assert mul(Q, r, B1) is None, "[1-x]P must be in G1"
    P2 = rand_point(B2, True)
    t1 = mul(P2, X, B2); t2 = psi(P2); t3 = psi(psi(add(P2, P2, B2)))
    t3 = add(t3, neg(t2), B2); t2 = add(t1, t2, B2); t2 = mul(t2, X, B2)
    t3 = add(t3, t2, B2); t3 = add(t3, neg(t1), B2); Q2 = add(t3, neg(P2), B2)
    assert Q2 == mul(P2, H2_EFF, B2), "Budroni-Pintore must equal [h_eff]P"
    assert mul(Q2, r, B2) is None
    print("checks: beta, psi(G2) = [x]G2, [1-x]P in G1, Budroni-Pintore = [h_eff]P in G2: ok")


if __name__ == "__main__":
    main()
