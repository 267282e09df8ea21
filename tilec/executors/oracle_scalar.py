"""Vectorised evaluation of scalar regions (ta.map bodies) with torch: dialects/scalar_ops.py on tensors."""

from __future__ import annotations

import torch
from torch_mlir import ir

from ..diagnostics import TilecError, mlir_loc
from .precision import computed
from tilec.dialects.scalar_ops import Domain, NoRule, evaluate

_MATH = {"math.exp": torch.exp, "math.log": torch.log, "math.sqrt": torch.sqrt, "math.rsqrt": torch.rsqrt,
         "math.tanh": torch.tanh, "math.absf": torch.abs, "math.erf": torch.erf}


def _math(name: str, *args):
    if name not in _MATH:
        raise NoRule(name)
    return _MATH[name](*args)


def _const(value, type_) -> torch.Tensor:
    return torch.tensor(value, dtype=computed(type_)) if isinstance(value, float) else torch.tensor(value)


# the scalar ops' meanings (dialects/scalar_ops.py) on torch tensors, IEEE 754 as torch computes it
TORCH = Domain(
    "torch", add=torch.add, sub=torch.sub, mul=torch.mul, div=torch.div, neg=torch.neg,
    floordiv=lambda a, b: torch.div(a, b, rounding_mode="floor"),
    div_nonneg=lambda a, b: torch.div(a, b, rounding_mode="floor"), rem_nonneg=torch.remainder,
    max=torch.maximum, min=torch.minimum, eq=torch.eq, ne=torch.ne, lt=torch.lt, le=torch.le, gt=torch.gt,
    ge=torch.ge, not_=torch.logical_not, and_=torch.logical_and, or_=torch.logical_or, xor=torch.logical_xor,
    select=torch.where, const=_const, to_float=lambda a, type_: a.to(computed(type_)),
    cast=lambda name, a, src, dst: a.to(computed(dst)), math=_math)


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
    """The torch value of scalar op ``inner`` (named ``name``) on ``operands``."""
    try:
        return evaluate(inner, operands, TORCH)
    except NoRule as missing:
        raise TilecError(f"the oracle cannot run '{name}' inside ta.map ({missing})",
                         mlir_loc(inner.location, "<ir>")) from None
