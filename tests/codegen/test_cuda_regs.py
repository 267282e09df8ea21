"""A value per column of an mma tile (a GEMM's bias) is read from global memory once per column
a thread holds, into registers where it is loaded (``cv[ni][2]``), and the element maps read those
registers: read where each element is computed, ptxas reloaded it once per row of the thread's
mma tiles (116 of 128 guarded loads a thread in a 128 x 128 GELU epilogue, SASS of 2026-12-04).
Its values on the GPU: tests/gpu (linear, matmul_bias_gelu, wgmma_linear_residual, ...)."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.cuda import emit_cuda
from tilec.lowering.driver import specialize, to_tile
from tilec.frontend import load_spec

SCHEDULES = {
    "sm_80": "bm=128 bn=128 bk=32 warps=8 stages=3",
    "sm_90a": "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 persistent=true tma-store=true",
    "sm_90a-pingpong-slabs": "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true",
}


def _cuda(schedule: str, target: str) -> str:
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "matmul_bias_gelu.ta"))
        specialize(module, {"M": 300, "N": 200, "K": 96})
        return emit_cuda(to_tile(module, schedule, target)).source


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_a_bias_is_read_once_a_column(name):
    kernels = _cuda(SCHEDULES[name], name.split("-")[0]).split("__global__")[1:]  # each variant's body
    assert kernels
    for source in kernels:
        declared = re.search(r"__nv_bfloat16 (cv\d+)\[(\d+)\]\[2\];  // a value per column, read once", source)
        assert declared, source
        cv, ni = declared.groups()
        loop_end = source.index(f"{cv}[ni][c] = ")
        reads = [m.start() for m in re.finditer(r"g_bias\[", source)]
        assert len(reads) == 1 and declared.start() < reads[0] < loop_end  # the one read: in the column loop
        assert re.search(rf"{cv}\[ni\]\[\((e|h \* 2|h \* 2 \+ 1)\) % 2\]", source)  # maps read the registers
        # each thread holds bn / (8 wn) n tiles of two columns (sm_80: 2 x 4 warps)
        assert int(ni) == (4 if name == "sm_80" else 16)
