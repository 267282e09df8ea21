"""tilec.runtime.tensor_map on a Hopper GPU: the maps it encodes make cp.async.bulk.tensor copy
every box of a bf16 tensor to its place, zeros past the tensor's end, with no swizzle and in
the 32-, 64- and 128-byte swizzle modes, whose shared-memory layout the fixture kernel
(tma_copy.cu) reads as dialects/layout.py's tma_swizzle states it: Swizzle(bits, 3, 3) over
bf16 offsets, bits 1, 2, 3 (tests/dialects/test_layout.py ties the two). Skipped without a GPU of
compute capability 9.0 or without the fixture's cubin (python tests/gpu/build.py)."""

from __future__ import annotations

import ctypes
import functools
import os
from pathlib import Path

import pytest
import torch

from gpu_runs import read_manifest
from tilec.runtime.tensor_map import tensor_map

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))


@functools.cache
def _function():
    """The fixture's CUfunction, or the reason the tests cannot run."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        return "needs a GPU of compute capability 9.0 (TMA, sm_90a)"
    fixture = (read_manifest(BUILD) or {}).get("fixtures", {}).get("tma_copy")
    if fixture is None:
        return f"no tma_copy fixture in {BUILD}: python tests/gpu/build.py --out {BUILD}"
    from cuda.bindings import driver

    torch.zeros(1, device="cuda")  # the primary context, current
    err, module = driver.cuModuleLoadData((BUILD / fixture).read_bytes())
    assert int(err) == 0, err
    err, function = driver.cuModuleGetFunction(module, b"tma_copy")
    assert int(err) == 0, err
    return module, function


def _copy(x: torch.Tensor, swizzle: int) -> torch.Tensor:
    from cuda.bindings import driver

    found = _function()
    rows, cols = x.shape
    box_cols, bits = (64, 0) if not swizzle else (swizzle // 2, {32: 1, 64: 2, 128: 3}[swizzle])  # a span per row
    grid = (-(-cols // box_cols), -(-rows // 64))
    out = torch.full((grid[1] * 64, grid[0] * box_cols), float("nan"), dtype=x.dtype, device="cuda")
    tmap = tensor_map(x, (64, box_cols), swizzle)
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    err, = driver.cuLaunchKernel(found[1], grid[0], grid[1], 1, 128, 1, 1, 0, stream,
                                 ((tmap, out.data_ptr(), out.shape[1], box_cols, bits),
                                  (None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int)), 0)
    assert int(err) == 0, err
    torch.cuda.synchronize()
    return out


@pytest.mark.parametrize("swizzle", [0, 32, 64, 128])
@pytest.mark.parametrize("rows,cols", [(200, 136), (64, 64), (1, 8), (257, 72)])
def test_tensor_maps_copy_every_box(rows, cols, swizzle):
    if isinstance(_function(), str):  # before any CUDA tensor is made
        pytest.skip(_function())
    x = torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
    out = _copy(x, swizzle)
    expected = torch.zeros_like(out)
    expected[:rows, :cols] = x
    assert torch.equal(out, expected)  # every element written, the tensor's own, zeros past its end


def test_maps_are_cached_per_tensor_and_box():
    if isinstance(_function(), str):
        pytest.skip(_function())
    x = torch.randn(128, 128, device="cuda").to(torch.bfloat16)
    assert tensor_map(x, (64, 64)) is tensor_map(x, (64, 64))
    assert tensor_map(x, (64, 64)) is not tensor_map(x, (32, 64))
    assert tensor_map(x, (64, 64)) is not tensor_map(x.clone(), (64, 64))
