"""GEMMs with prologue maps on the GPU beside torch, same run, same inputs: relu(x) · (W·diag(s))ᵀ
and a bf16 x f32 GEMM (tilec: f32 FMAs, no tensor cores) against torch eager (the maps, then
cuBLAS), torch.compile (Inductor) and tilec's own plain bf16 GEMM (mma.sync) at the same sizes.
Each output is checked against torch in f32 first.

    PYTHONPATH=. python bench/prologue.py --packages bench/out/prologue --out bench/out/prologue-results.json
"""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.build_prologue import SCHEDULES, SPECS  # noqa: E402
from bench.rows import bench_args, load_schedules, time_against_peers, write_results  # noqa: E402

SIZES = [(1024, 1024, 1024), (4096, 4096, 4096)]


def _peer(name: str):
    if name == "dequant":
        return lambda x, w, s: torch.relu(x) @ (w * s).T
    return lambda x, w: x.to(w.dtype) @ w.T if name == "mixed" else x @ w.T


def _inputs(name: str, t: int, c: int, n: int):
    torch.manual_seed(0)
    x = torch.randn(t, c, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, c, device="cuda", dtype=torch.float32 if name == "mixed" else torch.bfloat16)
    return [x, w] + ([torch.rand(c, device="cuda", dtype=torch.bfloat16)] if name == "dequant" else [])


def main() -> None:
    args = bench_args("bench/out/prologue", "bench/out/prologue-results.json")
    rows = []
    for name in SPECS:
        peer = _peer(name)
        compiled = torch.compile(peer)
        kernels = load_schedules(args.packages, name, SCHEDULES)
        for t, c, n in SIZES:
            inputs = _inputs(name, t, c, n)
            reference = peer(*(v.float() for v in inputs))
            flops = 2 * t * c * n
            times, eager, inductor = time_against_peers(kernels, peer, compiled, inputs, reference, args.reps)
            best = min(times, key=lambda k: times[k][0])
            row = {"kernel": name, "T": t, "C": c, "N": n, "tilec_ms": times[best][0], "schedule": best,
                   "max_rel_error": times[best][1], "eager_ms": eager, "inductor_ms": inductor,
                   "tilec_tflops": flops / times[best][0] / 1e9, "eager_tflops": flops / eager / 1e9,
                   "inductor_tflops": flops / inductor / 1e9}
            rows.append(row)
            print(f"{name:8} {t}x{c}x{n}: tilec {row['tilec_tflops']:7.1f} TFLOP/s ({best}, err "
                  f"{row['max_rel_error']:.1e})  eager {row['eager_tflops']:7.1f}  inductor {row['inductor_tflops']:7.1f}")
    write_results(args.out, rows, "PYTHONPATH=. python bench/prologue.py")


if __name__ == "__main__":
    main()
