#!/usr/bin/env python3
"""Reads a training run's TensorBoard logs back with TensorBoard's own reader and checks them.

Usage: scripts/tb_readback.py RUN_DIR      (needs `pip install tensorboard`; scripts/tb_check.sh
                                            sets up a private virtualenv and calls this)

Checks that every scalar the trainer writes is there, one point per completed iteration (steps
1..N, as in meta.json), that the values are finite, and that they match metrics.jsonl.
"""
import json
import math
import sys
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

REQUIRED = [
    "loss/total", "loss/policy", "loss/value", "train/policy_entropy", "train/value_accuracy",
    "train/learning_rate", "train/samples_per_sec", "selfplay/games_per_sec",
    "selfplay/sims_per_sec", "selfplay/plies_per_game", "replay/size",
]


def main() -> int:
    run = Path(sys.argv[1])
    meta = json.loads((run / "meta.json").read_text())
    iterations = meta["iteration"]
    acc = EventAccumulator(str(run / "tb"), size_guidance={"scalars": 0})
    acc.Reload()
    tags = acc.Tags()["scalars"]
    problems = []
    for tag in REQUIRED:
        if tag not in tags:
            problems.append(f"missing tag {tag}")
            continue
        steps = sorted({e.step for e in acc.Scalars(tag)})
        if steps != list(range(1, iterations + 1)):
            problems.append(f"{tag}: steps {steps[:3]}..{steps[-3:]} for {iterations} iterations")
        if not all(math.isfinite(e.value) for e in acc.Scalars(tag)):
            problems.append(f"{tag}: a value is not finite")
    # The event values agree with the JSON-lines metrics (float32 rounding aside).
    lines = [json.loads(l) for l in (run / "metrics.jsonl").read_text().splitlines() if l.strip()]
    by_step = {e.step: e.value for e in acc.Scalars("loss/policy")} if "loss/policy" in tags else {}
    for line in lines:
        it, policy = line["iteration"], line.get("policy_loss")
        if policy is not None and it in by_step and not math.isclose(by_step[it], policy, rel_tol=1e-4, abs_tol=1e-5):
            problems.append(f"iteration {it}: loss/policy {by_step[it]} in TensorBoard, {policy} in metrics.jsonl")
    evals = sorted(t for t in tags if t.startswith("eval/"))
    for t in tags:
        print(f"{t:36} {len(acc.Scalars(t)):4} points, last {acc.Scalars(t)[-1].value:.4g}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"tensorboard readback: {len(tags)} scalar tags ({len(evals)} evaluation tags), "
          f"{iterations} iterations, all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
