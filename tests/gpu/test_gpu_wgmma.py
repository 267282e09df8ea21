"""The Hopper path's data on an H200: a wgmma shared-memory descriptor built by
dialects/layout.py's wgmma_descriptor (its constant fields, carried in the build manifest)
lets four wgmma.m64n64k16 steps multiply tiles the copy engine brought in its 128-byte
swizzle mode (the fixture wgmma_tile.cu), and the accumulator fragments hold D where the
fixture reads them. Skipped without a GPU of compute capability 9.0 or without the build."""

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
def _fixture():
    """(CUfunction, descriptor fields) of the fixture, or the reason the test cannot run."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        return "needs a GPU of compute capability 9.0 (wgmma, sm_90a)"
    fixtures = (read_manifest(BUILD) or {}).get("fixtures", {})
    if "wgmma_tile" not in fixtures:
        return f"no wgmma_tile fixture in {BUILD}: python tests/gpu/build.py --out {BUILD}"
    from cuda.bindings import driver

    torch.zeros(1, device="cuda")
    err, module = driver.cuModuleLoadData((BUILD / fixtures["wgmma_tile"]).read_bytes())
    assert int(err) == 0, err
    err, function = driver.cuModuleGetFunction(module, b"wgmma_tile")
    assert int(err) == 0, err
    return module, function, fixtures["wgmma_descriptor"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_wgmma_multiplies_swizzled_tiles_through_descriptors(seed):
    from cuda.bindings import driver

    found = _fixture()
    if isinstance(found, str):
        pytest.skip(found)
    _, function, descriptor = found
    gen = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(64, 64, device="cuda", generator=gen).to(torch.bfloat16)
    b = torch.randn(64, 64, device="cuda", generator=gen).to(torch.bfloat16)  # N x K: D = A · Bᵀ
    out = torch.full((64, 64), float("nan"), device="cuda")
    maps = [tensor_map(x, (64, 64), 128) for x in (a, b)]
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    err, = driver.cuLaunchKernel(function, 1, 1, 1, 128, 1, 1, 0, stream,
                                 ((maps[0], maps[1], out.data_ptr(), descriptor),
                                  (None, None, ctypes.c_void_p, ctypes.c_ulonglong)), 0)
    assert int(err) == 0, err
    torch.cuda.synchronize()
    expected = a.double() @ b.double().T
    assert not out.isnan().any()  # every element written
    assert (out.double() - expected).abs().max().item() < 1e-3 * expected.abs().max().item()


def test_the_fixture_multiplies_on_hgmma():
    """The four wgmma steps are tensor-core HGMMA instructions in the machine code (not HMMA
    or FMA: a slower path), as cuobjdump shows them."""
    import shutil
    import subprocess

    found = _fixture()
    if isinstance(found, str):
        pytest.skip(found)
    if shutil.which("cuobjdump") is None:
        pytest.skip("no cuobjdump on the PATH")
    sass = subprocess.run(["cuobjdump", "--dump-sass", str(BUILD / read_manifest(BUILD)["fixtures"]["wgmma_tile"])],
                          capture_output=True, text=True, check=True).stdout
    assert sass.count("HGMMA") == 4, sass.count("HGMMA")
