"""The packages of bench/trust_cases.py on the GPU against their torch references: values
within bf16 tolerance, and NaN exactly where the reference is NaN (run on the GPU machine).

    PYTHONPATH=. python bench/check_trust.py --packages bench/out/trust
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.trust_cases import CASES, reference  # noqa: E402
from tilec.runtime import load  # noqa: E402
from tilec.runtime.dims import evaluate_dim  # noqa: E402

_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/trust")
    args = parser.parse_args()
    torch.manual_seed(0)
    failures = 0
    for name, (_, _, runs) in CASES.items():
        kernel = load(os.path.join(args.packages, f"{name}.tkp"), register_op=False)
        m = kernel.manifest
        for sizes in runs:
            env = {**sizes, **m["fixed"]}
            xs = [torch.randn([evaluate_dim(d, env) for d in a["dims"]], device="cuda", dtype=_DTYPES[a["dtype"]])
                  for a in m["args"] if a["role"] == "input"]
            out = kernel(*xs).float()
            ref = reference(name, xs)
            nan_same = bool((out.isnan() == ref.isnan()).all())
            finite = ~ref.isnan()
            err = float((out[finite] - ref[finite]).abs().max()) if finite.any() else 0.0
            ok = nan_same and err < 3e-2 * max(1.0, float(ref[finite].abs().max()))
            failures += not ok
            print(f"{name} {sizes}: max abs err {err:.2e}, NaN rows {int(ref.isnan().any(-1).sum())} "
                  f"{'match' if nan_same else 'DIFFER'}: {'ok' if ok else 'FAIL'}")
    print(f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
