#!/usr/bin/env bash
# The shipped Bao la Kiswahili player from scratch. First stage: configs/kiswahili.toml (240
# iterations of self-play). Second stage: eight runs of 120 iterations from its player, a quarter
# of their games against alpha-beta, in two soups of four. The result soup:
# configs/kiswahili-ab.toml and configs/kiswahili-ab-fp.toml (the same with forced playouts), each
# with seed 111 (the configs' own) and seed 112, their value heads learning the game's result.
# The q05 soup: the same four with configs/kiswahili-ab-q05.toml and
# configs/kiswahili-ab-fp-q05.toml, whose value heads learn half the result and half the search's
# value. A soup is the mean of its four networks' weights; the player is the mean of the two
# soups. Every player is exported with f16 weights.
# One self-play thread a run, so the same seeds give the same player; the runs go two at a time,
# about 70 + 4 x 40 minutes on two cores, each resumed wherever it was interrupted.
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

# One soup: OUT CONFIG CONFIG_FP. Trains both configs with seeds 111 and 112, the two configs of
# a seed at once, and writes the mean of the four networks to OUT.
soup() {
    local out=$1 players=() seed plain fp plain_job fp_job
    for seed in 111 112; do
        # Seed 111 is the configs' own, in the configs' own run folders.
        plain=checkpoints/$2; fp=checkpoints/$3
        if [ "$seed" != 111 ]; then plain+="-$seed"; fp+="-$seed"; fi
        stage_two "$2" "$seed" "$plain" & plain_job=$!
        stage_two "$3" "$seed" "$fp" & fp_job=$!
        wait "$plain_job"; wait "$fp_job"
        players+=("$plain/player.bao" "$fp/player.bao")
    done
    "$bao" export --player "${players[@]}" --out "$out"
}
soup checkpoints/kiswahili-result-soup.bao kiswahili-ab kiswahili-ab-fp
soup checkpoints/kiswahili-q05-soup.bao kiswahili-ab-q05 kiswahili-ab-fp-q05
"$bao" export --player checkpoints/kiswahili-result-soup.bao checkpoints/kiswahili-q05-soup.bao \
    --out checkpoints/kiswahili.bao
