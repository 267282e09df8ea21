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


def test_an_epilogue_operand_at_an_odd_address_is_read_as_at_an_even_one():
    """The residual and bias of a copy-engine GEMM + GELU are read two 16-bit columns at a time
    (codegen/cuda_pairs.py), which needs 4-byte aligned addresses: views starting at an odd
    element are copied first (runtime/launch.py) and give the same output."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0 (the case's kernel is sm_90a)")
    case = (read_manifest(BUILD) or {}).get("cases", {}).get("wgmma_linear_residual")
    if case is None or "error" in case:
        pytest.skip(f"no wgmma_linear_residual case in {BUILD}: python tests/gpu/build.py --out {BUILD}")
    kernel = load(str(BUILD / case["package"]), register_op=False)
    torch.manual_seed(0)
    m, n, k = 300, 264, 72
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    bias_at = torch.randn(n + 1, device="cuda", dtype=torch.bfloat16)[1:]  # odd element offsets
    res_at = torch.randn(m * n + 1, device="cuda", dtype=torch.bfloat16)[1:].view(m, n)
    assert bias_at.data_ptr() % 4 and res_at.data_ptr() % 4
    shifted = kernel(x, w, bias_at, res_at)
    even = kernel(x, w, bias_at.clone(), res_at.clone())
    torch.cuda.synchronize()
    assert torch.equal(shifted, even)
    ref = torch.nn.functional.gelu(x.float() @ w.float().t() + bias_at.float() + res_at.float())
    assert (even.float() - ref).abs().max() / ref.abs().max() < 2e-2
