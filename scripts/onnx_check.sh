#!/usr/bin/env bash
# Exports a network to ONNX and checks onnxruntime's outputs against burn's.
# onnxruntime and numpy go into a private virtualenv under target/onnx-venv (from the Python
# package registry, once). Usage:
#   scripts/onnx_check.sh RUN_DIR [OUT.onnx]       a training run's last iteration
#   scripts/onnx_check.sh PLAYER.bao [OUT.onnx]    a player file
# `bao export --format onnx --out OUT.onnx` writes OUT.onnx and OUT.samples.json (64 positions
# from random play with burn's raw outputs); scripts/onnx_check.py compares them.
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: scripts/onnx_check.sh RUN_DIR|PLAYER.bao [OUT.onnx]}
out=${2:-target/onnx-check/model.onnx}
mkdir -p "$(dirname "$out")"
venv=target/onnx-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import onnxruntime, numpy' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet onnxruntime numpy
fi
if [[ -d $src ]]; then from=(--checkpoint "$src"); else from=(--player "$src"); fi
cargo run --release --quiet -- export "${from[@]}" --format onnx --out "$out"
"$venv/bin/python" scripts/onnx_check.py "$out"
