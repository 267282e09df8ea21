"""Split-K proved: the parts of an output tile's sum, written by the CTAs of its slot, are the
sum over the whole of K (tilec/verify/split_k.py); each way of getting that wrong is refuted."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import tile_and_reference
from tilec import dialects
from tilec.build.verification_spec import verify_spec
from tilec.verify.kernels import check_tile

SPLIT = "bm=64 bn=64 bk=32 warps=4 stages=3 split-k=3"
HOPPER = "bm=128 bn=128 bk=64 warps=8 stages=4 consumers=2 split-k=2"


@pytest.mark.parametrize("example, schedule, target", [
    ("gemm", SPLIT, "sm_80"), ("batched_gemm", "bm=64 bn=64 bk=32 warps=4 stages=2 split-k=2", "sm_80"),
    ("matmul_bias_gelu", "bm=64 bn=64 bk=32 warps=4 stages=3 split-k=4", "sm_80"), ("gemm", HOPPER, "sm_90a")])
def test_split_kernels_are_proved(example, schedule, target):
    report = verify_spec(str(EXAMPLES / f"{example}.ta"), schedule, stage="tile", targets=(target,))
    rows = [r for r in report.results if r.stage == "tile"]
    assert rows and all(r.verdict == "proved" for r in rows), [str(r) for r in rows if r.verdict != "proved"]
    checks = " ".join(r.check for r in rows)
    for what in ("writes its K loop's accumulator", "write the CTA's slot as part s", "no other CTA writes the slot",
                 "inside the launch's workspace", "exactly one of the"):
        assert what in checks, what


def _split_operands(text):
    return re.search(r'"tile.split_sum"\((%\w+), (%\w+), (%\w+), (%\w+)\)', text)


def _part_not_the_loops(text):
    """The accumulator's initial zero tile added in place of what the K loop leaves."""
    init = re.search(r"scf.for %\w+ = %c0 to %\w+ step %c1 iter_args\(%\w+ = (%\w+)\)", text)[1]
    return text.replace(f'"tile.split_sum"({_split_operands(text)[1]},', f'"tile.split_sum"({init},', 1)


def _overlapping_parts(text):
    """Each CTA takes one K tile more than its share: its range overlaps the next CTA's."""
    return re.sub(r"arith.minsi (%\w+), (%\w+) : index\n(\s+%\w+ = arith.maxsi)", r"arith.addi \1, %c1 : index\n\3",
                  text, count=1)


# (name, example, edit of the tile IR)
MUTANTS = [
    ("more splits counted than the grid has", "gemm", lambda t: t.replace("{splits = 3 : i64}", "{splits = 4 : i64}")),
    ("every part said to start at K tile 0", "gemm",
     lambda t: t.replace(_split_operands(t)[0], '"tile.split_sum"({}, {}, {}, %c0)'.format(*_split_operands(t).groups()[:3]))),
    ("every batch element's tile in one slot", "batched_gemm",
     lambda t: t.replace(_split_operands(t)[0], '"tile.split_sum"({0}, %2, {2}, {3})'.format(*_split_operands(t).groups()))),
    ("every CTA writing part 0", "gemm",
     lambda t: t.replace(_split_operands(t)[0], '"tile.split_sum"({0}, {1}, %c0, {3})'.format(*_split_operands(t).groups()))),
    ("the part added is not the K loop's accumulator", "gemm", _part_not_the_loops),
    ("parts overlapping in K", "gemm", _overlapping_parts),
]


@pytest.mark.parametrize("name, example, edit", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_broken_splits_are_refuted(name, example, edit):
    tiled, reference = tile_and_reference(example, SPLIT)
    mutated = edit(tiled)
    assert mutated != tiled, "the mutation did not apply"
    with dialects.context(), ir.Location.unknown():
        results = check_tile(ir.Module.parse(mutated), ir.Module.parse(reference), "m.ta")
    refuted = [r for r in results if r.verdict in ("counterexample", "error")]
    assert refuted, f"{name}: every property was still proved"
