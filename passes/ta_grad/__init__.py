"""ta-grad: reverse-mode differentiation of ta functions.

For each ta function ``@f(x1, ..., xn) -> (y1, ..., ym)`` the pass adds ``@f_grad(x1, ..., xn,
dy1, ..., dym) -> (dx1, ..., dxn)``: the forward computed again, then the adjoint of every
value from its uses, last op first (tensors.py per ta op, scalar.py inside map bodies). The
cotangents ``dyk`` have their outputs' types and names "d" + the output's name; each gradient
``dxi`` has its input's type (an input no output depends on gets zeros). What it builds is ta
like any other function's, so the same fusion, lowering and checks apply to it.

    y = softmax(x)  ->  @f_grad(x, dy) -> dx = y · (dy − Σ_j dy·y)

``replace=true`` replaces each function by its gradient (a module of one function, as the
lowering and the CLI's stages take). ``saved=true`` builds the pair a training step runs
instead of ``@f_grad`` (saved.py): ``@f_fwd``, which also returns each softmax's row
log-sum-exp, and ``@f_bwd``, which reads the outputs and those statistics rather than
computing the softmax again (FlashAttention's backward, for attention). Input it cannot
differentiate (a shifted or divided index read, an op with no rule, fused ta.online) is one
error at that op.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith, func

from tilec.dialects import ta_builders as tb
from tilec.dialects.ta import tensor_dims

from .. import PassInfo, refusal
from .._fusion_recompute import RECOMPUTE
from . import saved as saving, tensors
from .scalar import NoAdjoint

_RULES = {"ta.contract": tensors.contract, "ta.reduce": tensors.reduce, "ta.softmax": tensors.softmax,
          "ta.logsumexp": tensors.logsumexp, "ta.remap": tensors.remap}
_CONSTANT = ("ta.fill", "arith.constant")


@dataclass(frozen=True)
class Options:
    replace: bool = False
    saved: bool = False


def _names(attrs, count: int, prefix: str) -> list[str]:
    if attrs is None:
        return [f"{prefix}{i}" for i in range(count)]
    return [ir.StringAttr(ir.DictAttr(a)["ta.name"]).value if "ta.name" in ir.DictAttr(a) else f"{prefix}{i}"
            for i, a in enumerate(ir.ArrayAttr(attrs))]


def _named(names: list[str]) -> ir.ArrayAttr:
    return ir.ArrayAttr.get([ir.DictAttr.get({"ta.name": ir.StringAttr.get(n)}) for n in names])


def _active(fn) -> set:
    """The values that depend on the function's inputs (the rest need no adjoint)."""
    active = set(fn.arguments)  # the cotangents too: harmless, nothing reads them before the sweep
    for op in fn.entry_block.operations:
        operands = list(op.operation.operands)
        for region in op.operation.regions:
            operands += [v for inner in region.blocks[0].operations for v in inner.operation.operands]
        if any(v in active for v in operands):
            active.update(op.operation.results)
    return active


def _cast(value: ir.Value, like: ir.Value) -> ir.Value:
    """An f32 adjoint as a tensor of ``like``'s element type."""
    element = ir.RankedTensorType(like.type).element_type
    if isinstance(element, ir.F32Type):
        return value
    n = tensors.rank(value)
    return tb.build_map(tb.tensor_type(tensor_dims(like.type), element),
                        lambda: arith.TruncFOp(element, tb.at(value, tensors.identity(n))).result)


def gradient(fn, saved: bool = False) -> func.FuncOp:
    """The gradient function of ta function ``fn``, inserted after it; ``saved``: the pair
    ``@f_fwd`` / ``@f_bwd`` (saved.py), the backward returned."""
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    inputs = _names(fn.attributes["arg_attrs"] if "arg_attrs" in fn.attributes else None, len(ftype.inputs), "arg")
    outputs = _names(fn.attributes["res_attrs"] if "res_attrs" in fn.attributes else None, len(ftype.results), "out")
    cotangents, grads = [f"d{o}" for o in outputs], [f"d{i}" for i in inputs]
    clash = sorted(set(cotangents + grads) & set(inputs + outputs))
    if clash or len(set(cotangents)) != len(cotangents):
        raise refusal("ta-grad", fn, f"the gradient's tensors would be named {', '.join(clash or cotangents)}, "
                                     f"which the function already uses: rename its tensors")
    kept, lses, after = [], [], fn
    if saved:
        after, lses = saving.forward(fn, name)
        saving.check_names(fn, lses, inputs + outputs + cotangents + grads)
        after.attributes["res_attrs"] = _named(outputs + lses)
        kept = list(ir.FunctionType(ir.TypeAttr(after.attributes["function_type"]).value).results)
    grad = fn.operation.clone(ir.InsertionPoint.after(after)).opview  # the forward, computed again
    grad.attributes["sym_name"] = ir.StringAttr.get(f"{name}_bwd" if saved else f"{name}_grad")
    block = grad.regions[0].blocks[0]
    kept_args = [block.add_argument(t, grad.location) for t in kept]  # outputs, then statistics
    args = [block.add_argument(t, grad.location) for t in ftype.results]
    ret = list(block.operations)[-1]
    returned = list(ret.operation.operands)
    context = None
    if saved:
        softmaxes = [op for op in block.operations if op.operation.name == "ta.softmax"]
        context = saving.Saved(returned, kept_args[:len(returned)], softmaxes, kept_args[len(returned):])
    with ir.InsertionPoint(ret), grad.location:
        dx = _backward(grad, returned, args, len(ftype.inputs), context)
        results = [_cast(dx[i], a) if dx[i] is not None else _zeros(a)
                   for i, a in enumerate(list(block.arguments)[:len(ftype.inputs)])]
        func.ReturnOp(results)
    ret.operation.erase()
    if context is not None and context.lse_of:  # the softmax's rows are read, not stored: recompute
        context.read_statistics()
        grad.attributes[RECOMPUTE] = ir.UnitAttr.get()
    grad.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        list(ftype.inputs) + kept + list(ftype.results), [r.type for r in results]))
    grad.attributes["arg_attrs"] = _named(inputs + (outputs + lses if saved else []) + cotangents)
    grad.attributes["res_attrs"] = _named(grads)
    return grad


def _zeros(like: ir.Value) -> ir.Value:
    element = ir.RankedTensorType(like.type).element_type
    return ir.Operation.create("ta.fill", results=[like.type],
                               attributes={"value": ir.FloatAttr.get(element, 0.0)}).result


def _backward(fn, returned: list, cotangents: list, n_inputs: int, context=None) -> list:
    """The adjoint of each of ``fn``'s inputs (None where no output depends on it); ``context``
    (a saved.Saved): softmax's row term from the saved output where it can."""
    active = _active(fn)
    adjoint = {}
    for value, dy in zip(returned, cotangents):  # a 16-bit cotangent widened to f32 first
        n = tensors.rank(dy)
        adjoint.setdefault(value, []).append(dy if isinstance(ir.RankedTensorType(dy.type).element_type, ir.F32Type)
                                             else tb.build_map(tensors.f32_type(dy), lambda dy=dy, n=n: tensors.widen(
                                                 tb.at(dy, tensors.identity(n)))))
    ops = [op for op in fn.entry_block.operations if op.operation.name != "func.return"]
    for op in reversed(ops):
        if len(op.operation.results) != 1 or op.result not in adjoint:
            continue
        name = op.operation.name
        if name in _CONSTANT:
            continue
        ybar = tensors.total(adjoint[op.result], op.result)
        if context is not None:
            context.totals[op.result] = ybar
        try:
            if name == "ta.softmax" and context is not None:
                found = context.softmax(op, ybar)
            elif name == "ta.map":
                found = tensors.map_(op, ybar, active.__contains__)
            elif name in _RULES:
                found = _RULES[name](op, ybar)
            else:
                raise tensors.NoGradient(op, f"'{name}' has no gradient rule (ta-grad runs before fusion)")
        except (tensors.NoGradient, NoAdjoint) as err:
            error = refusal("ta-grad", op, str(err))
            error.location = err.location
            raise error from None
        for operand, contribution in found:
            if operand in active:
                adjoint.setdefault(operand, []).append(contribution)
    return [tensors.total(adjoint[a], a) if a in adjoint else None for a in list(fn.arguments)[:n_inputs]]


def run(module: ir.Operation, options: Options) -> None:
    functions = [op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
    for fn in functions:
        gradient(fn.opview if hasattr(fn, "opview") else fn, options.saved)
        if options.replace:  # (with saved=true the module keeps the pair)
            fn.operation.erase()


PASS = PassInfo("ta-grad", "reverse-mode gradient of each ta function (adds f_grad)", Options, run, __doc__)
