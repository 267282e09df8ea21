"""The row-program verifier (tilec/verify/rows.py): the examples are proved, and broken
kernels, each a bug a row-program lowering could make, are refuted with a counterexample."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import edit_once as _sub
from tilec import dialects
from tilec.lowering.driver import build_tile, run_passes, tile_pipeline
from tilec.frontend import load_spec
from tilec.build.verification_spec import verify_spec
from tilec.verify.index_divisions import CHECK
from tilec.verify.rows import check_rows

ROW_EXAMPLES = ("softmax", "logsumexp", "layernorm", "rmsnorm")


@pytest.mark.parametrize("example", ROW_EXAMPLES)
@pytest.mark.parametrize("schedule", ["", "bm=4 bn=32 warps=2"])
def test_row_programs_are_proved(example, schedule):
    report = verify_spec(str(EXAMPLES / f"{example}.ta"), schedule, targets=("sm_90a",))
    bad = [(r.stage, r.check, r.verdict, r.detail, r.counterexample) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    tile = [r for r in report.results if r.stage == "tile"]
    assert {r.property for r in tile} == {"equivalence", "coverage", "in-bounds"} and len(tile) >= 8
    assert [r.check for r in tile if r.property == "in-bounds"] == [CHECK]  # its index divisions (index_divisions.py)


def _tile_text(example: str, shapes: dict | None = None, schedule: str = ""):
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), shapes or {}, schedule)
        fused = ir.Module.parse(str(build.ta))
        run_passes(fused, tile_pipeline("")[:-2])
        return str(build.tile), str(fused)


def _verdicts(tile_text: str, fused_text: str) -> list:
    with dialects.context(), ir.Location.unknown():
        tiled, fused = ir.Module.parse(tile_text), ir.Module.parse(fused_text)
        return check_rows(tiled, fused, lambda model, prop: "tilec run ...")


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
    # layernorm's variance, a centred sum folded by Chan's step (its combine map reads the running
    # count %23, the block's count %24, the shifts %38 and %42 and the block's own sum %30)
    "Chan's step weighs the running shift by the block's count": ("layernorm", _sub(
        r"arith.mulf %23, %38 : f32", "arith.mulf %24, %38 : f32")),
    "the block's centred sum never folded": ("layernorm", _sub(r"arith.addf (%\d+), %30 : f32\n(\s+)\"tile.yield\"",
                                                               r'arith.addf \1, %cst : f32\n\2"tile.yield"')),
    "block deviations about the block's sum, not its mean": ("layernorm", _sub(
        r'(%\d+) = "tile.elem"\(%19\) \{map = #map2\}', r'\1 = "tile.elem"(%14) {map = #map2}')),
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
        assert all(r.verdict in ("proved", "tested") for r in results), [(r.check, r.verdict) for r in results]


# A row one column block holds (C = 200, bn = 256): no column loops, each input read once,
# every reduction folded once from its neutral start (rows.py, tile.state provenance).
ONE_BLOCK = ({"C": 200}, "bm=8 bn=256 warps=4")


@pytest.mark.parametrize("example", ROW_EXAMPLES)
def test_one_block_row_programs_are_proved(example):
    report = verify_spec(str(EXAMPLES / f"{example}.ta"), ONE_BLOCK[1], ONE_BLOCK[0], targets=("sm_90a",))
    tile = [r for r in report.results if r.stage == "tile"]
    assert tile and all(r.verdict in ("proved", "tested") for r in report.results), \
        [(r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert any("one column block" in r.check for r in tile)
    assert all("C = 200" in r.domain for r in tile)  # the size the proof relies on is stated


def _every(pattern: str, repl: str):
    def edit(text):
        new = re.sub(pattern, repl, text)
        assert new != text, f"the mutation {pattern!r} did not apply"
        return new
    return edit


ONE_BLOCK_MUTANTS = {  # name: (example, edit of the one-block tile IR text)
    "one block for a row wider than it": ("softmax", _every(r"x200x", "x300x")),
    "running max never folds the block": ("softmax", _sub(r"arith.maximumf (%\d+), %\d+ : f32",
                                                            r"arith.maximumf \1, \1 : f32")),
    "stabilised sum said to share its own running max": ("softmax", _sub(r"tile.shared_max = 1 :",
                                                                         "tile.shared_max = 2 :")),
    "output divided by the sum's neutral start": ("softmax", _sub(
        r'("tile.elem"\(%\d+\) \{map = #map\} .*\n\s+%\d+ = "tile.elem"\()%11(\) \{map = #map2\})', r"\g<1>%3\2")),
    "mean's sum started at 1": ("layernorm", _sub(r'("tile.yield"\()%cst(\) : \(f32\) -> \(\)\n\s+\}\) '
                                                   r'\{tile.state_init = \[3, 0\]\})', r"\g<1>%cst_0\2")),
    "variance's centred sum started at 1": ("layernorm", _sub(r'("tile.yield"\()%cst(\) : \(f32\) -> \(\)\n\s+\}\) '
                                                              r'\{tile.state_init = \[4, 0\]\})', r"\g<1>%cst_0\2")),
    "variance's block mean over 1, not the block's count": ("layernorm", _sub(
        r"arith.maximumf %23, %cst_0 : f32", "arith.maximumf %cst_0, %cst_0 : f32")),
}


@pytest.mark.parametrize("name", ONE_BLOCK_MUTANTS)
def test_broken_one_block_row_programs_are_refuted(name):
    example, edit = ONE_BLOCK_MUTANTS[name]
    tile, fused = _tile_text(example, *ONE_BLOCK)
    assert "scf.for" not in tile and tile.count('"tile.load"(%arg0') == 1  # the form under test
    assert all(r.verdict in ("proved", "tested") for r in _verdicts(tile, fused))
    refuted = [r for r in _verdicts(edit(tile), fused) if r.verdict == "counterexample"]
    assert refuted and all(r.replay for r in refuted)


def test_a_reduction_without_provenance_is_an_error():
    """A fold whose states lost their tile.state marks is not read as proved: the check is an error."""
    tile, fused = _tile_text("rmsnorm", *ONE_BLOCK)
    results = _verdicts(re.sub(r"tile.state = \[\d+, \d+\]", "tile.other = 0", tile), fused)
    assert [r.verdict for r in results if r.verdict not in ("proved", "tested")] == ["error"]
