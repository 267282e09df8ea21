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
import os
from pathlib import Path

import pytest
import torch

from gpu_runs import check_run, read_manifest

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))
BUILD_COMMAND = f"python tests/gpu/build.py --out {BUILD}"


@functools.cache
def _manifest() -> dict | None:
    """build.py's manifest.json: cases, their runs and files, tolerances by dtype (None: not built)."""
    return read_manifest(BUILD)


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
    why = check_run(BUILD, manifest, name, run)
    assert why is None, f"{name} at {run['shapes']} ({run['variant']} kernel, {manifest['target']}, " \
                        f"built from {manifest['source']}): {why}"
