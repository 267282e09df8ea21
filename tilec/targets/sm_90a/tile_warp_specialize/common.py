"""What the rewrites of tile-warp-specialize share: the pass's errors, reading the staged
program, and clearing it away once the roles replace it."""

from __future__ import annotations

from functools import partial

from torch_mlir import ir

from tilec.passes import refusal as pass_refusal

from ..ring import tma_alloc


refusal = partial(pass_refusal, "tile-warp-specialize")  # the pass's error, located at the op it names


def first_of(fn, ops: list, wanted, what: str):
    """The first of ``ops`` that is ``wanted``; the pass's error naming ``what`` when none is."""
    found = next((op for op in ops if wanted(op)), None)
    if found is None:
        raise refusal(fn, f"the staged contraction has no {what}")
    return found


def depends_on(top: list, root) -> set:
    """The ops of ``top`` (one block, in order) that read ``root``, directly or through another."""
    found: set = set()
    reached = {root}
    for op in top:
        inner: list = []
        op.walk(lambda o: (inner.append(o), ir.WalkResult.ADVANCE)[1])
        if any(v in reached for o in inner for v in o.operands):
            found.add(op)
            reached.update(op.results)
    return found


def slice_of(ops: list, values) -> set:
    """The ops of ``ops`` (one block, in order) that ``values`` are computed from."""
    wanted = {v for v in values}
    found: set = set()
    for op in reversed(ops):
        if any(r in wanted for r in op.results):
            found.add(op)
            wanted.update(op.operands)
    return found


def copy_alloc(old, stages: int):
    """The tile.alloc the copy engine fills in place of the staged program's ``old``."""
    t = ir.MemRefType(old.type)
    return tma_alloc(t.shape[1:], t.element_type, stages)


def tile_elements(alloc) -> int:
    shape = ir.MemRefType(alloc.results[0].type).shape
    return shape[1] * shape[2]


def erase_after(spec, block) -> None:
    """Erase the staged program after the specialised roles, but the function's return."""
    ops = [op.operation for op in block.operations]
    for op in reversed(ops[ops.index(spec.operation) + 1:-1]):
        op.erase()


def erase_unused(block, allocs) -> None:
    """Erase the staged program's allocations and the index arithmetic nothing reads any more."""
    for alloc in allocs:
        alloc.operation.erase()
    changed = True
    while changed:
        changed = False
        for op in reversed([op.operation for op in block.operations]):
            if op.name.startswith("arith.") and all(not list(r.uses) for r in op.results):
                op.erase()
                changed = True


