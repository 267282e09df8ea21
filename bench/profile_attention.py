"""Launch one attention package a few times on the GPU (for a profiler to attach to).

    PYTHONPATH=. python bench/profile_attention.py PACKAGE.tkp [--s 4096 --d 128 --causal]
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("package")
    parser.add_argument("--s", type=int, default=4096)
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--launches", type=int, default=3)
    args = parser.parse_args()
    kern = load(args.package, register_op=False)
    b, h = 32768 // args.s, 16
    q, k, v = (torch.randn(b, h, args.s, args.d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    for _ in range(args.launches):
        kern(q, k, v)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
