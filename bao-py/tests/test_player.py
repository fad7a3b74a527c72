"""bao_zero.Player: player files, alpha-beta, choices, and damaged files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bao_zero

START = bao_zero.Env().position


def test_the_shipped_player_chooses_a_legal_move(shipped_player_path: Path) -> None:
    player = bao_zero.Player.load(shipped_player_path)
    assert player.variant == "kiswahili"
    choice = player.choose(START, sims=32)
    env = bao_zero.Env()
    assert choice.move in env.legal_moves()
    assert env.move_to_action(choice.move) == choice.action
    assert choice.value is not None and -1.0 <= choice.value <= 1.0
    assert choice.pv and choice.pv[0] == choice.move
    timed = player.choose(env, movetime_ms=50)
    assert timed.move in env.legal_moves()


def test_the_shipped_player_beats_or_plays_a_random_agent(shipped_player_path: Path) -> None:
    player = bao_zero.Player.load(shipped_player_path)
    env = bao_zero.Env(seed=0, max_plies=400)
    rng = np.random.default_rng(0)
    while not env.done:
        if env.current_player == 0:
            env.step(player.choose(env, sims=16).action)
        else:
            env.step(int(rng.choice(env.legal_actions())))
    assert env.end is not None


def test_alphabeta_and_baselines() -> None:
    ab = bao_zero.Player.alphabeta(depth=3)
    choice = ab.choose(START)
    assert choice.move in bao_zero.Env().legal_moves()
    assert choice.depth == 3 and choice.nodes > 0 and choice.value is not None
    assert len(choice.pv) >= 1 and choice.pv[0] == choice.move
    hus = bao_zero.Env("hus")
    assert ab.choose(hus.position, variant="hus", depth=2).move in hus.legal_moves()
    for player in (
        bao_zero.Player.random(1),
        bao_zero.Player.greedy(1),
        bao_zero.Player.from_spec("ab:nodes=2k"),
    ):
        assert player.choose(START).move in bao_zero.Env().legal_moves()
    assert "Choice(move=" in repr(choice)


def test_errors() -> None:
    ab = bao_zero.Player.alphabeta(depth=2)
    with pytest.raises(ValueError):
        ab.choose("not a position")
    with pytest.raises(ValueError):
        ab.choose(12)
    finished = bao_zero.Env("hus", seed=0)
    rng = np.random.default_rng(0)
    while not finished.done:
        finished.step(int(rng.choice(finished.legal_actions())))
    with pytest.raises(ValueError, match="game is over"):
        ab.choose(finished)
    with pytest.raises(ValueError):
        bao_zero.Player.from_spec("minimax:depth=3")


def test_missing_and_damaged_player_files(tmp_path: Path, shipped_player_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        bao_zero.Player.load(tmp_path / "missing.bao")
    data = shipped_player_path.read_bytes()
    damaged = [
        ("empty.bao", b""),
        ("foreign.bao", b"hello, world\n" * 10),
        ("truncated.bao", data[: len(data) // 2]),
        ("flipped.bao", data[:-100] + bytes([data[-100] ^ 0xFF]) + data[-99:]),
    ]
    for name, content in damaged:
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(ValueError):
            bao_zero.Player.load(path)


def test_a_trained_player_refuses_other_rules(shipped_player_path: Path) -> None:
    player = bao_zero.Player.load(shipped_player_path)
    with pytest.raises(ValueError, match="plays kiswahili, not hus: a trained player plays only"):
        player.choose(bao_zero.Env("hus"), sims=8)
    # A player of any game is built again for each game a call brings, its threads kept.
    ab = bao_zero.Player.alphabeta(depth=2)
    assert ab.set_threads(1)
    for variant in ("hus", "kiswahili", "hus"):
        env = bao_zero.Env(variant)
        assert ab.choose(env).move in env.legal_moves()


def test_a_player_built_again_for_another_game_keeps_the_seed_of_its_game() -> None:
    hus = bao_zero.Env("hus", seed=0)
    fresh = bao_zero.Player.random(5)
    reseeded = bao_zero.Player.random(0)
    reseeded.new_game(5)

    def picks(player: bao_zero.Player) -> list[str]:
        return [player.choose(hus).move for _ in range(6)]

    assert picks(reseeded) == picks(fresh)


def test_a_player_asked_about_two_games_in_turn_goes_on_with_each() -> None:
    kiswahili, hus = bao_zero.Env("kiswahili", seed=0), bao_zero.Env("hus", seed=0)
    # Two rule sets of one preset are two games too.
    no_takasia = bao_zero.Env("kiswahili", seed=0, rules={"takasia": "none"})
    for other in (hus, no_takasia):
        player = bao_zero.Player.random(0)
        picks = []
        for _ in range(12):
            picks.append(player.choose(kiswahili).move)
            player.choose(other)
        assert len(set(picks)) > 1, picks
    # Alpha-beta keeps its table for each game: a search repeated after one of another game
    # finds the first one's positions there, as a search repeated at once does.
    ab = bao_zero.Player.alphabeta(depth=5)
    first = ab.choose(kiswahili).nodes
    at_once = ab.choose(kiswahili).nodes
    ab.choose(hus)
    assert ab.choose(kiswahili).nodes == at_once < first
    # A new game reaches the player of every game it kept.
    ab.new_game(0)
    assert ab.choose(hus).nodes == bao_zero.Player.alphabeta(depth=5).choose(hus).nodes


def test_every_shipped_player_is_found_by_its_game(shipped_player_path: Path) -> None:
    shipped = sorted(p.stem for p in shipped_player_path.parent.glob("*.bao"))
    assert "kiswahili" in shipped and len(shipped) >= 6, shipped
    for variant in shipped:
        player = bao_zero.Player.shipped(variant)
        assert player.variant == variant
        env = bao_zero.Env(variant, seed=1)
        choice = player.choose(env, sims=16)
        assert choice.move in env.legal_moves(), (variant, choice.move)
    # A ladder step has no shipped player; an unknown name is a ValueError.
    with pytest.raises(FileNotFoundError, match="ladder-kimbi"):
        bao_zero.Player.shipped("ladder-kimbi")
    with pytest.raises(ValueError):
        bao_zero.Player.shipped("chess")


def test_the_default_player_of_a_solved_game_plays_the_proven_win() -> None:
    player = bao_zero.Player.default("kujifunza")
    assert player.name.startswith("solver:time=1s,else=player:"), player.name
    assert player.variant == "kujifunza"
    # A won position (South to move) where some moves give the win away: the solver's answer.
    won = (
        "0,1,2,1,5,1,0,0/1,3,1,4,11,2,1,1/0,4,0,1,2,0,0,4/4,2,2,0,1,4,6,0 S 0,0 - - - 22 "
        "mtaji-captured=1"
    )
    choice = player.choose(won, sims=16)
    assert choice.value == 1.0 and choice.pv[0] == choice.move
    # A game not solved from the start keeps its shipped player alone.
    assert bao_zero.Player.default("kiswahili").name.startswith("player:")
    with pytest.raises(ValueError):
        bao_zero.Player.default("chess")


def test_two_threads_share_one_player_without_deadlock() -> None:
    # Run in a child: before the lock was taken with the GIL released, the two threads (and the
    # interpreter with them) deadlocked, and only a process can be given up on.
    script = """
import threading, bao_zero
p = bao_zero.Player.from_spec("ab:depth=40")
pos = bao_zero.Env().position
moves, errors = [], []
def search():
    try:
        for _ in range(3):
            moves.append(p.choose(pos, movetime_ms=150).move)
    except BaseException as e:
        errors.append(repr(e))
def manage():
    try:
        for k in range(3):
            p.new_game(k)
            p.set_threads(1 + k % 2)
    except BaseException as e:
        errors.append(repr(e))
threads = [threading.Thread(target=f, daemon=True) for f in (search, search, manage)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=30)
assert not any(t.is_alive() for t in threads), "a thread is still waiting"
assert not errors, errors
assert len(moves) == 6, moves
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_threads_are_bounded_as_the_engine_bounds_them() -> None:
    player = bao_zero.Player.from_spec("ab:depth=2")
    assert player.set_threads(256) in (True, False)
    for threads in (0, 257, 20000):
        with pytest.raises(ValueError, match=f"threads must be 1 to 256, not {threads}"):
            player.set_threads(threads)
    assert player.choose(START).move in bao_zero.Env().legal_moves()


def test_choose_limits_are_checked_as_the_engines_go() -> None:
    player = bao_zero.Player.from_spec("ab:depth=2")
    for limits, message in [
        (dict(movetime_ms=2**63), "at most 604800000 ms"),
        (dict(movetime_ms=0), "positive number"),
        (dict(depth=65), "`depth` takes 1 to 64"),
        (dict(nodes=0), "positive number"),
    ]:
        with pytest.raises(ValueError, match=message):
            player.choose(START, **limits)
