#!/usr/bin/env bash
# The Python package's tests: installs bao-py the README's way (one `pip install`, with
# maturin from the Python package registry as the build backend) into a fresh virtual
# environment under target/, with pettingzoo, gymnasium, ray, numpy, pytest, ruff and mypy, checks
# the package with ruff, mypy and stubtest, and runs pytest on bao-py/tests. Run by `cargo test`
# (tests/training/python.rs, which names the `bao` binary in BAO_BIN for the Ray tests'
# comparisons with `bao train`) and usable alone.
#
# With CI set, anything missing is a failure. Without it, a machine with no python3 skips the
# tests with a loud message (nothing else is skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null 2>&1; then
  if [[ -n ${CI:-} ]]; then
    echo "python_test: python3 is missing, and CI is set: failing" >&2
    exit 1
  fi
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
  echo "!!! SKIPPED: python3 is missing, so the Python package bao_zero was NOT tested !!!" >&2
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
  exit 0
fi
# BAO_PY_VENV names another folder for the environment (two checkouts sharing one target/).
venv=${BAO_PY_VENV:-target/python-venv}
python3 -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# maturin builds the extension in the workspace's own target directory and release profile, with
# the workspace's features, so everything `cargo build --release` built is reused: only the
# pyo3 crates and bao-py itself are compiled here.
export CARGO_TARGET_DIR="$PWD/target"
# The README's install command, plus what the tests use.
start=$SECONDS
"$venv/bin/python" -m pip install --quiet "./bao-py[test]"
echo "python_test: pip install took $((SECONDS - start)) s" >&2
cd bao-py
case $venv in /*) py=$venv/bin/python ;; *) py=../$venv/bin/python ;; esac
# The Python ecosystem's checks, with the versions the test extra pins (pyproject.toml holds their
# settings): ruff's lints and format, mypy (strict) on the package, and stubtest of the
# hand-written `_core.pyi` against the module just built. Their caches stay in the environment.
start=$SECONDS
"$py" -m ruff check --no-cache -q python tests
"$py" -m ruff format --no-cache --check -q python tests
"$py" -m mypy --cache-dir "$("$py" -c 'import sys; print(sys.prefix)')/mypy-cache"
"$py" -m mypy.stubtest bao_zero._core
echo "python_test: ruff, mypy and stubtest took $((SECONDS - start)) s" >&2
exec "$py" -m pytest -q -p no:cacheprovider tests "$@"
