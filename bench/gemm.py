"""GEMM benchmark on the GPU: tilec kernels vs torch.matmul (cuBLAS) and a Triton GEMM
(bench/triton_gemm.py), same run, same inputs.

    PYTHONPATH=. python bench/gemm.py --packages bench/out --out bench/out/gemm-results.json

Needs only torch and cuda-bindings (tilec.runtime imports no compiler). For each
size: correctness against torch on 5 seeds (max relative error of the output),
then the best of the packaged schedules and cuBLAS, each timed do_bench-style:
L2 flushed before every launch, CUDA events, median of the repetitions.
"""

import argparse
import datetime
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load  # noqa: E402
from tilec.runtime.measure import median_ms  # noqa: E402

SIZES = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
         (8192, 8192, 1024), (16384, 1024, 4096), (257, 129, 65)]


def bench(fn, reps: int = 30, warmup: int = 5) -> float:
    """Median milliseconds of fn(), with the L2 cache flushed before each call."""
    flush = torch.empty(512 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    for _ in range(warmup):
        fn()
    return median_ms(fn, reps, flush)


def _triton(a, b, ref, reps: int):
    """(ms, max rel error) of the Triton peer (bench/triton_gemm.py); (None, None) without triton."""
    try:
        from bench.triton_gemm import matmul
    except ImportError:
        return None, None
    error = max_rel_error(matmul(a, b), ref)  # also runs the autotuner, before the timing
    return bench(lambda: matmul(a, b), reps), error


def save_results(path: str, rows: list, **extra) -> None:
    """A results file: the GPU, the date, torch's version, ``extra`` fields and the rows."""
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "torch": torch.__version__, **extra, "results": rows}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as handle:
        json.dump(result, handle, indent=2)


def max_rel_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float(((out.float() - ref.float()).abs().max() / ref.float().abs().max().clamp_min(1e-6)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out")
    parser.add_argument("--out", default="bench/out/gemm-results.json")
    parser.add_argument("--reps", type=int, default=30)
    args = parser.parse_args()
    kernels = {path: load(path, register_op=False) for path in sorted(glob.glob(f"{args.packages}/gemm_*.tkp"))}
    rows = []
    for m, n, k in SIZES:
        row = {"M": m, "N": n, "K": k}
        errors, refused = {}, {}
        for seed in range(5):
            torch.manual_seed(seed)
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
            ref = (a.float() @ b.float())
            for path, kernel in kernels.items():
                if path in refused:
                    continue
                try:
                    errors[path] = max(errors.get(path, 0.0), max_rel_error(kernel(a, b), ref))
                except ValueError as err:  # a copy-engine kernel and rows of no whole 16-byte chunks
                    refused[path] = str(err)
        row["max_rel_error"] = errors
        row["refused"] = {kernels[p].manifest["schedule"]: why for p, why in refused.items()}
        flops = 2.0 * m * n * k
        timings = {path: bench(lambda kernel=kernel: kernel(a, b), args.reps) for path, kernel in kernels.items()
                   if path not in refused}
        if not timings:  # every packaged kernel refuses these inputs (copy-engine kernels, odd row lengths)
            print(f"{m}x{n}x{k}: every packaged kernel refuses these inputs", flush=True)
            rows.append(row)
            continue
        best = min(timings, key=timings.get)
        cublas = bench(lambda: torch.matmul(a, b), args.reps)
        triton_ms, triton_error = _triton(a, b, ref, args.reps)
        row.update({"triton_ms": triton_ms, "triton_tflops": flops / triton_ms / 1e9 if triton_ms else None,
                    "triton_max_rel_error": triton_error})
        row.update({
            "tilec_ms": timings[best], "tilec_tflops": flops / timings[best] / 1e9,
            "schedule": kernels[best].manifest["schedule"],
            "cublas_ms": cublas, "cublas_tflops": flops / cublas / 1e9,
            "all_schedules_ms": {kernels[p].manifest["schedule"]: t for p, t in timings.items()},
            "correct": all(e < 2e-2 for e in errors.values()),
        })
        row["ratio"] = row["tilec_tflops"] / row["cublas_tflops"]
        rows.append(row)
        triton_text = f"{row['triton_tflops']:.0f}" if triton_ms else "n/a"
        print(f"{m}x{n}x{k}: tilec {row['tilec_tflops']:.0f} TFLOP/s ({row['schedule']}), "
              f"cuBLAS {row['cublas_tflops']:.0f}, Triton {triton_text}, ratio {row['ratio']:.2f}, "
              f"max rel err {max(errors.values()):.2e}", flush=True)
    # the kernel as a torch custom op, under torch.compile
    op = load(sorted(kernels)[0]).op  # gemm_0: an sm_80-form kernel, which takes any row length
    a = torch.randn(300, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 136, device="cuda", dtype=torch.bfloat16)
    compiled = torch.compile(lambda x, y: op(x, y).float() * 2.0, fullgraph=True)
    compile_error = max_rel_error(compiled(a, b), (a.float() @ b.float()) * 2.0)
    print(f"torch.compile with the custom op: max rel err {compile_error:.2e}")
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "torch_compile_custom_op_max_rel_error": compile_error,
              "torch": torch.__version__, "dtype": "bf16", "results": rows}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
