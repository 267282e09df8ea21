"""One package for every sequence length: Llama's block (bench/pytorch_cases.py) compiled with a
dynamic T at T = 1024, run on the GPU at other lengths (some that divide no tile) against the same
code in f32, timed beside eager, Inductor and the static 1k package (bench/build_pytorch.py),
same run.

    python bench/dynamic_lengths.py build --out bench/out/dynamic         # build machine (MLIR)
    PYTHONPATH=. python bench/dynamic_lengths.py run --packages bench/out/dynamic \\
        --static bench/out/final --out bench/out/dynamic-results.json     # on the GPU
"""

import argparse
import datetime
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.pytorch_cases import CASES, _llama_flops, _llama_shapes, inputs_of, llama_block  # noqa: E402

CASE = "llama_block_1k"  # its schedules, and its inputs' scale (weights, RoPE tables)
LENGTHS = (1024, 1000, 1536, 2048, 4096)


def build(out: str) -> None:
    import tilec
    from torch.export import Dim

    _, shapes, schedule, _, _ = CASES[CASE]
    example = [torch.zeros(s, dtype=torch.bfloat16) for s in shapes]
    t = Dim("T", min=2, max=8192)
    dynamic = [{1: t}, {0: t}, {0: t}] + [None] * (len(shapes) - 3)  # x, cos, sin; the weights are static
    graph = tilec.compile(llama_block, example, stage="oracle", strict=True, name="llama_block_dyn",
                          dynamic_shapes=dynamic)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "llama_block_dyn.tkp")
    manifest = graph.package(path, schedule, ("sm_90a",))
    for kernel in [m["kernels"]["sm_90a"] for m in manifest["packages"]]:
        facts = kernel["ptxas"]
        print(f"{path}: {kernel['kernel']} {kernel['schedule']}: {facts['registers']} regs, "
              f"{facts['spill_stores']} B spilled")


def run(packages: str, static: str | None, out: str, reps: int) -> None:
    from bench.gemm import bench
    from tilec.runtime import load

    dynamic = load(os.path.join(packages, "llama_block_dyn.tkp"), register_op=False)
    fixed = load(os.path.join(static, f"{CASE}.tkp"), register_op=False) if static else None
    compiled = torch.compile(llama_block, dynamic=True)
    rows = []
    for t in LENGTHS:
        torch.manual_seed(0)
        shapes = _llama_shapes(8, t)
        inputs = inputs_of(CASE, shapes)  # the 1k case's scales, at this length
        reference = llama_block(*(x.float() for x in inputs))
        got = dynamic(*inputs)
        error = float((got.float().reshape(reference.shape) - reference).abs().max() / reference.abs().max())
        eager_error = float((llama_block(*inputs).float() - reference).abs().max() / reference.abs().max())
        flops = _llama_flops(8, t)
        row = {"T": t, "max_rel_error": error, "torch_bf16_rel_error": eager_error, "correct": error < 1e-2,
               "tilec_ms": bench(lambda: dynamic(*inputs), reps), "eager_ms": bench(lambda: llama_block(*inputs), reps),
               "inductor_dynamic_ms": bench(lambda: compiled(*inputs), reps)}
        if fixed is not None and t == 1024:
            row["tilec_static_ms"] = bench(lambda: fixed(*inputs), reps)
        for key in [k for k in row if k.endswith("_ms")]:
            row[key.replace("_ms", "_tokens_per_s")] = 8 * t / row[key] * 1e3
        row["tilec_tflops"] = flops / row["tilec_ms"] / 1e9
        rows.append(row)
        print(json.dumps(row))
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(), "rows": rows}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    sys.exit(0 if all(r["correct"] for r in rows) else 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("build", "run"))
    parser.add_argument("--out", default="bench/out/dynamic")
    parser.add_argument("--packages", default="bench/out/dynamic")
    parser.add_argument("--static", help="the folder of bench/build_pytorch.py's packages (llama_block_1k)")
    parser.add_argument("--reps", type=int, default=20)
    args = parser.parse_args()
    if args.mode == "build":
        build(args.out)
    else:
        run(args.packages, args.static, args.out, args.reps)


if __name__ == "__main__":
    main()
