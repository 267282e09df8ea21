"""A training step of attention on the GPU: tilec's forward and backward kernels (the pair
bench/build_training.py compiled, run as one autograd node) against torch eager, torch.compile
of the same module and SDPA (flash and cuDNN), forward + backward, same inputs, same run. Every
tilec gradient is compared with the float32 autograd of the same math.

    PYTHONPATH=. python bench/check_training.py --packages bench/out/training --out bench/out/training.json
"""

import argparse
import glob
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench, save_results  # noqa: E402
from tilec.runtime import load  # noqa: E402
from tilec.runtime.training import GradientPair  # noqa: E402


def attention(q, k, v):
    s = q @ k.transpose(-1, -2) * (q.shape[-1] ** -0.5)
    return torch.softmax(s, dim=-1) @ v


def _step(fn, q, k, v, do):
    """One forward + backward of ``fn`` from fresh leaves: the gradients of q, k, v."""
    qs, ks, vs = (x.detach().requires_grad_() for x in (q, k, v))
    out = fn(qs, ks, vs)
    return torch.autograd.grad(out, (qs, ks, vs), do)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/training")
    parser.add_argument("--out", default="bench/out/training.json")
    parser.add_argument("--reps", type=int, default=10)
    args = parser.parse_args()
    rows = []
    compiled = torch.compile(attention)
    for spec in sorted(glob.glob(f"{args.packages}/*.json")):
        case = json.load(open(spec))
        name = os.path.basename(spec)[:-5]
        pair = GradientPair(load(f"{args.packages}/{name}_fwd.tkg"), load(f"{args.packages}/{name}_bwd.tkg"),
                            case["outputs"])
        b, h, s, d = case["B"], case["H"], case["S"], case["D"]
        torch.manual_seed(0)
        q, k, v, do = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(4))
        ref = _step(attention, q.float(), k.float(), v.float(), do.float())
        got = _step(pair, q, k, v, do)
        errors = [float((g.float() - r).abs().max() / r.abs().max()) for g, r in zip(got, ref)]
        flops = 3.5 * 4.0 * b * h * s * s * d  # forward 4 b h s^2 d, backward 2.5x it
        times = {"tilec": bench(lambda: _step(pair, q, k, v, do), args.reps),
                 "eager": bench(lambda: _step(attention, q, k, v, do), args.reps),
                 "torch.compile": bench(lambda: _step(compiled, q, k, v, do), args.reps)}
        for label, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)):
            with sdpa_kernel(backend):
                times[label] = bench(lambda: _step(F.scaled_dot_product_attention, q, k, v, do), args.reps)
        row = {"case": name, "B": b, "H": h, "S": s, "D": d, "max_rel_error": max(errors),
               **{f"{label}_ms": t for label, t in times.items()},
               **{f"{label}_tflops": flops / t / 1e9 for label, t in times.items()}}
        rows.append(row)
        print(f"{name}: " + ", ".join(f"{label} {flops / t / 1e9:.0f} TFLOP/s" for label, t in times.items())
              + f"; max rel err {max(errors):.1e}", flush=True)
    save_results(args.out, rows)


if __name__ == "__main__":
    main()
