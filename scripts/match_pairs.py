#!/usr/bin/env python3
"""Pools matches of `bao eval --json` pair by pair, and compares two players on the same openings.

Given one player's matches (`A1.json,A2.json`, joined in order), prints its score over all their
pairs of games with the 95% interval `bao eval` gives one match (each pair one sample, its
variance turned into an effective number of games for Wilson's interval: src/eval/elo.rs), and
the Elo of that score. Given a second player's matches on the same openings (the same
opponent, `--seed` and number of games, so pair k of one opened as pair k of the other), prints
the second's too and the mean per-pair difference of the two, in points of score, with its 95%
interval: pairs from the same openings cancel most of the openings' luck, so that interval is far
narrower than the one of two independent scores.

Usage: scripts/match_pairs.py NEW.json[,NEW2.json...] [OLD.json[,OLD2.json...]]
"""

import json
import math
import sys


def pair_scores(paths):
    """Player A's mean score per pair of games (0, 1/4, ..., 1), over the match files in order."""
    scores = []
    for path in paths.split(","):
        with open(path) as f:
            result = json.load(f)
        by_pair = {}
        for game in result["game_list"]:
            by_pair.setdefault(game["pair"], []).append(game["score_a"])
        scores += [sum(s) / len(s) for _, s in sorted(by_pair.items())]
    return scores


Z95 = 1.959964


def mean_interval(samples):
    """Mean and the half width of its 95% interval (normal approximation)."""
    n = len(samples)
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1) if n > 1 else 0.0
    return mean, Z95 * math.sqrt(var / n)


def score_interval(pair_scores):
    """The mean score and its 95% interval, as `ScoreEstimate::from_distribution` computes them."""
    n = len(pair_scores)
    p = sum(pair_scores) / n
    var = sum((x - p) ** 2 for x in pair_scores) / n
    binomial = p * (1 - p)
    n_eff = n * binomial / var if var > 0 and binomial > 0 else 2 * n
    z2 = Z95 * Z95
    denom = 1 + z2 / n_eff
    center = (p + z2 / (2 * n_eff)) / denom
    half = Z95 / denom * math.sqrt(binomial / n_eff + z2 / (4 * n_eff * n_eff))
    return p, max(center - half, 0.0), min(center + half, 1.0)


def elo(score, games):
    # Half a game the other way keeps a score of 0 or 1 finite, as `bao eval` does.
    score = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return -400 * math.log10(1 / score - 1)


def describe(name, scores):
    games = 2 * len(scores)
    p, low, high = score_interval(scores)
    return (
        f"{name}: {100 * p:.1f}% [{100 * low:.1f}, {100 * high:.1f}] over {games} games, "
        f"Elo {elo(p, games):+.0f} [{elo(low, games):+.0f}, {elo(high, games):+.0f}]"
    )


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    new = pair_scores(sys.argv[1])
    print(describe("new", new))
    if len(sys.argv) == 3:
        old = pair_scores(sys.argv[2])
        if len(new) != len(old):
            sys.exit(f"the matches have {len(new)} and {len(old)} pairs: not the same openings")
        print(describe("old", old))
        m, h = mean_interval([100 * (a - b) for a, b in zip(new, old)])
        print(f"difference per pair: {m:+.1f} points [{m - h:+.1f}, {m + h:+.1f}] (95%)")


if __name__ == "__main__":
    main()
