#!/usr/bin/env bash
# Rates a game's trained player (default: checkpoints/<game>/player.bao, from
# scripts/train_game.sh) the way the shipped players are rated: 200 games against random and 200
# against alpha-beta as frozen at commit 96b775d at 100 ms a move, openings randomised in pairs,
# each side South once. Prints both results; ship the player (copy it to
# checkpoints/shipped/<game>.bao) when they meet the targets (>= 99% and >= 75%).
# Usage: scripts/rate_game.sh GAME [PLAYER_FILE] [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/rate_game.sh GAME [PLAYER_FILE] [GAMES]}
player=${2:-checkpoints/$game/player.bao}
games=${3:-200}
cargo build --release --quiet
bao=target/release/bao
base=$(scripts/baseline.sh)
echo "== $game: $player"
"$bao" eval -v "$game" --a "player:$player" --b random -n "$games" --seed 1 --quiet | tail -n 2
"$bao" eval -v "$game" --a "player:$player" --b "engine:$base" --move-time 0.1 -n "$games" --seed 2 --quiet | tail -n 2
