"""A/B timing of two builds of the same kernels (on the GPU host; no MLIR).

    PYTHONPATH=. python bench/compare.py attention bench/out/attention-base bench/out/attention --out ab.json

Runs each schedule present in both folders, at each shape, alternating the two builds in
rounds (each round: both timed as bench/gemm.py times one kernel, L2 flushed, median of
``--reps``), and reports the median of the per-round B/A speed ratios with their spread (the
"tflops" fields are GB/s for a row program: ``unit``), and each build's largest difference
from torch's result at that shape (torch's ops on the same inputs, in float32 but attention).
The GPU's clock drifts by more than the differences worth knowing between two whole
benchmark runs; alternating within one run and taking the median across rounds does not
let that drift fall on one side.
"""

import argparse
import datetime
import glob
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from gemm import bench  # noqa: E402

from tilec.runtime import load  # noqa: E402

SHAPES = {
    # the last two: an MLP's layers at 8192 tokens (the first reduces over a short K = 1024)
    "gemm": [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048), (8192, 4096, 1024), (8192, 1024, 4096)],
    "attention": [(4096, 64), (4096, 128), (16384, 128)],   # (S, D) at B * H = 16 * 16 * 4096 / S
    # (N, C): bench/rows.py's shapes; a package built for one C (layernorm-c768) runs at that C alone
    "layernorm": [(32768, 4096), (8192, 8192), (65536, 1024), (4096, 1000), (65536, 768), (32768, 2048)],
}
UNITS = {"gemm": "TFLOP/s", "attention": "TFLOP/s", "layernorm": "GB/s"}


def _inputs(kind: str, shape, causal: bool):
    """(inputs, work): the FLOPs (a GEMM, attention) or bytes read and written (a row program)
    that one call does, so that work / ms / 1e9 is TFLOP/s or GB/s."""
    torch.manual_seed(0)
    if kind == "gemm":
        m, n, k = shape
        return [torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                torch.randn(k, n, device="cuda", dtype=torch.bfloat16)], 2.0 * m * n * k
    if kind == "layernorm":
        n, c = shape
        return [torch.randn(n, c, device="cuda", dtype=torch.bfloat16),
                *(torch.randn(c, device="cuda", dtype=torch.bfloat16) for _ in range(2))], 2 * n * c * 2 * 1e3
    s, d = shape
    bh = 16 * 16 * 4096 // s
    q, k, v = (torch.randn(bh // 16, 16, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    return [q, k, v], 4.0 * bh * s * s * d * (0.5 if causal else 1.0)


def _reference(kind: str, inputs: list, causal: bool) -> torch.Tensor:
    """What a package of ``kind`` computes from ``inputs``, by torch's own ops (float32 but attention's)."""
    if kind == "gemm":
        return inputs[0].float() @ inputs[1].float()
    if kind == "layernorm":
        x, g, b = (t.float() for t in inputs)
        return F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5)
    # attention at bf16 (a fused SDPA backend): float32's would hold the S x S scores at S = 16k
    return F.scaled_dot_product_attention(*inputs, is_causal=causal).float()


def _error(kernel, inputs: list, reference: torch.Tensor) -> float:
    """The largest absolute difference of ``kernel``'s output from ``reference``."""
    out = kernel(*inputs)
    out = out[0] if isinstance(out, (tuple, list)) else out
    return (out.float() - reference).abs().max().item()


def _runs_at(kind: str, name: str, shape) -> bool:
    """Does package ``name`` run at ``shape`` (its head dim; its fixed row width)?"""
    if kind == "attention":
        return f"_d{shape[1]}_" in name
    if kind == "layernorm" and "-c" in name:
        return name.endswith(f"-c{shape[1]}.tkp")
    return True


def _pairs(kind: str, a_dir: str, b_dir: str, by_name: bool = False) -> dict:
    """(file name -> (A kernel, B kernel)) for the packages both folders hold, same schedule (or,
    ``by_name``, whatever their schedules: an A/B of a schedule option)."""
    pairs = {}
    for path in sorted(glob.glob(f"{b_dir}/*.tkp")):
        name = os.path.basename(path)
        other = os.path.join(a_dir, name)
        if not os.path.exists(other) or not (name.startswith(kind) or name.startswith("causal_" + kind)):
            continue
        a, b = load(other, register_op=False), load(path, register_op=False)
        if by_name or a.manifest["schedule"] == b.manifest["schedule"]:
            pairs[name] = (a, b)
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=sorted(SHAPES))
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--out", default="bench/out/compare.json")
    parser.add_argument("--shape", action="append", metavar="MxNxK",
                        help="time these shapes instead of the kind's own (repeatable): MxNxK for a GEMM, "
                             "SxD for attention (at B * H = 16 * 16 * 4096 / S)")
    parser.add_argument("--by-name", action="store_true",
                        help="pair packages by file name even when their schedules differ")
    args = parser.parse_args()
    rows = []
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shape] if args.shape else SHAPES[args.kind]
    pairs = _pairs(args.kind, args.a, args.b, args.by_name)
    if not pairs:
        sys.exit(f"no {args.kind} package of one name and schedule is in both {args.a} and {args.b} "
                 f"(an A/B of a schedule option pairs by name: --by-name)")
    for name, (a, b) in pairs.items():
        for shape in shapes:
            if not _runs_at(args.kind, name, shape):
                continue
            inputs, flops = _inputs(args.kind, shape, name.startswith("causal"))
            reference = _reference(args.kind, inputs, name.startswith("causal"))
            errors = {"a": _error(a, inputs, reference), "b": _error(b, inputs, reference)}
            del reference
            ratios, speeds = [], {"a": [], "b": []}
            for _ in range(args.rounds):
                ta = bench(lambda: a(*inputs), args.reps)
                tb = bench(lambda: b(*inputs), args.reps)
                ratios.append(ta / tb)
                speeds["a"].append(flops / ta / 1e9)
                speeds["b"].append(flops / tb / 1e9)
            row = {"package": name, "schedule": b.manifest["schedule"], "shape": list(shape),
                   "a_schedule": a.manifest["schedule"],
                   "a_tflops": statistics.median(speeds["a"]), "b_tflops": statistics.median(speeds["b"]),
                   "b_over_a": statistics.median(ratios), "b_over_a_min": min(ratios), "b_over_a_max": max(ratios),
                   "a_max_abs_error": errors["a"], "b_max_abs_error": errors["b"]}
            rows.append(row)
            print(f"{name} {shape}: A {row['a_tflops']:.0f}, B {row['b_tflops']:.0f} {UNITS[args.kind]}, B/A "
                  f"{row['b_over_a']:.3f} (rounds {row['b_over_a_min']:.3f}-{row['b_over_a_max']:.3f}); max abs error against "
                  f"torch A {errors['a']:.3g}, B {errors['b']:.3g}", flush=True)
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(), "a": args.a,
              "unit": UNITS[args.kind],
              "b": args.b, "rounds": args.rounds, "reps": args.reps, "results": rows}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
