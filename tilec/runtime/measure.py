"""Measure a directory of candidate packages on this GPU (no MLIR, no z3: the GPU host's side
of ``tilec tune --emit-candidates``).

    python -m tilec.runtime.measure CANDIDATES_DIR [--out results.json] [--reps 20] [--rounds 3]

CANDIDATES_DIR/candidates.json names the packages and the sizes to run them at. Every
candidate runs on the same random inputs; each is timed in ``rounds`` rounds (the candidates
taking turns, so that the GPU's clock drift falls on all of them alike) after two seconds of
warm-up, each round one launch and the median of ``reps`` with the L2 cache flushed before each; the record is the
median over rounds and the spread (slowest round over fastest, minus 1). A candidate whose
output differs from the first candidate's by more than the dtype allows is recorded with
its error and no time. ``tilec tune --import results.json`` fills the tuning database.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path

import torch

from .kernel import _DTYPES, evaluate_dim, load

TOLERANCE = {"bf16": 3e-2, "f16": 5e-3, "f32": 1e-4}
WARM_UP_SECONDS = 2.0


def _inputs(kernel, env: dict) -> list:
    torch.manual_seed(0)
    return [torch.randn([evaluate_dim(d, env) for d in s["dims"]], device="cuda").to(_DTYPES[s["dtype"]])
            for s in kernel.inputs]


def median_ms(fn, reps: int, flush) -> float:
    """Median milliseconds of ``reps`` calls of fn(), ``flush`` (a large tensor) zeroed before
    each so that no call finds its inputs in L2; one untimed call first."""
    fn()
    times = []
    for _ in range(reps):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def _warm_up(fn, seconds: float) -> None:
    """Keep the GPU busy until its clocks have settled (a first round run cold measured up to
    25% slower, H200 2026-12-01)."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            fn()
        torch.cuda.synchronize()


def measure(folder: str, reps: int = 20, rounds: int = 3) -> dict:
    spec = json.loads((Path(folder) / "candidates.json").read_text())
    env = dict(spec["env"])
    kernels = [(c, load(str(Path(folder) / c["package"]), register_op=False)) for c in spec["candidates"]]
    inputs = _inputs(kernels[0][1], env)
    reference, results, ok = None, {}, []
    for c, kern in kernels:
        out = kern(*inputs)
        out = out[0] if isinstance(out, tuple) else out
        if reference is None:
            reference = out.float()
        scale = max(float(reference.abs().max()), 1e-6)
        error = float((out.float() - reference).abs().max()) / scale
        results[c["schedule"]] = {"schedule": c["schedule"], "package": c["package"],
                                  "predicted_ms": c.get("predicted_ms"), "tile_sha256": c.get("tile_sha256"),
                                  "max_rel_error": error,
                                  "median_ms": None, "spread": None}
        if error <= TOLERANCE.get(kern.outputs[0]["dtype"], 3e-2):
            ok.append((c, kern))
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    _warm_up(lambda: ok[0][1](*inputs) if ok else None, WARM_UP_SECONDS)
    per_round = {c["schedule"]: [] for c, _ in ok}
    for _ in range(rounds):
        for c, kern in ok:
            per_round[c["schedule"]].append(median_ms(lambda kern=kern: kern(*inputs), reps, flush))
    for name, times in per_round.items():
        results[name].update(median_ms=statistics.median(times), spread=max(times) / min(times) - 1)
    return {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
            "key": spec["key"], "reps": reps, "rounds": rounds, "results": list(results.values())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilec.runtime.measure", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--out", default=None, help="results file (default: FOLDER/results.json)")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    data = measure(args.folder, args.reps, args.rounds)
    out = Path(args.out or Path(args.folder) / "results.json")
    out.write_text(json.dumps(data, indent=2))
    timed = sorted((r for r in data["results"] if r["median_ms"] is not None), key=lambda r: r["median_ms"])
    for r in timed[:5]:
        print(f"{r['median_ms']:.4f} ms  (spread {r['spread']:.1%})  {r['schedule']}")
    print(f"{len(timed)} of {len(data['results'])} candidates timed -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
