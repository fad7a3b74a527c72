"""Golden playthroughs: each preset's seeded game (observations, masks, actions, rewards and
flags) as its fixture pins it (`scripts/python_playthroughs.py` writes them again)."""

from __future__ import annotations

import difflib

import pytest

import bao_zero
from playthrough import path_of, playthrough


@pytest.mark.parametrize("variant", bao_zero.variants())
def test_the_seeded_game_matches_its_golden_playthrough(variant: str) -> None:
    path = path_of(variant)
    assert path.is_file(), f"no fixture {path}: run scripts/python_playthroughs.py"
    golden = path.read_text()
    now = playthrough(variant)
    if now != golden:
        diff = difflib.unified_diff(
            golden.splitlines(), now.splitlines(), "golden", "now", n=1, lineterm=""
        )
        pytest.fail(
            f"{variant}'s playthrough differs from {path.name} (if the change is meant, run "
            "scripts/python_playthroughs.py):\n" + "\n".join(list(diff)[:30])
        )


def test_every_fixture_is_a_preset() -> None:
    names = {p.stem for p in path_of("x").parent.glob("*.txt")}
    assert names == set(bao_zero.variants())
