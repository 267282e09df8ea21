"""Builders for ta ops, shared by the spec frontend and the ta passes.

Call inside an active context, location and insertion point:

    y = build_map(x_type, lambda: at(x, identity(2)))
"""

from collections.abc import Callable

from torch_mlir import ir

_I64 = lambda: ir.IntegerType.get_signless(64)


def tensor_type(dims, element: ir.Type) -> ir.RankedTensorType:
    """A ta tensor type: static sizes where known, every dim named in the encoding."""
    shape = [d.static if d.static is not None else ir.ShapedType.get_dynamic_size() for d in dims]
    names = ir.ArrayAttr.get([ir.StringAttr.get(str(d)) for d in dims])
    return ir.RankedTensorType.get(shape, element, names)


def without_dims(t: ir.Type, dims: list[int], element: ir.Type | None = None) -> ir.RankedTensorType:
    """The ta tensor type ``t`` with ``dims`` removed (the type of a reduction)."""
    t = ir.RankedTensorType(t)
    keep = [i for i in range(t.rank) if i not in dims]
    names = ir.ArrayAttr.get([t.encoding[i] for i in keep])
    return ir.RankedTensorType.get([t.shape[i] for i in keep], element or t.element_type, names)


def projection(rank: int, positions: list[int]) -> ir.AffineMap:
    """(d0, ..., d{rank-1}) -> (d{positions[0]}, ...)."""
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(p) for p in positions])


def compose(first: ir.AffineMap, then: ir.AffineMap) -> ir.AffineMap:
    """The map i -> then(first(i)): ``first`` picks indices of an intermediate space that
    ``then`` sends on (e.g. an at() map followed by the at() map inside the producer)."""
    return ir.AffineMap.get(first.n_dims, 0, [e.compose(first) for e in then.results])


def uses_dim(expr: ir.AffineExpr, d: int) -> bool:
    """Whether affine expression ``expr`` reads dim ``d`` (``(d1 floordiv 4) * 64 + d3`` reads 1 and 3)."""
    if isinstance(expr, ir.AffineDimExpr):
        return ir.AffineDimExpr(expr).position == d
    if isinstance(expr, ir.AffineBinaryExpr):
        binary = ir.AffineBinaryExpr(expr)
        return uses_dim(binary.lhs, d) or uses_dim(binary.rhs, d)
    return False


def is_identity(amap: ir.AffineMap) -> bool:
    return amap == ir.AffineMap.get_identity(amap.n_dims)


def build_map(result_type: ir.Type, body: Callable[[], ir.Value]) -> ir.Value:
    """A ta.map whose body is built by ``body()``, which returns the yielded element."""
    op = ir.Operation.create("ta.map", results=[result_type], regions=1)
    with ir.InsertionPoint(op.regions[0].blocks.append()):
        ir.Operation.create("ta.yield", operands=[body()])
    return op.result


def at(tensor: ir.Value, amap: ir.AffineMap) -> ir.Value:
    """Inside a ta.map: the element of ``tensor`` at ``amap`` of the current index."""
    element = ir.RankedTensorType(tensor.type).element_type
    return ir.Operation.create("ta.at", results=[element], operands=[tensor],
                               attributes={"map": ir.AffineMapAttr.get(amap)}).result


def index(dim: int) -> ir.Value:
    """Inside a ta.map: the current index along ``dim``."""
    return ir.Operation.create("ta.index", results=[ir.IndexType.get()],
                               attributes={"dim": ir.IntegerAttr.get(_I64(), dim)}).result


def param(name: str) -> ir.Value:
    """Inside a ta.map: the value of shape parameter ``name``."""
    return ir.Operation.create("ta.param", results=[ir.IndexType.get()],
                               attributes={"name": ir.StringAttr.get(name)}).result


def reduce(src: ir.Value, kind: str, dims: list[int]) -> ir.Value:
    """ta.reduce of ``src`` over ``dims``."""
    attrs = {"kind": ir.StringAttr.get(kind),
             "dims": ir.ArrayAttr.get([ir.IntegerAttr.get(_I64(), d) for d in dims])}
    return ir.Operation.create("ta.reduce", results=[without_dims(src.type, dims)], operands=[src],
                               attributes=attrs).result


def along(src: ir.Value, name: str, dim: int) -> ir.Value:
    """ta.softmax / ta.logsumexp of ``src`` along ``dim``."""
    result = src.type if name == "softmax" else without_dims(src.type, [dim])
    return ir.Operation.create(f"ta.{name}", results=[result], operands=[src],
                               attributes={"dim": ir.IntegerAttr.get(_I64(), dim)}).result


def contract(lhs: ir.Value, rhs: ir.Value, maps: list[ir.AffineMap], result_type: ir.Type) -> ir.Value:
    """ta.contract of lhs and rhs with maps [lhs, rhs, out]."""
    attrs = {"maps": ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])}
    return ir.Operation.create("ta.contract", results=[result_type], operands=[lhs, rhs],
                               attributes=attrs).result


def remap(src: ir.Value, amap: ir.AffineMap, result_type: ir.Type) -> ir.Value:
    """ta.remap: result[i...] = src[amap(i...)]."""
    return ir.Operation.create("ta.remap", results=[result_type], operands=[src],
                               attributes={"map": ir.AffineMapAttr.get(amap)}).result
