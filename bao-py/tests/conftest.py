"""Shared fixtures of the bao_zero tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

#: The repository's root (bao-py/tests/../..).
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shipped_player_path() -> Path:
    """The player file shipped with the repository."""
    path = ROOT / "checkpoints" / "shipped" / "kiswahili.bao"
    assert path.is_file(), f"the shipped player {path} is missing"
    return path


@pytest.fixture
def smoke_config(tmp_path: Path) -> Callable[[str], Path]:
    """Writes the smoke config on one thread, its run in tmp_path/NAME, as tmp_path/NAME.toml."""

    def write(name: str) -> Path:
        text = (ROOT / "configs" / "smoke.toml").read_text()
        text = text.replace('run_dir = "checkpoints/smoke"', f'run_dir = "{tmp_path / name}"')
        text = text.replace("threads = 2", "threads = 1")
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        return path

    return write
