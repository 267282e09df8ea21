"""An index read as a value in a GEMM epilogue (``C[i, j] = sum[k](A[i, k] * B[k, j]) + i``):
the output's index at the element, the CTA's offset plus the position in the tile (a batch
index its program id's). On the tile stage against the oracle, proved, compiled; an index of
the wrong dim is refuted."""

import pytest
from torch_mlir import ir

from conftest import tile_matches_oracle
from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import spec_to_ta
from tilec.build.verification import check_spec
from tilec.verify.kernels import check_tile

SPECS = {
    "rows": "param M = 70, N = 40, K = 33\ninput A[M, K] : f32\ninput B[K, N] : f32\noutput C[M, N] : f32\n"
            "C[i, j] = sum[k](A[i, k] * B[k, j]) + i\n",
    "both": "param M = 70, N = 40, K = 33\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : bf16\n"
            "C[i, j] = sum[k](A[i, k] * B[k, j]) * 0.5 + (i - j) / 3 + j\n",
    "batch": "param Z = 3, M = 20, N = 24, K = 16\ninput A[Z, M, K] : f32\ninput B[Z, K, N] : f32\n"
             "output C[Z, M, N] : f32\nC[z, i, j] = sum[k](A[z, i, k] * B[z, k, j]) + z * 10 + i\n",
}
SCHEDULE = "bm=64 bn=64 bk=32 stages=3"


@pytest.mark.parametrize("shapes", [{}, {"M": 1, "N": 1, "K": 1}], ids=["default", "ones"])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_an_index_in_the_epilogue_matches_the_oracle(name, shapes):
    results = tile_matches_oracle(SPECS[name], SCHEDULE, shapes, seed=2)
    assert all(c.ok for c in results.values()), (name, results)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_an_index_in_the_epilogue_is_proved_and_compiles(name):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SPECS[name], f"{name}.ta")
        build = build_tile(module, None, SCHEDULE, "sm_80")
        rows = check_spec(module, SCHEDULE, f"{name}.ta", build=build)
    assert [(r.check, r.detail) for r in rows if r.verdict not in ("proved", "tested")] == []
    assert any(r.stage == "cuda" and "sm_80" in r.check for r in rows)


def test_an_index_of_the_wrong_dim_is_refuted():
    """The epilogue's i read as the column's position: the stored value differs."""
    with dialects.context(), ir.Location.unknown():
        build = build_tile(spec_to_ta(SPECS["rows"], "rows.ta"), None, SCHEDULE)
        text = str(build.tile)
        broken = text.replace('"tile.index"() {dim = 0 : i64}', '"tile.index"() {dim = 1 : i64}')
        assert broken != text
        rows = check_tile(ir.Module.parse(broken), build.fused, "rows.ta")
    assert any(r.verdict == "counterexample" and "stored" in r.check for r in rows), \
        [(r.check, r.verdict) for r in rows]
