"""Row programs on the GPU beside torch (eager), torch.compile (Inductor) and a device copy of
the same tensor, same run, same inputs: bf16 softmax, log-sum-exp, RMSNorm and layernorm, each
checked against torch in f32 first. Bandwidth counts one read and one write of the bf16 [N, C]
tensor (as peers/rowred_peers.py; log-sum-exp reads it and writes one value a row, and is counted
so). "default" is what `tilec compile` builds: the fixed-width
package where the width is one of FIXED_C (`--shape C=...`), else the column-block one (w4_bm8).

    PYTHONPATH=. python bench/rows.py --packages bench/out/rows --out bench/out/rows-results.json
"""

import argparse
import datetime
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.build_rows import FIXED_C, SCHEDULES, SPECS, WIDE, WIDE_C  # noqa: E402
from bench.gemm import bench  # noqa: E402
from tilec.runtime import load  # noqa: E402

SHAPES = [(32768, 4096), (8192, 8192), (65536, 1024), (4096, 1000), (65536, 768), (32768, 2048)]


def _peer(name: str):
    if name == "softmax":
        return lambda x: torch.softmax(x, dim=-1)
    if name == "logsumexp":
        return lambda x: torch.logsumexp(x, dim=-1)
    if name == "rmsnorm":
        return lambda x, w: F.rms_norm(x, (x.shape[-1],), w, eps=1e-6)
    return lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b, eps=1e-5)


def bench_args(packages: str, out: str):
    """--packages, --out and --reps of a benchmark beside the peers."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default=packages)
    parser.add_argument("--out", default=out)
    parser.add_argument("--reps", type=int, default=20)
    return parser.parse_args()


def load_schedules(packages: str, name: str, schedules: dict) -> dict:
    """The package of spec ``name`` at each schedule tag, loaded."""
    return {tag: load(os.path.join(packages, f"{name}-{tag}.tkp"), register_op=False) for tag in schedules}


def write_results(path: str, rows: list, command: str) -> None:
    """The rows of a run, with the GPU, the date and the command that made them, as JSON."""
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(), "command": command,
              "rows": rows}
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as handle:
        json.dump(result, handle, indent=1)


def time_against_peers(kernels: dict, peer, compiled, inputs: list, reference, reps: int) -> tuple:
    """({tag: (ms, max error relative to the largest reference value)}, eager ms, Inductor ms),
    every kernel and peer on the same ``inputs``."""
    times = {}
    for tag, kernel in kernels.items():
        out = kernel(*inputs)
        out = out[0] if isinstance(out, (tuple, list)) else out
        error = float((out.float() - reference).abs().max() / reference.abs().max())
        times[tag] = (bench(lambda: kernel(*inputs), reps), error)
    return times, bench(lambda: peer(*inputs), reps), bench(lambda: compiled(*inputs), reps)


def _kernels(packages: str, name: str, any_width: dict, c: int) -> tuple:
    """({tag: kernel}, {tag: label}, the default's tag) at row width ``c``."""
    kernels, labels = dict(any_width), dict(SCHEDULES)
    if c not in FIXED_C:
        return kernels, labels, "w4_bm8"
    fixed = load(os.path.join(packages, f"{name}-c{c}.tkp"), register_op=False)
    kernels["fixed"], labels["fixed"] = fixed, f"C fixed: {fixed.manifest['schedule']}"
    for tag, schedule in WIDE.items() if c in WIDE_C else ():
        kernels[tag] = load(os.path.join(packages, f"{name}-c{c}-{tag}.tkp"), register_op=False)
        labels[tag] = f"C fixed: {schedule} bn={c}"
    return kernels, labels, "fixed"


def main() -> None:
    args = bench_args("bench/out/rows", "bench/out/rows-results.json")
    rows = []
    for name in SPECS:
        peer = _peer(name)
        compiled = torch.compile(peer)
        any_width = load_schedules(args.packages, name, SCHEDULES)
        for n, c in SHAPES:
            kernels, labels, default = _kernels(args.packages, name, any_width, c)
            torch.manual_seed(0)
            x = torch.randn(n, c, device="cuda", dtype=torch.bfloat16)
            extra = [torch.randn(c, device="cuda", dtype=torch.bfloat16) for _ in range({"softmax": 0, "logsumexp": 0,
                                                                                        "rmsnorm": 1, "layernorm": 2}[name])]
            reference = peer(x.float(), *(t.float() for t in extra))
            gbytes = (n * c * 2 + n * 2 if name == "logsumexp" else 2 * n * c * 2) / 1e9  # what it moves
            times, eager, inductor = time_against_peers(kernels, peer, compiled, [x, *extra], reference, args.reps)
            copy_out = torch.empty_like(x)
            copy = bench(lambda: copy_out.copy_(x), args.reps)
            best = min(times, key=lambda t: times[t][0])
            row = {"kernel": name, "N": n, "C": c, "best_schedule": labels[best], "default_schedule": labels[default],
                   "max_rel_error": times[best][1], "correct": all(e < 2e-2 for _, e in times.values()),
                   "tilec_gbs": gbytes / times[best][0] * 1e3, "default_gbs": gbytes / times[default][0] * 1e3,
                   "eager_gbs": gbytes / eager * 1e3, "inductor_gbs": gbytes / inductor * 1e3,
                   "copy_gbs": 2 * n * c * 2 / 1e9 / copy * 1e3, "copy_ms": copy,  # a copy reads and writes
                   "per_schedule_gbs": {labels[t]: gbytes / ms * 1e3 for t, (ms, _) in times.items()},
                   "per_schedule_ms": {labels[t]: ms for t, (ms, _) in times.items()}, "gbytes": gbytes,
                   "errors": {labels[t]: e for t, (_, e) in times.items()}}
            rows.append(row)
            print(f"{name:10s} {n:6d}x{c:<5d} default {row['default_gbs']:6.0f} best {row['tilec_gbs']:6.0f} GB/s "
                  f"({labels[best]})  eager {row['eager_gbs']:6.0f}  inductor {row['inductor_gbs']:6.0f}  "
                  f"copy {row['copy_gbs']:6.0f}  err {row['max_rel_error']:.1e}  {'ok' if row['correct'] else 'WRONG'}",
                  flush=True)
    write_results(args.out, rows, "PYTHONPATH=. python bench/rows.py")


if __name__ == "__main__":
    main()
