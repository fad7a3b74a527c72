#!/usr/bin/env bash
# Exports a run's network to ONNX and checks onnxruntime's outputs against burn's.
# onnxruntime and numpy go into a private virtualenv under target/ (from the Python package
# registry). Usage: scripts/onnx_check.sh RUN_DIR [OUT.onnx]
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: scripts/onnx_check.sh RUN_DIR [OUT.onnx]}
out=${2:-target/onnx-check/model.onnx}
mkdir -p "$(dirname "$out")"
venv=target/onnx-venv
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet onnxruntime numpy
fi
cargo run --release --quiet -- export --checkpoint "$run" --format onnx --out "$out"
"$venv/bin/python" scripts/onnx_check.py "$out"
