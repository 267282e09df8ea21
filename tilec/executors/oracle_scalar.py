"""Vectorised evaluation of scalar regions (ta.map bodies) with torch."""

from __future__ import annotations

import torch
from torch_mlir import ir

from ..diagnostics import TilecError, mlir_loc
from ..signature import dtype_of

_CMPF = {1: torch.eq, 2: torch.gt, 3: torch.ge, 4: torch.lt, 5: torch.le, 6: torch.ne,
         8: torch.eq, 9: torch.gt, 10: torch.ge, 11: torch.lt, 12: torch.le, 13: torch.ne}
_CMPI = {0: torch.eq, 1: torch.ne, 2: torch.lt, 3: torch.le, 4: torch.gt, 5: torch.ge}

_ELEMENTWISE = {
    "arith.addf": torch.add, "arith.subf": torch.sub, "arith.mulf": torch.mul, "arith.divf": torch.div,
    "arith.maximumf": torch.maximum, "arith.minimumf": torch.minimum, "arith.negf": torch.neg,
    "arith.addi": torch.add, "arith.subi": torch.sub, "arith.muli": torch.mul,
    "arith.floordivsi": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "arith.remsi": torch.remainder,
    "arith.andi": torch.logical_and, "arith.ori": torch.logical_or,
    "arith.select": torch.where,
    "math.exp": torch.exp, "math.log": torch.log, "math.sqrt": torch.sqrt, "math.rsqrt": torch.rsqrt,
    "math.tanh": torch.tanh, "math.absf": torch.abs, "math.erf": torch.erf,
}




def _broadcast_view(tensor: torch.Tensor, positions: list[int], rank: int) -> torch.Tensor:
    """``tensor`` (whose dim k is domain dim positions[k]) viewed over the whole domain."""
    order = sorted(range(len(positions)), key=positions.__getitem__)
    moved = tensor.permute(order) if order else tensor
    shape = [1] * rank
    for k in order:
        shape[positions[k]] = tensor.shape[k]
    return moved.reshape(shape)


def run_body(op, values: dict, env: dict[str, int], shape: tuple[int, ...]) -> list[torch.Tensor]:
    """The values a ta.map / ta.online body yields, computed once over the whole index space.
    Each value is dropped after its last use in the body, so that a body of many ops holds a
    few tensors of the index space at once, not one per op (what tilec run budgets for)."""
    rank = len(shape)
    local = {}
    get = lambda v: local[v] if v in local else values[v]
    body = list(op.regions[0].blocks[0].operations)
    last = {v: n for n, inner in enumerate(body) for v in inner.operation.operands}
    for n, inner in enumerate(body):
        name = inner.operation.name
        operands = [get(v) for v in inner.operation.operands]
        for v in inner.operation.operands:
            if last[v] == n:
                local.pop(v, None)
        if name == "ta.yield":
            return [v.expand(shape).clone() for v in operands]
        if name == "ta.at":
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            positions = [ir.AffineDimExpr(e).position for e in amap.results]
            result = _broadcast_view(operands[0], positions, rank)
        elif name == "ta.index":
            d = ir.IntegerAttr(inner.attributes["dim"]).value
            result = torch.arange(shape[d]).reshape([shape[d] if k == d else 1 for k in range(rank)])
        elif name == "ta.param":
            result = torch.tensor(env[ir.StringAttr(inner.attributes["name"]).value])
        else:
            result = scalar_op(inner, name, operands)
        local[inner.result] = result
    raise TilecError("ta.map body has no ta.yield", mlir_loc(op.location, "<ir>"))


def scalar_op(inner, name: str, operands: list):
    if name == "arith.constant":
        attr = inner.attributes["value"]
        if isinstance(attr, ir.FloatAttr):
            return torch.tensor(ir.FloatAttr(attr).value, dtype=dtype_of(inner.result.type))
        return torch.tensor(ir.IntegerAttr(attr).value)
    if name in ("arith.extf", "arith.truncf", "arith.sitofp"):
        return operands[0].to(dtype_of(inner.result.type))
    if name == "arith.index_cast":
        return operands[0]
    if name in ("arith.cmpf", "arith.cmpi"):
        table = _CMPF if name == "arith.cmpf" else _CMPI
        predicate = ir.IntegerAttr(inner.attributes["predicate"]).value
        if predicate not in table:
            raise TilecError(f"unsupported {name} predicate {predicate}", mlir_loc(inner.location, "<ir>"))
        return table[predicate](*operands)
    fn = _ELEMENTWISE.get(name)
    if fn is None:
        raise TilecError(f"the oracle cannot run '{name}' inside ta.map", mlir_loc(inner.location, "<ir>"))
    return fn(*operands)
