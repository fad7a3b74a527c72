"""bao_zero.gym_vector: the Rust batch env as a gymnasium.vector.VectorEnv (single spaces,
same-step autoreset, masks), checked against Gymnasium's conventions and its vector wrappers, and
the SB3 adapter where stable-baselines3 is installed."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import bao_zero
from bao_zero.gym_env import BaoEnv
from bao_zero.gym_vector import BaoVectorEnv

#: The shipped player of Bao la Kiswahili.
SHIPPED = Path(__file__).resolve().parents[2] / "checkpoints" / "shipped" / "kiswahili.bao"


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of int8 ``masks``."""
    scores = rng.random(masks.shape)
    scores[masks == 0] = -1.0
    return scores.argmax(axis=1)


def run(envs: gymnasium.vector.VectorEnv, steps: int, seed: int) -> list[Any]:
    """Steps ``envs`` with random legal actions; everything returned, for comparisons."""
    rng = np.random.default_rng(seed)
    obs, infos = envs.reset(seed=seed)
    trace = [obs.copy()]
    for _ in range(steps):
        obs, rewards, terminated, truncated, infos = envs.step(
            masked_random(infos["action_mask"], rng)
        )
        trace += [obs.copy(), rewards.copy(), terminated.copy(), truncated.copy()]
    return trace


def test_spaces_types_and_the_gymnasium_conventions() -> None:
    envs = gymnasium.make_vec(
        "bao_zero/Bao-v0", num_envs=6, variant="hus", vectorization_mode="vector_entry_point"
    )
    venv = envs.unwrapped
    assert isinstance(venv, gymnasium.vector.VectorEnv) and envs.num_envs == 6
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert venv.single_observation_space.shape == (27, 4, 8)
    assert venv.single_action_space == gymnasium.spaces.Discrete(64)
    assert envs.observation_space == batch_space(venv.single_observation_space, 6)
    assert envs.action_space == batch_space(venv.single_action_space, 6)
    obs, infos = envs.reset(seed=3)
    assert obs in envs.observation_space
    masks = infos["action_mask"]
    assert masks.dtype == np.int8 and masks.shape == (6, 64)
    assert np.array_equal(masks, venv.action_masks())
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        actions = masked_random(masks, rng)
        assert actions in envs.action_space
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert obs.dtype == np.float32 and obs in envs.observation_space
        assert rewards.dtype == np.float32 and rewards.shape == (6,)
        assert terminated.dtype == np.bool_ and truncated.shape == (6,)
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        done = terminated | truncated
        assert np.all(rewards[~done] == 0.0)
        masks = infos["action_mask"]
        assert masks.sum(axis=1).min() > 0  # the agent is to move in every game
        if done.any():
            ended += int(done.sum())
            assert np.array_equal(infos["_final_obs"], done)
            for i in np.flatnonzero(done):
                assert infos["final_obs"][i].shape == (27, 4, 8)
                assert not np.array_equal(infos["final_obs"][i], obs[i])
    assert ended > 0


def test_games_against_random_are_bao_env_games() -> None:
    """Every reward the vector env pays is an ended game's result; the agent wins about half
    of its games when it plays at random too, from both sides."""
    envs = BaoVectorEnv(32, variant="kujifunza", threads=1)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=1)
    results = []
    sides = set()
    for _ in range(400):
        sides.update(int(p) for p in infos["player"])
        _, rewards, terminated, truncated, infos = envs.step(
            masked_random(infos["action_mask"], rng)
        )
        results += list(rewards[terminated | truncated])
    assert sides == {0, 1}
    assert len(results) > 100
    wins = sum(r == 1.0 for r in results) / len(results)
    assert 0.3 < wins < 0.7


class FirstLegal:
    """An opponent for ``Bao-v0`` that plays the lowest legal action, as the vector env's
    opponent below does."""

    variant = None

    def new_game(self, seed: int) -> None:
        pass

    def choose(self, game: bao_zero.Env) -> Any:
        return SimpleNamespace(action=min(game.legal_actions()))


def assert_bao_v0_games(variant: str, envs: BaoVectorEnv, singles: list[BaoEnv]) -> None:
    """Each game of ``envs`` is the ``Bao-v0`` game of ``singles`` beside it, step for step:
    the agent keeps its side for the whole game, the opponent moves while it is its turn (twice
    in a row in Malawi Bao advanced's opening), and the agent's observations, rewards and ends
    are ``Bao-v0``'s."""
    n, steps = envs.num_envs, 120

    def start(i: int, side: int, obs: np.ndarray) -> None:
        singles[i].agent_side = ("south", "north")[side]
        single_obs, _info = singles[i].reset(seed=0)
        assert np.array_equal(single_obs, obs), (variant, i)

    rng = np.random.default_rng(0)
    obs, infos = envs.reset(seed=0)
    for i in range(n):
        start(i, int(infos["player"][i]), obs[i])
    for _ in range(steps):
        actions = masked_random(infos["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, single in enumerate(singles):
            single_obs, reward, ended, cut, info = single.step(int(actions[i]))
            assert (reward, ended, cut) == (rewards[i], terminated[i], truncated[i]), (variant, i)
            if ended or cut:
                assert np.array_equal(single_obs, infos["final_obs"][i]), (variant, i)
                # A game that ends on the agent's move starts again with the opponent opening.
                side = int(infos["player"][i])
                opens = bao_zero.Env(variant).current_player
                assert (side == opens) == bool(info["opponent_moves"]), (variant, i)
                start(i, side, obs[i])
            else:
                assert np.array_equal(single_obs, obs[i]), (variant, i)
                assert int(infos["player"][i]) == single.player, (variant, i)
                assert np.array_equal(info["action_mask"], infos["action_mask"][i])


@pytest.mark.parametrize("variant", bao_zero.variants())
def test_against_its_opponent_the_vector_env_is_bao_v0_step_for_step(variant: str) -> None:
    """The opponents play the lowest legal action in both, so that the games can be
    compared."""
    n = 6
    envs = BaoVectorEnv(n, variant=variant, threads=1)
    envs._random_actions = lambda: envs.action_masks().argmax(axis=1)  # type: ignore[method-assign]
    singles = [BaoEnv(variant) for _ in range(n)]
    for single in singles:
        single.opponent = FirstLegal()  # type: ignore[assignment]
    assert_bao_v0_games(variant, envs, singles)


class EpisodeSeeded:
    """A ``Bao-v0`` opponent of one spec, started on each game with the seed the vector env's
    player of game ``index`` starts that episode with (``episode_seed(0, index, episode)``)."""

    def __init__(self, spec: str, envs: BaoVectorEnv, index: int) -> None:
        self.player = bao_zero.Player.from_spec(spec)
        self.variant = self.player.variant
        self.envs, self.index = envs, index

    def new_game(self, seed: int) -> None:
        episode = int(self.envs._venv.episodes[self.index])
        self.player.new_game(bao_zero.episode_seed(0, self.index, episode))

    def choose(self, game: bao_zero.Env) -> Any:
        return self.player.choose(game)


# Alpha-beta searches without randomness; greedy breaks ties with its seed, which a Player meets
# as given in the first game it is asked to play, whichever game that is.
SPEC_OPPONENTS = [
    (spec, v) for v in bao_zero.variants() for spec in ("ab:depth=1,tt=12", "greedy")
] + [
    ("ab:depth=2,tt=12", "kiswahili"),
]


@pytest.mark.parametrize(("spec", "variant"), SPEC_OPPONENTS)
def test_against_any_player_the_vector_env_is_bao_v0_step_for_step(spec: str, variant: str) -> None:
    n = 4
    envs = BaoVectorEnv(n, variant=variant, opponent=spec, threads=2)
    singles = [BaoEnv(variant) for _ in range(n)]
    for i, single in enumerate(singles):
        single.opponent = EpisodeSeeded(spec, envs, i)  # type: ignore[assignment]
    assert_bao_v0_games(variant, envs, singles)


def test_a_player_file_opponent_same_seed_same_games_and_pickles(
    shipped_player_path: Any,
) -> None:
    spec = f"mcts:checkpoint={shipped_player_path},sims=4"
    a = run(BaoVectorEnv(3, variant="kiswahili", opponent=spec, threads=1), 12, seed=2)
    path = BaoVectorEnv(3, variant="kiswahili", opponent=shipped_player_path, threads=2)
    assert path._venv.opponent == f"player:{shipped_player_path}"
    b = run(BaoVectorEnv(3, variant="kiswahili", opponent=spec, threads=3), 12, seed=2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    greedy = [run(BaoVectorEnv(4, variant="hus", opponent="greedy"), 60, seed=s) for s in (3, 3, 4)]
    assert all(np.array_equal(x, y) for x, y in zip(greedy[0], greedy[1], strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(greedy[0], greedy[2], strict=True))
    # A copy carries the spec and builds its players again.
    envs = BaoVectorEnv(4, variant="hus", opponent="greedy", threads=1)
    envs.reset(seed=3)
    twin = pickle.loads(pickle.dumps(envs))
    assert twin._venv.opponent == "greedy" and twin.opponent == "greedy"
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = masked_random(envs.action_masks(), rng)
        one, two = envs.step(actions), twin.step(actions)
        for x, y in zip(one[:4], two[:4], strict=True):
            assert np.array_equal(x, y)


def vec_env_threads() -> int:
    """The threads of this process that vector envs' pools started (Linux names them)."""
    names = (Path("/proc/self/task") / task / "comm" for task in os.listdir("/proc/self/task"))
    return sum(1 for name in names if name.exists() and name.read_text().startswith("bao-vecenv"))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in Linux's /proc")
def test_a_one_thread_vector_env_plays_on_the_callers_thread() -> None:
    # Handing each call to a worker thread and waiting for it costs more than a small batch's
    # step (docs/PYTHON.md, "Speed"): with one thread, the steps and the opponent's choices run
    # on the caller's thread, and no thread is started.
    before = vec_env_threads()
    one = run(BaoVectorEnv(4, variant="hus", opponent="greedy", threads=1), 60, seed=5)
    assert vec_env_threads() <= before
    pooled = BaoVectorEnv(4, variant="hus", opponent="greedy", threads=2)
    assert all(np.array_equal(x, y) for x, y in zip(one, run(pooled, 60, seed=5), strict=True))
    assert vec_env_threads() >= 1


def test_same_seed_same_games_and_self_play() -> None:
    a = run(BaoVectorEnv(4, variant="hus", threads=1), 150, seed=7)
    b = run(BaoVectorEnv(4, variant="hus", threads=2), 150, seed=7)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=False))
    c = run(BaoVectorEnv(4, variant="hus", threads=1), 150, seed=8)
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=False))
    # Against itself, the vector env is the Rust VecEnv step for step.
    selfplay = BaoVectorEnv(4, variant="hus", opponent="self", threads=1)
    raw = bao_zero.VecEnv(4, "hus", threads=1)
    obs, infos = selfplay.reset(seed=5)
    raw.reset(5)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert np.array_equal(obs, raw.observations)
        actions = masked_random(infos["action_mask"], rng)
        movers = raw.players.copy()
        obs, rewards, terminated, _, infos = selfplay.step(actions)
        raw.step(actions)
        assert np.array_equal(rewards, raw.rewards[np.arange(4), movers])
        assert np.array_equal(terminated, raw.terminated)


def test_gymnasium_vector_wrappers_count_the_episodes() -> None:
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        BaoVectorEnv(8, variant="kujifunza", threads=1)
    )
    rng = np.random.default_rng(2)
    _, infos = envs.reset(seed=2)
    returns = []
    for _ in range(300):
        _, _, _terminated, _truncated, infos = envs.step(masked_random(infos["action_mask"], rng))
        if "episode" in infos:
            returns += list(infos["episode"]["r"][infos["_episode"]])
    assert returns and set(returns) <= {-1.0, 0.0, 1.0}


def test_bad_arguments_and_illegal_actions() -> None:
    with pytest.raises(ValueError, match="bad player spec `nonsense!`"):
        BaoVectorEnv(2, opponent="nonsense!")
    with pytest.raises(ValueError, match="cannot read player file"):
        BaoVectorEnv(2, opponent="player:/nowhere/none.bao")
    # A player of another game is refused in one line, before any step.
    with pytest.raises(ValueError, match="plays") as refused:
        BaoVectorEnv(2, variant="hus", opponent=f"player:{SHIPPED}")
    assert "\n" not in str(refused.value)
    with pytest.raises(TypeError, match="opponent"):
        BaoVectorEnv(2, opponent=bao_zero.Player.greedy())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n "):
        BaoVectorEnv(0)
    envs = BaoVectorEnv(2, variant="hus", threads=1)
    _, infos = envs.reset(seed=0)
    illegal = (infos["action_mask"] == 0).argmax(axis=1)
    with pytest.raises(ValueError, match="illegal"):
        envs.step(illegal)


def test_sb3_adapter_steps_and_reports_masks() -> None:
    pytest.importorskip("stable_baselines3")
    from bao_zero.sb3 import Sb3VecEnv

    env = Sb3VecEnv(4, variant="kujifunza", threads=1)
    env.seed(0)
    obs = env.reset()
    assert obs.shape == (4, 27, 4, 8)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        masks = np.stack(env.env_method("action_masks"))
        env.step_async(masked_random(masks, rng))
        obs, _rewards, dones, infos = env.step_wait()
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (27, 4, 8)
            finished += 1
    assert finished > 0


def test_final_info_at_autoreset_behind_record_episode_statistics() -> None:
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        BaoVectorEnv(6, variant="kujifunza", threads=1, max_plies=60)
    )
    rng = np.random.default_rng(4)
    _, infos = envs.reset(seed=4)
    ended_games = 0
    for _ in range(200):
        assert np.array_equal(envs.unwrapped.action_masks(), infos["action_mask"])
        actions = masked_random(infos["action_mask"], rng)
        _, rewards, terminated, truncated, infos = envs.step(actions)
        done = terminated | truncated
        if not done.any():
            assert "final_info" not in infos
            continue
        final = infos["final_info"]
        assert np.array_equal(infos["_final_info"], done)
        for key in ("end", "winner", "player", "action_mask"):
            assert np.array_equal(final[f"_{key}"], done), key
        for i in np.flatnonzero(done):
            ended_games += 1
            assert isinstance(final["end"][i], str) and final["end"][i]
            assert not final["action_mask"][i].any()
            winner, side = final["winner"][i], final["player"][i]
            assert rewards[i] == (0.0 if winner == -1 else 1.0 if winner == side else -1.0)
            assert infos["episode"]["r"][i] == rewards[i]
        assert np.array_equal(infos["_episode"], done)
    assert ended_games >= 6
