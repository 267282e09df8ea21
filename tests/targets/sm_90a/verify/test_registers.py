"""tilec/targets/sm_90a/verify/registers.py: a warp-specialised kernel's register split is proved against what
its CTA is launched with and the SM's register file, per schedule; a split that cannot be
granted, in the tile module or in the CUDA emitted from it, is refuted."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec
from tilec.verify.kernels import check_tile

TWO_CONSUMERS = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2"


def _build():
    module = load_spec(str(EXAMPLES / "gemm.ta"))
    return build_tile(module, {}, TWO_CONSUMERS)


def _register_rows(rows):
    return [r for r in rows if r.property == "registers"]


def test_the_register_split_is_proved_per_schedule():
    with dialects.context(), ir.Location.unknown():
        build = _build()
        rows = _register_rows(check_tile(build.tile, build.fused, "gemm.ta"))
    assert [(r.verdict, "fits what the CTA is launched with" in r.check) for r in rows] == [("proved", True)]
    assert "bm=128" in rows[0].domain


def test_a_consumer_count_the_register_file_cannot_grant_is_refuted():
    """Two consumer warpgroups at 240 registers a thread: 128 x 40 + 256 x 240 = 66,560 > 65,536."""
    with dialects.context(), ir.Location.unknown():
        build = _build()
        text = re.sub(r"consumer_registers = \d+", "consumer_registers = 240", str(build.tile), count=1)
        assert text != str(build.tile)
        rows = _register_rows(check_tile(ir.Module.parse(text), build.fused, "gemm.ta"))
    assert [r.verdict for r in rows] == ["counterexample"]
    assert rows[0].counterexample["asked"] == 66560


def test_cuda_whose_setmaxnreg_differs_from_the_tile_module_is_refuted(monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    import tilec.codegen.cuda as cuda
    from tilec.build.verification_cuda import check_cuda

    real = cuda.emit_cuda

    def raised(module):
        kernel = real(module)
        kernel.source = re.sub(r"(setmaxnreg\.inc\.sync\.aligned\.u32 )\d+", r"\g<1>240", kernel.source)
        return kernel

    with dialects.context(), ir.Location.unknown():
        build = _build()
        assert [r.verdict for r in check_cuda(build, ()) if r.property == "registers"] == ["proved"]
        monkeypatch.setattr("tilec.build.verification_cuda.emit_cuda", raised)
        rows = [r for r in check_cuda(build, ()) if r.property == "registers"]
    assert [r.verdict for r in rows] == ["counterexample"] and rows[0].counterexample["CUDA"][1] == 240
