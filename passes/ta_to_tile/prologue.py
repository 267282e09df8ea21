"""The prologue of a GEMM operand: a ta.map that computes the operand from one input, on tiles.

    C[i, j] = sum_k f(A[i, k], s[k]) * B[k, j]

A is copied into shared memory as it is; the mma reads ``tile.map{f(elem(A tile), elem(s))}``
of the staged tile, where s (any other input the map reads) is a ``tile.load`` at the CTA's
offsets. An activation, a dequantisation scale or a widening cast are such maps.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb

from .._loops import positions
from .bodies import translate
from .common import NoTileLowering


def emit_prologue(map_op, tile, x_value, op_map: list, axes: tuple, where: dict, mem: dict, b,
                  k_mask: tuple) -> ir.Value:
    """The tile of ``map_op`` over the operand tile ``tile`` (the staged copy of ``x_value``).

    ``op_map``: the domain dim of each dim of the map's result; ``axes``: the domain dims of the
    tile's rows and columns; ``where``: for each domain dim, (offset, tile extent or None);
    ``k_mask``: (the tile axis of the reduced dim, its extent): past it the map yields 0, since
    f(0) of the zero-filled copy need not be 0 and would add to the sum."""
    rows, cols = ir.RankedTensorType(tile.type).shape
    element = ir.RankedTensorType(map_op.result.type).element_type
    new = ir.Operation.create("tile.map", results=[ir.RankedTensorType.get([rows, cols], element)], regions=1)
    main_dims = None
    def read(inner):
        nonlocal main_dims
        src = inner.operation.operands[0]
        dims = [op_map[r] for r in positions(ir.AffineMapAttr(inner.attributes["map"]).value)]
        if src == x_value:
            if main_dims is not None and dims != main_dims:
                raise NoTileLowering("a prologue map reads its input at one index map only")
            main_dims = dims
            source, picked = tile, [0, 1]
        else:
            source, picked = _load(src, dims, axes, where, mem, new)
        elem_map = tb.projection(2, picked)
        return ir.Operation.create("tile.elem", results=[inner.result.type], operands=[source],
                                   attributes={"map": ir.AffineMapAttr.get(elem_map)}).result

    with ir.InsertionPoint(new.regions[0].blocks.append()):
        (value, *_) = translate(map_op.regions[0].blocks[0].operations, b.params, lambda v: _outer(v, new), read)
        ir.Operation.create("tile.yield", operands=[_masked(value, axes, where, k_mask)])
    return new.result


def _masked(value, axes: tuple, where: dict, k_mask: tuple) -> ir.Value:
    """select(offset_k + index_k < K, value, 0)."""
    axis, extent = k_mask
    index = ir.Operation.create("tile.index", results=[ir.IndexType.get()],
                                attributes={"dim": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), axis)}).result
    k = arith.AddIOp(where[axes[axis]][0], index).result
    inside = arith.CmpIOp(arith.CmpIPredicate.slt, k, extent).result
    zero = arith.ConstantOp(value.type, 0.0).result
    return arith.SelectOp(inside, value, zero).result


def _load(src, dims: list, axes: tuple, where: dict, mem: dict, map_op):
    """(tile.load of input ``src`` read at domain dims ``dims``, the tile axes it follows)."""
    tiled = [d for d in dims if d in axes]
    if dims[:len(dims) - len(tiled)] != [d for d in dims if d not in axes] or \
            any(where[d][1] is None for d in tiled):
        raise NoTileLowering("an input a prologue map reads must keep its batch dims in front")
    element = ir.RankedTensorType(src.type).element_type
    tile_type = ir.RankedTensorType.get([where[d][1] for d in tiled], element)
    with ir.InsertionPoint(map_op):  # before the tile.map that reads it
        load = ir.Operation.create("tile.load", results=[tile_type], operands=[mem[src], *[where[d][0] for d in dims]],
                                   attributes={"padding": ir.FloatAttr.get(element, 0.0)}).result
    return load, [axes.index(d) for d in tiled]


def _outer(value, map_op) -> ir.Value:
    """A value the ta.map body takes from the function (a hoisted constant), cloned before the map."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        raise NoTileLowering("a prologue map may use constants from outside its body only")
    with ir.InsertionPoint(map_op):
        return ir.Operation.create("arith.constant", results=[value.type],
                                   attributes=dict(owner.attributes.items())).result
