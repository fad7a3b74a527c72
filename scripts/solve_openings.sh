#!/usr/bin/env bash
# The exact value of every opening of a rating match: the pairs' openings of
# `bao eval -v GAME -n GAMES --seed SEED` (4 random plies each; scripts/rate_game.sh rates against
# alpha-beta with seed 2 and 200 games) solved one by one with `bao solve` (cached in
# checkpoints/solved/). Prints one line per opening and the count of wins for each side, and keeps
# the counts with the game's value from the start (if cached or solved within 30 s) in
# docs/perfect/openings-GAME.json for scripts/games_table.sh.
# Usage: scripts/solve_openings.sh GAME [SEED] [GAMES] [SECONDS_PER_OPENING]
# BAO=PROGRAM solves with another build of bao (say, an older one to compare with), unbuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/solve_openings.sh GAME [SEED] [GAMES] [SECONDS_PER_OPENING]}
seed=${2:-2}
games=${3:-200}
limit=${4:-300}
if [[ -z ${BAO:-} ]]; then
  cargo build --release --quiet
fi
bao=${BAO:-target/release/bao}
records=$(mktemp)
trap 'rm -f "$records"' EXIT
# Random players: the openings depend only on the seed and the pair, not on who plays them.
"$bao" eval -v "$game" --a random --b random -n "$games" --seed "$seed" --quiet \
  --records "$records" >/dev/null
python3 - "$bao" "$game" "$records" "$limit" "$seed" "$games" <<'PY'
import json, subprocess, sys
sys.path.insert(0, 'scripts')
from kiba_records import read_games
bao, game, path, limit = sys.argv[1:5]
games = [moves for moves, _ in read_games(path)]
counts = {'south': 0, 'north': 0, 'draw': 0, 'open': 0}
for i, game_moves in enumerate(games[::2]):
    opening = ' '.join(game_moves[:4])
    out = subprocess.run([bao, 'solve', '--variant', game, '--moves', opening, '--json',
                          '--time-limit', limit], capture_output=True, text=True)
    if out.returncode != 0:
        counts['open'] += 1
        print(f'{i + 1:3} {opening:24} {out.stderr.strip()}', flush=True)
        continue
    r = json.loads(out.stdout)
    counts[r['winner'] or 'draw'] += 1
    print(f'{i + 1:3} {opening:24} {r["winner"] or "draw"} wins ({r["nodes"]} nodes, '
          f'{r["seconds"]:.1f} s)', flush=True)
print(f'{len(games[::2])} openings: South wins {counts["south"]}, North wins {counts["north"]}, '
      f'draws {counts["draw"]}, not solved in {limit} s: {counts["open"]}')
start = json.loads(subprocess.run([bao, 'solve', '--variant', game, '--json', '--time-limit', '30'],
                                  capture_output=True, text=True).stdout or 'null')
value = {'south': 'South wins', 'north': 'North wins', None: 'a draw'}[start['winner']] if start else 'open'
summary = dict(counts, openings=len(games[::2]), seconds=int(float(limit)), seed=int(sys.argv[5]),
               games=int(sys.argv[6]), value=value)
import os
os.makedirs('docs/perfect', exist_ok=True)
open(f'docs/perfect/openings-{game}.json', 'w').write(json.dumps(summary, indent=2) + '\n')
PY
