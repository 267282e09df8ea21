"""Build the attention kernel packages the GPU benchmark runs (build machine: needs MLIR).

    python bench/build_attention.py --out bench/out/attention
"""

import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.diagnostics import TilecError  # noqa: E402
from tilec.build.package import build  # noqa: E402

SCHEDULES = {64: ["bm=64 bn=64 warps=4 stages=3", "bm=128 bn=64 warps=8 stages=3", "bm=128 bn=128 warps=8 stages=2"],
             128: ["bm=64 bn=64 warps=4 stages=3", "bm=128 bn=64 warps=8 stages=2", "bm=128 bn=32 warps=8 stages=3"]}
# the warp-specialised kernels (sm_90a: copy engine, wgmma); [B, S, H, D] views stay on the form above;
# the last of each, the key loop rotated (a stage is released one block later: three stages)
OVERLAP = "bm=128 bn=128 warps=8 stages=3 consumers=2 softmax-overlap=true"
# one consumer warpgroup, two CTAs an SM (short sequences: one CTA's prologue and epilogue under the other's work)
SHARED = {64: ["bm=64 bn=128 warps=4 stages=3 consumers=1 softmax-overlap=true occupancy=2",
               "bm=64 bn=64 warps=4 stages=4 consumers=1 softmax-overlap=true occupancy=2"],
          128: ["bm=64 bn=64 warps=4 stages=3 consumers=1 softmax-overlap=true occupancy=2"]}
HOPPER = {64: ["bm=128 bn=128 warps=8 stages=3 consumers=2", "bm=128 bn=128 warps=8 stages=3 consumers=2 pingpong=true",
               "bm=192 bn=128 warps=12 stages=2 consumers=3", "bm=192 bn=128 warps=12 stages=3 consumers=3",
               "bm=128 bn=176 warps=8 stages=2 consumers=2", "bm=192 bn=96 warps=12 stages=3 consumers=3",
               OVERLAP],
          128: ["bm=128 bn=128 warps=8 stages=2 consumers=2", "bm=128 bn=128 warps=8 stages=2 consumers=2 pingpong=true",
                "bm=128 bn=176 warps=8 stages=2 consumers=2", "bm=128 bn=192 warps=8 stages=2 consumers=2",
                "bm=192 bn=96 warps=12 stages=2 consumers=3", "bm=128 bn=96 warps=8 stages=3 consumers=2",
                OVERLAP]}


def specs_by_head_dim(examples: list, dims, tmp: str):
    """(example, head dim, the path of its spec at that head dim) for each example and each of
    ``dims``, written under ``tmp``: the head dim sizes the register tiles, so each is a build."""
    for example in examples:
        text = open(f"examples/{example}.ta").read()
        for d in dims:
            spec = os.path.join(tmp, f"{example}.ta")
            with open(spec, "w") as handle:
                handle.write(re.sub(r"D = \d+", f"D = {d}", text))
            yield example, d, spec


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/attention")
    parser.add_argument("--tma-store", action="store_true", help="the warp-specialised kernels store their "
                        "output tile with the copy engine (tma-store=true; an A/B against a build without)")
    parser.add_argument("--heavy-first", action="store_true", help="causal kernels launched heaviest query blocks "
                        "first (heavy-first=true; an A/B against a build without)")
    parser.add_argument("--examples", default="attention,causal_attention,einsum_attention",
                        help="comma-separated specs of examples/ to build (default: all three)")
    args = parser.parse_args()
    store = " tma-store=true" if args.tma_store else ""
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for example, d, spec in specs_by_head_dim(args.examples.split(","), SCHEDULES, tmp):
            schedules = SCHEDULES[d]
            hopper = HOPPER[d] if example != "einsum_attention" else HOPPER[d][:1] + HOPPER[d][2:3] + HOPPER[d][-1:]
            hopper = [h + store for h in hopper + (SHARED[d] if example != "einsum_attention" else [])]
            for n, schedule in enumerate(schedules + hopper):
                if args.heavy_first and example == "causal_attention":
                    schedule += " heavy-first=true"
                path = os.path.join(args.out, f"{example}_d{d}_{n}.tkp")
                try:
                    manifest = build(spec, path, schedule, ("sm_90a",), use_cache=False, shapes={"D": d})
                except TilecError as err:
                    if not store:
                        raise
                    print(f"{path}: {schedule}: not built ({err})")  # the staging does not fit beside it
                    continue
                kernel = manifest["kernels"]["sm_90a"]
                facts = kernel["ptxas"]
                print(f"{path}: {schedule}: {facts['registers']} regs, {facts['spill_stores']} B spilled, "
                      f"{kernel['smem_bytes']} B smem")


if __name__ == "__main__":
    main()
