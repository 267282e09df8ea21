"""The strided copy between two kernels of a split function, proved: for every index of the
output, the copy reads the element the remap (or chain of remaps) reads, and inside its source.

    rows = check_strided(remap_op, "k1")     # [equivalence, in-bounds] rows of the report

The copy itself is tilec.graph.strided's (``strided_form``); this checks it against the ta ops.
"""

from __future__ import annotations

import time

import z3
from torch_mlir import ir

from ..dialects.affine import z3_results
from ..graph.strided import _row, _splits, chain_of, copy_of, strided_form
from .report import Result
from .solver import prove


def check_strided(op, kernel: str):
    """Result rows: the strided copy of ``op`` (one copy, or a chain of them) reads, for every
    output index, the element the copies read (row-major address identity), and each copy reads
    inside its own source."""
    start = time.perf_counter()
    form = strided_form(op)
    domain = "every index of the output (its static shape)"
    if form is None:
        return [Result(kernel, "torch", "equivalence", "the remap is one strided copy", "error", 0.0, domain,
                       detail="its map is not affine in the output's indices (split by floordiv/mod)")]
    ops = op if isinstance(op, list) else [op]
    amap = chain_of(ops)[1]
    out = form["shape"]
    idx = [z3.Int(f"i{k}") for k in range(len(out))]
    bounds = [z3.And(i >= 0, i < n) for i, n in zip(idx, out)]
    reads = z3_results(amap, idx)
    row = _row(form["src_shape"])
    split = idx
    if form["size"] != out:  # output dims split by the map's floordiv and mod
        splits, split = _splits(amap, out), []
        for k, i in enumerate(idx):
            split += [i / splits[k], i % splits[k]] if k in splits else [i]
    address = form["offset"] + sum(s * e for s, e in zip(form["stride"], split))
    same = prove(address == sum(r * w for r, w in zip(reads, row)), bounds)
    inside = _inside(ops)
    seconds = time.perf_counter() - start
    return [Result(kernel, "torch", "equivalence", "the strided copy reads the element the remap reads",
                   same.verdict, round(seconds, 4), domain, same.model, same.detail),
            Result(kernel, "torch", "in-bounds", "every element the remap reads is inside its source",
                   inside.verdict, round(seconds, 4), domain, inside.model, inside.detail)]


def _inside(ops):
    """Every copy of the chain reads inside its own source, at every index of its output (the
    first that does not is the outcome)."""
    outcome = None
    for op in ops:
        src, amap = copy_of(op)
        shape = list(ir.RankedTensorType(op.result.type).shape)
        idx = [z3.Int(f"i{k}") for k in range(len(shape))]
        reads = z3_results(amap, idx)
        outcome = prove(z3.And(*[z3.And(r >= 0, r < n) for r, n in zip(reads, ir.RankedTensorType(src.type).shape)]),
                        [z3.And(i >= 0, i < n) for i, n in zip(idx, shape)])
        if outcome.verdict != "proved":
            return outcome
    return outcome
