"""What a launch costs: the spread of one kernel's time between two CUDA events, with and
without the GPU kept busy while the host launches (tilec.runtime.measure's spin), beside
torch.matmul; and the host's time per call of each package (on the GPU host; no MLIR).

    PYTHONPATH=. python bench/launch.py PACKAGE.tkp ... --out launch.json
    # the host time of another runtime, e.g. the one before launch plans:
    mkdir -p /tmp/before && git archive d9ca3f1^ tilec/runtime | tar -x -C /tmp/before
    PYTHONPATH=. python bench/launch.py PACKAGE.tkp ... --runtime /tmp/before/tilec/runtime --out before.json

A package's inputs are made at its fixed sizes (64 for any other size). The spread: 200
launches of the first package, each timed alone with the L2 flushed before it; torch.matmul
of two bf16 4096x4096 matrices the same way. The host time: the median over 20 rounds of
50 calls of the time the Python call takes (the GPU runs behind).
"""

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec.runtime import load, measure  # noqa: E402


def runtime_from(folder: str):
    """A tilec.runtime package from another folder (another commit's), imported under its own name."""
    spec = importlib.util.spec_from_file_location("runtime_under_test", os.path.join(folder, "__init__.py"),
                                                  submodule_search_locations=[folder])
    module = importlib.util.module_from_spec(spec)
    sys.modules["runtime_under_test"] = module
    spec.loader.exec_module(module)
    return module


def inputs_for(kernel) -> list:
    """The package's inputs at its fixed sizes (64 for any other); a Kernel of a runtime before
    packages held a kernel per target reads its package's manifest."""
    manifest = kernel.manifest if hasattr(kernel, "manifest") else kernel.package.manifest
    env = dict(manifest.get("fixed", {}))
    for spec in kernel.inputs:
        for d in spec["dims"]:
            if isinstance(d, str):
                env.setdefault(d, 64)
    return measure.random_inputs(kernel, env)


def spread(fn, flush, spin: bool, n: int = 200) -> dict:
    fn()
    times = sorted(measure.launch_ms(fn, flush, spin) for _ in range(n))
    return {"min": times[0], "median": statistics.median(times), "p90": times[int(0.9 * n)], "max": times[-1]}


def host_us(fn) -> float:
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(50):
            fn()
        rounds.append((time.perf_counter() - start) / 50 * 1e6)
        torch.cuda.synchronize()
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="+")
    parser.add_argument("--runtime", metavar="DIR", help="time the host side of this tilec/runtime folder instead")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    loader = runtime_from(args.runtime).load if args.runtime else load
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    result = {"gpu": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
              "runtime": args.runtime or "tilec.runtime", "host_us": {}}
    for path in args.packages:
        kernel = loader(path, register_op=False)
        inputs = inputs_for(kernel)
        result["host_us"][path] = host_us(lambda: kernel(*inputs))
        print(f"{path}: {result['host_us'][path]:.1f} us of host time per call", flush=True)
        if "spread" not in result:
            a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
            result["spread"] = {f"{name} {'with' if spin else 'without'} the spin": spread(fn, flush, spin)
                                for name, fn in (("tilec " + os.path.basename(path), lambda: kernel(*inputs)),
                                                 ("torch.matmul 4096", lambda: torch.matmul(a, a)))
                                for spin in (False, True)}
            for name, s in result["spread"].items():
                print(f"  {name}: min {s['min']:.4f} median {s['median']:.4f} p90 {s['p90']:.4f} "
                      f"max {s['max']:.4f} ms", flush=True)
    with open(args.out, "w") as handle:
        json.dump(result, handle, indent=2)


if __name__ == "__main__":
    main()
