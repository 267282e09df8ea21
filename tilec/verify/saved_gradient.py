"""The saved backward checked against the plain gradient: ``@f_bwd(x, @f_fwd(x), dy)`` is
``@f_grad(x, dy)`` (both built by ta-grad, passes/ta_grad/).

The backward reads what the forward saved (the outputs, each softmax's log-sum-exp); put
together with the forward that saves them, it is a function of (x, dy) like the gradient, and
the two are compared as every ta rewrite is (ta_rewrites.py: each result's element as Z3 terms
at a symbolic index, for all shapes), with the two identities the rewrite rests on
(ta_fubini.py). What the terms cannot equate is tried on random inputs by the oracle: a
difference there is a counterexample, none an ``unknown``.

    rows = check_saved_gradient(grad_fn, fwd_fn, bwd_fn)
"""

from __future__ import annotations

from torch_mlir import ir

from .report import Result
from .ta_rewrites import check_rewrite


def compose(fwd, bwd):
    """A copy of ``bwd`` (inserted after it) whose saved arguments are computed by ``fwd``'s body
    from the inputs: a function of (inputs, cotangents), the gradient's signature."""
    composed = bwd.operation.clone(ir.InsertionPoint.after(bwd)).opview
    block = composed.regions[0].blocks[0]
    n_in = len(fwd.arguments)
    n_saved = len(ir.FunctionType(ir.TypeAttr(fwd.attributes["function_type"]).value).results)
    values = {fwd.arguments[k]: block.arguments[k] for k in range(n_in)}
    returned = []
    with ir.InsertionPoint(list(block.operations)[0]):
        for op in fwd.regions[0].blocks[0].operations:
            if op.operation.name == "func.return":
                returned = [values.get(v, v) for v in op.operation.operands]
                break
            copy = op.operation.clone()
            _rewire(copy, values)
            values.update(zip(op.operation.results, copy.results))
    for k in range(n_saved):
        block.arguments[n_in + k].replace_all_uses_with(returned[k])
    for k in reversed(range(n_saved)):
        block.erase_argument(n_in + k)
    ftype = ir.FunctionType(ir.TypeAttr(bwd.attributes["function_type"]).value)
    inputs = list(ftype.inputs)
    composed.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        inputs[:n_in] + inputs[n_in + n_saved:], list(ftype.results)))
    names = list(ir.ArrayAttr(bwd.attributes["arg_attrs"]))
    composed.attributes["arg_attrs"] = ir.ArrayAttr.get(names[:n_in] + names[n_in + n_saved:])
    composed.operation.verify()
    return composed


def _rewire(op, values: dict) -> None:
    """Point ``op``'s operands (and those of the ops in its regions) at their copies in ``values``."""
    for k, v in enumerate(op.operands):
        if v in values:
            op.operands[k] = values[v]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                _rewire(inner.operation, values)


# what the rows' verdicts hold for: the rewrite checks' domain, and the identities' own premise
DOMAIN = ("every element of every gradient, all shapes (parameters >= 1); exp, log and casts "
          "uninterpreted but for exp(x - log s) = exp(x) / s, s a sum of exponentials over a row with a "
          "finite score (a row every score of which is -inf has no log-sum-exp); finite sums exchanged")


def check_saved_gradient(grad, fwd, bwd) -> list[Result]:
    """One row per gradient: the saved pair computes the plain gradient's element everywhere."""
    composed = compose(fwd, bwd)
    try:
        rows = check_rewrite("ta-grad{saved=true}", grad, composed, fubini=True)
    finally:
        composed.operation.erase()
    for row in rows:
        row.domain = DOMAIN
    return rows
