"""tilec.runtime without a GPU: it imports no compiler; packages are checked before use;
calls are checked before anything is launched."""

import json
import subprocess
import sys
import zipfile

import pytest
import torch

from conftest import EXAMPLES


def test_runtime_imports_neither_mlir_nor_z3_nor_the_compiler():
    code = ("import sys, tilec.runtime, tilec.runtime.kernel, tilec.runtime.measure; bad = [m for m in sys.modules if m.startswith(('torch_mlir', 'z3', "
            "'lark', 'tilec.dialects', 'tilec.passes', 'tilec.frontend', 'tilec.codegen'))]; print(bad)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.build.package import build

    path = tmp_path_factory.mktemp("pkg") / "gemm.tkp"
    build(str(EXAMPLES / "matmul_bias_gelu.ta"), str(path), "bm=64 bn=64 bk=32", ("sm_90a",), use_cache=False)
    return path


def test_manifest_describes_the_kernel(package):
    from tilec.runtime import read_package

    top = read_package(str(package)).manifest
    assert top["format"] == "tilec.package/3" and list(top["kernels"]) == ["sm_90a"]
    assert top["spec"]["text"].startswith("# A linear layer") and len(top["spec"]["sha256"]) == 64
    m = read_package(str(package)).kernel("sm_90a")
    assert m["kernel"] == "matmul_bias_gelu"
    assert [a["name"] for a in m["args"]] == ["X", "W", "bias", "Y", "K", "M", "N"]
    assert m["args"][0] == {"role": "input", "name": "X", "dtype": "bf16", "dims": ["M", "K"]}
    assert m["grid"][0] == ["*", ["/", ["+", "M", 127], 128], ["/", ["+", "N", 127], 128]] or m["grid"][0][0] == "*"
    assert m["ptxas"]["registers"] > 0 and m["smem_bytes"] > 0 and m["threads"] == 128


def test_tampered_cubin_is_refused(package, tmp_path):
    from tilec.runtime import PackageError, load

    bad = tmp_path / "bad.tkp"
    with zipfile.ZipFile(package) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.endswith(".cubin"):
                middle = len(data) // 2
                data = data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]
            dst.writestr(item, data)
    with pytest.raises(PackageError, match="does not match its hash"):
        load(str(bad), register_op=False)


def test_wrong_format_is_refused(package, tmp_path):
    from tilec.runtime import PackageError, read_package

    bad = tmp_path / "old.tkp"
    with zipfile.ZipFile(package) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "manifest.json":
                data = json.dumps(dict(json.loads(data), format="tilec.package/0")).encode()
            dst.writestr(item, data)
    with pytest.raises(PackageError, match="expected 'tilec.package/3'"):
        read_package(str(bad))


def test_calls_are_checked_before_launch(package):
    from tilec.runtime import load

    kernel = load(str(package), register_op=False)
    x, w, bias = torch.zeros(4, 8, dtype=torch.bfloat16), torch.zeros(8, 6, dtype=torch.bfloat16), \
        torch.zeros(6, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="input 'X' must be bf16"):
        kernel(x.float(), w, bias)
    with pytest.raises(ValueError, match="K = 7 here but 8 elsewhere"):
        kernel(x, torch.zeros(7, 6, dtype=torch.bfloat16), bias)
    with pytest.raises(ValueError, match="input 'bias': N = 5 here but 6 elsewhere"):
        kernel(x, w, torch.zeros(5, dtype=torch.bfloat16))
    with pytest.raises(ValueError, match="must be on cuda"):
        kernel(x, w, bias)
    with pytest.raises(TypeError, match="takes the inputs \\(X, W, bias\\)"):
        kernel(x, w)


def test_outputs_get_the_mode_the_umask_asks_for(tilec, tmp_path):
    """Written through a temporary file, an output still gets 0666 less the umask, not 0600."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        out = tmp_path / "gemm.mlir"
        assert tilec("compile", EXAMPLES / "gemm.ta", "-o", out)[0] == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
        os.umask(0o077)
        out2 = tmp_path / "gemm2.mlir"
        assert tilec("compile", EXAMPLES / "gemm.ta", "-o", out2)[0] == 0
        assert stat.S_IMODE(out2.stat().st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_call_that_fails_its_checks_leaves_no_plan(package):
    """Only a call that passed every check leaves the plan later calls of its shapes reuse."""
    from tilec.runtime import load

    kernel = load(str(package), register_op=False)
    x, w, bias = torch.zeros(4, 8, dtype=torch.bfloat16), torch.zeros(8, 6, dtype=torch.bfloat16), \
        torch.zeros(6, dtype=torch.bfloat16)
    for _ in range(2):
        with pytest.raises(ValueError, match="must be on cuda"):
            kernel(x, w, bias)
    assert kernel._plans == {}


def test_a_grid_past_cudas_limits_is_refused_before_launch():
    from tilec.runtime.kernel import grid_of

    manifest = {"kernel": "k", "grid": [["/", ["+", "T", 7], 8], ["*", "B", "H"]]}
    assert grid_of(manifest, {"T": 37, "B": 2, "H": 3}) == (5, 6, 1)
    with pytest.raises(ValueError, match=r"grid of \[1, 70000, 1\] CTAs; CUDA launches at most"):
        grid_of(manifest, {"T": 1, "B": 70000, "H": 1})


def test_a_one_dimensional_grid_launches_as_x_by_1_by_1():
    """A kernel launched through a raster (causal attention) has one grid dim: blocks x batch."""
    from tilec.runtime.kernel import grid_of

    manifest = {"kernel": "k", "grid": [["*", ["/", ["+", "T", 63], 64], ["*", "B", "H"]]]}
    assert grid_of(manifest, {"T": 100, "B": 2, "H": 3}) == (12, 1, 1)
    assert grid_of(manifest, {"T": 100, "B": 70000, "H": 1}) == (140000, 1, 1)  # past y's limit, not x's


def test_the_aligned_variant_needs_every_tensor_16_byte_aligned():
    """The aligned variant loads rows and a norm's gain 16 bytes at once: a vector that starts
    off a 16-byte boundary (a slice) takes the unaligned variant, as a misaligned row does."""
    from tilec.runtime.launch import _aligned

    rows, gain = torch.zeros(4, 64, dtype=torch.bfloat16), torch.zeros(72, dtype=torch.bfloat16)
    assert _aligned([rows, gain[:64], torch.tensor(1.0)])
    assert not _aligned([rows, gain[1:65]])  # 2 bytes past an aligned start
    assert not _aligned([torch.zeros(4, 65, dtype=torch.bfloat16)])  # rows of 130 bytes


def test_a_kernel_waits_for_the_grid_before_it_ahead_of_any_global_access(package):
    """A kernel launched before the grid ahead of it has ended (programmatic dependent launch)
    is correct only if it waits for that grid before it reads or writes global memory: the
    wait is the kernel's first statement, and the manifest says so (the runtime asks for such
    launches only then)."""
    from tilec.runtime import read_package

    pkg = read_package(str(package))
    assert pkg.kernel("sm_90a")["grid_dependency"] == "wait at entry"
    source = next(text for name, text in pkg.files.items() if name.endswith(".cu")).decode()
    body = source.split('extern "C" __global__', 1)[1].split(") {\n", 1)[1]  # after the kernel's signature
    first = [line.strip() for line in body.splitlines()[:3]]
    assert first == ["#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900",
                     'asm volatile("griddepcontrol.wait;" ::: "memory");', "#endif"]
    # the next grid is scheduled as this one's CTAs exit: signalled early, it slowed a GEMM
    assert "launch_dependents" not in source


def test_dependent_launch_only_for_kernels_that_wait(monkeypatch):
    from tilec.runtime.launch import dependent_launch

    # no GPU is asked: a manifest without the wait, or the switch off, decides first
    assert not dependent_launch({"kernel": "old"}, "cuda:0")
    assert not dependent_launch({"grid_dependency": "something else"}, "cuda:0")
    monkeypatch.setenv("TILEC_DEPENDENT_LAUNCH", "0")
    assert not dependent_launch({"grid_dependency": "wait at entry"}, "cuda:0")


def test_split_k_package_runs_twice_on_the_cpu_model(tmp_path):
    """A split-K package names its workspace in the manifest; run under the CPU model of the GPU
    twice (the launch starts from a zero workspace and must leave it so), it equals torch."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.build.package import build
    from tilec.runtime import load

    path = tmp_path / "split.tkp"
    build(str(EXAMPLES / "gemm.ta"), str(path), "bm=64 bn=64 bk=32 warps=4 stages=3 split-k=3", ("sm_90a",),
          use_cache=False)
    kernel = load(str(path), register_op=False).on("cpu")
    assert kernel.manifest["workspace"] == {"floats": 64 * 64, "splits": 3}
    assert kernel.workspace.slots((4, 6, 1)) == 8  # CTAs over splits: one slot per output tile
    torch.manual_seed(0)
    a, b = torch.randn(130, 1000, dtype=torch.bfloat16), torch.randn(1000, 70, dtype=torch.bfloat16)
    ref = (a.float() @ b.float())
    for _ in range(2):
        out = kernel(a, b).float()
        assert ((out - ref).abs().max() / ref.abs().max()) < 1e-2


def test_a_malformed_workspace_is_refused(tmp_path):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.build.package import build
    from tilec.runtime import PackageError, load
    from tilec.runtime.manifest import seal

    path = tmp_path / "split.tkp"
    build(str(EXAMPLES / "gemm.ta"), str(path), "bm=64 bn=64 bk=32 warps=4 stages=3 split-k=2", ("sm_90a",),
          use_cache=False)
    bad = tmp_path / "bad.tkp"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "manifest.json":
                m = json.loads(data)
                m["kernels"]["sm_90a"]["workspace"]["splits"] = 1
                m["seal"] = seal(m)
                data = json.dumps(m).encode()
            dst.writestr(item, data)
    with pytest.raises(PackageError, match="'workspace'"):
        load(str(bad), register_op=False)
