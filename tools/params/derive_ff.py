#!/usr/bin/env python3
"""Derives and checks the BLS12-381 field constants of cuzk/ff (python3 only, no packages).

For Fp (6 x 64-bit limbs, R = 2^384) and Fr (4 limbs, R = 2^256) prints, as C++ Limbs<N>
initialisers of 64-bit little-endian words: the modulus, R = 2^(64N) mod m, R^2, R^3,
inv64 = -m^{-1} mod 2^64, the 2-adicity s and odd part t of m - 1, (m - 1)/2, (m + 1)/4 (the
square-root exponent when m = 3 mod 4), the smallest quadratic non-residue, and for Fr the 2^32-th
root of unity 7^((r-1)/2^32). It then checks that primality holds (Miller-Rabin), that the values
cuzk/ff/fp.hpp and fr.hpp assert are these, and, given the vectors file, that `fields.*` agrees.

Usage: tools/params/derive_ff.py [--vectors tests/data/bls12_381_vectors.json]
Exit status 1 when a check fails.
"""
import argparse
import json
import os
import random
import re
import sys

FIELDS = {
    "Fp": (0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab, 6),
    "Fr": (0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001, 4),
}
FR_GENERATOR = 7  # bellperson's multiplicative generator (coset shift)


def limbs(x, n):
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(n)]


def cpp_limbs(x, n):
    return "{" + ", ".join("0x%016xULL" % w for w in limbs(x, n)) + "}"


def is_probable_prime(n, rounds=40):
    if n < 4:
        return n in (2, 3)
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    rng = random.Random(381)
    for _ in range(rounds):
        a = rng.randrange(2, n - 1)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def derive(m, n):
    c = {}
    c["modulus"] = m
    c["bits"] = m.bit_length()
    c["R"] = pow(2, 64 * n, m)
    c["R2"] = pow(2, 128 * n, m)
    c["R3"] = pow(2, 192 * n, m)
    c["inv64"] = (-pow(m, -1, 2**64)) % 2**64
    s, t = 0, m - 1
    while t % 2 == 0:
        t //= 2
        s += 1
    c["two_adicity"] = s
    c["odd_part"] = t
    c["odd_part_half"] = (t - 1) // 2
    c["half_m_minus_1"] = (m - 1) // 2
    c["sqrt_exp"] = (m + 1) // 4 if m % 4 == 3 else None
    nr = 2
    while pow(nr, (m - 1) // 2, m) != m - 1:
        nr += 1
    c["smallest_nonresidue"] = nr
    return c


def check(cond, what, failures):
    print(("  ok    " if cond else "  FAIL  ") + what)
    if not cond:
        failures.append(what)


def header_limbs(path, name):
    """Reads `name == Limbs<N>{...}` or `name = {...}` word lists from a header."""
    text = open(path).read()
    m = re.search(re.escape(name) + r"\s*(?:==|=)\s*(?:Limbs<\d>)?\s*\{([^}]*)\}", text)
    if not m:
        return None
    words = [int(w.strip().rstrip("ULL").rstrip("ull"), 16) for w in m.group(1).split(",") if w.strip()]
    return sum(w << (64 * i) for i, w in enumerate(words))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vectors", default=os.path.join(root, "tests", "data", "bls12_381_vectors.json"))
    args = ap.parse_args()
    failures = []

    for name, (m, n) in FIELDS.items():
        c = derive(m, n)
        print("// %s: %d bits, %d limbs, R = 2^%d" % (name, c["bits"], n, 64 * n))
        for k in ("modulus", "R", "R2", "R3", "odd_part", "odd_part_half", "half_m_minus_1"):
            print("  %-16s = %s;  // 0x%x" % (k, cpp_limbs(c[k], n), c[k]))
        if c["sqrt_exp"] is not None:
            print("  %-16s = %s;" % ("sqrt_exp", cpp_limbs(c["sqrt_exp"], n)))
        print("  inv64 = 0x%016xULL; two_adicity = %d; smallest non-residue = %d"
              % (c["inv64"], c["two_adicity"], c["smallest_nonresidue"]))
        check(is_probable_prime(m), "%s modulus is prime" % name, failures)
        check(m >> (64 * n - 1) == 0 and (m >> (64 * (n - 1))) < 2**63 - 1,
              "%s top limb leaves the spare bit the no-carry CIOS and the asm need" % name, failures)
        check(m * (2**64 - c["inv64"]) % 2**64 == 1, "%s inv64 * m = -1 mod 2^64" % name, failures)

        hdr = os.path.join(root, "cuzk", "ff", name.lower() + ".hpp")
        if os.path.exists(hdr):
            check(header_limbs(hdr, "modulus") == m, "%s modulus in %s" % (name, os.path.relpath(hdr, root)), failures)
            check(header_limbs(hdr, name + "::kR") == c["R"], "%s::kR asserted in %s" % (name, os.path.relpath(hdr, root)), failures)
            text = open(hdr).read()
            check(("0x%xull" % c["inv64"]) in text.lower(), "%s::kInv asserted in the header" % name, failures)
            check(("kTwoAdicity == %d" % c["two_adicity"]) in text, "%s::kTwoAdicity asserted in the header" % name, failures)

        if name == "Fr":
            g = FR_GENERATOR
            check(pow(g, (m - 1) // 2, m) == m - 1, "7 is a non-residue mod r (generates the 2-Sylow part)", failures)
            w = pow(g, c["odd_part"], m)
            print("  %-16s = %s;  // 7^((r-1)/2^32)" % ("root_of_unity_32", cpp_limbs(w, n)))
            check(pow(w, 2**31, m) != 1 and pow(w, 2**32, m) == 1, "root of unity has order exactly 2^32", failures)
            if os.path.exists(hdr):
                check(header_limbs(hdr, "kFrRootOfUnity32") == w, "kFrRootOfUnity32 in fr.hpp", failures)

        if os.path.exists(args.vectors):
            v = json.load(open(args.vectors))["fields"][name]
            check(int(v["modulus_hex"], 16) == m and int(v["modulus_dec"]) == m, "%s modulus in the vectors" % name, failures)
            for k in ("R", "R2", "R3"):
                check(int(v[k], 16) == c[k], "%s %s in the vectors" % (name, k), failures)
            check(int(v["inv64"], 16) == c["inv64"], "%s inv64 in the vectors" % name, failures)
            if "two_adicity" in v:
                check(v["two_adicity"] == c["two_adicity"], "%s two_adicity in the vectors" % name, failures)
        else:
            print("  (no vectors file at %s)" % args.vectors)
        print()

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
