#!/usr/bin/env bash
# The table of every game's player in docs/PLAYERS.md (between the `games` markers): the command that
# trains it, its training time, its self-play facts (plies a game and the first player's score over
# the last 10 iterations: facts about the game itself) and its ratings from scripts/rate_game.sh
# against random and against alpha-beta frozen at 96b775d at 100 ms a move; for a solved game,
# its perfect-play figures from docs/perfect/ (scripts/solve_openings.sh, scripts/perfect_play.sh).
# Reads checkpoints/<game>/{metrics.jsonl,rating-random.json,rating-ab.json}; a game whose run or
# ratings are missing keeps its old row (or has none yet).
# Usage: scripts/games_table.sh [games...]
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "$@" <<'PY'
import json, os, re, sys, tomllib

GAMES = {  # game -> (name, run dir, command)
    "kiswahili": ("Bao la Kiswahili", "checkpoints/kiswahili", "bao train --config configs/kiswahili.toml --extend-to 240"),
    "kujifunza": ("Bao la Kujifunza", "checkpoints/kujifunza", "scripts/train_game.sh kujifunza"),
    "malawi-basic": ("Malawi Bao, basic", "checkpoints/malawi-basic", "scripts/train_game.sh malawi-basic"),
    "malawi-intermediate": ("Malawi Bao, intermediate", "checkpoints/malawi-intermediate", "scripts/train_game.sh malawi-intermediate"),
    "malawi-advanced": ("Malawi Bao, advanced", "checkpoints/malawi-advanced", "scripts/train_game.sh malawi-advanced"),
    "kimasai": ("Bao la Kimasai", "checkpoints/kimasai", "scripts/train_game.sh kimasai"),
    "hus": ("Hus", "checkpoints/hus", "scripts/train_game.sh hus"),
    "katra-fandatsaka": ("Katra Fandatsaka", "checkpoints/katra-fandatsaka", "scripts/train_game.sh katra-fandatsaka"),
}

def rating(path):
    r = json.load(open(path))
    e = r["estimate"]
    # A pair whose two games split (each player won from the same side) was decided by its
    # opening rather than by the players: near 100%, the game leaves no room above them.
    pairs = sum(r["pentanomial"])
    split = f", {100 * r['pentanomial'][2] / pairs:.0f}% of pairs split" if pairs else ""
    return (f'{100 * e["score"]:.1f}% [{100 * e["score_low"]:.1f}, {100 * e["score_high"]:.1f}]'
            f' ({r["games"]} games{split})')

def row(game):
    name, run, command = GAMES[game]
    metrics = [json.loads(line) for line in open(f"{run}/metrics.jsonl")]
    minutes = sum(m["seconds"] for m in metrics) / 60
    last = metrics[-10:]
    games = sum(m["south_wins"] + m["north_wins"] + m["draws"] for m in last)
    # Every self-play ply is a sample, so new positions / games is the mean game length
    # (`positions` counts the whole run; the wins count each iteration).
    before = metrics[-11]["positions"] if len(metrics) > 10 else 0
    config = tomllib.load(open(f"{run}/config.toml", "rb"))
    # With playout cap randomization only the fully searched moves become samples.
    recorded = config["selfplay"]["mcts"].get("full_search_prob", 1.0)
    plies = (metrics[-1]["positions"] - before) / games / recorded
    threads = config["selfplay"].get("threads", 2)
    cores = "" if threads == 2 else f" on {threads} core{'s' if threads > 1 else ''}"
    first = (sum(m["south_wins"] for m in last) + sum(m["draws"] for m in last) / 2) / games
    # Games opened with random plies are not games of the start position: marked (see below the
    # table), and their random plies (1 to N, N / 2 + 0.5 on average) count in the length.
    share = config["selfplay"].get("random_opening_share", 0.0)
    mark = ""
    if share > 0:
        mark = "†"
        plies += share * (config["selfplay"].get("random_opening_plies", 0) / 2 + 0.5)
    return (f"| {name} | `{command}` | {len(metrics)} iterations, {minutes:.0f} min{cores} | {plies:.0f}{mark} | "
            f"{100 * first:.1f}%{mark} | {rating(run + '/rating-random.json')} | {rating(run + '/rating-ab.json')} |")

readme = open("docs/PLAYERS.md").read()
block = re.search(r"<!-- games:start -->\n(.*?)<!-- games:end -->", readme, flags=re.S)
old = {}
for line in block.group(1).splitlines()[2:]:
    name = line.split("|")[1].strip()
    old[name] = line
rows = []
def share(s):
    if not s or not s["of"]:
        return "none"
    return f'{100 * s["count"] / s["of"]:.1f}% ({s["count"]} of {s["of"]})'

def perfect(game):
    """The perfect-play cells of a solved game (docs/SOLVER.md): its value and the exact values
    of its rating match's openings (scripts/solve_openings.sh), then the shipped player and the
    frozen alpha-beta against the solver (scripts/perfect_play.sh)."""
    try:
        o = json.load(open(f"docs/perfect/openings-{game}.json"))
        value = f'{o["value"]}; of {o["openings"]} openings South wins {o["south"]}, North {o["north"]}'
        value += f', draws {o["draw"]}' if o["draw"] else ""
        value += f', {o["open"]} not solved in {o["seconds"]} s' if o["open"] else ""
    except OSError:
        value = "not solved"
    try:
        j = json.load(open(f"docs/perfect/{game}.json"))
    except OSError:
        return f" {value} | not measured | not measured |" if value != "not solved" else " not solved | | |"
    # A game not solved from the start is judged on positions near its games' ends.
    near = f'endgames (last {j["last_plies"]} plies): ' if j.get("last_plies") else ""
    timed = [p for p in j["players"] if p["player"].endswith("(100 ms a move)")]
    kept = near + ", ".join(share(p["won"]) for p in timed[:2])
    converted = near + ", ".join(share(p["converted"]) for p in timed[:2])
    return f" {value} | {kept} | {converted} |"

for game in GAMES:
    name = GAMES[game][0]
    wanted = not sys.argv[1:] or game in sys.argv[1:]
    try:
        line = row(game) if wanted else old[name]
    except (OSError, KeyError, ValueError) as err:
        if name not in old:
            print(f"{game}: not rated yet ({err})", file=sys.stderr)
            continue
        line = old[name]
    # The first seven cells are the training and rating ones; the perfect-play ones are made anew.
    rows.append("|".join(line.split("|")[:8]) + "|" + perfect(game))
header = ("| game | trained by | training (2 cores) | self-play plies a game | first player's score "
          "| vs random | vs alpha-beta (frozen at 96b775d*), 100 ms a move "
          "| perfect play: value, and the openings of that match | won positions kept at 100 ms a move: player, alpha-beta "
          "| won positions converted against perfect defence: player, alpha-beta |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
table = header + "\n".join(rows) + "\n"
open("docs/PLAYERS.md", "w").write(readme[:block.start(1)] + table + readme[block.end(1):])
print(table, end="")
PY
