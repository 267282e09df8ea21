"""tile-canonicalize: MLIR's canonicalize over a tile module, keeping its pipelined loops.

    scf.for %kt = %c0 to %c1 step %c1 iter_args(...) {...} {tile.stages = 3}
        --> kept as it is (canonicalize would inline a loop of one iteration)

A kernel whose sizes fit one k (or key) block has a main loop of one iteration. The loop is
the structure every layer reads the pipeline from (the verifier's wait and stage accounting,
the interpreter, the emitter), so it stays: while canonicalize folds the index arithmetic of
the constant tile sizes around it, the upper bound of each pipelined loop (``tile.stages``) is
held behind an opaque op, then put back. Nothing else changes: a kernel whose main loop runs
more than once is printed exactly as plain canonicalize prints it.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir, passmanager

from tilec.dialects import STAGES_ATTR

from . import PassInfo

_HOLD = "tilec_hold.bound"  # an op no dialect registers: canonicalize neither folds nor erases it


@dataclass(frozen=True)
class Options:
    pass


def run(module_op, options: Options) -> None:
    ctx = module_op.context
    allowed = ctx.allow_unregistered_dialects
    ctx.allow_unregistered_dialects = True
    try:
        held = [_hold(loop) for loop in _pipelined_loops(module_op)]
        passmanager.PassManager.parse("builtin.module(canonicalize)").run(module_op)
        for op in held:
            op.result.replace_all_uses_with(op.operands[0])
            op.erase()
    finally:
        ctx.allow_unregistered_dialects = allowed


def _pipelined_loops(module_op) -> list:
    found = []

    def visit(op):
        if op.name == "scf.for" and STAGES_ATTR in op.attributes:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module_op.walk(visit)
    return found


def _hold(loop):
    """Put ``loop``'s upper bound behind an opaque op (returned, to be removed after)."""
    with ir.InsertionPoint(loop), loop.location:
        held = ir.Operation.create(_HOLD, results=[ir.IndexType.get()], operands=[loop.operands[1]])
    loop.operands[1] = held.result
    return held


PASS = PassInfo(
    name="tile-canonicalize",
    summary="canonicalize a tile module, keeping its pipelined loops even of one iteration",
    options=Options,
    run=run,
    description=__doc__,
)
