"""bao_zero.gym_env: the Gymnasium environment passes Gymnasium's checker."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bao_zero
from bao_zero.gym_env import BaoEnv


@pytest.mark.parametrize("opponent", ["random", "greedy", "ab:depth=2"])
@pytest.mark.parametrize("side", ["south", "north"])
def test_check_env(opponent: str, side: str) -> None:
    check_env(BaoEnv(opponent=opponent, agent_side=side), skip_render_check=True)


def test_check_env_with_the_shipped_player(shipped_player_path: Path) -> None:
    opponent = bao_zero.Player.from_spec(f"player:{shipped_player_path}")
    opponent_sims = BaoEnv(opponent=opponent, agent_side="random")
    check_env(opponent_sims, skip_render_check=True)


def test_registered_and_made_with_keyword_arguments() -> None:
    env = gymnasium.make(
        "bao_zero/Bao-v0", variant="hus", opponent="ab:depth=1", render_mode="ansi"
    )
    obs, info = env.reset(seed=0)
    assert obs.shape == (27, 4, 8) and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    done = False
    total = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total in (-1.0, 0.0, 1.0)
    assert "position" in env.render()
    env.close()


def test_illegal_actions_lose_or_raise() -> None:
    env = BaoEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1.0 and terminated and info["illegal_action"]
    with pytest.raises(RuntimeError):
        env.step(0)
    strict = BaoEnv(illegal_action="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    strict.step(legal)  # the failed call changed nothing


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        BaoEnv(agent_side="east")
    with pytest.raises(ValueError):
        BaoEnv(opponent="ab:depth=zero")
    with pytest.raises(FileNotFoundError):
        BaoEnv(opponent="no/such/player.bao")


GAMES = [v for v in bao_zero.variants() if not v.startswith("ladder-")]


@pytest.mark.parametrize("variant", GAMES)
def test_check_env_with_every_render_mode_for_every_game(variant: str) -> None:
    env = gymnasium.make("bao_zero/Bao-v0", variant=variant, render_mode="rgb_array")
    check_env(env.unwrapped)
    env.close()


def test_action_masks_are_found_through_gymnasium_make_as_maskable_ppo_looks() -> None:
    env = gymnasium.make("bao_zero/Bao-v0", variant="kujifunza")
    _, info = env.reset(seed=0)
    # sb3-contrib's is_masking_supported / get_action_masks call exactly this.
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == np.int8 and masks.shape == (64,)
    assert np.array_equal(masks, info["action_mask"]) and masks.sum() > 0
    rng = np.random.default_rng(0)
    done = False
    while not done:
        masks = env.get_wrapper_attr("action_masks")()
        assert np.array_equal(masks, info["action_mask"])
        action = int(rng.choice(np.flatnonzero(masks)))
        _, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert not env.get_wrapper_attr("action_masks")().any()


def test_rgb_array_render_is_a_picture_of_the_board() -> None:
    env = BaoEnv(variant="kiswahili", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8
    assert first.ndim == 3 and first.shape[2] == 3 and first.shape[0] > 100
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 5
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not np.array_equal(env.render(), first)


def test_human_render_prints_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    env = BaoEnv(variant="hus", render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "position:" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        BaoEnv(render_mode="video")


def test_rules_reach_the_game_as_a_dict_or_a_toml_file(tmp_path: Path) -> None:
    assert BaoEnv().game.rules["takasia"] == "kiswahili"
    by_dict = BaoEnv(rules={"takasia": "none", "house": {"nyumba": {"tax": "always"}}})
    path = tmp_path / "rules.toml"
    path.write_text('takasia = "none"\n[house.nyumba]\ntax = "always"\n')
    by_file = BaoEnv(rules=path)
    assert by_dict.game.rules == by_file.game.rules
    assert by_dict.game.rules["takasia"] == "none"
    assert by_dict.game.rules["house"]["nyumba"]["tax"] == "always"
    made = gymnasium.make("bao_zero/Bao-v0", rules=str(path))
    assert made.unwrapped.game.rules == by_file.game.rules
    with pytest.raises(ValueError, match="takasiaa"):
        BaoEnv(rules={"takasiaa": "none"})
