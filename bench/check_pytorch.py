"""Kernels compiled from PyTorch code (bench/build_pytorch.py) on the GPU: correct against the
same torch code in f32, timed beside torch's own library call (SDPA's default backend,
cuBLAS + GELU), same run.

    PYTHONPATH=. python bench/check_pytorch.py --packages bench/out/pytorch --out bench/out/pytorch-results.json
"""

import argparse
import datetime
import json
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.gemm import bench  # noqa: E402
from bench.pytorch_cases import CASES, TOKENS, inputs_of  # noqa: E402
from tilec.runtime import load  # noqa: E402
from tilec.runtime.measure import interleaved_ms  # noqa: E402


def _as_taken(kernel, inputs) -> list:
    """The inputs as the package takes them (views): a graph's ta drops size-1 dims and merges
    leading dims every op treats alike ([B, T, C] as [B*T, C])."""
    kernels = kernel.kernels if hasattr(kernel, "steps") else [kernel]
    specs = {s["name"]: s["dims"] for k in kernels for s in k.inputs}
    names = kernel.inputs if hasattr(kernel, "steps") else [s["name"] for s in kernel.inputs]
    return [t.reshape(specs[n]) if n in specs else t for n, t in zip(names, inputs)]  # a copy's input: as it is


def _per_kernel(graph, inputs, reps) -> list:
    """Milliseconds of each kernel of a graph, on the tensors the graph passes it."""
    values = dict(zip(graph.inputs, inputs))
    times = []
    for k, (kernel, reads, writes) in enumerate(graph.steps):
        args = graph.step_inputs(k, values)
        out = kernel(*args)
        values.update(zip(writes, out if isinstance(out, tuple) else (out,)))
        times.append(bench(lambda: kernel(*args), reps))
    return times


def _max_rel_error(got, reference) -> float:
    """The largest error over the largest reference value, per output (bf16 outputs of a K=4096
    GEMM reach ~300, 2 apart)."""
    pairs = zip(got, reference) if isinstance(reference, tuple) else [(got, reference)]
    return max(float((g.float().reshape(r.shape) - r).abs().max() / r.abs().max()) for g, r in pairs)


def _kernel_times(fn, inputs, calls: int = 10) -> list:
    """[name, milliseconds per call] of each GPU kernel ``fn`` launches, longest first (torch's
    profiler over ``calls`` calls after a warm-up): where a peer spends its time."""
    fn(*inputs)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(*inputs)
        torch.cuda.synchronize()
    times = {}
    for event in prof.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            times[event.name] = times.get(event.name, 0.0) + event.device_time / 1e3 / calls
    return sorted(([name, ms] for name, ms in times.items()), key=lambda pair: -pair[1])


def _over_baseline(path: str, inputs: list, reference, kernel, taken: list, reps: int, rounds: int = 5) -> dict:
    """The speed of ``kernel`` over the baseline build at ``path``: the median of ``rounds``
    alternating rounds (a whole-run drift falls on both sides), with each round's ratio, and
    the baseline's own error against the f32 reference."""
    base = load(path, register_op=False)
    base_taken = _as_taken(base, inputs)
    ratios = [bench(lambda: base(*base_taken), reps) / bench(lambda: kernel(*taken), reps) for _ in range(rounds)]
    return {"over_baseline": statistics.median(ratios), "over_baseline_rounds": ratios,
            "baseline_max_rel_error": _max_rel_error(base(*base_taken), reference)}


def _alternated(fn, peer, reps: int, rounds: int = 5) -> dict:
    """tilec's speed over a peer's, timed launch by launch in turn (``reps`` pairs a round, L2
    flushed before each): a block of ~8 ms at the GPU's power limit runs at clocks that drift
    by several percent within a run, and timing one side after the other lets that drift fall
    on one. The median of the rounds' ratios, and each round's."""
    flush = torch.empty(512 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    for _ in range(3):
        fn(), peer()
    ratios, times = [], []
    for _ in range(rounds):
        mine, theirs = interleaved_ms([fn, peer], reps, flush)
        ratios.append(theirs / mine)
        times.append((mine, theirs))
    # each side's milliseconds in the round of the median ratio: the times the ratio is of
    mine, theirs = times[ratios.index(statistics.median_low(ratios))]
    return {"over_inductor": statistics.median(ratios), "over_inductor_rounds": ratios,
            "in_turn_ms": {"tilec": mine, "inductor": theirs}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/pytorch")
    parser.add_argument("--out", default="bench/out/pytorch-results.json")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--baseline", action="append", default=[],
                        help="another build of the same cases (a folder of packages), timed in alternating rounds "
                        "with --packages: each row gets its speed-up over it (repeat the option for several; "
                        "the first one's figures are the row's over_baseline, every one's are under baselines)")
    parser.add_argument("--only", help="comma-separated case names (default: every case)")
    parser.add_argument("--no-inductor", action="store_true",
                        help="skip the torch.compile peer of graphs (its compile takes tens of seconds a case)")
    parser.add_argument("--profile-peer", action="store_true",
                        help="record the time of each kernel the Inductor peer launches, and tilec's as its graph "
                        "runs them (torch's profiler)")
    args = parser.parse_args()
    rows = []
    for name, (fn, shapes, _, flops, peer) in CASES.items():
        if args.only and name not in args.only.split(","):
            continue
        kernel = load(os.path.join(args.packages, f"{name}.tkp"), register_op=False)
        torch.manual_seed(0)
        inputs = inputs_of(name, shapes)
        reference = fn(*(t.float() for t in inputs))
        taken = _as_taken(kernel, inputs)
        error = _max_rel_error(kernel(*taken), reference)
        mine = bench(lambda: kernel(*taken), args.reps)
        theirs = bench(lambda: peer(*inputs), args.reps)
        eager_error = _max_rel_error(peer(*inputs), reference)  # torch's own bf16 forward: the floor
        row = {"case": name, "shapes": shapes, "max_rel_error": error, "correct": error < 1e-2,
               "torch_bf16_rel_error": eager_error,
               "tilec_tflops": flops / mine / 1e9, "torch_tflops": flops / theirs / 1e9}
        row["ratio"] = row["tilec_tflops"] / row["torch_tflops"]
        if hasattr(kernel, "steps"):  # a graph of several kernels: beside Inductor too, and per kernel
            row["kernels_ms"] = _per_kernel(kernel, taken, args.reps)
        if hasattr(kernel, "steps") and not args.no_inductor:
            compiled = torch.compile(peer)
            row["inductor_tflops"] = flops / bench(lambda: compiled(*inputs), args.reps) / 1e9
            row.update(_alternated(lambda: kernel(*taken), lambda: compiled(*inputs), args.reps))
            if args.profile_peer:
                row["inductor_kernels_ms"] = _kernel_times(compiled, inputs)
                # tilec's kernels as the whole graph runs them (kernels_ms times each on its own)
                row["tilec_kernels_profiled_ms"] = _kernel_times(lambda *_: kernel(*taken), inputs)
        if name in TOKENS:  # a model's forward: tokens per second, each way
            for key in ("tilec", "torch", "inductor"):
                if f"{key}_tflops" in row:
                    row[f"{key}_tokens_per_s"] = TOKENS[name] * row[f"{key}_tflops"] * 1e12 / flops
            # timed in turn with Inductor (what over_inductor is of): the clocks' drift falls on both
            for key, ms in row.get("in_turn_ms", {}).items():
                row[f"{key}_tokens_per_s_in_turn"] = TOKENS[name] / (ms / 1e3)
        if args.baseline:
            row["baselines"] = {path: _over_baseline(os.path.join(path, f"{name}.tkp"), inputs, reference, kernel,
                                                     taken, args.reps) for path in args.baseline}
            row.update(row["baselines"][args.baseline[0]])
        rows.append(row)
        against = f", {row['over_inductor']:.3f}x Inductor (alternated)" if "over_inductor" in row else ""
        print(f"{name}: tilec {row['tilec_tflops']:.0f} TFLOP/s, torch {row['torch_tflops']:.0f} "
              f"({row['ratio']:.2f}x{against}), max error {error:.1e} of the largest output")
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(), "rows": rows}
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    baselines_correct = all(b["baseline_max_rel_error"] < 1e-2 for r in rows for b in r.get("baselines", {}).values())
    sys.exit(0 if baselines_correct and all(r["correct"] for r in rows) else 1)


if __name__ == "__main__":
    main()
