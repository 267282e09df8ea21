"""Graph packages launched with programmatic dependent launch and without, same packages, same
run: the median of alternated rounds (L2 flushed before each call, the GPU kept busy while the
host launches), and the host's time a call with each. Needs packages built with the wait at
entry (their manifests say ``grid_dependency``); TILEC_DEPENDENT_LAUNCH=0 is the plain side.

    PYTHONPATH=. python bench/launch_ab.py --packages bench/out/pytorch --only llama_block_1k --out ab.json
"""

import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import tilec.runtime.measure as measure  # noqa: E402
from bench.check_pytorch import _as_taken  # noqa: E402
from bench.pytorch_cases import CASES, inputs_of  # noqa: E402
from tilec.runtime import load  # noqa: E402


def _side(kernel, taken, value: str):
    def call():
        os.environ["TILEC_DEPENDENT_LAUNCH"] = value
        kernel(*taken)
    return call


def _host_ms(fn, calls: int = 50) -> float:
    times = []
    for _ in range(calls):
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/pytorch")
    parser.add_argument("--only", required=True, help="comma-separated case names")
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--busy-cycles", type=int, default=measure.BUSY_CYCLES,
                        help="GPU spin ahead of each timed call (more hides more of the host's launch time)")
    parser.add_argument("--out", default="bench/out/launch-ab.json")
    args = parser.parse_args()
    measure.BUSY_CYCLES = args.busy_cycles
    flush = torch.empty(512 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    rows = []
    for name in args.only.split(","):
        _, shapes, *_ = CASES[name]
        torch.manual_seed(0)
        kernel = load(os.path.join(args.packages, f"{name}.tkp"), register_op=False)
        taken = _as_taken(kernel, inputs_of(name, shapes))
        dependent, plain = _side(kernel, taken, "1"), _side(kernel, taken, "0")
        for _ in range(3):
            dependent(), plain()
        rounds = [measure.interleaved_ms([dependent, plain], args.reps, flush) for _ in range(args.rounds)]
        ratios = [p / d for d, p in rounds]
        row = {"case": name, "dependent_ms": statistics.median(d for d, _ in rounds),
               "plain_ms": statistics.median(p for _, p in rounds), "speedup": statistics.median(ratios),
               "rounds": ratios, "host_ms_dependent": _host_ms(dependent), "host_ms_plain": _host_ms(plain)}
        rows.append(row)
        print(f"{name}: {row['dependent_ms']:.4f} ms with dependent launches, {row['plain_ms']:.4f} without "
              f"({row['speedup']:.3f}x); host {row['host_ms_dependent']:.3f} / {row['host_ms_plain']:.3f} ms a call")
    os.environ.pop("TILEC_DEPENDENT_LAUNCH", None)
    with open(args.out, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(), "busy_cycles": args.busy_cycles, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
