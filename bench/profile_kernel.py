"""Launch one kernel package a few times on the GPU (for a profiler to attach to).

    PYTHONPATH=. python bench/profile_kernel.py attention PACKAGE.tkp [--s 4096 --d 128]
    PYTHONPATH=. python bench/profile_kernel.py gemm PACKAGE.tkp [--mnk 4096,4096,4096]
    PYTHONPATH=. python bench/profile_kernel.py matmul - [--mnk ...]   # torch.matmul (cuBLAS), the peer
    PYTHONPATH=. python bench/profile_kernel.py cudnn - [--s ... --d ... --b 8 --h 32 --causal]   # SDPA's cuDNN
    PYTHONPATH=. python bench/profile_kernel.py graph bench/out/cur --case llama_block_4k   # a PyTorch case's graph
    PYTHONPATH=. python bench/profile_kernel.py inductor - --case llama_block_4k            # its torch.compile peer
    PYTHONPATH=. python bench/profile_kernel.py rows bench/out/rows/layernorm-c8192.tkp --nc 8192,8192

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


def _cudnn(causal: bool):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.functional import scaled_dot_product_attention

    def run(q, k, v):
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return scaled_dot_product_attention(q, k, v, is_causal=causal)
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["attention", "gemm", "matmul", "cudnn", "graph", "inductor", "rows"])
    parser.add_argument("package")
    parser.add_argument("--s", type=int, default=4096)
    parser.add_argument("--d", type=int, default=128)
    parser.add_argument("--b", type=int, help="attention batch (default: 32768 // S)")
    parser.add_argument("--h", type=int, default=16)
    parser.add_argument("--causal", action="store_true", help="the cuDNN peer: causal (a package says it itself)")
    parser.add_argument("--mnk", default="4096,4096,4096")
    parser.add_argument("--case", help="graph / inductor: a case of bench/pytorch_cases.py (graph: PACKAGE is "
                        "the folder of its build)")
    parser.add_argument("--nc", default="8192,8192", help="rows: N,C of X (its vectors along C as the package takes)")
    parser.add_argument("--launches", type=int, default=3)
    args = parser.parse_args()
    if args.kind in ("graph", "inductor"):
        _case(args)
        return
    kern = torch.matmul if args.kind == "matmul" else _cudnn(args.causal) if args.kind == "cudnn" else \
        load(args.package, register_op=False)
    if args.kind == "rows":
        n, c = (int(x) for x in args.nc.split(","))
        inputs = [torch.randn(n, c, device="cuda", dtype=torch.bfloat16)]
        inputs += [torch.randn(c, device="cuda", dtype=torch.bfloat16) for _ in kern.inputs[1:]]
    elif args.kind in ("attention", "cudnn"):
        b, h = args.b or 32768 // args.s, args.h
        inputs = [torch.randn(b, h, args.s, args.d, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
    else:
        m, n, k = (int(x) for x in args.mnk.split(","))
        inputs = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
                  torch.randn(k, n, device="cuda", dtype=torch.bfloat16)]
    for _ in range(args.launches):
        kern(*inputs)
    torch.cuda.synchronize()


def _case(args) -> None:
    """A PyTorch case's graph of tilec kernels, or its torch.compile peer, ``launches`` times
    (the peer compiled and called twice before, so that a profiler's launch-skip passes them)."""
    from bench.check_pytorch import _as_taken
    from bench.pytorch_cases import CASES, inputs_of

    fn, shapes, _, _, peer = CASES[args.case]
    torch.manual_seed(0)
    inputs = inputs_of(args.case, shapes)
    if args.kind == "graph":
        kernel = load(os.path.join(args.package, f"{args.case}.tkp"), register_op=False)
        taken = _as_taken(kernel, inputs)
        call = lambda: kernel(*taken)  # noqa: E731
    else:
        compiled = torch.compile(peer)
        call = lambda: compiled(*inputs)  # noqa: E731
    for _ in range(args.launches):
        call()
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
