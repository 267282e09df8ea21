"""Run the packages of a build folder (tests/gpu/build.py, tests/gpu/mutants.py) on the GPU and
compare every output with the oracle's. Needs torch, cuda-bindings and tilec.runtime only.

    python tests/gpu/gpu_runs.py build/gpu-mutants/barrier-to-syncwarp

prints one JSON line per run, {"case", "run", "variant", "error"} (error null when the run
matches the oracle), then exits 0: the caller judges. test_gpu_mutants.py runs each mutant
this way, in its own process, so that a kernel that faults (a sticky CUDA error) or hangs
takes no other mutant's runs with it.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: tilec.runtime from this checkout
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from tilec.runtime import load  # noqa: E402


def read_manifest(folder: Path) -> dict | None:
    """The manifest.json of a build folder (None: not built)."""
    path = folder / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else None


@functools.cache
def tune_fixture_kernel(build: Path):
    """The first candidate package of ``build``'s "tune" fixture (GEMM 300x520x200), loaded;
    the test is skipped without an sm_90 GPU or the fixture."""
    import pytest

    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0 (the fixture's kernels are sm_90a)")
    fixture = (read_manifest(build) or {}).get("fixtures", {}).get("tune")
    if fixture is None:
        pytest.skip(f"no tune fixture in {build}: python tests/gpu/build.py --out {build}")
    first = json.loads((build / fixture / "candidates.json").read_text())["candidates"][0]
    return load(str(build / fixture / first["package"]), register_op=False)


def _kernel(package: Path):
    return load(str(package), register_op=False)


def mismatch(actual: torch.Tensor, expected: torch.Tensor, tolerance: float) -> str | None:
    """Why ``actual`` is not ``expected`` (None when it is): NaN exactly where expected is NaN,
    infinities equal, and max |actual - expected| <= tolerance * max |expected| elsewhere."""
    if actual.shape != expected.shape:
        return f"shape {tuple(actual.shape)}, expected {tuple(expected.shape)}"
    a, e = actual.double().cpu(), expected.double()
    nan = a.isnan() != e.isnan()
    if nan.any():
        where = tuple(nan.nonzero()[0].tolist())
        return (f"{int(nan.sum())} elements NaN where the oracle is not, or not where it is; first at {where}: "
                f"{a[where].item()} vs {e[where].item()}")
    inf = e.isinf() & (a != e)
    if inf.any():
        where = tuple(inf.nonzero()[0].tolist())
        return f"oracle is {e[where].item()} at {where}, kernel {a[where].item()}"
    finite = e.isfinite()
    if not finite.any():
        return None
    err = torch.where(finite, (a - e).abs(), torch.zeros_like(e))
    scale = e[finite].abs().max().item()
    if err.max().item() <= tolerance * scale:
        return None
    where = tuple((err == err.max()).nonzero()[0].tolist())
    return (f"max abs err {err.max().item():.3e} > {tolerance:g} * max |oracle| {scale:.3e} at {where}: "
            f"{a[where].item()} vs {e[where].item()}; {int((err > tolerance * scale).sum())} elements off")


def check_run(folder: Path, manifest: dict, name: str, run: dict) -> str | None:
    """Run case ``name`` at ``run``'s sizes on the GPU: why its outputs differ from the oracle's
    (None when they match)."""
    case = manifest["cases"][name]
    kernel = _kernel(folder / case["package"])
    data = torch.load(folder / run["data"])
    inputs = {k: v.cuda() for k, v in data["inputs"].items()}
    for expected in data["outputs"].values():
        # freed at once, so the caching allocator hands this NaN-filled block to the kernel's
        # output of the same size: an element the kernel never writes then reads NaN, not a stale value
        torch.full_like(expected, float("nan"), device="cuda")
    results = kernel(**inputs)
    results = results if isinstance(results, tuple) else (results,)
    torch.cuda.synchronize()
    errors = []
    for spec, actual in zip(kernel.outputs, results):
        expected = data["outputs"][spec["name"]]
        why = mismatch(actual, expected, manifest["tolerance"][spec["dtype"]])
        if why:
            errors.append(f"{spec['name']} ({spec['dtype']}): {why}")
    return "; ".join(errors) or None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tests/gpu/gpu_runs.py FOLDER", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    manifest = read_manifest(folder)
    if manifest is None:
        print(f"no {folder / 'manifest.json'}", file=sys.stderr)
        return 2
    for name, case in manifest["cases"].items():
        for run in case.get("runs", []):
            try:
                error = check_run(folder, manifest, name, run)
            except Exception as err:  # a fault, a launch failure: this run fails, the others still run
                error = f"{type(err).__name__}: {err}"
            print(json.dumps({"case": name, "run": run["id"], "variant": run["variant"], "error": error}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
