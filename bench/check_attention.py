"""Attention variants on the GPU against torch: GQA, additive bias, Sq != Sk, head dims
64/96/128, odd lengths (run on the GPU machine; packages from bench/build_attention_variants.py).

    PYTHONPATH=. python bench/check_attention.py --packages bench/out/variants
"""

import argparse
import glob
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load  # noqa: E402


def reference(name, xs, causal):
    q, k, v = (t.float() for t in xs[:3])
    groups = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(groups, 1), v.repeat_interleave(groups, 1)
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if len(xs) == 4:
        s = s + xs[3].float()
    if causal:
        s = s.masked_fill(torch.ones(s.shape[-2:], dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ v


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/variants")
    args = parser.parse_args()
    failures = 0
    for path in sorted(glob.glob(f"{args.packages}/*.tkp")):
        kernel = load(path, register_op=False)
        m = kernel.manifest
        d = m["fixed"]["D"]
        for s, t in ((1, 1), (77, 77), (130, 333), (512, 512)):
            env = {"B": 2, "H": 8, "S": s, "T": t if "causal" not in path else s, "D": d}
            xs = []
            for a in m["args"]:
                if a["role"] == "input":
                    shape = [env[x] if isinstance(x, str) else (env[x[1]] // x[2] if isinstance(x, list) else x)
                             for x in a["dims"]]
                    dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[a["dtype"]]
                    xs.append(torch.randn(shape, device="cuda", dtype=dtype))
            out = kernel(*xs).float()
            err = float((out - reference(m["kernel"], xs, "causal" in path)).abs().max())
            ok = err < 3e-2
            failures += not ok
            print(f"{os.path.basename(path)} S={s} T={env['T']}: max abs err {err:.1e} {'ok' if ok else 'FAIL'}")
    print(f"{failures} failures")


if __name__ == "__main__":
    main()
