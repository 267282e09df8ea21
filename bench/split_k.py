"""Split-K on the GPU: GEMM packages with and without split_k against cuBLAS, same run, same inputs.

    python bench/build_gemm.py --out bench/out/splitk --schedule "..." ...   # on the build machine
    PYTHONPATH=. python bench/split_k.py --packages bench/out/splitk --out R.json   # on the GPU

For each shape: every package checked against an f32 product on two seeds (max relative error),
then each timed do_bench-style (L2 flushed before each launch, CUDA events, median), cuBLAS
before and after the packages (the peer's two readings in the run). The shapes are those whose
output tiles do not fill an H100/H200 (1024³, a long K) and an odd one.
"""

import argparse
import datetime
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench, max_rel_error  # noqa: E402
from tilec.runtime import load  # noqa: E402

SHAPES = [(1024, 1024, 1024), (1024, 1024, 4096), (1024, 1024, 8192), (512, 512, 8192), (2048, 2048, 2048),
          (3000, 5000, 2000), (4096, 4096, 4096)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/splitk")
    parser.add_argument("--out", default="bench/out/split-k.json")
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()
    kernels = {path: load(path, register_op=False) for path in sorted(glob.glob(f"{args.packages}/gemm_*.tkp"))}
    rows = []
    for m, n, k in SHAPES:
        row = {"M": m, "N": n, "K": k, "max_rel_error": {}, "ms": {}}
        for seed in range(2):
            torch.manual_seed(seed)
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
            ref = a.float() @ b.float()
            for path, kernel in kernels.items():
                label = kernel.manifest["schedule"]
                error = max(max_rel_error(kernel(a, b), ref) for _ in range(2))  # a second call: the workspace reused
                row["max_rel_error"][label] = max(row["max_rel_error"].get(label, 0.0), error)
        row["cublas_ms"] = [bench(lambda: torch.matmul(a, b), args.reps)]
        for path, kernel in kernels.items():
            row["ms"][kernel.manifest["schedule"]] = bench(lambda kernel=kernel: kernel(a, b), args.reps)
        row["cublas_ms"].append(bench(lambda: torch.matmul(a, b), args.reps))
        rows.append(row)
        best = min(row["ms"], key=row["ms"].get)
        print(f"{m}x{n}x{k}: cuBLAS {min(row['cublas_ms']):.4f} ms; best {row['ms'][best]:.4f} ms ({best}); "
              f"max rel err {max(row['max_rel_error'].values()):.2e}", flush=True)
        for label, ms in sorted(row["ms"].items(), key=lambda kv: kv[1]):
            print(f"    {ms:.4f} ms  {min(row['cublas_ms']) / ms:.2f}x cuBLAS  {label}", flush=True)
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "torch": torch.__version__, "dtype": "bf16", "results": rows}
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
