#!/usr/bin/env bash
# The shipped Bao la Kiswahili player from scratch: configs/kiswahili.toml (240 iterations of
# self-play), then four runs of 120 iterations from its player, a quarter of their games against
# alpha-beta: configs/kiswahili-ab.toml and configs/kiswahili-ab-fp.toml (the same with forced
# playouts), each with seed 111 (the configs' own) and seed 112; the player is the mean of the
# four networks' weights (a model soup). Every player is exported with f16 weights. One self-play
# thread a run, so the same seeds give the same player; the four runs go two at a time, about
# 70 + 2 x 40 minutes on two cores, each resumed wherever it was interrupted.
# The result is checkpoints/kiswahili.bao; whether it replaces checkpoints/shipped/kiswahili.bao is
# the arena's call (docs/STRENGTH.md).
# Usage: scripts/train_kiswahili.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bao=target/release/bao
"$bao" train --config configs/kiswahili.toml --extend-to 240
"$bao" export --checkpoint checkpoints/kiswahili --out checkpoints/kiswahili/player.bao

# One second-stage run: CONFIG SEED RUN_DIR, trained and exported to RUN_DIR/player.bao; its log
# lines start with the run's folder, since two runs share the terminal.
stage_two() {
    {
        "$bao" train --config "configs/$1.toml" --seed "$2" --run-dir "$3" --quiet
        "$bao" export --checkpoint "$3" --out "$3/player.bao"
    } 2>&1 | sed -u "s|^|$3: |"
}
players=()
for seed in 111 112; do
    # Seed 111 is the configs' own, in the configs' own run folders.
    ab=checkpoints/kiswahili-ab; fp=checkpoints/kiswahili-ab-fp
    if [ "$seed" != 111 ]; then ab+="-$seed"; fp+="-$seed"; fi
    stage_two kiswahili-ab "$seed" "$ab" & ab_job=$!
    stage_two kiswahili-ab-fp "$seed" "$fp" & fp_job=$!
    wait "$ab_job"; wait "$fp_job"
    players+=("$ab/player.bao" "$fp/player.bao")
done
"$bao" export --player "${players[@]}" --out checkpoints/kiswahili.bao
