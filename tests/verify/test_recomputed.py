"""The tile check of a saved backward's recomputed sums (tilec/verify/recomputed.py): the dK/dV
and dQ kernels ta-to-tile builds are proved for all shapes, and broken ones, each an edit of the
tile IR the lowering made, come back as counterexamples of the check that speaks of the break."""

import functools
import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.frontend import load_spec
from tilec.graph.split import split_kernels
from tilec.lowering.driver import build_tile, rewrite, run_passes
from tilec.verify.kernels import check_tile
from tilec.verify.recomputed import check_recomputed
from tilec.verify.replay import Replay

SMALL = "bm=16 bn=16 warps=1 stages=2"


@functools.lru_cache(maxsize=None)
def _kernels(example: str, schedule: str) -> dict:
    """{an output: (the tile IR text of the recompute kernel writing it, its fused ta text)}."""
    module = load_spec(str(EXAMPLES / f"{example}.ta"))
    run_passes(module, ["ta-grad{saved=true replace=true}"])
    list(module.body.operations)[0].operation.erase()
    fused, _ = rewrite(module)
    found = {}
    for piece in split_kernels(fused):
        if piece.form != "recompute":
            continue
        build = build_tile(ir.Module.parse(piece.text), {"D": 64}, schedule)
        found.update({name: (str(build.tile), str(build.fused)) for name in piece.outputs})
    return found


def _rows(example: str, output: str, schedule: str = SMALL, edit=None, every: bool = False) -> list:
    tile_text, fused_text = _kernels(example, schedule)[output]
    tiled = ir.Module.parse(edit(tile_text) if edit else tile_text)
    fused = ir.Module.parse(fused_text)
    if every:
        return check_tile(tiled, fused, "x.ta")
    return check_recomputed(tiled, fused, Replay.of("x.ta", tiled.body.operations[0]))


@pytest.mark.parametrize("example,schedule", [
    ("attention", SMALL), ("causal_attention", "bm=32 bn=16 warps=2 stages=3"),
    ("causal_attention", "bm=16 bn=64 warps=1 stages=2"), ("einsum_attention", SMALL),
    ("gqa_attention", "bm=16 bn=32 warps=1 stages=3")])
def test_every_backward_kernel_is_proved(example, schedule):
    with dialects.context(), ir.Location.unknown():
        kernels = {text: output for output, (text, _) in _kernels(example, schedule).items()}  # dK, dV: one
        rows = [r for output in kernels.values() for r in _rows(example, output, schedule, every=True)]
    bad = [(r.kernel, r.check, r.verdict, r.detail) for r in rows if r.verdict != "proved"]
    assert rows and not bad, bad
    checks = {r.check.split(": ", 1)[-1] for r in rows}
    assert "W at (row, t) is the reference's W (scale, masks, statistics) for every t of the sum" in checks
    assert "every t of a block the loop skips adds nothing to the reference (its W = 0)" in checks


def test_each_sum_of_the_dk_dv_kernel_gets_its_own_rows():
    with dialects.context(), ir.Location.unknown():
        rows = _rows("attention", "dK")
    assert {r.check.split(":")[0] for r in rows} == {"dK", "dV"}
    assert all(r.verdict == "proved" for r in rows)


def _first(pattern: str, repl):
    def edit(text):
        new = re.sub(pattern, repl, text, count=1)
        assert new != text, f"the mutation {pattern!r} did not apply"
        return new
    return edit


def _swap_accumulators(text: str) -> str:
    """dV's mma adds onto dK's accumulator."""
    first, second = re.search(r"iter_args\((%\w+) = %\w+, (%\w+) = ", text).groups()
    return _first(rf'("tile\.mma"\(%\w+, %\w+, ){first}\)', rf"\g<1>{second})")(text)


def _x_from_another_tile(text: str) -> str:
    """dV's X (dO) multiplied from the shared tile of Q instead."""
    loads = re.findall(r'"tile\.smem_load"\((%\w+), %\w+\) : \(memref<2x', text)
    return _first(rf'"tile\.smem_load"\({loads[0]}, (%\w+)\) : \(memref<2x',
                  rf'"tile.smem_load"({loads[1]}, \g<1>) : (memref<2x')(text)


# (the kernel's output, the edit, the start of the check that must refute it)
MUTANTS = {
    "D dropped from dS": ("dK", _first(r'(= "tile.gather"\(%arg5[^\n]*\n\s*%\w+ = )arith\.subf (%\w+), %\w+ : f32',
                                       r"\1arith.addf \2, %cst_0 : f32"), "dK: W at"),
    "the causal mask dropped from P": ("dK", _first(r"= arith\.select %\w+, (%\w+), %cst_1 : f32",
                                                    r"= arith.addf \1, %cst_0 : f32"), "dV: W at"),
    "the causal mask off by one": ("dK", _first(r"arith\.cmpi sle", "arith.cmpi slt"), "dV: W at"),
    "the scores' scale dropped": ("dK", _first(r"= arith\.mulf (%\w+), %cst : f32", r"= arith.addf \1, %cst_0 : f32"),
                                  "dV: W at"),
    "a wrong scale": ("dK", _first(r"1\.250000e-01 : f32", "2.500000e-01 : f32"), "dV: W at"),
    "exp(x + lse) for exp(x - lse)": ("dK", _first(r"arith\.subf (%\w+), (%\w+) : f32(\n\s*%\w+ = math\.exp)",
                                                   r"arith.addf \1, \2 : f32\3"), "dV: W at"),
    "the sequence's end not masked": ("dK", _first(r"= arith\.select %\w+, (%\w+), %cst_0 : f32(\n\s*\"tile\.yield\")",
                                                   r"= arith.addf \1, %cst_0 : f32\2"), "dV: a t outside"),
    "dK/dV starts one block late": ("dK", _first(r"(scf\.for %\w+ = )%\w+( to %\w+ step %c1 iter_args)", r"\1%c1\2"),
                                    "dV: every t of a block the loop skips"),
    "dQ drops its last partial key block": ("dQ", _first(r"arith\.ceildivsi (%arg\d+), %c16 : index",  # of the length
                                                         r"arith.divsi \1, %c16 : index"),
                                            "dQ: every t of a block the loop skips"),
    "an accumulator starts at the scale, not 0": ("dK", _first(r'"tile\.yield"\(%cst_0\)', '"tile.yield"(%cst)'),
                                                  "dV: the accumulator starts at 0"),
    "dV added onto dK's accumulator": ("dK", _swap_accumulators, "dV: each iteration adds"),
    "dV's X read from Q's tile": ("dK", _x_from_another_tile, "dV: X: read"),
    "the loop's sums swapped": ("dK", _first(r"tile\.computes = \[(\d+), (\d+)\]", r"tile.computes = [\2, \1]"),
                                "dV: the accumulator is stored"),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_broken_backward_kernel_is_a_counterexample(mutant):
    output, edit, check = MUTANTS[mutant]
    with dialects.context(), ir.Location.unknown():
        rows = _rows("causal_attention", output, edit=edit)
    refuted = [r for r in rows if r.check.startswith(check)]
    assert refuted and all(r.verdict == "counterexample" for r in refuted), \
        [(r.check, r.verdict, r.detail) for r in rows if r.verdict != "proved"]
    assert all(r.replay for r in refuted)


def test_the_second_output_of_a_kernel_is_checked_as_the_first():
    # dV stored from dK's accumulator: the epilogue of every store is read, not the first alone
    edit = _first(r'"tile\.store"\((%\w+), (%\w+), ([^\n]*)\n(\s*)"tile\.store"\(%\w+, ', r'"tile.store"(\1, \2, \3\n\4"tile.store"(\1, ')
    with dialects.context(), ir.Location.unknown():
        rows = _rows("attention", "dK", edit=edit, every=True)
    bad = {r.check: r.verdict for r in rows if r.verdict != "proved"}
    assert bad.get("dV: the stored element is the fused ta's output at the element it is stored at, from the values "
                   "the loop carries") == "counterexample", bad
    # and dV's accumulator is stored nowhere
    assert bad.get("accumulator 0: the accumulator is stored as an output read from the sum it computes") == \
        "counterexample", bad
