"""Launch one kernel package a few times on the GPU (for a profiler to attach to).

    PYTHONPATH=. python bench/profile_kernel.py attention PACKAGE.tkp [--s 4096 --d 128]
    PYTHONPATH=. python bench/profile_kernel.py gemm PACKAGE.tkp [--mnk 4096,4096,4096]
    PYTHONPATH=. python bench/profile_kernel.py matmul - [--mnk ...]   # torch.matmul (cuBLAS), the peer

With Nsight Compute, for example:
    ncu -k regex:^gemm --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \\
        python bench/profile_kernel.py gemm bench/out/gemm/gemm_8.tkp
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["attention", "gemm", "matmul"])
    parser.add_argument("package")
    parser.add_argument("--s", type=int, default=4096)
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--mnk", default="4096,4096,4096")
    parser.add_argument("--launches", type=int, default=3)
    args = parser.parse_args()
    kern = torch.matmul if args.kind == "matmul" else load(args.package, register_op=False)
    if args.kind == "attention":
        b, h = 32768 // args.s, 16
        inputs = [torch.randn(b, h, args.s, args.d, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
    else:
        m, n, k = (int(x) for x in args.mnk.split(","))
        inputs = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                  torch.randn(k, n, device="cuda", dtype=torch.bfloat16)]
    for _ in range(args.launches):
        kern(*inputs)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
