#!/usr/bin/env python3
"""Writes the golden playthroughs of the RL contract, bao-py/tests/playthroughs/<variant>.txt,
one seeded game per preset (the layout is in bao-py/tests/playthrough.py), after a change to
the rules, the observation or the environment that is meant to change them. Needs bao_zero
installed (`pip install ./bao-py`); `git diff` then shows what changed.

    python scripts/python_playthroughs.py [VARIANT ...]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bao-py" / "tests"))
import bao_zero  # noqa: E402
from playthrough import FOLDER, path_of, playthrough  # noqa: E402


def write_atomic(path: Path, text: str) -> None:
    """Writes `text` to `path` through a temporary file renamed over it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main() -> None:
    variants = sys.argv[1:] or bao_zero.variants()
    unknown = sorted(set(variants) - set(bao_zero.variants()))
    if unknown:
        sys.exit(f"python_playthroughs: unknown variant {', '.join(unknown)}")
    FOLDER.mkdir(exist_ok=True)
    for variant in variants:
        path = path_of(variant)
        text = playthrough(variant)
        changed = not path.is_file() or path.read_text() != text
        write_atomic(path, text)
        print(f"{path.relative_to(ROOT)}: {'written' if changed else 'unchanged'}")


if __name__ == "__main__":
    main()
