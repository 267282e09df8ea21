"""Register layouts for a freshly built tile function: every register tile gets one in its type.

A tile program's 2-d register tiles share one layout, the function's *parent*: mma
accumulator fragments when it has an mma (each warp owns whole rows when the program
reduces rows, so a row reduction stays inside a warp; a 2 x warps/2 grid otherwise), or
the blocked layout a row program asks for. From it:

    tile.smem_load read by an mma      -> #tile.mma_operand<grid, operand index>
    (or by a prologue tile.map an mma reads; the map's result alike)
    any other 2-d register tile        -> the parent
    a 1-d tile                         -> #tile.slice<parent, dim>: dim 1 dropped for a
                                          value per row (a row reduction, a tile.elem
                                          (i, j) -> (i)), dim 0 for one per column

Loop-carried tiles take the layout of what they are initialised with. The emitter reads
these encodings instead of guessing from the kernel's form.
"""

from torch_mlir import ir

from tilec.dialects.layout import MmaLayout, OperandLayout, SliceLayout
from tilec.dialects.tile import body_ops, register_layout, register_layout_attr

from .common import NoTileLowering


def mma_parent(fn, warps: int) -> MmaLayout:
    """The accumulator layout of ``fn``'s mma tiles."""
    if any(op.operation.name == "tile.reduce" or _a_from_registers(op) for op in body_ops(fn)):
        # rows stay inside a warp: a row reduction's, and an mma's A made from an accumulator
        # (P·V, dS·K), whose k runs along the accumulator's columns: one warp must hold them all
        return MmaLayout(warps, 1)
    wm = 2 if warps >= 2 else 1
    return MmaLayout(wm, warps // wm)


def _a_from_registers(op) -> bool:
    """Is ``op`` a tile.mma whose A operand a tile.map computes (from an accumulator)?"""
    if op.operation.name != "tile.mma":
        return False
    owner = op.operation.operands[0].owner
    return not isinstance(owner, ir.Block) and owner.name == "tile.map" and not any(
        inner.name == "tile.elem" and not isinstance(inner.operands[0].owner, ir.Block) and
        inner.operands[0].owner.name == "tile.smem_load" for inner in owner.regions[0].blocks[0].operations)


def assign(fn, parent) -> None:
    """Give every register tile of ``fn`` its layout (in place); NoTileLowering if one stays unknown."""
    # rank-0 tiles are scalars every thread holds whole: they need no layout
    tiles = [v for op in body_ops(fn) for v in _results(op) if _is_tile(v) and ir.RankedTensorType(v.type).rank > 0]
    for op in body_ops(fn):  # an mma operand, and the staged tile a prologue map computes it from
        if op.operation.name != "tile.mma":
            continue
        for index, operand in enumerate(list(op.operation.operands)[:2]):
            owner = operand.owner
            if isinstance(owner, ir.Block) or owner.name not in ("tile.smem_load", "tile.map"):
                continue
            staged = [operand]
            if owner.name == "tile.map":  # a prologue: the map of a staged tile (P of attention is not one)
                staged = [inner.operands[0] for inner in owner.regions[0].blocks[0].operations
                          if inner.name == "tile.elem" and not isinstance(inner.operands[0].owner, ir.Block)
                          and inner.operands[0].owner.name == "tile.smem_load"]
                staged += [operand] if staged else []
            for value in staged:
                if register_layout(value.type) is None:
                    _set(value, OperandLayout(parent, index))
    for value in tiles:
        if ir.RankedTensorType(value.type).rank == 2 and register_layout(value.type) is None:
            _set(value, parent)
    changed = True
    while changed:  # vectors: from reductions, from how they are read, through loops
        changed = False
        for value in tiles:
            if register_layout(value.type) is None:
                dim = _vector_dim(value)
                if dim is not None:
                    _set(value, SliceLayout(parent, dim))
                    changed = True
    missing = [v for v in tiles if register_layout(v.type) is None]
    if missing:
        raise NoTileLowering(f"no register layout can be given to {missing[0].type} "
                             f"(a vector neither reduced from a tile nor read by one)")


def relayout(fn, parent) -> None:
    """Give every register tile of ``fn`` its layout anew, from ``parent``: a tile -> tile pass
    that changes how the accumulator is held (mma.sync's fragments -> wgmma's) re-derives the
    rest from it, as ``assign`` derived them from the first parent."""
    for value in (v for op in body_ops(fn) for v in _results(op) if _is_tile(v)):
        t = ir.RankedTensorType(value.type)
        if t.encoding is not None:
            value.set_type(ir.RankedTensorType.get(list(t.shape), t.element_type))
    assign(fn, parent)


def _vector_dim(value):
    """The dim a 1-d tile drops from its parent, from its definition or its uses; None if unknown."""
    owner = value.owner
    if not isinstance(owner, ir.Block) and owner.name == "tile.reduce":
        return ir.IntegerAttr(owner.attributes["dim"]).value
    for related in _related(value):
        layout = register_layout(related.type)
        if isinstance(layout, SliceLayout):
            return layout.dim
    for use in value.uses:
        if use.owner.name == "tile.elem":
            amap = ir.AffineMapAttr(use.owner.attributes["map"]).value
            if amap.n_dims == 2 and len(amap.results) == 1:
                return 1 - ir.AffineDimExpr(amap.results[0]).position
    return None


def _related(value) -> list:
    """Values a loop ties to ``value``: its init, iter arg, yield and result, the operands of a
    map that yields it elementwise (a vector computed from vectors), and the result of a map
    that reads it elementwise (a vector input read beside a row value)."""
    out = []
    owner = value.owner
    if isinstance(owner, ir.Block):  # an iter arg: the loop's init and its result
        loop = owner.owner
        if loop.name == "scf.for" and value.arg_number > 0:
            i = value.arg_number - 1
            out += [loop.operands[3 + i], loop.results[i], list(owner.operations)[-1].operands[i]]
        return out
    if owner.name == "scf.for":
        i = value.result_number
        out += [owner.operands[3 + i], owner.regions[0].blocks[0].arguments[1 + i]]
    if owner.name == "tile.map":
        out += [inner.operands[0] for inner in owner.regions[0].blocks[0].operations if inner.name == "tile.elem"]
    for use in value.uses:
        user = use.owner
        if user.name == "scf.for" and use.operand_number >= 3:
            out.append(user.regions[0].blocks[0].arguments[use.operand_number - 2])
        if user.name == "scf.yield":
            out.append(user.parent.results[use.operand_number])
        if user.name == "tile.elem" and user.parent is not None and user.parent.name == "tile.map":
            out.append(user.parent.results[0])
    return [v for v in out if _is_tile(v) and ir.RankedTensorType(v.type).rank == 1]


def _set(value, layout) -> None:
    t = ir.RankedTensorType(value.type)
    typed = ir.RankedTensorType.get(list(t.shape), t.element_type, register_layout_attr(layout))
    value.set_type(typed)
    owner = value.owner
    if not isinstance(owner, ir.Block) and owner.name == "scf.for":  # the loop's iter arg and result agree
        i = value.result_number
        owner.regions[0].blocks[0].arguments[1 + i].set_type(typed)
    if isinstance(owner, ir.Block) and owner.owner.name == "scf.for" and value.arg_number > 0:
        owner.owner.results[value.arg_number - 1].set_type(typed)


def _is_tile(value) -> bool:
    return isinstance(value.type, ir.RankedTensorType)


def _results(op) -> list:
    values = list(op.operation.results)
    if op.operation.name == "scf.for":
        values += list(op.operation.regions[0].blocks[0].arguments)[1:]
    return values
