#!/usr/bin/env bash
# Millions of random games across every preset, checking every invariant at every ply
# (seed total, position text round trip, notation round trip, the game ends).
# Usage: scripts/soak.sh [games per preset, default 100000]  (22 presets: 2.2M games by default)
set -euo pipefail
cd "$(dirname "$0")/.."
BAO_SOAK_GAMES="${1:-100000}" cargo test --release --test engine -- --ignored --nocapture soak
