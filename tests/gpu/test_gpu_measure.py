"""python -m tilec.runtime.measure on the GPU: the candidates tilec tune wrote (the build's
"tune" fixture: three GEMM schedules at 300x520x200) are checked against each other and
timed in rounds; the results file is what tilec tune --import reads. Skipped without a GPU
of compute capability 9.0 or without the fixture (python tests/gpu/build.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch

from gpu_runs import read_manifest
from tilec.runtime.measure import main

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))


@pytest.fixture
def fixture() -> str:
    """The tune fixture's folder (skips without a GPU of compute capability 9.0 or without it)."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0 (the candidates are sm_90a kernels)")
    fixture = (read_manifest(BUILD) or {}).get("fixtures", {}).get("tune")
    if fixture is None:
        pytest.skip(f"no tune fixture in {BUILD}: python tests/gpu/build.py --out {BUILD}")
    return fixture


def test_measure_times_every_candidate_and_writes_what_import_reads(tmp_path, fixture):
    out = tmp_path / "results.json"
    assert main([str(BUILD / fixture), "--out", str(out), "--reps", "5", "--rounds", "2"]) == 0
    data = json.loads(out.read_text())
    assert data["key"]["shapes"] == {"M": 300, "N": 520, "K": 200} and len(data["results"]) == 3
    for row in data["results"]:
        assert row["median_ms"] is not None and row["median_ms"] > 0 and row["spread"] >= 0
        assert row["max_rel_error"] < 3e-2, row


def test_a_budget_of_candidates_times_only_those_and_the_contenders_again(tmp_path, fixture):
    out = tmp_path / "results.json"
    assert main([str(BUILD / fixture), "--out", str(out), "--reps", "5", "--rounds", "3", "--budget", "2"]) == 0
    rows = json.loads(out.read_text())["results"]
    timed = [r for r in rows if r["median_ms"] is not None]
    assert len(timed) == 2 and [r["skipped"] for r in rows if r["median_ms"] is None] == ["budget"]
    best = min(timed, key=lambda r: r["median_ms"])
    assert best["rounds"] == 3, best  # the best of the first pass is always a contender
    assert main([str(BUILD / fixture), "--out", str(out), "--reps", "5", "--budget", "4s"]) == 0
    data = json.loads(out.read_text())
    assert data["gpu_seconds"] < 4 + 1.5, data["gpu_seconds"]  # one candidate may finish past the budget
