#!/usr/bin/env python3
"""An independent recount of the pentanomial SPRT's log-likelihood ratio
for tests/unit/test-sprt.

Reads lines "N0 N1 N2 N3 N4 ELO0 ELO1" (pairs scoring 0, 1/2, 1, 3/2, 2);
prints one LLR a line.  Written from Van den Bergh's note on the maximum
likelihood multinomial with a given expectation (Proposition 1.1): the
constrained maximum is found here by Newton's method on the dual
D(x) = sum p_i log(1 + x (a_i - s)), kept inside its domain, then the two
log-likelihoods are subtracted.  Empty cells count 1e-3 pairs, as fishtest."""
import math
import sys


def score(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def mle(p, a, s):
    lo, hi = -1 / (max(a) - s), 1 / (s - min(a))
    x = 0.0
    for _ in range(200):
        d1 = sum(pi * (ai - s) / (1 + x * (ai - s)) for pi, ai in zip(p, a))
        d2 = -sum(pi * (ai - s) ** 2 / (1 + x * (ai - s)) ** 2 for pi, ai in zip(p, a))
        nx = x - d1 / d2
        if not lo < nx < hi:
            nx = (x + (hi if nx >= hi else lo)) / 2
        if d1 > 0:
            lo = max(lo, x)
        else:
            hi = min(hi, x)
        if abs(nx - x) < 1e-16:
            break
        x = nx
    return [pi / (1 + x * (ai - s)) for pi, ai in zip(p, a)]


def llr(counts, elo0, elo1):
    if sum(counts) == 0:
        return 0.0
    c = [x if x > 0 else 1e-3 for x in counts]
    n = sum(c)
    p = [x / n for x in c]
    a = [k / 4 for k in range(5)]
    q0, q1 = mle(p, a, score(elo0)), mle(p, a, score(elo1))
    ll0 = sum(ci * math.log(qi) for ci, qi in zip(c, q0))
    ll1 = sum(ci * math.log(qi) for ci, qi in zip(c, q1))
    return ll1 - ll0


for line in sys.stdin:
    f = line.split()
    if f:
        print("%.15g" % llr([int(x) for x in f[:5]], float(f[5]), float(f[6])))
