"""A contraction over several reduced indices side by side (a reshaped operand) lowers as one
K loop over row-major views: it runs like the oracle at shapes that divide no tile, is
proved (with the reindexing it rests on), and a wrong view or a wrong flattening is refuted."""

import re

import pytest
import z3
from torch_mlir import ir

from conftest import tile_matches_oracle
from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import spec_to_ta
from tilec.build.verification import check_spec
from tilec.verify.gemm_views import _bijection
from tilec.verify.kernels import check_tile

SPECS = {
    "two": "param M = 37, N = 21, K1 = 5, K2 = 9\ninput A[M, K1, K2] : bf16\ninput B[K1, K2, N] : bf16\n"
           "output C[M, N] : f32\nC[i, j] = sum[k1, k2](A[i, k1, k2] * B[k1, k2, j])\n",
    # three indices, B stored [N, ...] (transposed), a batch dim and an epilogue
    "three_nt": "param P = 2, M = 19, N = 33, H = 2, G = 3, E = 7\ninput A[P, M, H, G, E] : f16\n"
                "input W[N, H, G, E] : f16\ninput bias[N] : f16\noutput C[P, M, N] : f16\n"
                "C[p, i, j] = sum[h, g, e](A[p, i, h, g, e] * W[j, h, g, e]) + bias[j]\n",
}
SHAPES = {"two": [{}, {"M": 1, "N": 1, "K1": 1, "K2": 1}, {"M": 65, "K1": 3, "K2": 16}],
          "three_nt": [{}, {"P": 1, "M": 1, "N": 1, "H": 1, "G": 1, "E": 1}, {"H": 1, "G": 5, "E": 13}]}
SCHEDULE = "bm=64 bn=64 bk=32 stages=3"


@pytest.mark.parametrize("name,shapes", [(n, s) for n in SPECS for s in SHAPES[n]])
def test_merged_reductions_match_the_oracle(name, shapes):
    results = tile_matches_oracle(SPECS[name], SCHEDULE, shapes, seed=2)
    assert all(c.ok for c in results.values()), (name, shapes, results)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_merged_reductions_are_proved_and_compile(name):
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SPECS[name], f"{name}.ta")
        build = build_tile(module, None, SCHEDULE, "sm_90a")
        rows = check_spec(module, SCHEDULE, f"{name}.ta", build=build)
    bad = [(r.check, r.verdict, r.detail) for r in rows if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    assert sum("row-major view" in r.check for r in rows) == 2
    assert any("flattening is one-to-one" in r.check for r in rows)


def test_a_wrong_view_is_refuted():
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SPECS["two"], "two.ta")
        build = build_tile(module, None, SCHEDULE)
        text = str(build.tile)
        broken = text.replace('ta.dims = ["M", "K1*K2"]', 'ta.dims = ["M", "K2*K2"]', 1)
        assert broken != text
        rows = check_tile(ir.Module.parse(broken), build.fused, "two.ta")
    assert any(r.verdict == "counterexample" and "row-major view" in r.check for r in rows)


def test_the_flattening_check_can_fail():
    a, b = z3.Ints("a b")
    assert _bijection([a, b], []).verdict == "proved"
    assert _bijection([a, b, a], []).verdict == "proved"
    # strides one short collide ((0, b - 1) and (1, 0)); column-major strides leave the range
    assert _bijection([a, b], [], strides=[b - 1, z3.IntVal(1)]).verdict == "counterexample"
    assert _bijection([a, b], [], strides=[z3.IntVal(1), a + 1]).verdict == "counterexample"


def test_reduced_indices_out_of_order_are_a_located_error(tilec, tmp_path):
    spec = tmp_path / "order.ta"
    spec.write_text(SPECS["two"].replace("B[K1, K2, N]", "B[K2, K1, N]").replace("B[k1, k2, j]", "B[k2, k1, j]"))
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert status == 1 and re.search(r"order\.ta:\d+:\d+: error: no tile lowering", err), err
    assert "side by side, in one order" in err and "Traceback" not in err
