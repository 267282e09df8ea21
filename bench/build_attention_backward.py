"""Build attention's backward as graph packages (build machine: needs MLIR): the pair's backward
(ta-grad{saved=true}) of each example, its kernels D (a row program), dK/dV and dQ (the
recompute form) at each schedule, for sm_90a. Unverified (--no-verify's kind): the recompute
form's tile value equivalence has no checker yet (docs/verification.md); the GPU run compares
every output with torch's autograd.

    python bench/build_attention_backward.py --out bench/out/attention-backward
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from torch_mlir import ir  # noqa: E402

from bench.build_attention import specs_by_head_dim  # noqa: E402
from tilec import dialects  # noqa: E402
from tilec.build.plan import Kernels  # noqa: E402
from tilec.frontend import load_spec  # noqa: E402
from tilec.lowering.driver import run_passes  # noqa: E402

SCHEDULES = {64: ["bm=64 bn=64 warps=4 stages=2", "bm=64 bn=32 warps=4 stages=3", "bm=128 bn=64 warps=8 stages=2",
                  "bm=128 bn=32 warps=8 stages=2"],
             128: ["bm=64 bn=64 warps=4 stages=2", "bm=64 bn=32 warps=4 stages=2", "bm=128 bn=32 warps=8 stages=2",
                   "bm=64 bn=16 warps=4 stages=3"]}


def backward_module(spec: str):
    """The saved backward of ``spec`` (ta), alone in its module (in the active context)."""
    module = load_spec(spec)
    run_passes(module, ["ta-grad{saved=true replace=true}"])
    list(module.body.operations)[0].operation.erase()
    return module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/attention-backward")
    parser.add_argument("--examples", default="attention,causal_attention")
    parser.add_argument("--target", default="sm_90a")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for example, d, spec in specs_by_head_dim(args.examples.split(","), SCHEDULES, tmp):
            for n, schedule in enumerate(SCHEDULES[d]):
                path = os.path.join(args.out, f"{example}_d{d}_{n}.tkg")
                with dialects.context(), ir.Location.unknown():
                    kernels = Kernels.of(backward_module(spec), {"recompute": schedule}, shapes={"D": d})
                    kernels.package(path, f"{example}_bwd", (args.target,))
                print(path, schedule, [p.form for p in kernels.pieces], flush=True)


if __name__ == "__main__":
    main()
