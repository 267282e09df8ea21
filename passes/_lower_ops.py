"""One lowering per ta op, used by ta-to-loops (see _loops.py for the Builder)."""

from torch_mlir import ir
from torch_mlir.dialects import arith, memref

from tilec.dialects.reduce_kinds import KINDS

from ._loops import Builder, affine_indices, as_f32, clone_scalar_ops, positions



def lower_op(b: Builder, op) -> None:
    name = op.operation.name
    handler = _LOWERINGS.get(name)
    if handler is None:
        hint = " (run ta-decompose-softmax first)" if name in ("ta.softmax", "ta.logsumexp") else ""
        raise ValueError(f"ta-to-loops cannot lower '{name}'{hint}")
    handler(b, op)


def _constant(b: Builder, op) -> None:
    attrs = dict(op.attributes.items())
    b.scalars[op.result] = ir.Operation.create("arith.constant", results=[op.result.type], attributes=attrs).result


def _store(value: ir.Value, buf: ir.Value, indices: list) -> None:
    element = ir.MemRefType(buf.type).element_type
    if value.type != element:
        value = arith.TruncFOp(element, value).result
    memref.StoreOp(value, buf, indices)


def _contract(b: Builder, op) -> None:
    """out = 0; for every point of the domain: out[o] += lhs[l] * rhs[r]."""
    lhs, rhs = op.operation.operands
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    sizes = {}
    for value, amap in ((lhs, maps[0]), (rhs, maps[1])):
        for k, p in enumerate(positions(amap)):
            sizes.setdefault(p, (value.type, k))
    domain = [b.sizes(t)[k] for t, k in (sizes[p] for p in range(maps[0].n_dims))]
    out = b.buffer(op.result)
    b.fill(out, op.result.type, 0.0)
    with b.loops(domain) as ivs:
        product = arith.MulFOp(as_f32(b.load(lhs, [ivs[p] for p in positions(maps[0])])),
                               as_f32(b.load(rhs, [ivs[p] for p in positions(maps[1])]))).result
        at = [ivs[p] for p in positions(maps[2])]
        _store(arith.AddFOp(as_f32(memref.LoadOp(out, at).result), product).result, out, at)


def _map(b: Builder, op) -> None:
    out = b.buffer(op.result)
    with b.loops(b.sizes(op.result.type)) as ivs:
        value = clone_scalar_ops(b, op.regions[0].blocks[0].operations, ivs, {})
        _store(value, out, ivs)


def _reduce(b: Builder, op) -> None:
    """out = identity; for every point of the source: out[kept] = out[kept] (+|max|min) src."""
    kind = ir.StringAttr(op.attributes["kind"]).value
    dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
    src = op.operation.operands[0]
    out = b.buffer(op.result)
    b.fill(out, op.result.type, KINDS[kind].neutral)
    with b.loops(b.sizes(src.type)) as ivs:
        kept = [iv for k, iv in enumerate(ivs) if k not in dims]
        combined = KINDS[kind].arith_op(memref.LoadOp(out, kept).result, b.load(src, ivs))
        memref.StoreOp(combined, out, kept)


def _remap(b: Builder, op) -> None:
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    src = op.operation.operands[0]
    out = b.buffer(op.result)
    with b.loops(b.sizes(op.result.type)) as ivs:
        memref.StoreOp(b.load(src, affine_indices(amap, ivs)), out, ivs)


def _fill(b: Builder, op) -> None:
    b.fill(b.buffer(op.result), op.result.type, ir.FloatAttr(op.attributes["value"]).value)


_LOWERINGS = {
    "arith.constant": _constant,
    "ta.contract": _contract,
    "ta.map": _map,
    "ta.reduce": _reduce,
    "ta.remap": _remap,
    "ta.fill": _fill,
}
