#!/usr/bin/env python3
"""Runs an exported ONNX network in onnxruntime and compares it with burn's own outputs.

Usage: scripts/onnx_check.py MODEL.onnx [SAMPLES]

SAMPLES (default MODEL.samples.json, which `bao export --format onnx --out MODEL.onnx` writes)
is a .json or .npz file with `obs` ([n, 27, 4, 8], may be flat), `policy_logits` ([n, 64]) and
`value` ([n] or [n, 1]): sample inputs and burn's raw outputs for them.
scripts/onnx_check.sh sets up onnxruntime in a private virtualenv and calls this.

Checks the model's signature (input `obs` [batch, 27, 4, 8] with a symbolic batch axis, outputs
`policy_logits` [batch, 64] and `value` [batch, 1]), runs the samples as one batch and in
batches of 1 and 7, and prints the largest absolute differences. Exit status 1 on a mismatch
beyond the tolerance, 2 on a wrong signature or unreadable input.
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

TOLERANCE = 1e-4
CHANNELS, ROWS, COLS, ACTIONS = 27, 4, 8, 64


def load_samples(path: Path):
    if path.suffix == ".npz":
        with np.load(path) as data:
            raw = {k: data[k] for k in ("obs", "policy_logits", "value")}
    else:
        raw = json.loads(path.read_text())
    obs = np.asarray(raw["obs"], dtype=np.float32).reshape(-1, CHANNELS, ROWS, COLS)
    n = obs.shape[0]
    policy = np.asarray(raw["policy_logits"], dtype=np.float32).reshape(n, ACTIONS)
    value = np.asarray(raw["value"], dtype=np.float32).reshape(n, 1)
    return obs, policy, value


def check_signature(session) -> list:
    inputs, outputs = session.get_inputs(), session.get_outputs()
    print("inputs: ", [(i.name, i.type, i.shape) for i in inputs])
    print("outputs:", [(o.name, o.type, o.shape) for o in outputs])
    problems = []
    if [i.name for i in inputs] != ["obs"]:
        problems.append("the input should be `obs`")
    elif not isinstance(inputs[0].shape[0], str) or inputs[0].shape[1:] != [CHANNELS, ROWS, COLS]:
        problems.append(f"`obs` should be [batch, {CHANNELS}, {ROWS}, {COLS}] with a symbolic batch")
    if [o.name for o in outputs] != ["policy_logits", "value"]:
        problems.append("the outputs should be `policy_logits` and `value`")
    else:
        if outputs[0].shape[1:] != [ACTIONS]:
            problems.append(f"`policy_logits` should be [batch, {ACTIONS}]")
        if outputs[1].shape[1:] != [1]:
            problems.append("`value` should be [batch, 1]")
    for t in list(inputs) + list(outputs):
        if t.type != "tensor(float)":
            problems.append(f"`{t.name}` should be float32, not {t.type}")
    return problems


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    model = Path(sys.argv[1])
    samples_path = Path(sys.argv[2]) if len(sys.argv) > 2 else model.with_suffix(".samples.json")
    try:
        obs, policy, value = load_samples(samples_path)
        session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    except Exception as e:  # noqa: BLE001 - any unreadable input is reported the same way
        print(f"cannot read {model} or {samples_path}: {e}", file=sys.stderr)
        return 2
    meta = session.get_modelmeta().custom_metadata_map
    if meta:
        print("metadata:", meta)
    problems = check_signature(session)
    if problems:
        print("WRONG SIGNATURE: " + "; ".join(problems), file=sys.stderr)
        return 2
    n = obs.shape[0]
    worst = {"policy_logits": 0.0, "value": 0.0}
    # The whole batch at once, then batches of 1 and 7 (the batch axis is dynamic).
    for size in sorted({n, 1, min(7, n)}, reverse=True):
        for start in range(0, n, size):
            batch = obs[start:start + size]
            got_policy, got_value = session.run(["policy_logits", "value"], {"obs": batch})
            k = batch.shape[0]
            if got_policy.shape != (k, ACTIONS) or got_value.shape != (k, 1):
                print(f"WRONG OUTPUT SHAPES for a batch of {k}: {got_policy.shape}, {got_value.shape}",
                      file=sys.stderr)
                return 1
            # np.maximum keeps a NaN (Python's max would drop it).
            for name, got, want in (("policy_logits", got_policy, policy), ("value", got_value, value)):
                diff = np.abs(got - want[start:start + k]).max()
                worst[name] = float(np.maximum(worst[name], diff))
    print(f"{n} positions (batches of {n}, 7 and 1): max |onnxruntime - burn| "
          f"policy_logits {worst['policy_logits']:.2e}, value {worst['value']:.2e} "
          f"(tolerance {TOLERANCE:g}); value range [{value.min():.3f}, {value.max():.3f}]")
    if not all(np.isfinite(d) and d <= TOLERANCE for d in worst.values()):
        print("MISMATCH", file=sys.stderr)
        return 1
    print("onnx check: outputs match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
