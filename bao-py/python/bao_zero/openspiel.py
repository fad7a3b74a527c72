"""Bao as an OpenSpiel game, and any :class:`bao_zero.Player` as a ``pyspiel.Bot``.

>>> import pyspiel, bao_zero.openspiel
>>> game = pyspiel.load_game("bao_zero", {"variant": "hus"})
>>> state = game.new_initial_state()

Importing the module registers the game ``bao_zero`` with OpenSpiel. Its parameters:
``variant`` (any of :func:`bao_zero.variants`, presets and ladder steps), ``rules`` (rule
options over the preset as JSON text, as ``Env``'s ``rules=`` dict; ``""`` for none) and
``max_plies`` (the ply cap: a game reaching it ends drawn). Perfect information, zero-sum,
terminal rewards (+1 / -1, 0 for a draw). The observation tensor is the project's ``(27, 4,
8)`` layout for the observing player (``docs/ENV.md``); observation and information-state
strings are the one-line position text; actions print as KIBA moves. States serialize (and
pickle) with their position, ply count and rules, and load back.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from bao_zero._core import ACTIONS, OBS_SHAPE, Env, Player

__all__ = ["SHORT_NAME", "BaoGame", "BaoState", "PlayerBot"]

#: The name the game is registered under.
SHORT_NAME = "bao_zero"
_DEFAULT_MAX_PLIES = 1000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Bao (bao-zero)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "kiswahili", "rules": "", "max_plies": _DEFAULT_MAX_PLIES},
)


class BaoGame(pyspiel.Game):
    """A Bao preset (or ladder step) with its rule options and ply cap."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.variant = str(params.get("variant", "kiswahili"))
        rules_text = str(params.get("rules", ""))
        self.rules_options = json.loads(rules_text) if rules_text else None
        self.max_plies = int(params.get("max_plies", _DEFAULT_MAX_PLIES))
        # Built once to check the parameters (a bad one is a ValueError here) and to copy.
        self.start = Env(self.variant, 0, self.max_plies, 0, self.rules_options)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_plies,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> BaoState:
        """The start of a game."""
        return BaoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of the observation tensor and strings."""
        return _Observer(params)


class BaoState(pyspiel.State):
    """A position of a Bao game."""

    def __init__(self, game: BaoGame) -> None:
        super().__init__(game)
        self.env = game.start.clone()

    def current_player(self) -> int:
        """The player to move (0 South, 1 North), or ``pyspiel.PlayerId.TERMINAL``."""
        if self.env.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.env.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.env.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.env.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.env.action_to_move(action)

    def is_terminal(self) -> bool:
        """Whether the game is over (by the rules or the ply cap)."""
        return self.env.done

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or a game in play."""
        winner = self.env.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.env.position


class _Observer:
    """OpenSpiel's Python observer: the project's observation tensor and the position text."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the bao_zero game's observer takes no parameters, not {params}")
        self.tensor = np.zeros(int(np.prod(OBS_SHAPE)), np.float32)
        self.dict = {"observation": self.tensor.reshape(OBS_SHAPE)}

    def set_from(self, state: BaoState, player: int) -> None:
        """The tensor of ``state`` for ``player``."""
        self.tensor[:] = state.env.observation_for(player).reshape(-1)

    def string_from(self, state: BaoState, player: int) -> str:
        """The position text (perfect information: the same for both players)."""
        return state.env.position


class PlayerBot(pyspiel.Bot):
    """A ``pyspiel.Bot`` that plays a :class:`bao_zero.Player` with a budget per move
    (``sims``, ``movetime_ms``, ``depth``, ``nodes``; none given: the player's own default)."""

    def __init__(
        self,
        player: Player,
        *,
        movetime_ms: int | None = None,
        sims: int | None = None,
        depth: int | None = None,
        nodes: int | None = None,
    ) -> None:
        super().__init__()
        self.player = player
        self.movetime_ms, self.sims, self.depth, self.nodes = movetime_ms, sims, depth, nodes

    def step(self, state: BaoState) -> int:
        """The player's action in ``state``."""
        choice = self.player.choose(state.env, self.movetime_ms, self.sims, self.depth, self.nodes)
        return int(choice.action)

    def restart_at(self, state: BaoState) -> None:
        """A new game: the player's tables start again."""
        self.player.new_game(0)


pyspiel.register_game(_GAME_TYPE, BaoGame)
