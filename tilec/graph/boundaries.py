"""Tensors stored between kernels in a 16-bit type, as an explicit edit of the ta function.

    rounded = round_boundaries(fused, ["t5", "t9"], "bf16")      # a copy

Identity copies are read through first (their readers read the source). A value ``v`` (f32)
stored between two kernels of a split function is kept, when asked, in
the graph's activation type, as torch eager keeps it: after v's op comes
``b = ta.map { truncf(v[i]) }`` of type bf16, and every reader reads ``b`` instead, widened
back where it is read: a contraction takes ``b`` as its operand (its products are taken in
f32 either way), a ``ta.at`` reads ``b`` and an ``arith.extf`` follows it, any other reader a
``ta.map { extf(b[i]) }``. The function then computes what the kernels compute, and the split
is read back against it; the rounding itself is this edit and nothing else (the report says
which tensors it rounds).
"""

from __future__ import annotations

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb
from .split import FunctionView
from ..lowering.driver import copy_module

ROUNDABLE = {"bf16": ir.BF16Type.get, "f16": ir.F16Type.get}


def round_boundaries(module: ir.Module, names: list, dtype: str) -> ir.Module:
    """A copy of ``module`` whose values named ``names`` (split.FunctionView's names) are stored in ``dtype``."""
    copy = copy_module(module)
    fn = copy.body.operations[0]
    view = FunctionView(fn)
    by_name = {name: v for v, name in view.names.items()}
    for op in [op for op in view.ops if op.result in view.through]:  # identity copies: read the source
        op.result.replace_all_uses_with(view.through[op.result])
        op.operation.erase()
    element = ROUNDABLE[dtype]()
    for name in names:
        value = by_name[name]
        if str(ir.RankedTensorType(value.type).element_type) != "f32":
            continue
        _round(value, element)
    return copy


def _round(value, element) -> None:
    rank = ir.RankedTensorType(value.type).rank
    identity = ir.AffineMap.get_identity(rank)
    narrow_type = ir.RankedTensorType.get(ir.RankedTensorType(value.type).shape, element,
                                          ir.RankedTensorType(value.type).encoding)
    uses = [(u.owner, u.operand_number) for u in value.uses]
    with ir.InsertionPoint.after(value.owner), value.owner.location:
        narrow = tb.build_map(narrow_type, lambda: arith.TruncFOp(element, tb.at(value, identity)).result)
    f32 = ir.F32Type.get()
    for user, n in uses:
        name = user.operation.name if hasattr(user, "operation") else user.name
        op = user.operation if hasattr(user, "operation") else user
        if name == "ta.contract":
            op.operands[n] = narrow
        elif name == "ta.at":
            op.operands[n] = narrow
            op.results[0].set_type(element)
            with ir.InsertionPoint.after(op), op.location:
                wide = arith.ExtFOp(f32, op.results[0]).result
            op.results[0].replace_all_uses_except(wide, wide.owner.operation)
        else:
            with ir.InsertionPoint(op), op.location:
                wide = tb.build_map(value.type, lambda: arith.ExtFOp(f32, tb.at(narrow, identity)).result)
            op.operands[n] = wide
