#!/usr/bin/env python3
"""gen_consts.py: print the constants of devmath.c, computed from scratch.

pi comes from Machin's formula in integer arithmetic, logarithms and exponentials from
Python's decimal module at 120 digits, erf from its Taylor series. Each constant is printed
as a C hex float, rounded to nearest; a _LO constant is the rounded remainder of its _HI.
Only the standard library is used. Run it and compare with devmath.c by eye.
"""
from decimal import Decimal, getcontext

getcontext().prec = 120
BITS = 1400  # binary digits of pi; 2/pi needs 37 * 32 of them


def atan_inv(n, one):
    """atan(1/n) * one, by its Taylor series in integers."""
    total, term, k = 0, one // n, 1
    while term:
        total += term // k if k % 4 == 1 else -(term // k)
        term //= n * n
        k += 2
    return total


ONE = 1 << (BITS + 64)
PI_FIXED = (16 * atan_inv(5, ONE) - 4 * atan_inv(239, ONE)) >> 64  # pi * 2^BITS
PI = Decimal(PI_FIXED) / (Decimal(2) ** BITS)


def hexf(d):
    return float(d).hex()


def split(name, d, parts=2):
    for i in range(parts):
        h = float(d)
        suffix = ["_HI", "_LO"][i] if parts == 2 else "_%d" % (i + 1)
        print("#define %s%s %s" % (name, suffix, h.hex()))
        d -= Decimal(h)


def erf(x):
    """erf(x) by its Taylor series; fine for x <= 3 at 120 digits."""
    x = Decimal(x)
    z, term, total, n = x * x, x, x, 0
    while abs(term) > Decimal(10) ** -110:
        n += 1
        term = -term * z / n
        total += term / (2 * n + 1)
    return 2 / PI.sqrt() * total


LN2 = Decimal(2).ln()
split("LN2", LN2)
split("LOG2E", 1 / LN2)
split("PIO2", PI / 2, parts=3)
print("#define TWO_OVER_PI %s" % hexf(2 / PI))
split("TWO_OVER_SQRTPI", 2 / PI.sqrt())
print("#define ONE_OVER_SQRTPI %s" % hexf(1 / PI.sqrt()))

# 2/pi in 32-bit words after a zero word for its integer part.
words = 37
scaled = (2 << (BITS + 32 * words)) // PI_FIXED
ws = [0] + [(scaled >> (32 * (words - 1 - i))) & 0xFFFFFFFF for i in range(words)]
print("two_over_pi_words[%d] = {" % len(ws))
for i in range(0, len(ws), 6):
    print("\t" + " ".join("0x%08x," % w for w in ws[i:i + 6]))
print("};")

print("erf centres: {a, erf(a) hi, lo, 2/sqrt(pi) exp(-a^2) hi, lo}")


def hilo(d):
    h = float(d)
    return "%s, %s" % (h.hex(), float(d - Decimal(h)).hex())


for a in ["0.75", "1.25", "1.75", "2.25", "2.75"]:
    k = 2 / PI.sqrt() * (-Decimal(a) ** 2).exp()
    print("\t{%s, %s, %s}," % (a, hilo(erf(a)), hilo(k)))


def atan(x):
    """atan(x) for 0 <= x <= 1: halve the argument twice (atan x = 2 atan(x / (1 +
    sqrt(1 + x^2)))), then the Taylor series."""
    x = Decimal(x)
    for _ in range(2):
        x = x / (1 + (1 + x * x).sqrt())
    z, term, total, n = x * x, x, x, 0
    while abs(term) > Decimal(10) ** -115:
        n += 1
        term = -term * z
        total += term / (2 * n + 1)
    return 4 * total


LN10 = Decimal(10).ln()
split("LN10", LN10)
split("LOG10E", 1 / LN10)
print("atan(k/8) for k = 0 .. 8: {hi, lo}")
for k in range(9):
    print("\t{%s}," % hilo(atan(Decimal(k) / 8)))
