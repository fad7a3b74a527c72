"""bao_zero.openspiel: every preset as an OpenSpiel game, held to OpenSpiel's own checks."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import bao_zero

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (it has wheels for Python 3.11 and later)"
)
openspiel = pytest.importorskip("bao_zero.openspiel")


@pytest.mark.parametrize("variant", bao_zero.variants())
def test_openspiel_random_simulations_with_serialization_pass(variant: str) -> None:
    game = pyspiel.load_game("bao_zero", {"variant": variant, "max_plies": 200})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_states_observe_serialize_and_pickle() -> None:
    game = pyspiel.load_game(
        "bao_zero", {"variant": "kiswahili", "rules": '{"takasia": "none"}', "max_plies": 50}
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(7):
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.observation_tensor(0) and len(state.observation_tensor(0)) == 27 * 4 * 8
    assert state.information_state_string(1) == state.env.position == str(state)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.env.rules["takasia"] == "none"
    twin = pickle.loads(pickle.dumps(state))
    assert str(twin) == str(state) and twin.legal_actions() == state.legal_actions()
    action = state.legal_actions()[0]
    assert state.action_to_string(action) == state.env.action_to_move(action)


def test_a_player_bot_plays_a_match_against_openspiel_mcts() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("bao_zero", {"variant": "kujifunza", "max_plies": 120})
    bots = [
        openspiel.PlayerBot(bao_zero.Player.from_spec("ab:depth=2", 0)),
        mcts.MCTSBot(game, 1.4, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_bad_parameter_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="variant"):
        pyspiel.load_game("bao_zero", {"variant": "chess"})
