"""The row-program verifier (tilec/verify/rows.py): the examples are proved, and broken
kernels, each a bug a row-program lowering could make, are refuted with a counterexample."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.driver import build_tile, run_passes, tile_pipeline
from tilec.frontend import load_spec
from tilec.verification import verify_spec
from tilec.verify.rows import check_rows

ROW_EXAMPLES = ("softmax", "logsumexp", "layernorm", "rmsnorm")


@pytest.mark.parametrize("example", ROW_EXAMPLES)
@pytest.mark.parametrize("schedule", ["", "bm=4 bn=32 warps=2"])
def test_row_programs_are_proved(example, schedule):
    report = verify_spec(str(EXAMPLES / f"{example}.ta"), schedule, targets=("sm_90a",))
    bad = [(r.stage, r.check, r.verdict, r.detail, r.counterexample) for r in report.results if r.verdict != "proved"]
    assert not bad, bad
    tile = [r for r in report.results if r.stage == "tile"]
    assert {r.property for r in tile} == {"equivalence", "coverage"} and len(tile) >= 8


def _tile_text(example: str):
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), {}, "")
        fused = ir.Module.parse(str(build.ta))
        run_passes(fused, tile_pipeline("")[:-2])
        return str(build.tile), str(fused)


def _verdicts(tile_text: str, fused_text: str) -> list:
    with dialects.context(), ir.Location.unknown():
        tiled, fused = ir.Module.parse(tile_text), ir.Module.parse(fused_text)
        return check_rows(tiled, fused, lambda model, prop: "tilec run ...")


def _sub(pattern: str, repl: str):
    def edit(text):
        new = re.sub(pattern, repl, text, count=1)
        assert new != text, f"the mutation {pattern!r} did not apply"
        return new
    return edit


MUTANTS = {  # name: (example, edit of the tile IR text)
    "sum reset at every block": ("layernorm", _sub(r'"tile.elem"\(%arg9\)', '"tile.elem"(%3)')),
    "stabilised sum reset at every block": ("softmax", _sub(r'"tile.elem"\(%arg6\)', '"tile.elem"(%4)')),
    "stabiliser said to share the running max of another term": ("softmax", _sub(
        r"tile.shared_max = \[\[2, 1\]\]", "tile.shared_max = [[2, 2]]")),
    "grid rounded down (last rows never written)": ("softmax", _sub(r'tile.grid = \["\(N\+7\)/8"',
                                                                     'tile.grid = ["N/8"')),
    "column loop rounded down (last block dropped)": ("rmsnorm", _sub(r"arith.ceildivsi %arg(\d), %c256",
                                                                       r"arith.divsi %arg\1, %c256")),
    "softmax without the division by the row sum": ("softmax", _sub(
        r'(%\d+) = arith.divf (%\d+), (%\d+) : f32\n(\s+)"tile.yield"\(\1\)', r'\1 = arith.divf \2, \3 : f32\n\4"tile.yield"(\2)')),
    "column mask off by one": ("layernorm", _sub(r"arith.cmpi slt", "arith.cmpi sle")),
    "running max starts at 0": ("logsumexp", _sub(r'(%3 = "tile.map"\(\) \(\{\n\s+"tile.yield")\(%cst_0\)', r"\1(%cst)")),
    "wrong rescale factor exp(m' - m)": ("softmax", _sub(r"arith.subf (%16), (%17)", r"arith.subf \2, \1")),
    "stale running max": ("softmax", _sub(r"scf.yield (%\d+), (%\d+) :", r"scf.yield %arg5, \2 :")),
    "block exponentials against the old max": ("softmax", _sub(r'"tile.elem"\(%10\) \{map = #map2\}',
                                                                 '"tile.elem"(%arg5) {map = #map2}')),
    "store at swapped offsets": ("softmax", _sub(r'"tile.store"\((%\d+), %arg1, (%\d+), (%\d+)\)',
                                                 r'"tile.store"(\1, %arg1, \3, \2)')),
    "norm over the row count, not the row length": ("rmsnorm", _sub(r"arith.index_cast %arg3", "arith.index_cast %arg4")),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_broken_row_programs_are_refuted(name):
    example, edit = MUTANTS[name]
    tile, fused = _tile_text(example)
    results = _verdicts(edit(tile), fused)
    refuted = [r for r in results if r.verdict == "counterexample"]
    assert refuted, [(r.check, r.verdict, r.detail) for r in results]
    assert all(r.replay for r in refuted)


def test_the_unmutated_texts_are_proved():
    """The mutants above start from kernels that are proved as they stand."""
    for example in {example for example, _ in MUTANTS.values()}:
        results = _verdicts(*_tile_text(example))
        assert all(r.verdict == "proved" for r in results), [(r.check, r.verdict) for r in results]
