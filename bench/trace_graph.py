"""Where a graph's wall time goes, on the GPU: each call's span from its first kernel's start to
its last kernel's end, the kernels' sum within it, and the idle gaps between kernels (with the
host calls that ran while the GPU waited). Each call is made as bench/check_pytorch.py times it
(L2 flushed, the GPU kept busy while the host launches).

    PYTHONPATH=. python bench/trace_graph.py --packages bench/out/cur --only llama_block_4k \\
        --out $OUT/trace.json [--inductor] [--chrome $OUT/traces]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.check_pytorch import _as_taken  # noqa: E402
from bench.pytorch_cases import CASES, inputs_of  # noqa: E402
from tilec.runtime import load  # noqa: E402
from tilec.runtime.measure import BUSY_CYCLES  # noqa: E402

GAP_US = 3.0  # an idle stretch shorter than this is a launch's own latency
MARK = "tilec_call"


def _calls(trace: dict) -> list:
    """[(kernels, host calls)] per marked call of a chrome trace: kernels as (start, end, name),
    host runtime calls as (start, end, name), in microseconds."""
    events = trace["traceEvents"]
    marks = sorted((e["ts"], e["ts"] + e["dur"]) for e in events if e.get("name") == MARK and "dur" in e)
    kernels = sorted((e["ts"], e["ts"] + e["dur"], e["name"]) for e in events
                     if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"))
    runtime = sorted((e["ts"], e["ts"] + e["dur"], e["name"]) for e in events if e.get("cat") == "cuda_runtime"
                     and "dur" in e)
    out = []
    for k, (start, _) in enumerate(marks):
        end = marks[k + 1][0] if k + 1 < len(marks) else float("inf")
        # each call ends in a synchronisation before the next mark: its kernels run between the two
        out.append(([x for x in kernels if start <= x[0] < end], [r for r in runtime if start <= r[0] < end]))
    return out


def _summary(calls: list, skip: int) -> dict:
    """Span, kernel sum and gaps of each call's kernels after its first ``skip`` (flush, spin)."""
    spans, sums, gaps = [], [], []
    for kernels, host in calls:
        mine = kernels[skip:]
        if not mine:
            continue
        spans.append(mine[-1][1] - mine[0][0])
        sums.append(sum(e - s for s, e, _ in mine))
        for before, after in zip(mine, mine[1:]):
            if after[0] - before[1] >= GAP_US:
                during = sorted({name for s, e, name in host if s < after[0] and e > before[1]})
                gaps.append({"us": after[0] - before[1], "after": before[2][:80], "before": after[2][:80],
                             "host_calls_during": during})
    return {"span_ms": statistics.median(spans) / 1e3, "kernel_sum_ms": statistics.median(sums) / 1e3,
            "gaps": sorted(gaps, key=lambda g: -g["us"])[:12], "gap_total_ms_per_call": sum(g["us"] for g in gaps)
            / 1e3 / max(len(spans), 1)}


def trace(fn, calls: int, chrome: str | None) -> dict:
    """Run fn() ``calls`` times as the wall timing does, under the profiler; the summary. The
    chrome trace is kept at ``chrome`` when given."""
    flush = torch.empty(512 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(calls):
            with torch.profiler.record_function(MARK):
                flush.zero_()
                torch.cuda._sleep(BUSY_CYCLES)
                fn()
            torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as tmp:
        path = chrome or os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            return _summary(_calls(json.load(f)), skip=2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--packages", default="bench/out/pytorch")
    parser.add_argument("--only", required=True, help="comma-separated case names")
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--inductor", action="store_true", help="trace torch.compile's graph too")
    parser.add_argument("--chrome", help="a folder for the chrome traces")
    parser.add_argument("--out", default="bench/out/trace.json")
    args = parser.parse_args()
    rows = []
    for name in args.only.split(","):
        fn, shapes = CASES[name][0], CASES[name][1]
        kernel = load(os.path.join(args.packages, f"{name}.tkp"), register_op=False)
        torch.manual_seed(0)
        inputs = inputs_of(name, shapes)
        taken = _as_taken(kernel, inputs)
        sides = {"tilec": lambda: kernel(*taken)}
        if args.inductor:
            compiled = torch.compile(fn)
            sides["inductor"] = lambda: compiled(*inputs)
        for side, call in sides.items():
            chrome = os.path.join(args.chrome, f"{name}-{side}.json") if args.chrome else None
            if args.chrome:
                os.makedirs(args.chrome, exist_ok=True)
            row = {"case": name, "side": side, **trace(call, args.calls, chrome)}
            rows.append(row)
            print(f"{name} {side}: span {row['span_ms']:.3f} ms, kernels {row['kernel_sum_ms']:.3f}, "
                  f"gaps {row['gap_total_ms_per_call']:.3f} ms a call")
            for gap in row["gaps"][:4]:
                print(f"   {gap['us']:.1f} us after {gap['after'][:40]} before {gap['before'][:40]}: "
                      f"{gap['host_calls_during'][:4]}")
    with open(args.out, "w") as f:
        json.dump({"gpu": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
