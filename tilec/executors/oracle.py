"""The semantic oracle: run ta IR with torch on the CPU.

Every lower stage is compared with what this evaluator computes. It walks a
ta function op by op; a ta.map body is run once, vectorised over the whole
index space (each scalar op becomes one torch op on broadcast tensors).

    outputs = evaluate(fn, {"A": a, "B": b}, {"M": 64, "N": 32, "K": 16})
"""

from __future__ import annotations

import torch
from torch_mlir import ir

from tilec.dialects.affine import affine
from tilec.dialects.dims import parse_dim
from tilec.dialects.reduce_kinds import KINDS
from tilec.dialects.ta import tensor_dims

from ..diagnostics import TilecError, mlir_loc
from ..signature import signature
from .precision import accumulator, computed
from . import oracle_scalar


def sizes(value_type: ir.Type, env: dict[str, int]) -> tuple[int, ...]:
    """The concrete shape of a ta tensor type under the parameter values ``env``."""
    return tuple(d.evaluate(env) for d in tensor_dims(value_type))


def evaluate(fn, inputs: dict[str, torch.Tensor], env: dict[str, int]) -> dict[str, torch.Tensor]:
    """Run ta function ``fn`` on named inputs; returns its named outputs."""
    sig = signature(fn)
    values = {}
    for arg, tensor in zip(fn.arguments, sig.inputs):
        values[arg] = inputs[tensor.name]
    for op in fn.entry_block.operations:
        name = op.operation.name
        if name == "func.return":
            return {t.name: values[v] for t, v in zip(sig.outputs, op.operation.operands)}
        handler = _HANDLERS.get(name)
        if handler is None:
            raise TilecError(f"the oracle cannot run '{name}' (only ta ops are executable here)",
                             mlir_loc(op.location, "<ir>"))
        values[op.result] = handler(op, values, env)
    raise TilecError("function has no return")


def _contract(op, values, env):
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
    letters = "abcdefghijklmnopqrstuvwxyz"
    spell = lambda m: "".join(letters[ir.AffineDimExpr(e).position] for e in m.results)
    equation = f"{spell(maps[0])},{spell(maps[1])}->{spell(maps[2])}"
    lhs, rhs = (values[v].to(accumulator()) for v in op.operation.operands)
    return torch.einsum(equation, lhs, rhs).to(computed(op.result.type))


def _reduce(op, values, env):
    src = values[op.operation.operands[0]]
    kind = ir.StringAttr(op.attributes["kind"]).value
    dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
    return KINDS[kind].reduce(src, dims)


def _softmax(op, values, env):
    return torch.softmax(values[op.operation.operands[0]], ir.IntegerAttr(op.attributes["dim"]).value)


def _logsumexp(op, values, env):
    return torch.logsumexp(values[op.operation.operands[0]], ir.IntegerAttr(op.attributes["dim"]).value)


def _fill(op, values, env):
    value = ir.FloatAttr(op.attributes["value"]).value
    return torch.full(sizes(op.result.type, env), value, dtype=computed(op.result.type))


def _remap(op, values, env):
    src = values[op.operation.operands[0]]
    amap = ir.AffineMapAttr(op.attributes["map"]).value
    shape = sizes(op.result.type, env)
    grid = [torch.arange(n).reshape([n if k == d else 1 for k in range(len(shape))]) for d, n in enumerate(shape)]
    coords = [torch.as_tensor(affine(e, grid)) for e in amap.results]  # a constant is an int
    for axis, (c, n) in enumerate(zip(coords, src.shape)):
        if c.numel() and (int(c.min()) < 0 or int(c.max()) >= n):
            raise TilecError(f"ta.remap reads dim {axis} of its operand at {int(c.min())}..{int(c.max())}, "
                             f"outside 0..{n - 1}", mlir_loc(op.location, "<ir>"))
    coords = [c.expand(shape) for c in coords] if shape else coords
    return src[tuple(coords)].reshape(shape) if coords else src.expand(shape).clone()


def _map(op, values, env):
    shape = sizes(op.result.type, env)
    return oracle_scalar.run_body(op, values, env, shape)[0].to(computed(op.result.type))


def _online(op, values, env):
    """The closed form of ta.online (see dialects/ta_online.py): no running state here."""
    shape = tuple(parse_dim(ir.StringAttr(e).value).evaluate(env) for e in ir.ArrayAttr(op.attributes["extents"]))
    terms = oracle_scalar.run_body(op, values, env, shape)
    j = ir.IntegerAttr(op.attributes["dim"]).value
    kind = ir.StringAttr(op.attributes["kind"]).value
    if kind != "sum":  # max, min: the kind's own reduction
        folded = KINDS[kind].reduce(terms[0], j, keepdim=True)
    elif len(terms) == 2 and "moment" in op.attributes:  # centred: about the mean of x
        x, t = terms
        folded = ((x - x.mean(j, keepdim=True)) ** ir.IntegerAttr(op.attributes["moment"]).value * t).sum(j, keepdim=True)
    elif len(terms) == 2:
        x, t = terms
        folded = (torch.exp(x - x.amax(j, keepdim=True)) * t).sum(j, keepdim=True)
    else:
        folded = terms[0].sum(j, keepdim=True)
    kept = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(op.attributes["map"]).value.results]
    # the terms do not depend on the other dims: any slice along them will do
    index = tuple(slice(None) if d in kept else 0 for d in range(len(shape)))
    sliced = folded[index]
    order = sorted(range(len(kept)), key=kept.__getitem__)
    return sliced.permute([order.index(k) for k in range(len(kept))]).contiguous()


def _constant(op, values, env):
    return oracle_scalar.scalar_op(op, "arith.constant", [])


_HANDLERS = {
    "arith.constant": _constant,  # hoisted out of ta.map bodies by canonicalisation
    "ta.contract": _contract,
    "ta.reduce": _reduce,
    "ta.softmax": _softmax,
    "ta.logsumexp": _logsumexp,
    "ta.fill": _fill,
    "ta.remap": _remap,
    "ta.map": _map,
    "ta.online": _online,
}
