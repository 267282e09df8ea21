"""Compile the training pair of attention written as PyTorch code (build machine): the forward
that saves the log-sum-exp and the backward, each a graph package, as ``tilec.compile`` builds
them for ``loss.backward()`` on CUDA (tilec/pytorch/training.py, Pair.on_cuda).

    python bench/build_training.py --out bench/out/training

Each case writes CASE_fwd.tkg, CASE_bwd.tkg and CASE.json (its shape and output names), which
bench/check_training.py runs as one autograd node (tilec.runtime.training.GradientPair).
"""

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import tilec  # noqa: E402
from tilec.pytorch.api import ir_location  # noqa: E402
from tilec.runtime import load  # noqa: E402

# (name, B, H, S, D): B·S = 8k tokens, 16 heads
CASES = [("attn_s1k_d64", 8, 16, 1024, 64), ("attn_s1k_d128", 8, 16, 1024, 128),
         ("attn_s4k_d128", 2, 16, 4096, 128)]


class Attention(torch.nn.Module):
    """softmax(Q·Kᵀ/√D)·V as a model writes it out."""

    def forward(self, q, k, v):
        s = q @ k.transpose(-1, -2) * (q.shape[-1] ** -0.5)
        return torch.softmax(s, dim=-1) @ v


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/training")
    parser.add_argument("--target", default="sm_90a")
    parser.add_argument("--only", help="comma-separated case names")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, b, h, s, d in CASES:
        if args.only and name not in args.only.split(","):
            continue
        example = [torch.zeros(b, h, s, d, dtype=torch.bfloat16) for _ in range(3)]
        graph = tilec.compile(Attention(), example, stage="oracle", strict=True, name=name)
        files = iter((f"{name}_fwd.tkg", f"{name}_bwd.tkg"))

        def written(_, key, build):
            path = os.path.join(args.out, next(files))
            build(path)
            return load(path, register_op=False)

        with graph.context, ir_location():
            pair = graph.pair().on_cuda({}, args.target, written, list(graph.graph.output_names))
        with open(os.path.join(args.out, f"{name}.json"), "w") as handle:
            json.dump({"B": b, "H": h, "S": s, "D": d, "outputs": pair.outputs, "inputs": pair.inputs}, handle)
        print(f"{name}: forward {len(pair.forward.kernels)} kernels, backward {len(pair.backward.kernels)}", flush=True)


if __name__ == "__main__":
    main()
