#!/usr/bin/env bash
# Trains and rates the player of every game but Bao la Kiswahili, one after another (each run
# resumes where it stopped): scripts/train_game.sh then scripts/rate_game.sh. The results go to
# checkpoints/<game>/rating.txt.
# Usage: scripts/train_all_games.sh [games...]
set -euo pipefail
cd "$(dirname "$0")/.."
games=("$@")
[[ ${#games[@]} -gt 0 ]] || games=(hus kujifunza malawi-basic malawi-intermediate malawi-advanced kimasai katra-fandatsaka)
for g in "${games[@]}"; do
  scripts/train_game.sh "$g" --quiet
  scripts/rate_game.sh "$g" | tee "checkpoints/$g/rating.txt"
done
