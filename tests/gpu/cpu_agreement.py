"""On the build machine: the same packages run on the CPU model of the GPU (tilec/runtime/cpu)
on the same inputs, compared with the GPU's outputs (gpu_outputs.py) element by element.

    python tests/gpu/cpu_agreement.py build/gpu-smoke GPU_OUTPUTS.pt [--json FILE]

Prints, per run, the largest difference between the GPU and the model relative to the largest
output, and the share of elements that are bit-identical; exit status 1 when any difference is
over the GPU suite's tolerance for the output type (tests/gpu/cases.py TOLERANCE).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]
from cases import TOLERANCE  # noqa: E402
from tilec.runtime import load  # noqa: E402

_TYPE = {torch.bfloat16: "bf16", torch.float16: "f16", torch.float32: "f32"}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("cases")
    parser.add_argument("outputs")
    parser.add_argument("--json")
    args = parser.parse_args()
    root, outputs = Path(args.cases), torch.load(args.outputs)
    manifest = json.loads((root / "manifest.json").read_text())
    rows, status = [], 0
    for name, case in manifest["cases"].items():
        if not case["package"].endswith(".tkp"):
            continue
        kernel = load(str(root / case["package"]), register_op=False).on("cpu")
        for run in case["runs"]:
            gpu = outputs.get(f"{name}__{run['id']}")
            if gpu is None:
                continue
            data = torch.load(root / run["data"])
            got = kernel(**{a["name"]: data["inputs"][a["name"]] for a in kernel.inputs},
                         sizes={p: run["shapes"][p] for p in kernel.params if p in run["shapes"]})
            got = got if isinstance(got, tuple) else (got,)
            for spec, cpu in zip(kernel.outputs, got):
                g, c = gpu[spec["name"]].float(), cpu.float()
                same = ((g == c) | (g.isnan() & c.isnan())).float().mean().item()
                kept = ~(g.isnan() | c.isnan())
                scale = max(g[kept].abs().max().item(), 1e-6) if kept.any() else 1.0
                worst = (g[kept] - c[kept]).abs().max().item() / scale if kept.any() else 0.0
                ok = worst <= TOLERANCE[_TYPE[cpu.dtype]] and torch.equal(g.isnan(), c.isnan())
                status |= not ok
                rows.append({"case": name, "run": run["id"], "output": spec["name"], "relative_difference": worst,
                             "bit_identical": same, "ok": ok})
                print(f"{name} {run['id']} {spec['name']}: {worst:.2e} of max |out|, {100 * same:.1f}% "
                      f"bit-identical{'' if ok else '  DIFFERS'}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return status


if __name__ == "__main__":
    sys.exit(main())
