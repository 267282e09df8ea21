"""Correctness of every GEMM-family example on the GPU, at shapes that divide the tiles and
shapes that do not, against plain torch (run on the GPU machine).

    python bench/build_family.py --out bench/out/family      # build machine
    PYTHONPATH=. python bench/check_family.py --packages bench/out/family
"""

import argparse
import glob
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load  # noqa: E402

SHAPES = [{"M": 256, "N": 256, "K": 128, "Bt": 4}, {"M": 257, "N": 129, "K": 65, "Bt": 3},
          {"M": 1, "N": 1, "K": 1, "Bt": 1}, {"M": 1000, "N": 72, "K": 8, "Bt": 2}]

REFERENCES = {
    "gemm": lambda a, b: a.float() @ b.float(),
    "gemm_f32_nt": lambda a, b: a.double() @ b.double().t(),
    "batched_gemm": lambda a, b: torch.bmm(a.float(), b.float()),
    "matmul_bias_gelu": lambda x, w, bias: F.gelu(x.float() @ w.float() + bias.float()),
}


def inputs(manifest: dict, env: dict):
    def size(d):
        return env[d] if isinstance(d, str) else d
    return [torch.randn([size(d) for d in a["dims"]], device="cuda",
                        dtype={"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[a["dtype"]])
            for a in manifest["args"] if a["role"] == "input"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/family")
    args = parser.parse_args()
    failures = 0
    for path in sorted(glob.glob(f"{args.packages}/*.tkp")):
        kernel = load(path, register_op=False)
        name = kernel.manifest["kernel"]
        for env in SHAPES:
            torch.manual_seed(0)
            xs = inputs(kernel.manifest, env)
            out, ref = kernel(*xs).double(), REFERENCES[name](*xs).double()
            err = float((out - ref).abs().max() / ref.abs().max().clamp_min(1e-6))
            tol = 1e-5 if xs[0].dtype == torch.float32 else 2e-2  # f32 FMAs vs a few bf16 ulps
            ok = err < tol
            failures += not ok
            print(json.dumps({"kernel": name, "shape": env, "max_rel_err": err, "ok": ok}))
    print(f"{failures} failures")


if __name__ == "__main__":
    main()
