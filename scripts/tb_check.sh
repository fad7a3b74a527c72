#!/usr/bin/env bash
# Reads a run's TensorBoard logs back with TensorBoard's own reader (installed in a private
# virtualenv under target/, from the Python package registry).
# Usage: scripts/tb_check.sh RUN_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/tb-venv
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet tensorboard
fi
"$venv/bin/python" scripts/tb_readback.py "${1:?usage: scripts/tb_check.sh RUN_DIR}"
