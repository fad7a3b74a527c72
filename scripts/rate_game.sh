#!/usr/bin/env bash
# Rates a game's trained player (default: checkpoints/<game>/player.bao, from
# scripts/train_game.sh) the way the shipped players are rated: 200 games against random (at the
# player's own simulations a move) and 200 against alpha-beta as frozen at commit 96b775d at 100 ms
# a move, openings randomised in pairs, each side South once. Prints both results and keeps them as JSON beside the player
# (rating-random.json, rating-ab.json; scripts/games_table.sh reads them). Ship the player (copy
# it to checkpoints/shipped/<game>.bao) when they meet the targets (>= 99% and >= 75%).
# Usage: scripts/rate_game.sh GAME [PLAYER_FILE] [GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/rate_game.sh GAME [PLAYER_FILE] [GAMES]}
player=${2:-checkpoints/$game/player.bao}
games=${3:-200}
cargo build --release --quiet
bao=target/release/bao
base=$(scripts/baseline.sh)
opponent="engine:$base"
# The frozen build predates the fix of the kuu-and-takasia precedence (docs/RULES.md) and plays
# moves that are illegal in these two games; there the opponent is this repository's `ab`, whose
# search is the frozen one's (same moves and node counts at equal depth).
case $game in malawi-intermediate | malawi-advanced) opponent=ab ;; esac
dir=$(dirname "$player")
echo "== $game: $player"
summary() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
e = r["estimate"]
print(f'{r["a"]} vs {r["b"]}: {100 * e["score"]:.1f}% [{100 * e["score_low"]:.1f}, '
      f'{100 * e["score_high"]:.1f}], Elo {e["elo"]:+.0f} [{e["elo_low"]:+.0f}, {e["elo_high"]:+.0f}], '
      f'{r["games"]} games (+{r["wins"]} ={r["draws"]} -{r["losses"]}), {r["mean_plies"]:.1f} plies a game')
PY
}
"$bao" eval -v "$game" --a "player:$player" --b random -n "$games" --seed 1 --quiet --json \
  >"$dir/rating-random.json"
summary "$dir/rating-random.json"
"$bao" eval -v "$game" --a "player:$player" --b "$opponent" --move-time 0.1 -n "$games" \
  --seed 2 --quiet --json >"$dir/rating-ab.json"
summary "$dir/rating-ab.json"
