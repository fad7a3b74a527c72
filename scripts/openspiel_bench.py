#!/usr/bin/env python3
"""OpenSpiel over bao_zero, measured in one run: OpenSpiel's Python MCTS simulations per second
on Bao (the game ``bao_zero``) beside OpenSpiel's own ``mancala``, and OpenSpiel's ``MCTSBot``
against the project's players through ``bao_zero.openspiel.PlayerBot``. Needs ``open_spiel``
(``pip install ./bao-py[openspiel]``, Python 3.11 and later).

    python scripts/openspiel_bench.py [--sims 100] [--games 10] [--variant kiswahili]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import bao_zero
import bao_zero.openspiel


def sims_per_second(game: pyspiel.Game, sims: int, moves: int, seed: int) -> float:
    """OpenSpiel MCTS (random rollouts) simulations a second over the first ``moves`` moves."""
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while not state.is_terminal() and done < moves:
        state.apply_action(bot.step(state))
        done += 1
    return sims * done / (time.perf_counter() - start)


def match(game: pyspiel.Game, spec: str, sims: int, games: int) -> tuple[float, int]:
    """MCTSBot's score against the player ``spec`` (colours alternating) and the games."""
    score = 0.0
    for g in range(games):
        rng = np.random.RandomState(g)
        mcts_bot = mcts.MCTSBot(
            game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
        )
        player = bao_zero.openspiel.PlayerBot(bao_zero.Player.from_spec(spec, g))
        bots = [mcts_bot, player] if g % 2 == 0 else [player, mcts_bot]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, g)
        score += (returns[g % 2] + 1) / 2
    return score / games, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=100, help="MCTS simulations a move")
    parser.add_argument("--games", type=int, default=10, help="games against each player")
    parser.add_argument("--variant", default="kiswahili")
    args = parser.parse_args()
    bao = pyspiel.load_game("bao_zero", {"variant": args.variant, "max_plies": 300})
    mancala = pyspiel.load_game("mancala")
    print(f"OpenSpiel MCTS, {args.sims} simulations a move, random rollouts, first 20 moves:")
    for name, game in ((f"bao_zero {args.variant}", bao), ("mancala (OpenSpiel's)", mancala)):
        print(f"  {name:28} {sims_per_second(game, args.sims, 20, 0):8.0f} simulations/s")
    print(f"MCTSBot ({args.sims} simulations) against the project's players, {args.variant}:")
    for spec in ("random", "greedy", "ab:depth=2"):
        score, games = match(bao, spec, args.sims, args.games)
        print(f"  vs {spec:12} {100 * score:5.1f}% over {games} games")


if __name__ == "__main__":
    main()
