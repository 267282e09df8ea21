"""One translator of ta bodies into tile.map bodies, shared by every matcher.

A ta.map (or a ta.online term) computes a scalar from reads of tensors (``ta.at``), its indices
(``ta.index``), shape parameters (``ta.param``) and arith/math ops. Inside a tile.map the same
scalar ops run per element; only the reads differ by kernel form (an accumulator fragment, a
staged shared-memory tile, a global load, an inline gather), so a matcher passes those as
callbacks and this walk rebuilds the rest:

    yielded = translate(op.regions[0].blocks[0].operations, b.params, outer,
                        at=lambda read: tile_elem(...), index=lambda dim: ...)

The ops are rebuilt at the current insertion point (inside the tile.map's block).
"""

from __future__ import annotations

from torch_mlir import ir

from .common import NoTileLowering


def translate(ops, params: dict, outer, at, index=None, wanted=None, known=None) -> list:
    """The yielded scalars of the ta body ``ops`` rebuilt at the insertion point.

    ``at(read)``: the value of a ``ta.at`` op; ``index(dim)``: of a ``ta.index`` (a form that
    takes none leaves it None, and such a read is refused); ``params``: the tile function's
    shape parameters by name; ``outer(value)``: a value defined outside the body (a constant);
    ``wanted``: for ops with no ``ta.yield`` (a term's ops), the value whose rebuilt form is
    returned; ``known``: values of the body computed already (a tile several maps share), each
    by a callable that gives its scalar at the insertion point."""
    local = {}

    def get(value):
        return local[value] if value in local else outer(value)

    for op in ops:
        inner = op.operation
        name = inner.name
        if known and len(inner.results) == 1 and inner.result in known:
            local[inner.result] = known[inner.result]()
            continue
        if name == "ta.yield":
            return [get(v) for v in inner.operands]
        if name == "ta.at":
            value = at(op)
        elif name == "ta.index":
            if index is None:
                raise NoTileLowering("this kernel form does not read ta.index in this body")
            value = index(ir.IntegerAttr(op.attributes["dim"]).value)
        elif name == "ta.param":
            value = params[ir.StringAttr(op.attributes["name"]).value]
        else:
            value = ir.Operation.create(name, results=[r.type for r in inner.results],
                                        operands=[get(v) for v in inner.operands],
                                        attributes=dict(inner.attributes.items())).result
        local[inner.result] = value
    if wanted is not None:
        return [local[wanted]]
    raise NoTileLowering("a ta body without ta.yield")
