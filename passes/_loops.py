"""Loop-nest building blocks for ta-to-loops: buffers, sizes, loop nests, scalar bodies."""

from contextlib import ExitStack, contextmanager

from torch_mlir import ir
from torch_mlir.dialects import affine, arith, memref, scf

from tilec.dialects.dims import DimExpr
from tilec.dialects.ta import tensor_dims

_INDEX_OPS = {"+": arith.AddIOp, "-": arith.SubIOp, "*": arith.MulIOp, "/": arith.FloorDivSIOp}


class Builder:
    """State of one function being lowered: buffers of ta values, sizes, parameters."""

    def __init__(self, block: ir.Block, params: dict[str, ir.Value]):
        self.block = block
        self.params = params
        self.buffers: dict = {}   # ta tensor value -> memref
        self.scalars: dict = {}   # function-level scalar (hoisted constant) -> its clone
        self.allocated: list = []
        self.inlined: set = set()  # values computed where they are read instead of stored
        self.numbers: dict = {}    # ta value -> number of the op that defines it
        self._dims: dict[str, ir.Value] = {}
        self.created: list = []    # every scf.for made, in order (ta-to-loops tags the outer ones)
        with ir.InsertionPoint(block), ir.Location.unknown():
            self.c0 = arith.ConstantOp(ir.IndexType.get(), 0).result
            self.c1 = arith.ConstantOp(ir.IndexType.get(), 1).result

    def dim(self, expr: DimExpr) -> ir.Value:
        """An index value holding the size ``expr`` (computed once, at function entry)."""
        key = str(expr)
        if key not in self._dims:
            with ir.InsertionPoint(self.block.operations[1]):  # right after c0, c1
                self._dims[key] = self._emit_dim(expr)
        return self._dims[key]

    def _emit_dim(self, expr: DimExpr) -> ir.Value:
        if expr.op == "const":
            return arith.ConstantOp(ir.IndexType.get(), expr.value).result
        if expr.op == "sym":
            return self.params[expr.value]
        lhs, rhs = (self._emit_dim(a) for a in expr.args)
        return _INDEX_OPS[expr.op](lhs, rhs).result

    def sizes(self, tensor_type: ir.Type) -> list[ir.Value]:
        """Sizes of a ta tensor type, as index values."""
        t = ir.RankedTensorType(tensor_type)
        return [arith.ConstantOp(ir.IndexType.get(), n).result if not ir.ShapedType.is_dynamic_size(n)
                else self.dim(d) for n, d in zip(t.shape, tensor_dims(t))]

    def buffer(self, value: ir.Value) -> ir.Value:
        """The buffer of a ta value, allocated on first use."""
        if value not in self.buffers:
            t = ir.RankedTensorType(value.type)
            dynamic = [s for s, n in zip(self.sizes(t), t.shape) if ir.ShapedType.is_dynamic_size(n)]
            alloc = memref.AllocOp(ir.MemRefType.get(t.shape, t.element_type), dynamic, [])
            if value in self.numbers:  # which ta op's value the buffer holds (read by the verifier)
                alloc.attributes["ta.holds"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), self.numbers[value])
            self.buffers[value] = alloc.result
            self.allocated.append(self.buffers[value])
        return self.buffers[value]

    @contextmanager
    def loops(self, sizes: list[ir.Value]):
        """Nested scf.for loops over [0, size) for each size; yields the induction variables."""
        ivs = []
        with ExitStack() as stack:
            for n in sizes:
                loop = scf.ForOp(self.c0, n, self.c1)
                self.created.append(loop)
                with ir.InsertionPoint(loop.body):
                    scf.YieldOp([])
                stack.enter_context(ir.InsertionPoint.at_block_terminator(loop.body))
                ivs.append(loop.induction_variable)
            yield ivs

    def fill(self, buf: ir.Value, value_type: ir.Type, value: float) -> None:
        element = ir.RankedTensorType(value_type).element_type
        constant = arith.ConstantOp(element, value).result
        with self.loops(self.sizes(value_type)) as ivs:
            memref.StoreOp(constant, buf, ivs)

    def copy(self, src: ir.Value, dst: ir.Value, value_type: ir.Type) -> None:
        with self.loops(self.sizes(value_type)) as ivs:
            memref.StoreOp(memref.LoadOp(src, ivs).result, dst, ivs)

    def free_temporaries(self, keep: set) -> None:
        for buf in self.allocated:
            if buf not in keep:
                memref.DeallocOp(buf)

    def load(self, value: ir.Value, indices: list[ir.Value]) -> ir.Value:
        return memref.LoadOp(self.buffer(value), indices).result

    def element(self, value: ir.Value, indices: list[ir.Value]) -> ir.Value:
        """value[indices]: loaded from its buffer, or computed on the spot if inlined."""
        if value not in self.inlined:
            return self.load(value, indices)
        op = value.owner
        name = op.operation.name
        if name == "ta.map":
            return clone_scalar_ops(self, op.regions[0].blocks[0].operations, indices, {})
        if name == "ta.remap":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            return self.element(op.operation.operands[0], affine_indices(amap, indices))
        return _contract_element(self, op, indices)


def positions(amap: ir.AffineMap) -> list[int]:
    return [ir.AffineDimExpr(e).position for e in amap.results]


def as_f32(value: ir.Value) -> ir.Value:
    f32 = ir.F32Type.get()
    return value if value.type == f32 else arith.ExtFOp(f32, value).result


def clone_scalar_ops(b: Builder, ops, ivs: list[ir.Value], local: dict) -> ir.Value | None:
    """Emit a ta.map-style body at the current point; returns the yielded value.

    ``local`` maps body values to their emitted counterparts (it is extended).
    """
    for op in ops:
        name = op.operation.name
        if name == "ta.yield":
            return _get(b, local, op.operation.operands[0])
        if name == "ta.at":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            result = b.element(op.operation.operands[0], [ivs[p] for p in positions(amap)])
        elif name == "ta.index":
            result = ivs[ir.IntegerAttr(op.attributes["dim"]).value]
        elif name == "ta.param":
            result = b.params[ir.StringAttr(op.attributes["name"]).value]
        else:
            attrs = dict(op.attributes.items())
            operands = [_get(b, local, v) for v in op.operation.operands]
            result = ir.Operation.create(name, results=[r.type for r in op.operation.results],
                                         operands=operands, attributes=attrs).result
        local[op.result] = result
    return None


def _get(b: Builder, local: dict, value: ir.Value) -> ir.Value:
    if value in local:
        return local[value]
    return b.scalars[value]


def emit_value(b: Builder, value: ir.Value, ivs: list, local: dict) -> ir.Value:
    """Emit just the ops of a body that ``value`` needs (ivs: the body's index values)."""
    if value in local:
        return local[value]
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.parent.name not in ("ta.online", "ta.map"):
        return b.scalars[value]
    for operand in owner.operation.operands:
        if operand.owner != owner and _defined_in_body(operand, owner.operation.parent):
            emit_value(b, operand, ivs, local)
    clone_scalar_ops(b, [owner], ivs, local)
    return local[value]


def _defined_in_body(value, body_op) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.parent == body_op


def _contract_element(b: Builder, op, indices: list) -> ir.Value:
    """sum over the reduced dims of lhs * rhs at the result point ``indices`` (f32)."""
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    out = positions(maps[2])
    dom = [None] * maps[0].n_dims
    for p, iv in zip(out, indices):
        dom[p] = iv
    reduced = [d for d in range(len(dom)) if d not in out]
    sizes = {}
    for value, amap in zip(op.operation.operands, maps):
        for k, p in enumerate(positions(amap)):
            sizes.setdefault(p, b.sizes(value.type)[k])
    lhs, rhs = op.operation.operands

    def accumulate(k: int, acc: ir.Value) -> ir.Value:
        if k == len(reduced):
            product = arith.MulFOp(as_f32(b.element(lhs, [dom[p] for p in positions(maps[0])])),
                                   as_f32(b.element(rhs, [dom[p] for p in positions(maps[1])]))).result
            return arith.AddFOp(acc, product).result
        loop = scf.ForOp(b.c0, sizes[reduced[k]], b.c1, [acc])
        b.created.append(loop)
        with ir.InsertionPoint(loop.body):
            dom[reduced[k]] = loop.induction_variable
            scf.YieldOp([accumulate(k + 1, loop.inner_iter_args[0])])
        return loop.results[0]

    return accumulate(0, arith.ConstantOp(ir.F32Type.get(), 0.0).result)


def find_inlined(ops) -> set:
    """ta.map / ta.contract / ta.remap results read only by ta.at inside ta.online bodies
    (or inside maps that are themselves inlined): computed where read, never stored."""
    inlined = set()
    for op in reversed(list(ops)):
        if op.operation.name not in ("ta.map", "ta.contract", "ta.remap"):
            continue
        uses = list(op.result.uses)
        if uses and all(_read_by_inlined_body(u.owner, inlined) for u in uses):
            inlined.add(op.result)
    return inlined


def _read_by_inlined_body(user, inlined: set) -> bool:
    if user.name != "ta.at" or user.parent is None:
        return False
    body = user.parent
    return body.name == "ta.online" or (body.name == "ta.map" and body.results[0] in inlined)


def affine_indices(amap: ir.AffineMap, ivs: list[ir.Value]) -> list[ir.Value]:
    """One index value per result of ``amap`` applied to ``ivs``."""
    out = []
    for expr in amap.results:
        single = ir.AffineMap.get(amap.n_dims, 0, [expr])
        out.append(affine.AffineApplyOp(single, ivs).result)
    return out
