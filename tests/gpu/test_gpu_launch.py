"""A kernel's launch plan on the GPU: a second call at the same input shapes reuses the first
call's checks and sizes; an input of the same shape with other strides is checked again (and
refused when it is not contiguous). Uses the build's "tune" fixture (GEMM 300x520x200)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch

from gpu_runs import read_manifest
from tilec.runtime import load

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))


def test_calls_at_the_same_shapes_share_a_plan_and_other_strides_are_checked_again():
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0 (the fixture's kernels are sm_90a)")
    fixture = (read_manifest(BUILD) or {}).get("fixtures", {}).get("tune")
    if fixture is None:
        pytest.skip(f"no tune fixture in {BUILD}: python tests/gpu/build.py --out {BUILD}")
    first = json.loads((BUILD / fixture / "candidates.json").read_text())["candidates"][0]
    kernel = load(str(BUILD / fixture / first["package"]), register_op=False)
    a = torch.randn(300, 200, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(200, 520, device="cuda", dtype=torch.bfloat16)
    ref = a.float() @ b.float()
    for _ in range(3):
        out = kernel(a, b)
        assert (out.float() - ref).abs().max() / ref.abs().max() < 3e-2
    assert len(kernel._plans) == 1
    transposed = torch.randn(520, 200, device="cuda", dtype=torch.bfloat16).t()  # 200x520, not contiguous
    with pytest.raises(ValueError, match="must be contiguous"):
        kernel(a, transposed)
    assert len(kernel._plans) == 1
