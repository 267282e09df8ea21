"""The epilogue of a GEMM tile program: the ta.map ops after the contraction, on tiles."""

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb

from .._loops import positions
from .bodies import translate
from .common import NoTileLowering


class NoEpilogue(NoTileLowering):
    """An epilogue op that has no tile form yet (located at the contraction, as every limit of
    a form ta-to-tile finds while lowering)."""


def over_output(op, contract) -> bool:
    """Does epilogue map ``op`` range over ``contract``'s output (not a transposing or reshaping
    copy of it, which the store of a GEMM tile cannot write)?"""
    return [str(d) for d in ir.RankedTensorType(op.result.type).encoding] == \
        [str(d) for d in ir.RankedTensorType(contract.result.type).encoding]


def emit_epilogue(g, accs: dict, mem: dict, b, offsets: dict, tile_of: dict, shape) -> ir.Value:
    """Tile values of the epilogue maps, in order; returns the tile of the kernel's result.
    ``accs``: the accumulator tile of each contraction's result.

    ``offsets`` / ``tile_of``: for each output domain dim, the CTA's offset and tile extent
    (batch dims have an offset and no extent).
    """
    rank = len(g.batch) + 2
    tiles = dict(accs)
    loads: dict = {}
    scalars = _clone_constants(g.contract.operation.block)
    for op in g.epilogue:
        result_type = ir.RankedTensorType(op.result.type)
        if not over_output(op, g.contract):
            raise NoEpilogue("epilogue maps must range over the contraction's output")
        tile_type = ir.RankedTensorType.get(list(shape), result_type.element_type)
        new = ir.Operation.create("tile.map", results=[tile_type], regions=1)
        def read(inner, new=new):
            dims = positions(ir.AffineMapAttr(inner.attributes["map"]).value)
            tile, tile_dims = _operand_tile(inner.operation.operands[0], dims, tiles, loads, mem, offsets, tile_of,
                                            rank, new)
            elem_map = tb.projection(2, [d - (rank - 2) for d in tile_dims])
            return ir.Operation.create("tile.elem", results=[inner.result.type], operands=[tile],
                                       attributes={"map": ir.AffineMapAttr.get(elem_map)}).result

        with ir.InsertionPoint(new.regions[0].blocks.append()):
            yielded = translate(op.regions[0].blocks[0].operations, b.params, scalars.__getitem__, read,
                                lambda d: _output_index(d, offsets, tile_of, rank))
            ir.Operation.create("tile.yield", operands=yielded[:1])
        tiles[op.result] = new.result
    return tiles[g.result]


def _output_index(d: int, offsets: dict, tile_of: dict, rank: int) -> ir.Value:
    """The element's index along output dim ``d`` (ta.index in an epilogue, ``C[i, j] = ... + i``):
    the CTA's offset plus the position in the tile; a batch dim is its offset alone.

        %pos = "tile.index"() {dim = 0} ; %i = arith.addi %m0, %pos
    """
    if d not in tile_of:
        return offsets[d]
    i64 = ir.IntegerType.get_signless(64)
    pos = ir.Operation.create("tile.index", results=[ir.IndexType.get()],
                              attributes={"dim": ir.IntegerAttr.get(i64, d - (rank - 2))}).result
    return arith.AddIOp(offsets[d], pos).result


def _operand_tile(src, dims, tiles, loads, mem, offsets, tile_of, rank, map_op):
    """(tile, the output dims its tile dims stand for) of a value read in the epilogue."""
    if src in tiles:
        if dims != list(range(rank)):
            raise NoEpilogue("epilogue maps must read earlier results element for element")
        return tiles[src], [rank - 2, rank - 1]
    if src not in mem:
        raise NoEpilogue("the epilogue may read kernel inputs and earlier epilogue results only")
    key = (src, tuple(dims))
    if key not in loads:
        tile_dims = [d for d in dims if d in tile_of]
        if dims[:len(dims) - len(tile_dims)] != [d for d in dims if d not in tile_of]:
            raise NoEpilogue("an epilogue operand must keep its batch dims in front")
        element = ir.RankedTensorType(src.type).element_type
        tile_type = ir.RankedTensorType.get([tile_of[d] for d in tile_dims], element)
        with ir.InsertionPoint(map_op):  # before the tile.map that reads it
            loads[key] = ir.Operation.create(
                "tile.load", results=[tile_type], operands=[mem[src], *[offsets[d] for d in dims]],
                attributes={"padding": ir.FloatAttr.get(element, 0.0)}).result
    return loads[key], [d for d in dims if d in tile_of]


def _clone_constants(block) -> dict:
    """Function-level constants of the ta function (canonicalisation hoists them), cloned here."""
    out = {}
    for op in block.operations:
        if op.operation.name == "arith.constant":
            out[op.result] = ir.Operation.create("arith.constant", results=[op.result.type],
                                                 attributes=dict(op.operation.attributes.items())).result
    return out
