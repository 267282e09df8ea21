"""Write the kernels of a multi-kernel PyTorch case (bench/pytorch_cases.py) as ta IR files,
one per kernel, which `tilec tune` takes (a graph's kernel takes the fastest proved record of
its own ta IR).

    python bench/pieces.py mlp --out bench/out/pieces     # mlp_k0.mlir, mlp_k1.mlir
    tilec tune bench/out/pieces/mlp_k0.mlir --top 16 --target sm_90a --emit-candidates bench/out/tune/mlp_k0
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import tilec  # noqa: E402
from bench.pytorch_cases import CASES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--out", default="bench/out/pieces")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    fn, shapes, *_ = CASES[args.case]
    graph = tilec.compile(fn, [torch.zeros(s, dtype=torch.bfloat16) for s in shapes], stage="oracle",
                          strict=True, name=args.case)
    for k, piece in enumerate(graph.kernels().pieces):
        path = os.path.join(args.out, f"{args.case}_k{k}.mlir")
        with open(path, "w") as f:
            f.write(piece.text)
        print(f"{path}: {piece.form}, reads {', '.join(piece.inputs)}, writes {', '.join(piece.outputs)}")


if __name__ == "__main__":
    main()
