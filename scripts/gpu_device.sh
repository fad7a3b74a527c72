#!/usr/bin/env bash
# GPU figures on a machine with a GPU and no Rust toolchain: `bao bench device` (training steps
# and forward passes per second of the default MLP and of a 10x128 ResNet, CPU against GPU, the
# first step's loss on each, and self-play of the ResNet with its batches on each).
#
#   scripts/gpu_device.sh prepare   # here: build with `--features gpu`, stage the binary and the
#                                   # Vulkan loader packages in .gpu/ (git-ignored)
#   scripts/gpu_device.sh run       # there, from the repository root, with .gpu/ carried along:
#                                   # unpacks the loader, prints the GPU's name and the figures
#
# The NVIDIA driver's Vulkan ICD is on such machines; the loader (libvulkan1) may not be.
set -euo pipefail
cd "$(dirname "$0")/.."
stage=.gpu

case "${1:-}" in
prepare)
  exclude=$(git rev-parse --git-path info/exclude)
  mkdir -p "$(dirname "$exclude")"
  grep -qx "/$stage/" "$exclude" 2>/dev/null || echo "/$stage/" >>"$exclude"
  cargo build --release --features gpu --target-dir target/gpu
  mkdir -p "$stage"
  strip -o "$stage/bao" target/gpu/release/bao
  # The Vulkan loader as Debian packages of amd64, unpacked there (its README's recipe).
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  mkdir -p /tmp/amd64/partial
  apt-get $o update -qq
  (cd "$stage" && apt-get $o download libvulkan1)
  du -sh "$stage"
  ;;
run)
  for f in "$stage"/*.deb; do dpkg -x "$f" /; done
  ldconfig
  if [[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  fi
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
  nproc
  "$stage/bao" bench device --seconds "${SECONDS_PER_RUN:-3}" --runs "${RUNS:-3}"
  ;;
*)
  echo "usage: scripts/gpu_device.sh prepare|run" >&2
  exit 2
  ;;
esac
