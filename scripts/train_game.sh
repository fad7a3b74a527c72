#!/usr/bin/env bash
# Trains the player of one game from configs/<game>.toml (resuming the run if it was
# interrupted) and exports it to checkpoints/<game>/player.bao (f16 weights). `--extend-to N`
# trains on past the config's iterations (the learning-rate schedule restarts there). Whether it
# becomes the shipped player (checkpoints/shipped/<game>.bao) is the arena's call: see
# scripts/rate_game.sh.
# Usage: scripts/train_game.sh GAME [more bao train options, e.g. --extend-to N]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/train_game.sh GAME}
shift
cargo build --release --quiet
bao=target/release/bao
"$bao" train --config "configs/$game.toml" "$@"
"$bao" export --checkpoint "checkpoints/$game" --out "checkpoints/$game/player.bao"
