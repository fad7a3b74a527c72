"""Shared fixtures of the bao_zero tests."""

from __future__ import annotations

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
