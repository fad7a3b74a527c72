"""A tiny TOML writer for run configs: the tests and scripts/ray_bench.py change configs read
with tomllib and write them back (tomllib reads only)."""

from __future__ import annotations

import json
from typing import Any


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")


def to_toml(data: dict[str, Any], prefix: str = "") -> str:
    """`data` as TOML: scalars, arrays and (nested) tables, enough for the run configs."""
    out = "".join(f"{k} = {_toml_value(v)}\n" for k, v in data.items() if not isinstance(v, dict))
    for k, v in data.items():
        if isinstance(v, dict):
            name = f"{prefix}.{k}" if prefix else k
            out += f"\n[{name}]\n" + to_toml(v, name)
    return out
