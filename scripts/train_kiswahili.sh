#!/usr/bin/env bash
# The shipped Bao la Kiswahili player from scratch: configs/kiswahili.toml (240 iterations of
# self-play), then two runs of 120 iterations from its player, a quarter of their games against
# alpha-beta: configs/kiswahili-ab.toml and configs/kiswahili-ab-fp.toml (the same with forced
# playouts); the player is the mean of the two networks' weights. Every player is exported with
# f16 weights. One self-play thread each, so the same seeds give the same player; about 135
# minutes on one core, resumed wherever it was interrupted.
# The result is checkpoints/kiswahili.bao; whether it replaces checkpoints/shipped/kiswahili.bao is
# the arena's call (docs/STRENGTH.md).
# Usage: scripts/train_kiswahili.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bao=target/release/bao
"$bao" train --config configs/kiswahili.toml --extend-to 240
"$bao" export --checkpoint checkpoints/kiswahili --out checkpoints/kiswahili/player.bao
for run in kiswahili-ab kiswahili-ab-fp; do
    "$bao" train --config "configs/$run.toml"
    "$bao" export --checkpoint "checkpoints/$run" --out "checkpoints/$run/player.bao"
done
"$bao" export --player checkpoints/kiswahili-ab/player.bao checkpoints/kiswahili-ab-fp/player.bao \
    --out checkpoints/kiswahili.bao
