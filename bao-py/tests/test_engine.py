"""bao_zero.engine: a Python policy as an engine-protocol player, answering every command the
`engine:` player and `bao engine`'s clients send, and played by the Rust client (`engine:`
specs in Player, evaluate and `bao eval`), started once for a match."""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from engine_policies import Counted, first_legal, last_legal

import bao_zero
from bao_zero.engine import GREETING, Engine, load_policy, serve

TESTS = Path(__file__).resolve().parent


def session(lines: list[str], policy: object = first_legal) -> list[str]:
    """The engine's answers to `lines`, the greeting first."""
    out = io.StringIO()
    serve(policy, [line + "\n" for line in lines], out)  # type: ignore[arg-type]
    return out.getvalue().splitlines()


def engine_spec(policy: str) -> str:
    """An `engine:` spec running this Python on `policy` (MODULE:NAME)."""
    return f"engine:{shlex.quote(sys.executable)} -m bao_zero.engine --policy {policy}"


@pytest.fixture
def policies_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engine processes started from here import engine_policies."""
    paths = [str(TESTS), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))


def test_the_engine_answers_every_command_a_client_sends() -> None:
    answers = session(
        [
            "isready",
            "variant kujifunza",
            "position startpos",
            "legal",
            "go movetime 100 nodes 5",
            "stop",
            "threads 1",
            "threads 4",
            "player ab",
            "position text nonsense",
            "frobnicate",
            'option takasia "none"',
            "variant nowhere",
            "quit",
            "legal",
        ]
    )
    env = bao_zero.Env("kujifunza")
    legal = env.legal_moves()
    move = env.action_to_move(first_legal(env.observation, env.action_masks()))
    assert answers[0] == GREETING and "engine ready" in answers[0]
    assert answers[1:7] == [
        "readyok",
        "ok kujifunza",
        "ok",
        "legal " + " ".join(legal),
        f"bestmove {move} pv {move}",
        "ok threads 1",
    ]
    # `stop` gets no line; errors are one line each; nothing is answered after `quit`.
    errors = answers[7:]
    assert len(errors) == 6 and all(e.startswith("error ") for e in errors[:4]), answers
    assert "one thread" in errors[0] and "only its policy" in errors[1]
    assert "unknown command `frobnicate`" in errors[3]
    assert errors[4] == "ok" and errors[5].startswith("error "), answers


def test_a_position_with_moves_is_the_one_env_reaches() -> None:
    env = bao_zero.Env("kiswahili")
    moves = []
    for _ in range(3):
        moves.append(env.action_to_move(last_legal(env.observation, env.action_masks())))
        env.play(env.move_to_action(moves[-1]))
    start = bao_zero.Env("kiswahili").position
    answers = session(
        [f"position text {start} moves {' '.join(moves)}", "show", "go"], policy=last_legal
    )
    assert answers[1] == "ok"
    assert answers[-2] == f"position {env.position}"
    move = env.action_to_move(last_legal(env.observation, env.action_masks()))
    assert answers[-1] == f"bestmove {move} pv {move}"


def test_a_failing_or_illegal_policy_is_an_error_line_and_the_engine_goes_on() -> None:
    def raises(observation: np.ndarray, mask: np.ndarray) -> int:
        raise RuntimeError("no idea\nat all")

    def illegal(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    assert session(["go", "isready"], raises)[1:] == [
        "error RuntimeError: no idea at all",
        "readyok",
    ]
    answers = session(["go", "isready"], illegal)[1:]
    assert answers[0].startswith("error the policy chose action") and "illegal" in answers[0]
    assert answers[1] == "readyok"


def test_a_class_policy_is_made_once_and_told_of_each_new_game() -> None:
    policy = load_policy("engine_policies:Counted")
    assert isinstance(policy, Counted)
    engine = Engine(policy)
    for _ in range(3):
        assert engine.answer("variant kiswahili") == "ok kiswahili"
        assert engine.answer("go") is not None
    assert policy.games == 3
    for bad, says in [
        ("engine_policies", "MODULE:NAME"),
        ("no_such_module_here:f", "cannot import"),
        ("engine_policies:nothing", "has no"),
        ("engine_policies:TESTS_NOT_THERE", "has no"),
    ]:
        with pytest.raises(ValueError, match=says):
            load_policy(bad)


def test_the_module_runs_as_a_program_and_a_bad_policy_says_why(
    policies_importable: None,
) -> None:
    command = [sys.executable, "-m", "bao_zero.engine", "--policy", "engine_policies:Counted"]
    done = subprocess.run(
        [*command, "engine"], input="go\nquit\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == GREETING and lines[1].startswith("bestmove ") and len(lines) == 2
    assert "a policy's print goes to stderr" in done.stderr
    command[-1] = "engine_policies:missing"
    done = subprocess.run(command, input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "has no 'missing'" in done.stderr


def test_the_rust_client_plays_the_python_engine(policies_importable: None) -> None:
    player = bao_zero.Player.from_spec(engine_spec("engine_policies:last_legal"))
    env = bao_zero.Env("kujifunza")
    choice = player.choose(env, variant="kujifunza")
    assert choice.action == last_legal(env.observation, env.action_masks())


def test_an_evaluation_against_the_python_engine_starts_it_once(
    policies_importable: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = tmp_path / "starts"
    monkeypatch.setenv("BAO_TEST_STARTS", str(starts))
    spec = engine_spec("engine_policies:Counted")
    result = bao_zero.evaluate(last_legal, spec, variant="kujifunza", games=6, seed=1)
    assert result["games"] == 6
    assert starts.read_text().splitlines() == ["start"]
    again = bao_zero.evaluate(last_legal, spec, variant="kujifunza", games=6, seed=1)
    assert (again["wins"], again["draws"]) == (result["wins"], result["draws"])


def test_bao_eval_plays_a_python_policy(policies_importable: None, tmp_path: Path) -> None:
    bao = os.environ.get("BAO_BIN")
    if not bao:
        if os.environ.get("CI"):
            pytest.fail("BAO_BIN (the bao binary) must be set under CI")
        pytest.skip("BAO_BIN is not set")
    starts = tmp_path / "starts"
    env = {**os.environ, "BAO_TEST_STARTS": str(starts), "RAYON_NUM_THREADS": "2"}
    args = ["eval", "--a", engine_spec("engine_policies:Counted"), "--b", "greedy"]
    done = subprocess.run(
        [bao, *args, "--games", "8", "--variant", "kujifunza", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "8 games" in done.stdout
    assert 1 <= len(starts.read_text().splitlines()) <= 2
