"""A Python policy as a player of the engine protocol (docs/ENGINE.md), so that ``bao eval``,
``bao gauntlet``, ``bao serve`` and ``engine:`` players everywhere can play it::

    python -m bao_zero.engine --policy mymodule:policy

    bao eval --a "engine:python -m bao_zero.engine --policy mymodule:policy" --b greedy

The policy is what :func:`bao_zero.evaluate` takes: a callable ``policy(observation, mask) ->
action``, the observation float32 ``(27, 4, 8)`` for the player to move and the mask int8
``(64,)``, the action an int. ``--policy MODULE:NAME`` names a function, or a class, which is
called once without arguments to make the policy (an object with ``__call__``); a policy with a
``reset()`` or ``new_game()`` method has it called at each new game (a ``variant`` or ``option``
command, which the ``engine:`` player sends at the start of each game). The module is imported
as ``python -m`` sees modules: from the current directory too.

The engine answers every command of ``bao engine``: ``variant``, ``option`` (a rule option, as
in the TOML rules files), ``position``, ``legal``, ``go`` (its limits are read and left unused:
a policy answers at once), ``stop`` (no line of its own), ``isready``, ``threads 1``, ``show``
and ``quit``; ``player`` is refused (this engine plays its policy). Every answer is one line
(``show``'s diagram aside), and every failure, a policy's exception included, an ``error`` line
after which the engine goes on. What the policy prints goes to stderr, off the protocol.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from bao_zero._core import ACTIONS, Env

__all__ = ["Engine", "load_policy", "main", "serve"]

#: The policy: ``(observation, mask) -> action``.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]

#: The greeting, in which a client looks for ``engine ready``.
GREETING = "bao-zero engine ready (a Python policy)"

COMMANDS = (
    "variant NAME, option NAME VALUE, position startpos|text POSITION [moves M...], legal, "
    "go [limits], stop, isready, threads 1, show, quit"
)

#: The longest error line: a message that echoes a huge input is cut.
MAX_ERROR = 300


class EngineError(Exception):
    """A command the engine refuses: its answer is ``error`` and the message."""


def load_policy(text: str) -> Policy:
    """The policy ``MODULE:NAME`` names (``NAME`` may be dotted): a callable, or a class made
    into one by calling it without arguments. A ``ValueError`` says what is wrong."""
    module_name, colon, name = text.partition(":")
    if not colon or not module_name or not name:
        raise ValueError(f"--policy takes MODULE:NAME (a function or a class), not {text!r}")
    try:
        found: Any = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"cannot import {module_name!r} for --policy {text}: {e}") from e
    for part in name.split("."):
        if not hasattr(found, part):
            raise ValueError(f"{module_name!r} has no {name!r} (--policy {text})")
        found = getattr(found, part)
    if isinstance(found, type):
        found = found()
    if not callable(found):
        raise ValueError(f"--policy {text} is not callable: (observation, mask) -> action")
    policy: Policy = found
    return policy


def _one_line(text: str) -> str:
    """``text`` on one short line."""
    line = " ".join(text.split())
    return line if len(line) <= MAX_ERROR else line[: MAX_ERROR - 3] + "..."


def _option_value(text: str) -> Any:
    """An option's value as the TOML rules files write it (``"none"``, ``true``, ``16``: where
    TOML and JSON agree); a bare word is a string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class Engine:
    """The engine's game and its answers to commands (one line each, or ``None`` for none)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.variant = "kiswahili"
        self.options: dict[str, Any] = {}
        self.env = Env(self.variant)

    def answer(self, line: str) -> str | None:
        """The answer to one command line (an ``error`` line for one refused)."""
        words = line.split()
        if not words:
            return None
        command, rest = words[0], words[1:]
        try:
            return self._answer(command, rest)
        except EngineError as e:
            return "error " + _one_line(str(e))
        except Exception as e:  # every failure is an answer; the engine goes on
            return "error " + _one_line(f"{type(e).__name__}: {e}")

    def _answer(self, command: str, rest: list[str]) -> str | None:
        match command:
            case "variant":
                return self._variant(rest)
            case "option":
                return self._option(rest)
            case "position":
                return self._position(rest)
            case "legal":
                return " ".join(["legal", *self.env.legal_moves()])
            case "go":
                return self._go()
            case "stop":
                return None
            case "isready":
                return "readyok"
            case "threads":
                if rest != ["1"]:
                    raise EngineError("a Python policy plays on one thread: threads 1")
                return "ok threads 1"
            case "show":
                return f"{self.env.render().rstrip()}\nposition {self.env.position}"
            case "player":
                raise EngineError("this engine plays only its policy (--policy)")
            case _:
                raise EngineError(f"unknown command `{command[:40]}`; commands: {COMMANDS}")

    def _new_game(self, variant: str, options: dict[str, Any]) -> None:
        """A new game of `variant` with `options`, and the policy's hook for one."""
        self.env = Env(variant, rules=options or None)
        self.variant, self.options = variant, options
        for hook in ("reset", "new_game"):
            method = getattr(self.policy, hook, None)
            if callable(method):
                method()
                break

    def _variant(self, rest: list[str]) -> str:
        if len(rest) != 1:
            raise EngineError("usage: variant NAME")
        self._new_game(rest[0], {})
        return f"ok {self.env.variant}"

    def _option(self, rest: list[str]) -> str:
        if len(rest) < 2:
            raise EngineError("usage: option NAME VALUE")
        options = {**self.options, rest[0]: _option_value(" ".join(rest[1:]))}
        self._new_game(self.variant, options)
        return "ok"

    def _position(self, rest: list[str]) -> str:
        at = rest.index("moves") if "moves" in rest else len(rest)
        base, moves = rest[:at], rest[at + 1 :]
        env = Env(self.variant, rules=self.options or None)
        if base in ([], ["startpos"]):
            pass
        elif base[0] == "text" and len(base) > 1:
            env.set_position(" ".join(base[1:]))
        else:
            raise EngineError("usage: position startpos|text POSITION [moves M...]")
        for text in moves:
            if env.done:
                raise EngineError(f"the game is over before {text}")
            env.play(env.move_to_action(text))
        self.env = env
        return "ok"

    def _go(self) -> str:
        env = self.env
        if env.done:
            raise EngineError("the game is over: no move to play")
        mask = env.action_masks()
        action = self.policy(env.observation, mask)
        try:
            index = int(action)
        except (TypeError, ValueError) as e:
            raise EngineError(f"the policy answered {action!r}, not an action") from e
        if not 0 <= index < ACTIONS or not mask[index]:
            raise EngineError(
                f"the policy chose action {index}, which is illegal in {env.position}"
            )
        move = env.action_to_move(index)
        return f"bestmove {move} pv {move}"


def serve(policy: Policy, lines: Iterable[str], out: IO[str]) -> None:
    """Answers the command `lines` with `policy` on `out`, flushing each answer, until ``quit``
    or the end of the lines."""
    engine = Engine(policy)
    out.write(GREETING + "\n")
    out.flush()
    for line in lines:
        if line.split()[:1] == ["quit"]:
            return
        reply = engine.answer(line)
        if reply is not None:
            out.write(reply + "\n")
            out.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m bao_zero.engine --policy MODULE:NAME [engine]``: the engine on stdin and
    stdout (the word ``engine``, which an ``engine:`` player adds, is taken and ignored)."""
    parser = argparse.ArgumentParser(
        prog="python -m bao_zero.engine",
        description="A Python policy (observation, mask) -> action as an engine-protocol player.",
    )
    parser.add_argument(
        "--policy",
        required=True,
        help="MODULE:NAME, a function or a class (made with no arguments)",
    )
    parser.add_argument("command", nargs="?", choices=["engine"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        policy = load_policy(args.policy)
    except ValueError as e:
        print(f"error {e}", file=sys.stderr)
        return 2
    protocol = sys.stdout
    # What the policy prints must not reach the client as an answer.
    sys.stdout = sys.stderr
    try:
        serve(policy, sys.stdin, protocol)
    finally:
        sys.stdout = protocol
    return 0


if __name__ == "__main__":
    sys.exit(main())
