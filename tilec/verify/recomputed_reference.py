"""A fused ta function's recomputed sums, read as the tile check of their loop reads them.

Each ``ta.online`` sum of a ``ta.recompute`` function (a saved backward: dV = Σ_i P·dO,
dK = Σ_i dS·Q, dQ = Σ_j dS·K) yields one product W·X: X an input read at the sum's index t
and the output's last dim (dO[b, h, i, d]), W everything else, pointwise in the contractions
it reads (the scores, dP), in gathered vectors (lse, D) and in indices (masks). Nothing here
knows which sums a backward has: the split is read from each summand.

``Summands`` evaluates W at domain coordinates on Z3 terms (a contraction read as the
uninterpreted function of its element index the tile side substitutes for its mma), and gives
the indices the reference reads X and each contraction's operands at.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3
from torch_mlir import ir

from .loops import affine
from .scalars import Values
from .symbolic import dim
from .tile_values import ta_input_names


def positions(amap: ir.AffineMap) -> list[int]:
    """The dims a projection map picks, in order."""
    return [ir.AffineDimExpr(e).position for e in amap.results]


@dataclass
class Sum:
    """One recomputed sum: its ta op, where it sits in the function, its summand split W·X."""
    op: object
    number: int
    w: object            # the SSA value of W in the summand's body
    x_at: object         # the ta.at that reads X
    out_dims: list       # the domain dims of the sum's result, in order
    t: int               # the domain dim it sums over
    extents: list        # the domain's extents, as dim expressions


class Summands:
    """The recomputed sums of ``fn`` (a fused ta function), their W and X; ``vals`` the Z3
    values shared with the tile side."""

    def __init__(self, fn, vals: Values, params: dict):
        self.fn, self.vals, self.params = fn, vals, params
        self.names = ta_input_names(fn)
        self.ops = list(fn.entry_block.operations)
        self.unread: list = []  # values W reads that this check does not follow

    def sum(self, number: int) -> Sum:
        """The sum at place ``number`` of the function, its summand split W·X (ValueError where
        the summand is not such a product)."""
        op = self.ops[number]
        if op.operation.name != "ta.online" or ir.StringAttr(op.attributes["kind"]).value != "sum":
            raise ValueError(f"op {number} of the function, which the loop says it computes, is not a sum")
        out_dims = positions(ir.AffineMapAttr(op.attributes["map"]).value)
        t = ir.IntegerAttr(op.attributes["dim"]).value
        body = op.regions[0].blocks[0]
        summand = list(body.operations)[-1].operation.operands[0]
        product = summand.owner
        if isinstance(product, ir.Block) or product.name != "arith.mulf":
            raise ValueError("a recomputed sum's summand is not a product W·X")
        sides = list(product.operands)
        x_sides = [k for k, v in enumerate(sides) if self._reads_x(v, t, out_dims[-1])]
        if len(x_sides) != 1:
            raise ValueError("a recomputed sum's summand has no single factor X read at (t, d)")
        k = x_sides[0]
        x = sides[k].owner
        x_at = x if x.name == "ta.at" else x.operands[0].owner  # extf widens exactly
        extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(op.attributes["extents"])]
        return Sum(op, number, sides[1 - k], x_at, out_dims, t, extents)

    def _reads_x(self, value, t: int, d: int) -> bool:
        """``value`` is an input (or its exact widening) read at t and at the output's dim d."""
        owner = value.owner
        if isinstance(owner, ir.Block):
            return False
        if owner.name == "arith.extf":
            return self._reads_x(owner.operands[0], t, d)
        if owner.name != "ta.at" or not self._input(owner.operands[0]):
            return False
        dims = positions(ir.AffineMapAttr(owner.attributes["map"]).value)
        return t in dims and d in dims

    def _input(self, value) -> bool:
        owner = value.owner
        return value in self.names or (not isinstance(owner, ir.Block) and owner.name == "ta.remap"
                                       and owner.operands[0] in self.names)

    def extent(self, s: Sum, d: int):
        return dim(s.extents[d], self.params)

    def w(self, s: Sum, coords: dict, contraction):
        """W of sum ``s`` at domain ``coords`` ({dim: Z3 Int}); ``contraction(op, index)`` the
        value of a ta.contract at its element ``index``."""
        def read(op, local):
            name = op.operation.name
            if name == "ta.param":
                return self.params[ir.StringAttr(op.attributes["name"]).value]
            if name == "ta.index":
                return _coord(coords, ir.IntegerAttr(op.attributes["dim"]).value)
            if name != "ta.at":
                return None
            src = op.operation.operands[0]
            at = [_coord(coords, d) for d in positions(ir.AffineMapAttr(op.attributes["map"]).value)]
            if not isinstance(src.owner, ir.Block) and src.owner.name == "ta.contract":
                return contraction(src.owner, at)
            if self._input(src):
                return self.vals.tensor(*self.through_remap(src, at))
            self.unread.append(src)
            return z3.Real(f"other{len(self.unread)}")

        return _value_of(s.w, s.op.regions[0].blocks[0], self.vals, read)

    def x_index(self, s: Sum, coords: dict) -> tuple[str, list]:
        """(tensor, index) of X at domain ``coords``."""
        at = [_coord(coords, d) for d in positions(ir.AffineMapAttr(s.x_at.attributes["map"]).value)]
        return self.through_remap(s.x_at.operands[0], at)

    def contractions_read(self, s: Sum) -> list[tuple[object, ir.AffineMap]]:
        """(ta.contract, the map W reads it at) for each such read in ``s``'s summand."""
        found = []
        for op in s.op.regions[0].blocks[0].operations:
            if op.operation.name != "ta.at":
                continue
            src = op.operation.operands[0]
            if not isinstance(src.owner, ir.Block) and src.owner.name == "ta.contract":
                found.append((src.owner, ir.AffineMapAttr(op.attributes["map"]).value))
        return found

    def operands(self, contract, index: list, e) -> list[tuple[str, list]]:
        """[(tensor, index)] of the contraction's two operands at its element ``index`` and
        reduction index ``e`` (its one dim outside the result)."""
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(contract.attributes["maps"])]
        at = {d: x for d, x in zip(positions(maps[2]), index)}
        dom = [at.get(d, e) for d in range(maps[2].n_dims)]
        return [self.through_remap(v, [affine(x, dom) for x in m.results])
                for v, m in zip(list(contract.operands)[:2], maps[:2])]

    def depth(self, contract):
        """The extent of the contraction's reduction dim, read from an operand's type."""
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(contract.attributes["maps"])]
        kept = set(positions(maps[2]))
        for value, amap in zip(list(contract.operands)[:2], maps[:2]):
            for k, e in enumerate(amap.results):
                if isinstance(e, ir.AffineDimExpr) and ir.AffineDimExpr(e).position not in kept:
                    size = ir.RankedTensorType(value.type).shape[k]
                    return None if ir.ShapedType.is_dynamic_size(size) else size
        return None

    def through_remap(self, value, dims: list) -> tuple[str, list]:
        owner = value.owner
        if not isinstance(owner, ir.Block) and owner.name == "ta.remap":
            amap = ir.AffineMapAttr(owner.attributes["map"]).value
            return self.names[owner.operands[0]], [affine(x, dims) for x in amap.results]
        return self.names[value], dims


def _value_of(target, block, vals: Values, read):
    """The Z3 value of ``target``, an SSA value of ``block``, evaluating the block up to it."""
    local = {}
    outer = lambda v: vals.scalar(v.owner, [])  # a constant defined outside the body
    get = lambda v: local[v] if v in local else outer(v)
    for op in block.operations:
        if op.operation.name == "ta.yield":
            break
        special = read(op, local)
        local[op.result] = special if special is not None else vals.scalar(op, [get(v) for v in op.operation.operands])
        if op.result == target:
            return local[op.result]
    return get(target)


def _coord(coords: dict, d: int):
    """Domain dim ``d``'s coordinate: a free symbol where the check binds none (a value that
    reads it then depends on what the tile side does not compute, and is refuted)."""
    return coords[d] if d in coords else z3.Int(f"free_d{d}")
