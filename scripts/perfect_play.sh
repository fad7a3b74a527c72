#!/usr/bin/env bash
# A solved game's players against perfect play (docs/SOLVER.md): GAMES games of the shipped player
# against itself (at its own simulations, openings of OPENING_PLIES random plies, 4 unless given),
# then `bao judge` over up to
# POSITIONS of their positions: how often each player's move keeps a proven win, and how often it
# converts a won position against the perfect defender. The shipped player is judged at its own
# simulations and at 100 ms a move, beside the frozen alpha-beta (scripts/baseline.sh) at 100 ms;
# random's moves are judged too (not its conversions). With LAST_PLIES, only positions at most that
# many plies before their game's end are drawn: in a game too large to solve from the start
# (Bao la Kiswahili) these are the ones the solver proves. Writes docs/perfect/GAME.json
# (scripts/games_table.sh reads it) and the table in docs/SOLVER.md, and prints a summary.
# A deterministic player repeats its games from the same opening: more random plies, more distinct
# positions.
# Usage: scripts/perfect_play.sh GAME [GAMES] [POSITIONS] [CONVERT] [SOLVE_SECONDS] [LAST_PLIES] [OPENING_PLIES]
set -euo pipefail
cd "$(dirname "$0")/.."
game=${1:?usage: scripts/perfect_play.sh GAME [GAMES] [POSITIONS] [CONVERT] [SOLVE_SECONDS] [LAST_PLIES] [OPENING_PLIES]}
games=${2:-40}
positions=${3:-300}
convert=${4:-40}
solve=${5:-10}
last=${6:-0}
opening=${7:-4}
cargo build --release --quiet
bao=target/release/bao
base=$(scripts/baseline.sh)
player="player:checkpoints/shipped/$game.bao"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bao" eval -v "$game" --a "$player" --b "$player" -n "$games" --seed 5 --quiet \
  --opening-plies "$opening" --records "$work/games.kiba" >/dev/null
judge=("$bao" judge -v "$game" --records "$work/games.kiba" --positions "$positions" --last-plies "$last"
  --threads "$(nproc)" --quiet --json)
"${judge[@]}" --solve-time "$solve" --convert "$convert" --player "$player" >"$work/own.json"
"${judge[@]}" --solve-time "$solve" --convert "$convert" --move-time 0.1 --player "$player" \
  --player "engine:$base" >"$work/timed.json"
# Random keeps few wins and converts fewer, slowly (the solver defends every blunder): moves only.
# Every position tried above is in the cache, proven or given up: none is tried again.
"${judge[@]}" --player random --solve-time 0.1 >"$work/random.json"
mkdir -p docs/perfect
python3 - "$game" "$games" "$work/own.json" "$work/timed.json" "$work/random.json" "$opening" <<'PY'
import json, sys
game, games, opening = sys.argv[1], int(sys.argv[2]), int(sys.argv[6])
own, timed, rand = (json.load(open(f)) for f in sys.argv[3:6])
def name(spec):
    """A player as the docs name it: the frozen baseline, not its path on this machine."""
    if spec.startswith("engine:") and "/baseline-" in spec:
        return "alpha-beta frozen at " + spec.split("/baseline-")[1].split("/")[0]
    return spec

for p in own["players"] + timed["players"] + rand["players"]:
    p["player"] = name(p["player"])
own["players"][0]["player"] += " (own simulations)"
for p in timed["players"]:
    p["player"] += " (100 ms a move)"
out = {k: v for k, v in timed.items() if k != "players"}
out["selfplay_games"] = games
out["opening_plies"] = opening
out["players"] = own["players"] + timed["players"] + rand["players"]
open(f"docs/perfect/{game}.json", "w").write(json.dumps(out, indent=2) + "\n")
def share(s):
    if not s or not s["of"]:
        return "none"
    return f'{s["count"]} of {s["of"]} = {100 * s["count"] / s["of"]:.1f}%'

def interval(s):
    """The share with Wilson's 95% interval, as bao judge writes it."""
    if not s or not s["of"]:
        return "none"
    p = s["count"] / s["of"]
    return f'{100 * p:.1f}% [{100 * s["low"]:.1f}, {100 * s["high"]:.1f}] ({s["count"]} of {s["of"]})'

# The table of every judged game in docs/SOLVER.md, between the `perfect` markers.
import glob, re
rows = []
for path in sorted(glob.glob("docs/perfect/*.json")):
    if "/openings-" in path:
        continue
    j = json.load(open(path))
    for i, p in enumerate(j["players"]):
        near = f' (their last {j["last_plies"]} plies)' if j.get("last_plies") else ""
        if j.get("opening_plies", 4) != 4:
            near += f', openings of {j["opening_plies"]} random plies'
        first = (f'{j["variant"]} | {j["positions"]} from {j["selfplay_games"]} games{near}, {j["proven"]} proven'
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
