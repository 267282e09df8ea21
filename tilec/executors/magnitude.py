"""The scale a recomputed sum's rounding is measured against: Σ_t |W·X| for each element.

A saved backward's kernels round W to X's 16-bit type before its mma, as FlashAttention rounds
P and dS (docs/passes.md, the recompute form). Each term then carries a relative error of the
type's unit roundoff, so the error of the sum is bounded by that roundoff times Σ|W·X|, not by
|Σ W·X|: where terms cancel (dS = P∘(dP − D) sums to about 0 on each row) the sum is small
and its rounding is not. ``magnitudes`` gives that scale by the oracle of a copy of the
function whose recomputed sums add |W·X|; a comparison takes it as ``compare(..., scale=)``.

    scale = magnitudes(fn, inputs, env)        # {output: Σ|terms| through the function's epilogue}
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import math

from .oracle import evaluate


def recomputes(fn) -> bool:
    """Does ``fn`` (a ta function) hold sums a kernel computes with W rounded (``ta.recompute``)?"""
    return "ta.recompute" in fn.attributes


def magnitudes(fn, inputs: dict, env: dict) -> dict:
    """{output: its value with every ta.online sum adding the absolute value of its summand},
    by the oracle on ``inputs`` at sizes ``env``."""
    with fn.context, ir.Location.unknown():
        module = ir.Module.parse(str(fn.operation))
        copy = module.body.operations[0]
        for op in copy.entry_block.operations:
            if op.operation.name != "ta.online" or ir.StringAttr(op.attributes["kind"]).value != "sum":
                continue
            terminator = list(op.regions[0].blocks[0].operations)[-1]
            with ir.InsertionPoint(terminator):
                absolute = math.AbsFOp(terminator.operation.operands[0]).result
            terminator.operation.operands[0] = absolute
        return evaluate(copy, inputs, env)
