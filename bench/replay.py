"""Graph replay against launching from Python (tilec.runtime.Replay), beside the peers (on the GPU host; no MLIR).

    PYTHONPATH=. python bench/replay.py --gemm bench/out/replay/gemm \
        --graph gpt2_block_1k=bench/out/replay/gpt2_block_1k.tkp --out replay.json

For each GEMM package (every package of the folder; each timed at every size, the best
reported as the benchmarks do) and each graph package:

- host: the Python time of one call while the GPU runs behind (the median over 20 rounds of 50
  calls): launched as usual, replayed with fresh results (``results="copy"``, the default) and
  with the graph's own (``results="static"``); for a GEMM at a small size (128³), where a call's
  GPU work is shorter than its host time;
- back to back: the wall time per call of 100 calls in a row, the host included (the median
  of 7 rounds, synchronised at each round's end), of each way, and of the peers: torch.matmul
  (cuBLAS) for a GEMM; for a graph, the same torch code eager, under torch.compile (Inductor
  default) and mode="reduce-overhead" (Inductor's CUDA graphs);
- replayed results against launched ones (max abs difference: the same kernels on the same
  inputs, so 0 unless a replay misses work);
- where a replayed call's host time goes (``host_parts_us``: the key, the capture check, the
  graph's launch, the result copies), for the first GEMM package and each graph.
"""

import argparse
import datetime
import glob
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench.launch import host_us  # noqa: E402  (the same measure as bench/launch.py's)
from tilec.runtime import Replay, load  # noqa: E402


def back_to_back_ms(fn, calls: int = 100, rounds: int = 7) -> float:
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) / calls * 1e3)
    return statistics.median(times)


def _difference(a, b) -> float:
    """The largest absolute difference between two calls' results (every result of each)."""
    a, b = ((x,) if isinstance(x, torch.Tensor) else tuple(x) for x in (a, b))
    return max((x.float() - y.float()).abs().max().item() for x, y in zip(a, b, strict=True))


def ways(run):
    """(name, callable) of each way to run ``run``: launched, replayed (fresh results, static)."""
    return [("launched", run), ("replayed", Replay(run)), ("replayed, static results", Replay(run, results="static"))]


def host_parts(run, inputs: list) -> dict:
    """Where a replayed call's host time goes: its key, the capture check, the graph's launch
    (torch.cuda.CUDAGraph.replay) and the copy of its results (one clone each)."""
    replay = Replay(run)
    replay(*inputs)
    replay(*inputs)
    key, _ = replay._key(inputs, {})
    entry = replay._graphs[key]
    parts = {"key": lambda: replay._key(inputs, {}), "capture check": torch.cuda.is_current_stream_capturing,
             "graph launch": entry.graph.replay, "result copies": lambda: [t.clone() for t in entry.results],
             "result copies (empty_like, copy_)": lambda: [torch.empty_like(t).copy_(t) for t in entry.results]}
    return {name: host_us(fn) for name, fn in parts.items()}


def gemm(paths: list, sizes: list) -> dict:
    out = {"host_us": {}, "back_to_back_ms": {}, "replay_difference": {}}
    small = [torch.randn(128, 128, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
    for path in paths:
        kernel = load(path, register_op=False)
        name = os.path.basename(path)
        try:
            kernel(*small)
        except Exception as err:  # noqa: BLE001 - a package that does not run at this size: say so, go on
            print(f"{name}: does not run at 128^3 ({err})", flush=True)
            continue
        for way, fn in ways(kernel):
            out["host_us"][f"{name} {way}"] = host_us(lambda: fn(*small))
        if "host_parts_us" not in out:
            out["host_parts_us"] = host_parts(kernel, small)
        for m, n, k in sizes:
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
            launched = kernel(a, b)
            for way, fn in ways(kernel):
                out["back_to_back_ms"][f"{name} {way} {m}x{n}x{k}"] = back_to_back_ms(lambda: fn(a, b))
                out["replay_difference"][f"{name} {way} {m}x{n}x{k}"] = _difference(fn(a, b), launched)
        print(f"{name}: " + ", ".join(f"{k.split(' ', 1)[1]} {v:.1f} us" for k, v in out["host_us"].items()
                                        if k.startswith(name + " ")), flush=True)
    for m, n, k in sizes:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        for run in (1, 2):  # cuBLAS twice: the peer at its best
            out["back_to_back_ms"][f"torch.matmul {m}x{n}x{k} run {run}"] = back_to_back_ms(lambda: torch.matmul(a, b))
    out["host_us"]["torch.matmul 128x128x128"] = host_us(lambda: torch.matmul(*small))
    return out


def graph(path: str, case: str) -> dict:
    from bench.pytorch_cases import CASES

    fn, shapes, *_ = CASES[case]
    torch.manual_seed(0)
    inputs = [torch.randn(s, device="cuda", dtype=torch.bfloat16) * 0.5 for s in shapes]
    kernels = load(path, register_op=False)
    launched = kernels(*inputs)
    out = {"host_us": {}, "back_to_back_ms": {}, "replay_difference": {}, "kernels": len(kernels.kernels)}
    for way, run in ways(kernels):
        out["host_us"][way] = host_us(lambda: run(*inputs))
        out["back_to_back_ms"][way] = back_to_back_ms(lambda: run(*inputs))
        out["replay_difference"][way] = _difference(run(*inputs), launched)
    out["host_parts_us"] = host_parts(kernels, inputs)
    peers = [("torch eager", fn), ("Inductor", torch.compile(fn)),
             ("Inductor reduce-overhead", torch.compile(fn, mode="reduce-overhead"))]
    for name, peer in peers:
        with torch.no_grad():
            for run in (1, 2):
                out["back_to_back_ms"][f"{name} run {run}"] = back_to_back_ms(lambda: peer(*inputs))
    print(f"{case}: " + ", ".join(f"{k} {v:.3f} ms" for k, v in out["back_to_back_ms"].items()), flush=True)
    print(f"{case}: host " + ", ".join(f"{k} {v:.1f} us" for k, v in out["host_us"].items()), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gemm", metavar="DIR", help="a folder of GEMM packages (.tkp)")
    parser.add_argument("--size", action="append", metavar="MxNxK", help="back-to-back GEMM sizes (repeatable; "
                        "default 1024x1024x1024 and 2048x2048x2048)")
    parser.add_argument("--graph", action="append", default=[], metavar="CASE=PKG",
                        help="a graph package of bench/pytorch_cases.py's CASE (repeatable)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.size or ["1024x1024x1024", "2048x2048x2048"]]
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat()}
    if args.gemm:
        result["gemm"] = gemm(sorted(glob.glob(os.path.join(args.gemm, "*.tkp"))), sizes)
    for item in args.graph:
        case, path = item.split("=", 1)
        result[case] = graph(path, case)
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
