"""The gather bounds the CUDA emitter leaves out (tilec/codegen/cuda_bounds.py): those that hold
at every element by the intervals of their indices, and no other."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.cuda_bounds import affine_interval


def _guards(tilec, shapes: str | None) -> list[str]:
    args = ["compile", EXAMPLES / "rope.ta", "--emit", "cuda", "--target", "sm_90a"]
    status, out, err = tilec(*args, *(["--shape", shapes] if shapes else []))
    assert status == 0, err
    unaligned = out.split("_unaligned(")[1]  # element reads (the aligned variant reads vectors)
    return [line.split("= (")[1].split(") ?")[0] for line in unaligned.splitlines() if "const __nv_bfloat16 g" in line]


def test_bounds_that_every_element_meets_are_left_out(tilec):
    """RoPE's eight reads (four an output): T a multiple of the tile's rows and B, H fixed: only
    the column bound of the 8-wide halves stays (the tile is wider than a half)."""
    guards = _guards(tilec, "B=2,T=64,H=3")
    assert len(guards) == 8 and all(g.count("&&") == 0 and g.endswith("< 8LL") for g in guards), guards


def test_the_last_tile_past_the_rows_keeps_its_row_bound(tilec):
    guards = _guards(tilec, "B=2,T=37,H=3")  # the last row tile reaches past T = 37
    assert all("< p_T" in g and ">= 0" not in g for g in guards), guards


def test_sizes_not_fixed_keep_every_upper_bound(tilec):
    guards = _guards(tilec, None)
    assert all("< p_T" in g for g in guards) and sum("< p_B" in g for g in guards) == 4, guards  # X's four


@pytest.mark.parametrize("text,spans,expected", [
    ("(d0) -> (d0 mod 32 + 32)", [(0, 63)], (32, 63)),     # rotate_half's other half
    ("(d0) -> (d0 mod 32)", [(3, 20)], (3, 20)),            # already inside: the value itself
    ("(d0, d1) -> (d0 * 32 + d1)", [(0, 31), (0, 31)], (0, 1023)),
    ("(d0) -> (d0 floordiv 8)", [(-9, 17)], (-2, 2)),       # floor, not C's truncation
    ("(d0) -> (d0 ceildiv 8)", [(1, 17)], (1, 3)),
    ("(d0) -> (d0 * -2 + 5)", [(0, 4)], (-3, 5)),
    ("(d0, d1) -> (d0 mod 4)", [(0, 9), None], (0, 3)),
])
def test_affine_intervals(text, spans, expected):
    with dialects.context():
        expr = ir.AffineMapAttr.parse(f"affine_map<{text}>").value.results[0]
        assert affine_interval(expr, spans) == expected


def test_an_index_without_an_interval_gives_none():
    with dialects.context():
        expr = ir.AffineMapAttr.parse("affine_map<(d0, d1) -> (d0 + d1)>").value.results[0]
        assert affine_interval(expr, [(0, 3), None]) is None
