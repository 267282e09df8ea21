"""Build the packages bench/prologue.py times (build machine): GEMMs whose operands a
prologue map computes (relu on x, a per-channel scale on W), a bf16 x f32 GEMM, and the plain
bf16 GEMM beside them, at two schedules each; every package verified when built.

    python bench/build_prologue.py --out bench/out/prologue
"""

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


if __name__ == "__main__":
    from bench.build_rows import build_all

    build_all(SPECS, SCHEDULES, "bench/out/prologue")
