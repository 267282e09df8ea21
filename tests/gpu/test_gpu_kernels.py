"""Every kernel form tilec emits, run on the GPU against the oracle's outputs.

    python tests/gpu/build.py --out build/gpu-cases     # where tilec compiles (MLIR, torch-mlir)
    python -m pytest tests/gpu                          # on the GPU machine (torch, cuda-bindings)

One test per case and run size of the manifest that build.py writes (TILEC_GPU_CASES, or
build/gpu-cases). This file imports torch and tilec.runtime only; tests/gpu/pytest.ini makes
tests/gpu its own rootdir, so tests/conftest.py (which imports torch_mlir) is not loaded
when these tests run alone.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
import torch

from tilec.runtime import load

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))
BUILD_COMMAND = f"python tests/gpu/build.py --out {BUILD}"


@functools.cache
def _manifest() -> dict | None:
    """build.py's manifest.json: cases, their runs and files, tolerances by dtype (None: not built)."""
    path = BUILD / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else None


def _params() -> list:
    manifest = _manifest()
    if manifest is None:
        return [pytest.param(None, None, id="no-build", marks=pytest.mark.skip(
            reason=f"no {BUILD / 'manifest.json'}; build it where tilec compiles: {BUILD_COMMAND}"))]
    params = []  # (case, run); a case that failed to build, or an uncovered example, fails as one test
    for name, case in manifest["cases"].items():
        if "error" in case:  # the build failed: the case fails here too, with the build's message
            params.append(pytest.param(name, None, id=f"{name}-build"))
            continue
        params += [pytest.param(name, run, id=f"{name}-{run['id']}-{run['variant']}") for run in case["runs"]]
    params += [pytest.param(path, "uncovered", id=f"uncovered-{Path(path).stem}") for path in manifest["uncovered"]]
    return params


@functools.cache
def _kernel(name: str):
    case = _manifest()["cases"][name]
    return load(str(BUILD / case["package"]), register_op=False)


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


@pytest.mark.parametrize("name,run", _params())
def test_kernel_matches_the_oracle(name, run):
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device (torch.cuda.is_available() is false)")
    manifest = _manifest()
    if run == "uncovered":
        pytest.fail(f"{name} lowers to a tile kernel but no case in tests/gpu/cases.py runs it")
    case = manifest["cases"][name]
    if run is None:
        pytest.fail(f"{name} did not build: {case['error']}")
    kernel = _kernel(name)
    data = torch.load(BUILD / run["data"])
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
    assert not errors, f"{name} at {run['shapes']} ({run['variant']} kernel, {manifest['target']}, " \
                       f"built from {manifest['source']}): " + "; ".join(errors)
