#!/usr/bin/env bash
# Drives `bao engine` through one session and checks every reply.
# Usage: scripts/engine_test.sh [BAO_BINARY] [PLAYER_FILE]
#   BAO_BINARY defaults to target/release/bao; PLAYER_FILE to the shipped player.
set -euo pipefail
cd "$(dirname "$0")/.."
bao=${1:-target/release/bao}
player=${2:-checkpoints/shipped/kiswahili.bao}

session=$(cat <<END
legal
position startpos moves A6< a5>
legal
go depth 3
option takasia "none"
player ab:depth=2
go
position text garbage
go nodes 0
frobnicate
player player:$player
position startpos
go nodes 32
variant hus
go nodes 8
variant kiswahili
threads 2
go nodes 1k
go time 2000 inc 50
go movetime 30
option takasia "no such
player ab
threads 2
show
quit
legal
END
)
out=$("$bao" engine --player ab <<<"$session")

fail=0
expect() { # expect LINE_NUMBER PATTERN: reply number N (1 = the greeting) matches PATTERN
  local line
  line=$(sed -n "${1}p" <<<"$out")
  if ! grep -Eq -- "$2" <<<"$line"; then
    echo "reply $1: expected /$2/, got: $line" >&2
    fail=1
  fi
}
expect 1 '^bao-zero engine ready$'
expect 2 '^legal A6< A6> A7< A7>$'
expect 3 '^ok$'
expect 4 '^legal A3< A3>$'
expect 5 '^bestmove A3[<>] value [-+][0-9.]+ nodes [0-9]+ depth 3 pv A3[<>]'
expect 6 '^ok$'
expect 7 '^ok ab:depth=2$'
expect 8 '^bestmove \S+ value [-+][0-9.]+ nodes [0-9]+ depth 2 pv '
expect 9 '^error .*garbage|^error .*position'
expect 10 '^error .*positive number'
expect 11 '^error unknown command `frobnicate`'
expect 12 "^ok player:"
expect 13 '^ok$'
expect 14 '^bestmove \S+ value [-+][0-9.]+ nodes 32 depth [0-9]+ pv '
expect 15 '^ok hus$'
expect 16 '^error .* plays kiswahili, not hus: a trained player plays only the game it learned$'
expect 17 '^ok kiswahili$'
expect 18 '^ok threads 2$'
expect 19 '^bestmove \S+ value [-+][0-9.]+ nodes 1000 depth [0-9]+ pv '
expect 20 '^bestmove \S+ value [-+][0-9.]+ nodes [0-9]+ depth [0-9]+ pv '
expect 21 '^bestmove \S+ value [-+][0-9.]+ nodes [0-9]+ depth [0-9]+ pv '
expect 22 '^error bad rule option'
expect 23 '^ok ab$'
expect 24 '^error ab always searches on one thread$'
grep -q '^position ' <<<"$out" || { echo "show printed no position line" >&2; fail=1; }
# Nothing after quit.
[[ $(tail -n 1 <<<"$out") == position* ]] || { echo "replies after quit: $(tail -n 1 <<<"$out")" >&2; fail=1; }

# Without --player, the engine plays the game's shipped player (alpha-beta where none is shipped),
# and follows `variant`.
default_out=$("$bao" engine <<<$'go nodes 16\nvariant kiswahili\nplayer ab\nplayer default\nquit')
[[ $(sed -n 2p <<<"$default_out") =~ ^bestmove\ .*\ nodes\ 16\  ]] ||
  { echo "default player: $(sed -n 2p <<<"$default_out")" >&2; fail=1; }
[[ $(sed -n 5p <<<"$default_out") == "ok player:"*kiswahili.bao ]] ||
  { echo "player default: $(sed -n 5p <<<"$default_out")" >&2; fail=1; }

if [[ $fail -ne 0 ]]; then
  echo "--- engine output ---" >&2
  echo "$out" >&2
  exit 1
fi
echo "engine protocol: all checks passed"
