"""On the GPU machine: the outputs of every single-kernel package of a built case folder, on
its stored inputs, saved for comparison with the CPU model of the GPU (cpu_agreement.py).

    python tests/gpu/gpu_outputs.py build/gpu-smoke $OUT/outputs.pt

One file ("case__run" -> {output: tensor}), so that it comes back from the GPU machine whole.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tilec.runtime import load  # noqa: E402


def main(cases: str, out: str) -> None:
    root, saved = Path(cases), {}
    manifest = json.loads((root / "manifest.json").read_text())
    for name, case in manifest["cases"].items():
        if not case["package"].endswith(".tkp"):
            continue  # a graph package: its kernels are cases of their own forms
        kernel = load(str(root / case["package"]), register_op=False)
        for run in case["runs"]:
            data = torch.load(root / run["data"])
            got = kernel(**{a["name"]: data["inputs"][a["name"]].cuda() for a in kernel.inputs},
                         sizes={p: run["shapes"][p] for p in kernel.params if p in run["shapes"]})
            got = got if isinstance(got, tuple) else (got,)
            saved[f"{name}__{run['id']}"] = {a["name"]: g.cpu() for a, g in zip(kernel.outputs, got)}
            print(name, run["id"], flush=True)
    torch.save(saved, out)


if __name__ == "__main__":
    main(*sys.argv[1:3])
