"""Build the packages bench/prologue.py times (build machine): GEMMs whose operands a
prologue map computes (relu on x, a per-channel scale on W), a bf16 x f32 GEMM, and the plain
bf16 GEMM beside them, at two schedules each; every package verified when built.

    python bench/build_prologue.py --out bench/out/prologue
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

DEQUANT = """param T = 1024, C = 1024, N = 1024
input X[T, C] : bf16
input W[N, C] : bf16
input s[C] : bf16
output Y[T, N] : f32
Y[t, n] = sum[c](max(X[t, c], 0.0) * W[n, c] * s[c])
"""
MIXED = """param T = 1024, C = 1024, N = 1024
input X[T, C] : bf16
input W[N, C] : f32
output Y[T, N] : f32
Y[t, n] = sum[c](X[t, c] * W[n, c])
"""
PLAIN = """param T = 1024, C = 1024, N = 1024
input X[T, C] : bf16
input W[N, C] : bf16
output Y[T, N] : f32
Y[t, n] = sum[c](X[t, c] * W[n, c])
"""
SPECS = {"dequant": DEQUANT, "mixed": MIXED, "plain": PLAIN}
SCHEDULES = {"128x128": "bm=128 bn=128 bk=32 warps=8 stages=3", "64x64": "bm=64 bn=64 bk=32 warps=4 stages=3"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="bench/out/prologue")
    parser.add_argument("--target", default="sm_90a")
    args = parser.parse_args()
    from tilec.package import build  # here: bench/prologue.py reads SPECS on a machine without MLIR

    os.makedirs(args.out, exist_ok=True)
    for name, text in SPECS.items():
        spec = os.path.join(args.out, f"{name}.ta")
        with open(spec, "w") as handle:
            handle.write(text)
        for tag, schedule in SCHEDULES.items():
            path = os.path.join(args.out, f"{name}-{tag}.tkp")
            build(spec, path, schedule, (args.target,), use_cache=False, verify=True,
                  on_report=lambda report, p=path: print(f"{p}: {report.summary()}"))


if __name__ == "__main__":
    main()
