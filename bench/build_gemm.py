"""Build the GEMM kernel packages the GPU benchmark runs (on the build machine: needs MLIR).

    python bench/build_gemm.py --out bench/out     # then carry bench/out to the GPU machine
    python bench/build_gemm.py --out bench/out/b --schedule "bm=128 ... persistent=true"   # one schedule
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.build.package import build  # noqa: E402

SCHEDULES = [
    "bm=128 bn=128 bk=32 warps=4 stages=4",
    "bm=128 bn=128 bk=32 warps=8 stages=4",
    "bm=128 bn=128 bk=32 warps=8 stages=5",
    "bm=128 bn=128 bk=64 warps=8 stages=3",
    "bm=128 bn=256 bk=32 warps=8 stages=4",
    "bm=256 bn=128 bk=32 warps=8 stages=4",
    "bm=128 bn=64 bk=32 warps=4 stages=5",
    "bm=64 bn=128 bk=64 warps=4 stages=4",
    # sm_90a: a producer warpgroup (copy engine, mbarriers) and 1-3 wgmma consumer warpgroups
    "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2",
    "bm=128 bn=128 bk=64 warps=8 stages=5 consumers=2",
    "bm=128 bn=192 bk=64 warps=8 stages=4 consumers=2",
    "bm=64 bn=256 bk=64 warps=4 stages=4 consumers=1",
    "bm=192 bn=128 bk=64 warps=12 stages=4 consumers=3",
    # persistent: as many CTAs as fit at once, each looping over output tiles
    "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true",
    "bm=128 bn=128 bk=64 warps=8 stages=5 consumers=2 persistent=true",
    "bm=128 bn=192 bk=64 warps=8 stages=4 consumers=2 persistent=true",
    "bm=64 bn=256 bk=64 warps=4 stages=4 consumers=1 persistent=true",
    # ping-pong: each consumer warpgroup owns whole tiles and takes the CTA's tiles in turn
    "bm=64 bn=256 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true",
    "bm=64 bn=192 bk=64 warps=8 stages=5 consumers=2 pingpong=true persistent=true",
    # the tile stored through shared memory by the copy engine, the consumers going on meanwhile
    "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 tma-store=true",
    "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true tma-store=true",
    "bm=128 bn=192 bk=64 warps=8 stages=4 consumers=2 persistent=true tma-store=true",
    "bm=64 bn=256 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true tma-store=true",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out")
    parser.add_argument("--spec", default="examples/gemm.ta")
    parser.add_argument("--schedule", action="append", help="build these schedules instead (repeatable; "
                        "gemm_0.tkp, gemm_1.tkp, ... in order, as bench/compare.py --by-name pairs them)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for n, schedule in enumerate(args.schedule or SCHEDULES):
        path = os.path.join(args.out, f"gemm_{n}.tkp")
        start = time.time()
        manifest = build(args.spec, path, schedule, ("sm_90a",), use_cache=False)
        kernel = manifest["kernels"]["sm_90a"]
        facts = kernel["ptxas"]
        print(f"{path}: {schedule}: {facts['registers']} regs, {facts['spill_stores']} B spilled, "
              f"{kernel['smem_bytes']} B smem ({time.time() - start:.1f} s)")


if __name__ == "__main__":
    main()
