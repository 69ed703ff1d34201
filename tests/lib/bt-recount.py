#!/usr/bin/env python3
"""An independent recount of Bradley-Terry ratings for tests/unit/test-ratings.

Reads "NBOTS ANCHOR PRIOR" then one game a line, "A B HALF_POINTS" (A's
points in halves: 2 win, 1 draw, 0 loss); prints one line a bot,
"ELO SE" on the Elo scale.  The fit is Hunter's MM iteration (Ann. Statist.
32 (2004) 384-406, eq. 3), not the Newton method of src/tour/ratings.c;
PRIOR virtual draws are added between every pair, as there.  The standard
errors invert the Fisher information by Gauss-Jordan elimination."""
import math
import sys


def read():
    lines = sys.stdin.read().split("\n")
    n, anchor, prior = (int(x) for x in lines[0].split())
    games = [[0.0] * n for _ in range(n)]
    wins = [0.0] * n
    for i in range(n):
        for j in range(n):
            if i != j:
                games[i][j] = prior
        wins[i] = 0.5 * prior * (n - 1)
    for line in lines[1:]:
        if not line.strip():
            continue
        a, b, h = (int(x) for x in line.split())
        games[a][b] += 1
        games[b][a] += 1
        wins[a] += h / 2
        wins[b] += (2 - h) / 2
    return n, anchor, games, wins


def mm(n, anchor, games, wins):
    g = [1.0] * n
    for _ in range(1000000):
        new = []
        for i in range(n):
            d = sum(games[i][j] / (g[i] + g[j]) for j in range(n) if j != i)
            new.append(wins[i] / d)
        scale = new[anchor]
        new = [x / scale for x in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, g))
        g = new
        if change < 1e-14:
            break
    return [math.log(x) for x in g]


def inverse(a):
    m = len(a)
    aug = [row[:] + [1.0 if i == j else 0.0 for j in range(m)] for i, row in enumerate(a)]
    for c in range(m):
        p = max(range(c, m), key=lambda r: abs(aug[r][c]))
        aug[c], aug[p] = aug[p], aug[c]
        piv = aug[c][c]
        aug[c] = [x / piv for x in aug[c]]
        for r in range(m):
            if r != c and aug[r][c] != 0:
                f = aug[r][c]
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[c])]
    return [row[m:] for row in aug]


def main():
    n, anchor, games, wins = read()
    t = mm(n, anchor, games, wins)
    free = [i for i in range(n) if i != anchor]
    info = [[0.0] * len(free) for _ in free]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            if a == b:
                info[a][a] = sum(games[i][k] * p * (1 - p) for k in range(n) if k != i
                                 for p in [1 / (1 + math.exp(t[k] - t[i]))])
            else:
                p = 1 / (1 + math.exp(t[j] - t[i]))
                info[a][b] = -games[i][j] * p * (1 - p)
    cov = inverse(info) if free else []
    scale = 400 / math.log(10)
    for i in range(n):
        se = 0.0 if i == anchor else math.sqrt(cov[free.index(i)][free.index(i)])
        print("%.12f %.12f" % (t[i] * scale, se * scale))


main()
