#!/usr/bin/env bash
# Fuzzes every text reader with cargo-fuzz (libFuzzer): positions, moves, records and rule files
# (`parsers`), engine protocol lines and player specs (`engine`), player specs through the
# registry, nested ones included (`player_spec`), training configs (`config`) and
# player files (`player_header`).
# Usage: scripts/fuzz.sh [executions per target, default 100000] [targets...]
# The proof run of the hardening issue used 10000000. Nightly features come through
# RUSTC_BOOTSTRAP=1 (no nightly toolchain needed); `cargo install cargo-fuzz` once.
# Each target starts from the hand-made seeds in fuzz/seeds/<target> and keeps what it finds in
# fuzz/corpus/<target> (ignored by git); a crash is saved under fuzz/artifacts/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
runs="${1:-100000}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(parsers engine player_spec config player_header)
export RUSTC_BOOTSTRAP=1
for t in "${targets[@]}"; do
  features=()
  [[ $t == config || $t == player_header ]] && features=(--features ml)
  mkdir -p "corpus/$t"
  echo "== $t: $runs executions"
  log="corpus/$t.log"
  # No sanitizer: the code is safe Rust, and without ASan the network library builds in minutes.
  if ! cargo fuzz run --release --sanitizer none "${features[@]}" "$t" "corpus/$t" "seeds/$t" -- \
    -runs="$runs" -max_len=4096 -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz target $t failed (its input is under fuzz/artifacts/$t; the log is fuzz/$log)" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
done
