"""Build packages of every GEMM-family example for bench/check_family.py (build machine).

    python bench/build_family.py --out bench/out/family
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.build.package import build  # noqa: E402

EXAMPLES = ["gemm", "gemm_f32_nt", "batched_gemm", "matmul_bias_gelu"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/family")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in EXAMPLES:
        path = os.path.join(args.out, f"{name}.tkp")
        build(f"examples/{name}.ta", path, "bm=64 bn=64 bk=32 warps=4 stages=3", ("sm_90a",), use_cache=False)
        print(path)


if __name__ == "__main__":
    main()
