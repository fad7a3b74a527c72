#!/usr/bin/env bash
# Millions of random plies of every preset (the eight games and the ladder steps), checking every
# invariant at every ply: seed total, position text round trip, notation round trip of every legal
# move, record round trip, the game ends. Prints plies, games and time per preset.
# Usage: scripts/soak.sh [plies per preset, default 10000000]
#   BAO_SOAK_VARIANTS=hus,kimasai scripts/soak.sh   soaks only those presets
set -euo pipefail
cd "$(dirname "$0")/.."
BAO_SOAK_PLIES="${1:-10000000}" cargo test -p bao-rules --release --test engine -- --ignored --nocapture soak
