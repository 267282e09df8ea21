"""The GPU suite catches emitter bugs: each mutant of tests/gpu/mutants.py must fail a run.

    python tests/gpu/mutants.py --out build/gpu-mutants   # where tilec compiles (MLIR, torch-mlir)
    python -m pytest tests/gpu                            # on the GPU machine (torch, cuda-bindings)

One test per mutant folder found (TILEC_GPU_MUTANTS, or build/gpu-mutants): its cases run in a
process of their own (gpu_runs.py), so a mutant whose kernel faults or hangs fails nothing but
itself. The test passes when at least one run differs from the oracle, raises (a CUDA fault),
or the runs stop early (a crash, a hang past TIMEOUT_S). A mutant every run of which matches
the oracle is a bug class the suite cannot see: the test fails, naming it, unless the mutant
is marked ``survives`` (no output can show it, for the reason given); that one is an expected
failure, and a run that does fail it fails the test. Imports torch only (no torch_mlir, no z3).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from gpu_runs import read_manifest

HERE = Path(__file__).resolve().parent
MUTANTS = Path(os.environ.get("TILEC_GPU_MUTANTS", HERE.parents[1] / "build" / "gpu-mutants"))
BUILD_COMMAND = f"python tests/gpu/mutants.py --out {MUTANTS}"
TIMEOUT_S = 120  # per mutant: a kernel that never returns counts as caught


def _params() -> list:
    folders = sorted(p.parent for p in MUTANTS.glob("*/manifest.json"))
    if not folders:
        return [pytest.param(None, id="no-build", marks=pytest.mark.skip(
            reason=f"no mutants under {MUTANTS}; build them where tilec compiles: {BUILD_COMMAND}"))]
    return [pytest.param(folder, id=folder.name) for folder in folders]


def _runs(folder: Path) -> tuple[list[dict], str | None]:
    """(the result of every run gpu_runs.py finished, why it stopped early or None)."""
    try:
        proc = subprocess.run([sys.executable, str(HERE / "gpu_runs.py"), str(folder)], capture_output=True,
                              text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode() if isinstance(err.stdout, bytes) else err.stdout or ""
        return [json.loads(line) for line in out.splitlines() if line.startswith("{")], f"timed out ({TIMEOUT_S} s)"
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    stopped = None if proc.returncode == 0 else f"exit status {proc.returncode}: {proc.stderr.strip()[-500:]}"
    return results, stopped


@pytest.mark.parametrize("folder", _params())
def test_the_suite_catches_the_mutant(folder):
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device (torch.cuda.is_available() is false)")
    manifest = read_manifest(folder)
    mutant = manifest["mutant"]
    unbuilt = {name: case["error"] for name, case in manifest["cases"].items() if "error" in case}
    assert not unbuilt, f"{mutant['name']}: cases did not build: {unbuilt}"
    results, stopped = _runs(folder)
    assert results or not stopped or "timed out" in stopped, f"gpu_runs.py ran nothing: {stopped}"
    caught = [r for r in results if r["error"]]
    expected = sum(len(case["runs"]) for case in manifest["cases"].values())
    print(f"{mutant['name']} ({mutant['bug']}): {len(caught)}/{expected} runs fail"
          + "".join(f"\n  {r['case']}-{r['run']}-{r['variant']}: {r['error'][:160]}" for r in caught)
          + (f"\n  stopped after {len(results)} runs: {stopped}" if stopped else ""))
    if mutant.get("survives"):  # an equivalent mutant: no run may fail, or the reason no longer holds
        assert not (caught or stopped), (
            f"{mutant['name']} is marked as one no output can show ({mutant['survives']}), yet runs fail: "
            f"the reason no longer holds; drop its `survives` in tests/gpu/mutants.py")
        pytest.xfail(f"the GPU suite cannot catch {mutant['name']}: {mutant['survives']}")
    assert caught or stopped, (
        f"the GPU suite does not catch {mutant['name']}: {mutant['bug']} ({mutant['line']}); all {len(results)} "
        f"runs of {', '.join(manifest['cases'])} match the oracle")
