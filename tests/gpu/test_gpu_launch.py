"""A kernel's launch plan on the GPU: a second call at the same input shapes reuses the first
call's checks and sizes; an input of the same shape with other strides is checked again (and
refused when it is not contiguous). Uses the build's "tune" fixture (GEMM 300x520x200)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from gpu_runs import read_manifest, tune_fixture_kernel
from tilec.runtime import load

BUILD = Path(os.environ.get("TILEC_GPU_CASES", Path(__file__).resolve().parents[2] / "build" / "gpu-cases"))


def test_calls_at_the_same_shapes_share_a_plan_and_other_strides_are_checked_again():
    kernel = tune_fixture_kernel(BUILD)
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


def test_a_package_of_two_targets_launches_the_kernel_of_the_gpus_own():
    """The two-target fixture (sm_80's mma.sync kernel, sm_90a's warp-specialised one): on a 9.0
    GPU the Kernel launches sm_90a's, with its own launch fields (384 threads, tensor maps), and
    the result is the product; sm_80's kernel is refused on this GPU by name."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0")
    fixture = (read_manifest(BUILD) or {}).get("fixtures", {}).get("two_targets")
    if fixture is None:
        pytest.skip(f"no two-target fixture in {BUILD}: python tests/gpu/build.py --out {BUILD}")
    from tilec.runtime import Kernel, PackageError

    kernel = load(str(BUILD / fixture), register_op=False)
    assert kernel.package.targets == ("sm_80", "sm_90a") and kernel.target == "sm_90a"
    assert kernel.manifest["threads"] == 384 and kernel.mapped
    a = torch.randn(1000, 512, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(512, 768, device="cuda", dtype=torch.bfloat16)
    ref = a.float() @ b.float()
    out = kernel(a, b)
    assert (out.float() - ref).abs().max() / ref.abs().max() < 3e-2
    ampere = Kernel(kernel.package, "sm_80")
    assert ampere.on(torch.device("cuda")) is not ampere  # a call goes to the GPU's own kernel
    with pytest.raises(PackageError, match="its sm_80 kernel does not run on a GPU of compute capability 9.0"):
        ampere.function(torch.device("cuda"))


@pytest.fixture
def graph():
    """The RMSNorm + GEMM graph package of the build (a row program, then the GEMM reading its output)."""
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("needs a GPU of compute capability 9.0")
    path = BUILD / "norm_matmul_graph_bf16.tkg"
    if not path.exists():
        pytest.skip(f"no {path.name} in {BUILD}: python tests/gpu/build.py --out {BUILD} --only norm_matmul_graph_bf16")
    return load(str(path), register_op=False)


def test_kernels_launched_before_the_one_they_read_from_ends_read_its_whole_output(graph, monkeypatch):
    """Programmatic dependent launch: a graph of a row program and the GEMM that reads its
    output, its result fed back as its input 8 times, launched back to back with no host wait
    (so every kernel reads what the kernel just before it wrote, and writes memory the one
    before it may have read). With the launches overlapping (each kernel waits for the grid
    before it at entry) the result is bit for bit that of plain launches
    (TILEC_DEPENDENT_LAUNCH=0), and matches f32."""
    from tilec.runtime.launch import dependent_launch

    assert all(dependent_launch(k.manifest, torch.device("cuda")) for k in graph.kernels)
    torch.manual_seed(0)
    x = torch.randn(97, 130, device="cuda", dtype=torch.bfloat16)
    g = (1 + 0.1 * torch.randn(130, device="cuda")).to(torch.bfloat16)
    w = (torch.randn(130, 130, device="cuda") / 130 ** 0.5).to(torch.bfloat16)

    def chain():
        y = x
        for _ in range(8):
            y = graph(y, g, w)
        torch.cuda.synchronize()
        return y

    overlapped = chain()
    monkeypatch.setenv("TILEC_DEPENDENT_LAUNCH", "0")
    assert torch.equal(overlapped, chain())
    ref = x.float()
    for _ in range(8):
        r = torch.rsqrt((ref * ref).mean(dim=1, keepdim=True) + 1e-6)
        ref = ((ref * r * g.float()) @ w.float().t()).to(torch.bfloat16).float()
    assert (overlapped.float() - ref).abs().max() / ref.abs().max() < 5e-2


def test_a_graph_of_dependent_launches_is_captured_by_a_cuda_graph(graph):
    """torch.cuda.graph captures a graph package's dependent launches (the driver keeps each as
    a programmatic edge); replayed on new inputs copied in place it gives the eager result."""
    torch.manual_seed(0)
    x = torch.randn(97, 300, device="cuda", dtype=torch.bfloat16)
    g = torch.randn(300, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(130, 300, device="cuda", dtype=torch.bfloat16)
    graph(x, g, w)  # loads the modules and makes the call's plan before the capture
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        graph(x, g, w)
    torch.cuda.current_stream().wait_stream(side)
    captured = torch.cuda.CUDAGraph()
    with torch.cuda.graph(captured):
        y = graph(x, g, w)
    x.copy_(torch.randn_like(x))
    captured.replay()
    torch.cuda.synchronize()
    assert torch.equal(y, graph(x, g, w))
