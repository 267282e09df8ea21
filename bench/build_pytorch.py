"""Compile the PyTorch cases of bench/pytorch_cases.py into kernel packages (build machine).

    python bench/build_pytorch.py --out bench/out/pytorch [--only CASES] [--set rows=bm=32,bn=128,warps=2]
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import tilec  # noqa: E402
from bench.pytorch_cases import CASES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/pytorch")
    parser.add_argument("--only", help="comma-separated case names (default: every case)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=SCHEDULE",
                        help="the schedule of a kernel form or kernel of a graph case, over the case's own "
                             "(an A/B: --set rows=bm=32,bn=128,warps=2)")
    args = parser.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    os.makedirs(args.out, exist_ok=True)
    for name, (fn, shapes, schedule, _, _) in CASES.items():
        if args.only and name not in args.only.split(","):
            continue
        if overrides:
            schedule = {**(schedule if isinstance(schedule, dict) else {"*": schedule}), **overrides}
        example = [torch.zeros(s, dtype=torch.bfloat16) for s in shapes]
        graph = tilec.compile(fn, example, stage="oracle", strict=True, name=name)
        path = os.path.join(args.out, f"{name}.tkp")
        manifest = graph.package(path, schedule, ("sm_90a",))
        # a graph package: one package manifest per kernel, each with its kernel for sm_90a
        for kernel in [m["kernels"]["sm_90a"] for m in manifest.get("packages", [manifest])]:
            facts = kernel["ptxas"]
            print(f"{path}: {kernel['kernel']} {kernel['schedule']}: {facts['registers']} regs, "
                  f"{facts['spill_stores']} B spilled")


if __name__ == "__main__":
    main()
