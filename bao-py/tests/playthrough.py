"""Golden playthroughs of the RL contract, as OpenSpiel's playthrough files pin theirs: one
seeded game of a preset, step by step, written as text. `test_playthroughs.py` checks the
fixtures under `playthroughs/` against a fresh run; `scripts/python_playthroughs.py` writes them.

A fixture is a header (the variant, seed, ply cap and the rules in force as JSON), then one line
for the reset and one per step:

    ply action mask observation reward rewards terminated truncated

`mask` is the 64 legal bits as 16 hex digits (bit `a` set: action `a` legal), `observation`
the first 16 hex digits of the SHA-256 of the float32 observation's bytes, with the number of
its nonzero entries; `reward` is `Env.step`'s (the mover's), `rewards` both sides' from the
info. The reset line has `-` for the action and the step's results. The actions are drawn with
Python's `random.Random(seed)` among the legal ones, stable across Python versions.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np

import bao_zero

#: Where the fixtures live.
FOLDER = Path(__file__).parent / "playthroughs"
#: The seed of every fixture's reset and action draws.
SEED = 65
#: The ply cap: long enough for every preset's opening, short enough to keep fixtures small.
MAX_PLIES = 60


def _mask_hex(env: bao_zero.Env) -> str:
    bits = 0
    for a in np.flatnonzero(env.action_masks()):
        bits |= 1 << int(a)
    return f"{bits:016x}"


def _obs_text(obs: np.ndarray) -> str:
    digest = hashlib.sha256(np.ascontiguousarray(obs, dtype="<f4").tobytes()).hexdigest()
    return f"{digest[:16]}/{int(np.count_nonzero(obs))}"


def playthrough(variant: str) -> str:
    """The fixture text of `variant`'s seeded game."""
    env = bao_zero.Env(variant, seed=SEED, max_plies=MAX_PLIES)
    rng = random.Random(SEED)
    lines = [
        f"variant {variant}",
        f"seed {SEED}",
        f"max_plies {MAX_PLIES}",
        f"rules {json.dumps(env.rules, sort_keys=True)}",
        f"{env.plies} - {_mask_hex(env)} {_obs_text(env.observation)} - - - -",
    ]
    while not env.done:
        legal = env.legal_actions()
        action = legal[rng.randrange(len(legal))]
        obs, reward, terminated, truncated, info = env.step(action)
        south, north = info["rewards"]
        lines.append(
            f"{env.plies} {action} {_mask_hex(env)} {_obs_text(obs)} {reward:g} "
            f"{south:g},{north:g} {int(terminated)} {int(truncated)}"
        )
    lines.append(f"end {env.end} winner {env.winner}")
    return "\n".join(lines) + "\n"


def path_of(variant: str) -> Path:
    """The fixture file of `variant`."""
    return FOLDER / f"{variant}.txt"
