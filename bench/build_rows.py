"""Build the row-program packages bench/rows.py times (build machine): softmax, log-sum-exp,
layernorm and RMSNorm in bf16, each at a few schedules (the kernels take any N and C at launch),
at fixed row widths with the default schedule (what `tilec compile --shape C=...` builds), and
at the wide widths with other splits of a row over warps.

    python bench/build_rows.py --out bench/out/rows
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

SOFTMAX = """param N = 64, C = 1000
input X[N, C] : bf16
output Y[N, C] : bf16
Y[n, c] = softmax[c](X[n, c])
"""
RMSNORM = """param N = 64, C = 1024
const eps = 1e-6
input X[N, C] : bf16
input w[C] : bf16
output Y[N, C] : bf16
let ms[n] = sum[c](X[n, c] * X[n, c]) / C
Y[n, c] = X[n, c] * rsqrt(ms[n] + eps) * w[c]
"""
LAYERNORM = """param N = 64, C = 768
const eps = 1e-5
input X[N, C] : bf16
input gamma[C] : bf16
input beta[C] : bf16
output Y[N, C] : bf16
let mean[n] = sum[c](X[n, c]) / C
let var[n] = sum[c]((X[n, c] - mean[n]) * (X[n, c] - mean[n])) / C
Y[n, c] = (X[n, c] - mean[n]) * rsqrt(var[n] + eps) * gamma[c] + beta[c]
"""
LOGSUMEXP = """param N = 64, C = 1000
input X[N, C] : bf16
output L[N] : bf16
L[n] = logsumexp[c](X[n, c])
"""
SPECS = {"softmax": SOFTMAX, "rmsnorm": RMSNORM, "layernorm": LAYERNORM, "logsumexp": LOGSUMEXP}
SCHEDULES = {"w4_bm8": "bm=8 bn=256 warps=4", "w8_bm8": "bm=8 bn=256 warps=8", "w4_bm4": "bm=4 bn=256 warps=4",
             "w2_bm2": "bm=2 bn=256 warps=2"}  # w2_bm2: the cost model's pick at a free width
# row widths also built fixed, at the default schedule: one column block holds the row (read once)
FIXED_C = (768, 1000, 1024, 2048, 4096, 8192)
# at the wide widths, other ways to share a row among warps than the default's (bn = C)
WIDE = {"bm1_w4": "bm=1 warps=4", "bm1_w8": "bm=1 warps=8", "bm1_w16": "bm=1 warps=16", "bm2_w8": "bm=2 warps=8"}
WIDE_C = (4096, 8192)


def build_all(specs: dict, schedules: dict, default_out: str, fixed: tuple = (), wide: tuple = ()) -> None:
    """Write each spec beside its packages and build it at every schedule, at each row width
    of ``fixed`` with that width fixed (its default schedule), and at each of ``wide`` at every
    WIDE split, verified (``--out``, ``--target`` from the command line)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=default_out)
    parser.add_argument("--target", default="sm_90a")
    args = parser.parse_args()
    from tilec.build.package import build  # here: the bench scripts read the specs on a machine without MLIR

    os.makedirs(args.out, exist_ok=True)
    for name, text in specs.items():
        spec = os.path.join(args.out, f"{name}.ta")
        with open(spec, "w") as handle:
            handle.write(text)
        for tag, schedule in schedules.items():
            path = os.path.join(args.out, f"{name}-{tag}.tkp")
            build(spec, path, schedule, (args.target,), use_cache=False, verify=True,
                  on_report=lambda report, p=path: print(f"{p}: {report.summary()}"))
        for c in fixed:
            path = os.path.join(args.out, f"{name}-c{c}.tkp")
            build(spec, path, "", (args.target,), use_cache=False, verify=True, shapes={"C": c},
                  on_report=lambda report, p=path: print(f"{p}: {report.summary()}"))
        for c in wide:
            for tag, schedule in WIDE.items():
                path = os.path.join(args.out, f"{name}-c{c}-{tag}.tkp")
                build(spec, path, f"{schedule} bn={c}", (args.target,), use_cache=False,
                      verify=True, shapes={"C": c}, on_report=lambda report, p=path: print(f"{p}: {report.summary()}"))


if __name__ == "__main__":
    build_all(SPECS, SCHEDULES, "bench/out/rows", FIXED_C, WIDE_C)
