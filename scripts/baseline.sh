#!/usr/bin/env bash
# Builds the frozen alpha-beta baseline: `bao` as it was at commit 96b775d, so that strength
# targets never move when this repository's own `ab` improves. Prints the binary's path.
#
#   scripts/baseline.sh            # builds once, then reuses target/baseline-96b775d/bao
#   bao eval --a player:F.bao --b engine:$(scripts/baseline.sh) --move-time 0.1 -n 200
set -euo pipefail
cd "$(dirname "$0")/.."
commit=96b775d
out="target/baseline-$commit"
if [ -x "$out/bao" ]; then
    echo "$PWD/$out/bao"
    exit 0
fi
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
git worktree add --detach "$tree" "$commit" >&2
# Its own target folder: the old crate must not reuse this build's artifacts.
(cd "$tree" && cargo build --release --locked --bin bao >&2)
mkdir -p "$out"
cp "$tree/target/release/bao" "$out/bao"
echo "$PWD/$out/bao"
