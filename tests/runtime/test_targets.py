"""The runtime picks a package's cubin by the GPU's exact compute capability (SASS runs within
one major version; an arch-specific target on its own capability alone) and refuses, naming
both sides, a GPU none of its cubins runs on."""

import pytest

from tilec.runtime import PackageError
from tilec.runtime.targets import build_target, cubin_target, runs_on
from conftest import ROOT


@pytest.mark.parametrize("target, capability, runs", [
    ("sm_80", (8, 0), True), ("sm_80", (8, 6), True), ("sm_80", (8, 9), True), ("sm_86", (8, 0), False),
    ("sm_80", (9, 0), False), ("sm_80", (10, 0), False), ("sm_80", (12, 0), False),
    ("sm_90a", (9, 0), True), ("sm_90a", (10, 0), False), ("sm_90", (9, 0), True),
])
def test_which_cubin_runs_where(target, capability, runs):
    assert runs_on(target, capability) is runs


def test_the_package_cubin_is_the_one_the_gpu_runs():
    both = ["sm_80", "sm_90a"]
    assert cubin_target(both, (9, 0)) == "sm_90a"
    assert cubin_target(both, (8, 9)) == "sm_80"
    assert cubin_target(["sm_80"], (8, 6)) == "sm_80"


@pytest.mark.parametrize("targets, capability, hint", [
    (["sm_80", "sm_90a"], (10, 0), "tilec builds for sm_80, sm_90a"),  # Blackwell: no Ampere SASS runs there
    (["sm_80"], (9, 0), "rebuild it with --target sm_90a"),
    (["sm_90a"], (8, 0), "rebuild it with --target sm_80"),
])
def test_a_gpu_no_cubin_runs_on_is_refused_by_name(targets, capability, hint):
    with pytest.raises(PackageError, match=f"compute capability {capability[0]}.{capability[1]}: {hint}"):
        cubin_target(targets, capability)


def test_the_target_built_for_a_gpu():
    assert build_target((9, 0)) == "sm_90a" and build_target((8, 6)) == "sm_80"
    with pytest.raises(PackageError, match="this GPU is 10.0"):
        build_target((10, 0))
    with pytest.raises(PackageError, match="not a target name"):
        runs_on("gfx942", (9, 0))


@pytest.fixture(scope="module")
def two_targets(tmp_path_factory):
    """A small GEMM package with a kernel for each target, each from its own pipeline: sm_90a's
    warp-specialised (wgmma, the copy engine), sm_80's mma.sync."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    
    from tilec.build.package import build

    where = tmp_path_factory.mktemp("two")
    gemm = ROOT / "examples" / "gemm.ta"
    (where / "gemm.ta").write_text("param M = 128, N = 128, K = 64\n" + "".join(gemm.read_text().partition("input")[1:]))
    build(str(where / "gemm.ta"), str(where / "gemm.tkp"),
          {"*": "bm=64 bn=64 bk=32", "sm_90a": "bm=64 bn=128 bk=64 warps=4 stages=2 consumers=1"},
          ("sm_80", "sm_90a"), use_cache=False, verify=False)
    return where / "gemm.tkp"


def test_a_kernel_launches_the_package_kernel_its_gpu_runs(two_targets, monkeypatch):
    """A Kernel of a two-target package reads the launch fields of the kernel the call's GPU
    runs (no GPU is touched: the capability is asked of torch, stubbed here)."""
    import torch

    from tilec.runtime import load

    kernel = load(str(two_targets), register_op=False)
    assert kernel.target == "sm_80"  # no GPU here: the first
    capability = {"cuda:0": (9, 0), "cuda:1": (8, 6), "cuda:2": (10, 0)}
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability[str(device)])
    hopper, ampere = kernel.on(torch.device("cuda:0")), kernel.on(torch.device("cuda:1"))
    assert hopper.target == "sm_90a" and hopper.manifest["tensor_maps"] and hopper.mapped
    assert ampere is kernel and not ampere.mapped and ampere.manifest["threads"] == 128
    assert hopper.on(torch.device("cuda:1")) is kernel  # one Kernel per target, shared
    with pytest.raises(PackageError, match="kernels for sm_80, sm_90a; none runs on a GPU of compute capability 10.0"):
        kernel.on(torch.device("cuda:2"))


def test_a_forged_kernel_of_one_target_leaves_the_package_unproved(two_targets, tmp_path):
    """Only sm_90a's kernel edited (seal and report consistent): its comparison is the error,
    and no property of either kernel is proved."""
    from tamper import edited

    from tilec.build.verification_package import verify_package

    def halve_hopper_grid(m, f):
        m["grid"][0] = ["/", m["grid"][0], 2]

    def second(m, f):  # the edit goes to the second kernel, sm_90a's
        halve_hopper_grid(m["kernels"]["sm_90a"], f)
    second.top = True
    path = tmp_path / "forged.tkp"
    path.write_bytes(edited(two_targets.read_bytes(), second, "forged"))
    rows = verify_package(str(path)).results
    assert [(r.stage, r.target, r.verdict) for r in rows] == [("package", "sm_80", "proved"),
                                                                 ("package", "sm_90a", "error")]
    assert "'grid' is" in rows[1].detail
