#!/usr/bin/env bash
# A solved game's players against perfect play (docs/SOLVER.md): GAMES games of the shipped player
# against itself (at its own simulations, openings of 4 random plies), then `bao judge` over up to
# POSITIONS of their positions: how often each player's move keeps a proven win, and how often it
# converts a won position against the perfect defender. The shipped player is judged at its own
# simulations and at 100 ms a move, beside the frozen alpha-beta (scripts/baseline.sh) at 100 ms
# and random. Writes docs/perfect/GAME.json (scripts/games_table.sh reads it) and prints a summary.
# Usage: scripts/perfect_play.sh GAME [GAMES] [POSITIONS] [CONVERT] [SOLVE_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/perfect_play.sh GAME [GAMES] [POSITIONS] [CONVERT] [SOLVE_SECONDS]}
games=${2:-40}
positions=${3:-300}
convert=${4:-40}
solve=${5:-10}
cargo build --release --quiet
bao=target/release/bao
base=$(scripts/baseline.sh)
player="player:checkpoints/shipped/$game.bao"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bao" eval -v "$game" --a "$player" --b "$player" -n "$games" --seed 5 --quiet \
  --records "$work/games.kiba" >/dev/null
judge=("$bao" judge -v "$game" --records "$work/games.kiba" --positions "$positions"
  --convert "$convert" --solve-time "$solve" --quiet --json)
"${judge[@]}" --player "$player" >"$work/own.json"
"${judge[@]}" --move-time 0.1 --player "$player" --player "engine:$base" --player random \
  >"$work/timed.json"
mkdir -p docs/perfect
python3 - "$game" "$games" "$work/own.json" "$work/timed.json" <<'PY'
import json, sys
game, games, own, timed = sys.argv[1], int(sys.argv[2]), json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
own["players"][0]["player"] += " (own simulations)"
for p in timed["players"]:
    p["player"] += " (100 ms a move)"
out = {k: v for k, v in timed.items() if k != "players"}
out["selfplay_games"] = games
out["players"] = own["players"] + timed["players"]
open(f"docs/perfect/{game}.json", "w").write(json.dumps(out, indent=2) + "\n")
def share(s):
    if not s or not s["of"]:
        return "none"
    return f'{s["count"]} of {s["of"]} = {100 * s["count"] / s["of"]:.1f}%'

def interval(s):
    """The share with Wilson's 95% interval, as bao judge computes it."""
    if not s or not s["of"]:
        return "none"
    n, p, z = s["of"], s["count"] / s["of"], 1.959964
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z / d * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return f'{100 * p:.1f}% [{100 * max(c - h, 0):.1f}, {100 * min(c + h, 1):.1f}] ({s["count"]} of {n})'

# The table of every judged game in docs/SOLVER.md, between the `perfect` markers.
import glob, re
rows = []
for path in sorted(glob.glob("docs/perfect/*.json")):
    if "/openings-" in path:
        continue
    j = json.load(open(path))
    for i, p in enumerate(j["players"]):
        first = (f'{j["variant"]} | {j["positions"]} from {j["selfplay_games"]} games, {j["proven"]} proven'
                 f' | {j["critical_won"]}') if i == 0 else " | |"
        rows.append(f'| {first} | {p["player"]} | {interval(p["won"])} | {interval(p["converted"])} '
                    f'| {p["median_seconds"]:.3f} s |')
table = ("| game | positions | won, choice matters | player | won positions kept "
         "| won positions converted against the solver | time a move (median) |\n"
         "| --- | --- | --- | --- | --- | --- | --- |\n" + "\n".join(rows) + "\n")
doc = open("docs/SOLVER.md").read()
doc = re.sub(r"(<!-- perfect:start -->\n).*?(<!-- perfect:end -->)", lambda m: m.group(1) + table + m.group(2),
             doc, flags=re.S)
open("docs/SOLVER.md", "w").write(doc)
print(f'{game}: {out["positions"]} positions from {games} self-play games, {out["proven"]} proven; '
      f'the choice matters in {out["critical_won"]} won positions')
for p in out["players"]:
    print(f'  {p["player"]}: won positions kept {share(p["won"])}; converted {share(p["converted"])}; '
          f'{p["median_seconds"]:.3f} s a move')
PY
