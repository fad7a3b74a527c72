#!/usr/bin/env bash
# How far from the end the solver proves positions of a game too large to solve from the start:
# plays GAMES games of PLAYER against itself (`bao eval`, MOVE_TIME seconds a move, openings
# randomised), then solves the position DISTANCE plies before each game's end with `bao solve`
# (SECONDS each, a 256 MiB table, no cache). Prints, per distance, how many positions were proven
# within the time, their median solve time, and how many of the proven ones the game's winner
# matches (a proven win lost later is a won position the player let go).
# Usage: scripts/solve_endgames.sh [GAME] [PLAYER] [GAMES] [SECONDS] [MOVE_TIME] [DISTANCES...]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:-kiswahili}
player=${2:-player:checkpoints/shipped/kiswahili.bao}
games=${3:-20}
limit=${4:-1}
move_time=${5:-0.05}
shift $(($# < 5 ? $# : 5))
distances=${*:-2 4 6 8 10 12 16 20 24 32}
cargo build --release --quiet
bao=target/release/bao
records=$(mktemp)
trap 'rm -f "$records"' EXIT
"$bao" eval -v "$game" --a "$player" --b "$player" -n "$games" --seed 3 --move-time "$move_time" \
  --quiet --records "$records" >/dev/null
python3 - "$bao" "$game" "$records" "$limit" $distances <<'PY'
import json, statistics, subprocess, sys
sys.path.insert(0, 'scripts')
from kiba_records import read_games
bao, game, path, limit, *distances = sys.argv[1:]
games = read_games(path)
print(f'{len(games)} games of {game}, {limit} s a position')
print('| plies from the end | proven | median time (s) | the winner as proven |')
print('| --- | --- | --- | --- |')
for d in map(int, distances):
    proven, times, agree, total = 0, [], 0, 0
    for moves, winner in games:
        if len(moves) <= d:
            continue
        total += 1
        out = subprocess.run([bao, 'solve', '--variant', game, '--moves', ' '.join(moves[:-d]),
                              '--json', '--time-limit', limit, '--memory', '256', '--no-cache'],
                             capture_output=True, text=True)
        if out.returncode != 0:
            continue
        r = json.loads(out.stdout)
        proven += 1
        times.append(r['seconds'])
        agree += (r['winner'] or 'draw') == winner
    median = f'{statistics.median(times):.2f}' if times else '-'
    print(f'| {d} | {proven} of {total} | {median} | {agree} of {proven} |', flush=True)
PY
