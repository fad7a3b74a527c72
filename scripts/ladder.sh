#!/usr/bin/env bash
# The Elo ladder: the shipped Bao la Kiswahili player, alpha-beta as frozen at commit 96b775d
# (scripts/baseline.sh) and random, rated on one scale per time control (10 ms, 100 ms, 1 s a
# move; random at Elo 0), every pair playing game pairs with random openings, each side South
# once. Writes the table into docs/PLAYERS.md between the `ladder` markers.
# Usage: scripts/ladder.sh [games per pair at 10 ms] [at 100 ms] [at 1 s]   (default 100 100 20)
set -euo pipefail
cd "$(dirname "$0")/.."
n10=${1:-100}; n100=${2:-100}; n1000=${3:-20}
cargo build --release --quiet
bao=target/release/bao
base=$(scripts/baseline.sh)
player=checkpoints/shipped/kiswahili.bao
out=$(mktemp -d)
for spec in "0.01 $n10" "0.1 $n100" "1 $n1000"; do
  read -r secs games <<<"$spec"
  echo "== $secs s a move, $games games per pair" >&2
  "$bao" gauntlet --player "player:$player" "engine:$base" random --anchor random \
    --move-time "$secs" -n "$games" --seed 1 --json >"$out/$secs.json"
done
python3 - "$out" "$base" <<'PY'
import json, re, sys
out, base = sys.argv[1], sys.argv[2]
names = {"random": "random", f"engine:{base}": "alpha-beta (frozen, 96b775d)"}
rows = ["| time a move | player | Elo (random = 0) | 95% interval | games | score |",
        "| --- | --- | --- | --- | --- | --- |"]
for secs, label in (("0.01", "10 ms"), ("0.1", "100 ms"), ("1", "1 s")):
    r = json.load(open(f"{out}/{secs}.json"))
    for p in sorted(r["ratings"], key=lambda p: -p["elo"]):
        name = names.get(p["name"], p["name"].replace("player:", "shipped "))
        interval = "" if p["name"] == "random" else f'[{p["elo_low"]:+.0f}, {p["elo_high"]:+.0f}]'
        score = 100 * p["points"] / max(p["games"], 1)
        rows.append(f'| {label} | {name} | {p["elo"]:+.0f} | {interval} | {p["games"]} | {score:.1f}% |')
table = "\n".join(rows)
readme = open("docs/PLAYERS.md").read()
new = re.sub(r"(<!-- ladder:start -->\n).*?(<!-- ladder:end -->)",
             lambda m: m.group(1) + table + "\n" + m.group(2), readme, flags=re.S)
open("docs/PLAYERS.md", "w").write(new)
print(table)
PY
rm -rf "$out"
