#!/usr/bin/env python3
"""Reference values for tests/test_stats.cpp.

An independent, dependency-free reimplementation of the formulas fishtest uses
(server/fishtest/stats/stat_util.py get_elo, LLRcalc.py LLR_logistic / LLR_normalized)
and of fastchess's normalized Elo interval. Root finding is plain bisection here
(the C++ code uses safeguarded Newton), and the t-value MLE fixed point is iterated
to convergence (fishtest stops after at most 10 rounds; the difference is < 1e-9).

Run: python3 tests/data/stats_reference.py
"""
import math
from statistics import NormalDist

NELO_PER_T = 800 / math.log(10)
Z95 = NormalDist().inv_cdf(0.975)


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def elo(score):
    return -400 * math.log10(1 / score - 1)


def logistic(e):
    return 1 / (1 + 10 ** (-e / 400))


def regularize(counts):
    return [c if c != 0 else 1e-3 for c in counts]


def to_pdf(counts):
    counts = regularize(counts)
    n = sum(counts)
    k = len(counts)
    return n, [(i / (k - 1), counts[i] / n) for i in range(k)]


def mean_var(pdf):
    m = sum(p * a for a, p in pdf)
    return m, sum(p * (a - m) ** 2 for a, p in pdf)


def secular(pdf):
    """Root of sum p a / (1 + x a) = 0 by bisection on (-1/max a, -1/min a)."""
    lo_a = min(a for a, _ in pdf)
    hi_a = max(a for a, _ in pdf)
    assert lo_a < 0 < hi_a
    lo, hi = -1 / hi_a, -1 / lo_a
    f = lambda x: sum(p * a / (1 + x * a) for a, p in pdf)
    for _ in range(400):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mle_mean(pdf, s):
    shifted = [(a - s, p) for a, p in pdf]
    x = secular(shifted)
    return [(a, p / (1 + x * (a - s))) for a, p in pdf]


def mle_t(pdf, ref, t):
    n = len(pdf)
    cur = [(a, 1 / n) for a, _ in pdf]
    for _ in range(1000):
        mu, var = mean_var(cur)
        sigma = math.sqrt(var)
        g = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = secular(g)
        new = [(pdf[i][0], pdf[i][1] / (1 + x * g[i][0])) for i in range(n)]
        change = max(abs(new[i][1] - cur[i][1]) for i in range(n))
        cur = new
        if change < 1e-15:
            break
    mu, var = mean_var(cur)
    assert abs((mu - ref) / math.sqrt(var) - t) < 1e-9
    return cur


def llr(counts, model, e0, e1):
    n, pdf = to_pdf(counts)
    if model == "logistic":
        p0, p1 = mle_mean(pdf, logistic(e0)), mle_mean(pdf, logistic(e1))
    else:
        scale = math.sqrt(2) if len(counts) == 5 else 1
        p0 = mle_t(pdf, 0.5, e0 / NELO_PER_T * scale)
        p1 = mle_t(pdf, 0.5, e1 / NELO_PER_T * scale)
    return n * sum(pdf[i][1] * (math.log(p1[i][1]) - math.log(p0[i][1])) for i in range(len(pdf)))


def elo_stats(counts):
    """counts: [L, D, W] or the five pentanomial counts, without zero cells."""
    k = len(counts)
    n = sum(counts)
    games = n * (k - 1) / 2
    mu = sum(counts[i] * i / 2 for i in range(k)) / games
    var = sum(counts[i] * (i / 2 - (k - 1) / 2 * mu) ** 2 for i in range(k)) / games
    se = math.sqrt(var / games)
    lo, hi = mu - Z95 * se, mu + Z95 * se
    return {
        "score": mu,
        "score_stderr": se,
        "elo": elo(mu),
        "elo_error95": (elo(hi) - elo(lo)) / 2,
        "nelo": (mu - 0.5) / math.sqrt(var) * NELO_PER_T,
        "nelo_error95": Z95 * NELO_PER_T / math.sqrt(games),
        "los": phi((mu - 0.5) / se),
    }


def main():
    cases = [
        ("penta", [2, 10, 40, 12, 3]),
        ("penta", [100, 500, 1000, 520, 90]),
        ("penta", [10789, 19328, 33806, 19402, 10543]),
        ("wdl", [120, 60, 100]),  # W, D, L
        ("wdl", [1450, 4000, 1500]),
    ]
    for kind, c in cases:
        counts = c if kind == "penta" else [c[2], c[1], c[0]]
        print(kind, c)
        for key, v in elo_stats(counts).items():
            print(f"  {key:13s} {v:.12g}")
        for model, e0, e1 in [("normalized", 0, 5), ("logistic", 0, 5), ("logistic", -3, 1)]:
            print(f"  LLR {model} [{e0}, {e1}] {llr(counts, model, e0, e1):.12g}")
    # Empty cells (regularised to 1e-3) and fishtest's own normalized example.
    for c, model, e0, e1 in [([0, 3, 10, 5, 0], "normalized", 0, 5),
                             ([39, 2226, 31451, 2412, 40], "normalized", 0.764, 3.439),
                             ([39, 2226, 31451, 2412, 40], "logistic", 0.2, 0.9)]:
        print(f"penta {c} LLR {model} [{e0}, {e1}] {llr(c, model, e0, e1):.12g}")


if __name__ == "__main__":
    main()
