"""Measure a directory of candidate packages on this GPU (no MLIR, no z3: the GPU host's side
of ``tilec tune --emit-candidates``, and what ``tilec tune`` runs on a local GPU).

    python -m tilec.runtime.measure CANDIDATES_DIR [--out results.json] [--budget 30|60s]

CANDIDATES_DIR/candidates.json names the packages, in the model's order, and the sizes to
run them at. Every candidate runs once on the same random inputs; one whose output differs
from the first candidate's by more than the dtype allows is recorded with its error and no
time. After two seconds of warm-up, a first pass times each candidate in the model's order
(one round: one launch, then the median of ``reps`` with the L2 cache flushed before each)
while the budget lasts (``N`` candidates, or ``Ns`` of GPU time of which the first pass takes
at most 70%); then the first pass's contenders (within 25% of its best, at most
``contenders``) are timed in the other ``rounds`` - 1 rounds, each round ``reps`` passes that
launch every contender once, so that the GPU's clock drift falls on all of them alike. A
record is the median over its rounds and the spread
(slowest round over fastest, minus 1). A progress line shows the candidates done, the best
so far and the time left. ``tilec tune --import results.json`` fills the tuning database.
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

from .dims import evaluate_dim, torch_dtype
from .options import integer
from .loading import load
from .progress import Progress, parse_budget
from .rounds import CONTENDERS, time_in_rounds

TOLERANCE = {"bf16": 3e-2, "f16": 5e-3, "f32": 1e-4}
WARM_UP_SECONDS = 2.0
BUSY_CYCLES = 1_000_000  # about 0.5 ms of GPU spin ahead of each timed launch


def random_inputs(kernel, env: dict) -> list:
    """Seeded random CUDA inputs of ``kernel`` at the sizes ``env``."""
    torch.manual_seed(0)
    return [torch.randn([evaluate_dim(d, env) for d in s["dims"]], device="cuda").to(torch_dtype(s["dtype"]))
            for s in kernel.inputs]


def median_ms(fn, reps: int, flush) -> float:
    """Median milliseconds of ``reps`` calls of fn(), ``flush`` (a large tensor) zeroed before
    each so that no call finds its inputs in L2; one untimed call first."""
    fn()
    return interleaved_ms([fn], reps, flush)[0]


def interleaved_ms(fns: list, reps: int, flush) -> list[float]:
    """The median milliseconds of each of ``fns`` over ``reps`` passes, each pass launching
    every one once (the L2 flushed before each): a change of the GPU's clocks within the
    round falls on all of them alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(reps):
        for fn, out in zip(fns, times):
            out.append(launch_ms(fn, flush))
    return [statistics.median(t) for t in times]


def launch_ms(fn, flush, spin: bool = True) -> float:
    """Milliseconds of one fn() between two CUDA events, ``flush`` zeroed first. With ``spin``
    the GPU is kept busy (the flush, then a spin of BUSY_CYCLES) while the host records the
    first event and launches, so that the host's launch time does not fall between the events
    (bench/launch.py measures both ways)."""
    flush.zero_()
    if spin and hasattr(torch.cuda, "_sleep"):
        torch.cuda._sleep(BUSY_CYCLES)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def _warm_up(fn, seconds: float) -> None:
    """Keep the GPU busy until its clocks have settled (a first round run cold measured up to
    25% slower, H200 2026-12-01)."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            fn()
        torch.cuda.synchronize()


def measure(folder: str, reps: int = 20, rounds: int = 5, budget: str | None = None, contenders: int = CONTENDERS,
            progress: bool = False) -> dict:
    """Check and time the candidates of ``folder`` (see the module's docstring); ``budget``
    is ``N`` candidates or ``Ns`` seconds of GPU time (warm-up included), taken in the order
    of candidates.json (the model's, best predicted first)."""
    count, seconds = parse_budget(budget)
    spec = json.loads((Path(folder) / "candidates.json").read_text())
    env = dict(spec["env"])
    kernels = [(c, load(str(Path(folder) / c["package"]), register_op=False)) for c in spec["candidates"]]
    inputs = random_inputs(kernels[0][1], env)
    results, ok = _check(kernels, inputs)
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    start = time.perf_counter()
    _warm_up(lambda: ok[0][1](*inputs) if ok else None, WARM_UP_SECONDS)
    kernel = {c["schedule"]: kern for c, kern in ok}
    bar = Progress("measure", min(len(ok), count or len(ok))) if progress else None
    times = time_in_rounds([c["schedule"] for c, _ in ok],
                           lambda name: median_ms(lambda: kernel[name](*inputs), reps, flush),
                           count, seconds, rounds, contenders, bar, start=start, spent=WARM_UP_SECONDS,
                           time_round=lambda names: interleaved_ms([lambda n=n: kernel[n](*inputs) for n in names],
                                                                   reps, flush))
    for name, runs in times.items():
        results[name].update(median_ms=statistics.median(runs), spread=max(runs) / min(runs) - 1, rounds=len(runs))
    for row in results.values():
        if row["median_ms"] is None and "skipped" not in row:
            row["skipped"] = "budget"
    return {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
            "key": spec["key"], "reps": reps, "rounds": rounds, "budget": budget,
            "gpu_seconds": round(time.perf_counter() - start, 2), "results": list(results.values())}


def _check(kernels: list, inputs: list) -> tuple[dict, list]:
    """Run every candidate once on the same inputs: ({schedule: its result row}, [the (entry,
    kernel) whose output matches the first candidate's within the dtype's tolerance])."""
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
                                  "registers": c.get("registers"), "spill_bytes": c.get("spill_bytes"),
                                  "max_rel_error": error, "median_ms": None, "spread": None, "rounds": 0}
        if error <= TOLERANCE.get(kern.outputs[0]["dtype"], 3e-2):
            ok.append((c, kern))
        else:
            results[c["schedule"]]["skipped"] = "its output differs from the first candidate's"
    return results, ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilec.runtime.measure", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--out", default=None, help="results file (default: FOLDER/results.json)")
    parser.add_argument("--reps", type=integer(1, 10**5, "a count"), default=20,
                        help="timed launches per round (default: 20)")
    parser.add_argument("--rounds", type=integer(1, 1000, "a count"), default=5,
                        help="rounds for the best candidates (default: 5)")
    parser.add_argument("--budget", metavar="N|Ns", help="measure at most N candidates, or for N seconds")
    parser.add_argument("--contenders", type=integer(1, 10**4, "a count"), default=CONTENDERS,
                        help=f"how many of the first pass's best take the other rounds (default: {CONTENDERS})")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args(argv)
    try:
        parse_budget(args.budget)
    except ValueError as err:
        parser.error(str(err))
    data = measure(args.folder, args.reps, args.rounds, args.budget, args.contenders, args.progress)
    out = Path(args.out or Path(args.folder) / "results.json")
    out.write_text(json.dumps(data, indent=2))
    timed = sorted((r for r in data["results"] if r["median_ms"] is not None), key=lambda r: r["median_ms"])
    for r in timed[:5]:
        print(f"{r['median_ms']:.4f} ms  (spread {r['spread']:.1%} over {r['rounds']} rounds)  {r['schedule']}")
    print(f"{len(timed)} of {len(data['results'])} candidates timed in {data['gpu_seconds']:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
