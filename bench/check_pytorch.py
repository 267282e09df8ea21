"""Kernels compiled from PyTorch code (bench/build_pytorch.py) on the GPU: correct against the
same torch code in f32, timed beside torch's own library call (SDPA's default backend,
cuBLAS + GELU), same run.

    PYTHONPATH=. python bench/check_pytorch.py --packages bench/out/pytorch --out bench/out/pytorch-results.json
"""

import argparse
import datetime
import json
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench  # noqa: E402
from bench.pytorch_cases import CASES, TOKENS, inputs_of  # noqa: E402
from tilec.runtime import load  # noqa: E402


def _as_taken(kernel, inputs) -> list:
    """The inputs as the package takes them (views): a graph's ta drops size-1 dims and merges
    leading dims every op treats alike ([B, T, C] as [B*T, C])."""
    kernels = kernel.kernels if hasattr(kernel, "steps") else [kernel]
    specs = {s["name"]: s["dims"] for k in kernels for s in k.inputs}
    names = kernel.inputs if hasattr(kernel, "steps") else [s["name"] for s in kernel.inputs]
    return [t.reshape(specs[n]) if n in specs else t for n, t in zip(names, inputs)]  # a copy's input: as it is


def _per_kernel(graph, inputs, reps) -> list:
    """Milliseconds of each kernel of a graph, on the tensors the graph passes it."""
    values = dict(zip(graph.inputs, inputs))
    times = []
    for k, (kernel, reads, writes) in enumerate(graph.steps):
        args = graph.step_inputs(k, values)
        out = kernel(*args)
        values.update(zip(writes, out if isinstance(out, tuple) else (out,)))
        times.append(bench(lambda: kernel(*args), reps))
    return times


def _over_baseline(path: str, inputs: list, kernel, taken: list, reps: int, rounds: int = 5) -> dict:
    """The speed of ``kernel`` over the baseline build at ``path``: the median of ``rounds``
    alternating rounds (a whole-run drift falls on both sides), with each round's ratio."""
    base = load(path, register_op=False)
    base_taken = _as_taken(base, inputs)
    ratios = [bench(lambda: base(*base_taken), reps) / bench(lambda: kernel(*taken), reps) for _ in range(rounds)]
    return {"over_baseline": statistics.median(ratios), "over_baseline_rounds": ratios}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/pytorch")
    parser.add_argument("--out", default="bench/out/pytorch-results.json")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--baseline", help="another build of the same cases (a folder of packages), timed in "
                        "alternating rounds with --packages: each row gets its speed-up over it")
    parser.add_argument("--only", help="comma-separated case names (default: every case)")
    args = parser.parse_args()
    rows = []
    for name, (fn, shapes, _, flops, peer) in CASES.items():
        if args.only and name not in args.only.split(","):
            continue
        kernel = load(os.path.join(args.packages, f"{name}.tkp"), register_op=False)
        torch.manual_seed(0)
        inputs = inputs_of(name, shapes)
        reference = fn(*(t.float() for t in inputs))
        taken = _as_taken(kernel, inputs)
        # relative to the largest output: bf16 outputs of a K=4096 GEMM reach ~300 (2 apart)
        got = kernel(*taken)
        pairs = zip(got, reference) if isinstance(reference, tuple) else [(got, reference)]
        error = max(float((g.float().reshape(r.shape) - r).abs().max() / r.abs().max()) for g, r in pairs)
        mine = bench(lambda: kernel(*taken), args.reps)
        theirs = bench(lambda: peer(*inputs), args.reps)
        eager = peer(*inputs)  # torch's own bf16 forward against the same f32 reference: the floor
        eager_pairs = zip(eager, reference) if isinstance(reference, tuple) else [(eager, reference)]
        eager_error = max(float((e.float().reshape(r.shape) - r).abs().max() / r.abs().max()) for e, r in eager_pairs)
        row = {"case": name, "shapes": shapes, "max_rel_error": error, "correct": error < 1e-2,
               "torch_bf16_rel_error": eager_error,
               "tilec_tflops": flops / mine / 1e9, "torch_tflops": flops / theirs / 1e9}
        row["ratio"] = row["tilec_tflops"] / row["torch_tflops"]
        if hasattr(kernel, "steps"):  # a graph of several kernels: beside Inductor too, and per kernel
            compiled = torch.compile(peer)
            row["inductor_tflops"] = flops / bench(lambda: compiled(*inputs), args.reps) / 1e9
            row["kernels_ms"] = _per_kernel(kernel, taken, args.reps)
        if name in TOKENS:  # a model's forward: tokens per second, each way
            for key in ("tilec", "torch", "inductor"):
                if f"{key}_tflops" in row:
                    row[f"{key}_tokens_per_s"] = TOKENS[name] * row[f"{key}_tflops"] * 1e12 / flops
        if args.baseline:
            row.update(_over_baseline(os.path.join(args.baseline, f"{name}.tkp"), inputs, kernel, taken, args.reps))
        rows.append(row)
        print(f"{name}: tilec {row['tilec_tflops']:.0f} TFLOP/s, torch {row['torch_tflops']:.0f} "
              f"({row['ratio']:.2f}x), max error {error:.1e} of the largest output")
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(), "rows": rows}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    sys.exit(0 if all(r["correct"] for r in rows) else 1)


if __name__ == "__main__":
    main()
