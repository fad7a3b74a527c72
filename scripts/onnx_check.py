#!/usr/bin/env python3
"""Runs an exported ONNX network in onnxruntime and compares it with burn's own outputs.

Usage: scripts/onnx_check.py MODEL.onnx [MODEL.samples.json]
(`bao export --format onnx --out MODEL.onnx` writes both files; scripts/onnx_check.sh sets up
onnxruntime in a private virtualenv and calls this.)
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort

TOLERANCE = 1e-4


def main() -> int:
    model = Path(sys.argv[1])
    samples_path = Path(sys.argv[2]) if len(sys.argv) > 2 else model.with_suffix(".samples.json")
    samples = json.loads(samples_path.read_text())
    obs = np.asarray(samples["obs"], dtype=np.float32).reshape(-1, 27, 4, 8)
    n = obs.shape[0]
    policy = np.asarray(samples["policy_logits"], dtype=np.float32).reshape(n, 64)
    value = np.asarray(samples["value"], dtype=np.float32).reshape(n, 1)
    session = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    inputs, outputs = session.get_inputs(), session.get_outputs()
    print("inputs: ", [(i.name, i.shape) for i in inputs])
    print("outputs:", [(o.name, o.shape) for o in outputs])
    worst = {}
    # The whole batch at once, then one position alone (the batch axis is dynamic).
    for batch in (obs, obs[:1]):
        got_policy, got_value = session.run(None, {inputs[0].name: batch})
        k = batch.shape[0]
        worst["policy"] = max(worst.get("policy", 0.0), float(np.abs(got_policy - policy[:k]).max()))
        worst["value"] = max(worst.get("value", 0.0), float(np.abs(got_value - value[:k]).max()))
    print(f"{n} positions: max |onnxruntime - burn| policy logits {worst['policy']:.2e}, "
          f"value {worst['value']:.2e} (tolerance {TOLERANCE})")
    if max(worst.values()) > TOLERANCE:
        print("MISMATCH", file=sys.stderr)
        return 1
    print("onnx check: outputs match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
