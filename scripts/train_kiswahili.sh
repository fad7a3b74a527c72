#!/usr/bin/env bash
# The shipped Bao la Kiswahili player from scratch, in its two stages: configs/kiswahili.toml (240
# iterations of self-play), then configs/kiswahili-ab.toml (120 more, a quarter of the games
# against alpha-beta), each exported with f16 weights. One self-play thread each, so the same
# seeds give the same player; about 100 minutes on one core, resumed wherever it was interrupted.
# The result is checkpoints/kiswahili-ab/player.bao; whether it replaces
# checkpoints/shipped/kiswahili.bao is the arena's call (docs/STRENGTH.md).
# Usage: scripts/train_kiswahili.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bao=target/release/bao
"$bao" train --config configs/kiswahili.toml --extend-to 240
"$bao" export --checkpoint checkpoints/kiswahili --out checkpoints/kiswahili/player.bao
"$bao" train --config configs/kiswahili-ab.toml
"$bao" export --checkpoint checkpoints/kiswahili-ab --out checkpoints/kiswahili-ab/player.bao
