"""CUDA generation without a GPU: every GEMM-family example compiles to cubin for sm_80 and
sm_90a; limits are checked before compiling; the emitted address arithmetic is the layout's."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.compile import check_limits, compile_cuda, parse_ptxas
from tilec.codegen.cuda import emit_cuda
from tilec.diagnostics import TilecError
from tilec.lowering.driver import to_tile
from tilec.frontend import load_spec

pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")


def _kernel(example: str, schedule: str, target: str | None = None):
    with dialects.context(), ir.Location.unknown():
        return emit_cuda(to_tile(load_spec(str(EXAMPLES / f"{example}.ta")), schedule, target))


@pytest.mark.parametrize("example", ["gemm", "batched_gemm", "matmul_bias_gelu", "gemm_f32_nt"])
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_gemm_family_compiles(example, target):
    kernel = _kernel(example, "bm=64 bn=64 bk=32 warps=4 stages=3")
    check_limits(target, kernel.threads, kernel.smem_bytes)
    cubin, facts = compile_cuda(kernel.source, kernel.name, target)
    assert cubin[:4] == b"\x7fELF" and 0 < facts.registers <= 255
    assert set(kernel.variants) == {"aligned", "unaligned"}


def test_schedule_that_does_not_fit_shared_memory_fails_before_compiling():
    kernel = _kernel("gemm", "bm=256 bn=128 bk=64 warps=8 stages=4", "sm_90a")  # 192 KiB: fits sm_90a, not sm_80
    with pytest.raises(TilecError, match="bytes of shared memory; sm_80 allows"):
        check_limits("sm_80", kernel.threads, kernel.smem_bytes)
    with pytest.raises(TilecError, match="need 196608 bytes of shared memory; sm_80 allows"):
        _kernel("gemm", "bm=256 bn=128 bk=64 warps=8 stages=4", "sm_80")  # lowered for sm_80: refused there


def test_warp_tile_must_fit_the_mma_shape():
    with pytest.raises(TilecError, match="both must be multiples of 16"):
        _kernel("gemm", "bm=16 bn=16 bk=16 warps=8")


def test_swizzle_arithmetic_comes_from_the_layout():
    kernel = _kernel("gemm", "bm=64 bn=64 bk=64 stages=2")
    assert ">> 3) & 56" in kernel.source           # Swizzle(3, 3, 3): chunk ^= row mod 8
    plain = _kernel("gemm", "bm=64 bn=64 bk=64 stages=2 swizzle=false")
    assert ">> 3) & 56" not in plain.source


def test_ptxas_facts_are_read():
    log = ("ptxas info : Function properties for gemm\n    16 bytes stack frame, 8 bytes spill stores, "
           "8 bytes spill loads\nptxas info : Used 200 registers, used 1 barriers")
    facts = parse_ptxas(log, "gemm")
    assert (facts.registers, facts.spill_stores, facts.stack_bytes) == (200, 8, 16)


def test_ptxas_facts_are_the_variants_own():
    """A package's two variants each have a section; "gemm" is not read from "gemm_unaligned"'s."""
    log = "\n".join(["ptxas info : Compiling entry function 'gemm_unaligned' for 'sm_90a'",
                     "ptxas . 0 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads",
                     "ptxas info : Used 205 registers, used 1 barriers",
                     "ptxas info : Compiling entry function 'gemm' for 'sm_90a'",
                     "ptxas . 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads",
                     "ptxas info : Used 248 registers, used 1 barriers"])
    fast, slow = parse_ptxas(log, "gemm"), parse_ptxas(log, "gemm_unaligned")
    assert (fast.registers, fast.spill_stores, slow.registers, slow.spill_stores) == (248, 0, 205, 8)


def test_a_serialised_wgmma_is_read_from_the_log():
    log = ("ptxas info : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
           "non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline "
           "stage in the function 'gemm'\nptxas info : Used 168 registers, used 1 barriers")
    assert parse_ptxas(log, "gemm").wgmma_serialized and not parse_ptxas(log, "attention").wgmma_serialized


@pytest.mark.parametrize("example", ["gemm", "matmul_bias_gelu"])
def test_the_asynchronous_wgmma_is_not_serialised_by_ptxas(example):
    """One group in flight: ptxas keeps the wgmmas asynchronous (no C7514), the epilogue's
    conversions computed where each element is stored."""
    kernel = _kernel(example, "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2")
    assert "wgmma.wait_group.sync.aligned 1;" in kernel.source
    _, facts = compile_cuda(kernel.source, kernel.name, "sm_90a")
    assert not facts.wgmma_serialized and facts.spill_stores == 0


def test_an_up_front_conversion_of_the_accumulator_serialises_the_wgmma(monkeypatch):
    """Why the epilogue's last map is computed at the store: materialised first (every element
    converted to bf16 before the masked stores), right after the last wgmma_wait (here with no
    release of the last stage between them), ptxas serialises the wgmmas (C7514) and says so.
    The persistent kernel the blocks use shows it (with the warp index known uniform, the
    one-tile kernel no longer does)."""
    import re

    from tilec.codegen import cuda

    monkeypatch.setattr(cuda.CudaEmitter, "op_tile_map", lambda self, op: cuda.materialize_map(self, op))
    with dialects.context(), ir.Location.unknown():
        text = str(to_tile(load_spec(str(EXAMPLES / "gemm.ta")),
                           "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true"))
        last_release = re.findall(r'\n\s*"tile.mbarrier_arrive"\(.*', text)[-1]
        kernel = emit_cuda(ir.Module.parse(text.replace(last_release, "")))
    _, facts = compile_cuda(kernel.source, kernel.name, "sm_90a")
    assert facts.wgmma_serialized


def test_compile_package_command(tilec, tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "gemm.tkp"
    status, stdout, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", out, "--target", "sm_90a",
                                "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0, err
    assert "sm_90a:" in stdout and "registers" in stdout
    status, stdout, err = tilec("compile", EXAMPLES / "gemm.ta", "-o", tmp_path / "again.tkp", "--target",
                                "sm_90a", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0 and "from the cache" in stdout
    assert (tmp_path / "again.tkp").read_bytes() == out.read_bytes()


def test_emit_cuda(tilec):
    status, out, err = tilec("compile", EXAMPLES / "matmul_bias_gelu.ta", "--emit", "cuda")
    assert status == 0, err
    assert "mma.sync.aligned.m16n8k16" in out and "erff(" in out and "cp_async16" in out


def test_layout_command(tilec, tmp_path):
    status, out, err = tilec("layout", EXAMPLES / "gemm.ta", "--operand", "B", "--png", tmp_path / "b.png")
    assert status == 0, err
    assert "worst case 1-way bank conflict" in out
    assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    status, out, err = tilec("layout", EXAMPLES / "gemm.ta", "--operand", "B", "--schedule", "swizzle=false")
    assert "worst case 8-way bank conflict" in out
    status, out, err = tilec("layout", EXAMPLES / "gemm.ta", "--operand", "Z")
    assert status == 1 and "'Z' is not staged through shared memory" in err


ATTENTION = [("attention", 64), ("attention", 96), ("causal_attention", 128), ("gqa_attention", 64),
             ("attention_bias", 64)]


@pytest.mark.parametrize("example,head_dim", ATTENTION)
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_attention_compiles(example, head_dim, target):
    from tilec.lowering.driver import run_passes

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        run_passes(module, [f"ta-specialize-shapes{{shapes=D={head_dim}}}"])
        kernel = emit_cuda(to_tile(module, "bm=64 bn=64 warps=4 stages=2"))
    check_limits(target, kernel.threads, kernel.smem_bytes)
    cubin, facts = compile_cuda(kernel.source, kernel.name, target)
    assert cubin[:4] == b"\x7fELF" and facts.registers > 0
    assert "__shfl_xor_sync" in kernel.source and "pack2(" in kernel.source


@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_f16_attention_compiles(target):
    from tilec.frontend import spec_to_ta

    spec = ("param S, T\ninput Q[S, 64] : f16\ninput K[T, 64] : f16\ninput V[T, 64] : f16\noutput O[S, 64] : f16\n"
            "O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) * 0.125) * V[j, d])\n")
    with dialects.context(), ir.Location.unknown():
        kernel = emit_cuda(to_tile(spec_to_ta(spec, "f16.ta"), "bm=64 bn=64 warps=4 stages=2"))
    cubin, facts = compile_cuda(kernel.source, kernel.name, target)
    assert "mma_f16" in kernel.source and cubin[:4] == b"\x7fELF"


FLOOR_DIV_VALUES = """param N = 33, M = 17
input X[N, M] : f32
output Y[N, M] : f32
Y[i, j] = X[i, j] * ((i - 5) / 2) + (j - 7) / 4 + (i - j) / M where (i - 9) / 4 <= j / 3 else 1.5
"""


def test_an_index_division_used_as_a_value_is_emitted_and_floors(tilec, tmp_path):
    """``(i - 5) / 2`` in a value (and a mask) is the spec's floor division, negative
    operands included: the kernel calls the prelude's floor_div, compiles, runs right on the
    tile stage and is proved."""
    from tilec.build.verification_spec import verify_spec

    path = tmp_path / "floordiv.ta"
    path.write_text(FLOOR_DIV_VALUES)
    status, out, err = tilec("compile", path, "--emit", "cuda", "--target", "sm_80")
    assert status == 0, err
    assert "floor_div(" in out.split("__global__")[-1]
    status, out, err = tilec("run", path, "--stage", "tile")
    assert status == 0 and "MISMATCH" not in out, out + err
    report = verify_spec(str(path), targets=("sm_80",))
    assert [r.detail for r in report.results if r.verdict not in ("proved", "tested")] == []


def test_the_preludes_floor_division_floors_negative_operands(tmp_path):
    """The prelude's floor_div and floor_mod, built for the host, against Python's // and %
    (both floor) for every a in [-50, 50] and positive b up to 9."""
    import shutil
    import subprocess

    from tilec.codegen.cuda_text import PRELUDE

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no host C compiler")
    lines = [ln.replace("__device__ __forceinline__ ", "static ") for ln in PRELUDE.splitlines()
             if ln.startswith("__device__ __forceinline__ long long floor_")]
    assert len(lines) == 2
    main = ("#include <stdio.h>\n" + "\n".join(lines) + "\nint main(void) { for (long long a = -50; a <= 50; ++a)"
            " for (long long b = 1; b <= 9; ++b) printf(\"%lld %lld\\n\", floor_div(a, b), floor_mod(a, b)); }\n")
    (tmp_path / "f.c").write_text(main)
    subprocess.run([cc, str(tmp_path / "f.c"), "-o", str(tmp_path / "f")], check=True)
    got = subprocess.run([str(tmp_path / "f")], check=True, capture_output=True, text=True).stdout.split("\n")
    assert got[:-1] == [f"{a // b} {a % b}" for a in range(-50, 51) for b in range(1, 10)]
