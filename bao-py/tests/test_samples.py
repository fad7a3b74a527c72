"""bao_zero.load_samples: a run's replay buffer as numpy arrays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bao_zero

# Two random games of Bao la Kiswahili saved as the trainer saves its replay, and their positions
# in order, written by Rust alone (tests/play/python_reference.rs).
REFERENCE = Path(__file__).parent / "reference"


def reference_replay(folder: Path) -> list[str]:
    """Copies the reference replay into `folder` as replay.bin; returns its samples' positions."""
    (folder / "replay.bin").write_bytes((REFERENCE / "replay.bin").read_bytes())
    return (REFERENCE / "replay_positions.txt").read_text().splitlines()


def test_samples_as_arrays(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    positions = reference_replay(run)
    data = bao_zero.load_samples(run)
    n = len(positions)
    assert n > 0
    assert data["observations"].shape == (n, 27, 4, 8)
    assert data["observations"].dtype == np.float32
    assert data["action_masks"].shape == (n, 64) and data["action_masks"].dtype == np.bool_
    assert data["policies"].shape == (n, 64)
    for key in ("values", "outcomes", "search_values", "players"):
        assert data[key].shape == (n,)
    assert np.allclose(data["policies"].sum(axis=1), 1.0, atol=1e-5)
    assert not (data["policies"] * ~data["action_masks"]).any()
    assert set(np.unique(data["outcomes"])) <= {-1.0, 0.0, 1.0}
    assert np.array_equal(data["values"], data["outcomes"])
    assert np.allclose(data["search_values"], 64 / 127)
    for i in (0, n // 2, n - 1):
        env = bao_zero.Env.from_position(positions[i])
        assert np.array_equal(data["observations"][i], env.observation)
        assert np.array_equal(data["action_masks"][i], env.action_masks())
        assert data["players"][i] == env.current_player
    mixed = bao_zero.load_samples(run / "replay.bin", q_weight=0.5)
    assert np.allclose(mixed["values"], 0.5 * data["outcomes"] + 0.5 * data["search_values"])


def test_missing_and_damaged_replay_files(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        bao_zero.load_samples(tmp_path)
    path = tmp_path / "replay.bin"
    reference_replay(tmp_path)
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(ValueError, match="damaged"):
        bao_zero.load_samples(path)
    with pytest.raises(ValueError):
        bao_zero.load_samples(path, q_weight=2.0)
