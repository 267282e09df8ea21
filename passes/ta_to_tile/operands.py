"""The operands of a GEMM as ta-to-tile reads them: through a prologue map to the input it
maps, and several reduced indices side by side as one, over row-major views of the inputs.

    C[i, j] = sum_k f(A[i, k]) * B[k, j]                 A is copied; f is the prologue
    C[i, j] = sum_k1,k2 A[i, k1, k2] * B[k1, k2, j]      A as [M, K1*K2], B as [K1*K2, N]
"""

from torch_mlir import ir

from .._loops import positions
from .common import NoTileLowering


def through_prologue(value, positions_, args):
    """(input, its indexing in domain dims, prologue ta.map or None) of a contraction operand."""
    if value in args:
        return value, positions_, None
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "ta.map":
        raise NoTileLowering("contraction operands must be kernel inputs or ta.maps of one")
    if any(use.owner.name != "ta.contract" for use in value.uses):
        raise NoTileLowering("a prologue map (an operand computed from an input) must feed contractions only")
    rank = ir.RankedTensorType(value.type).rank
    main = None
    for inner in owner.regions[0].blocks[0].operations:
        name = inner.operation.name
        if name == "ta.index":
            raise NoTileLowering("a prologue map (an operand computed from an input) may not read ta.index")
        if name != "ta.at":
            continue
        src = inner.operation.operands[0]
        if src not in args:
            raise NoTileLowering("a prologue map may read kernel inputs only")
        if ir.RankedTensorType(src.type).rank == rank:
            if main is not None and main[0] != src:
                raise NoTileLowering("a prologue map reads one input of the operand's rank (the tile it maps)")
            main = (src, [positions_[d] for d in positions(ir.AffineMapAttr(inner.attributes["map"]).value)])
    if main is None:
        raise NoTileLowering("a prologue map must read an input of the operand's rank")
    return main[0], main[1], owner


def merged(positions_: list, reduced: list) -> list:
    """``positions_`` with the run of ``reduced`` dims replaced by its first (NoTileLowering
    when they do not stand side by side, in that order)."""
    if len(reduced) == 1:
        return positions_
    at = [positions_.index(d) if d in positions_ else -1 for d in reduced]
    if at != list(range(at[0], at[0] + len(reduced))) or at[0] < 0:
        raise NoTileLowering("indices reduced together must stand side by side, in one order, in both operands "
                             "(a row-major view merges them)")
    return positions_[:at[0] + 1] + positions_[at[0] + len(reduced):]
