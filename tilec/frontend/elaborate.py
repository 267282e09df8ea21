"""Spec expressions -> values (values.py); reductions and contractions emit ta ops."""

from __future__ import annotations

import math

from . import ast
from .limits import MAX_INDICES, MAX_INT
from .values import (BINARY_FUNCTIONS, COMPARISONS, FUNCTIONS, LOGIC, UNARY_FUNCTIONS, FoldError, Idx, Leaf, Pw,
                     Scalar, as_idx, fold, free_indices, is_bool, unknown_function)


def elaborate(low, node, scope: dict, extents):
    """The value of ``node``; ``scope`` holds the bound index names, ``low`` the symbols."""
    if isinstance(node, ast.Number):
        return Scalar(node.value, node.integer)
    if isinstance(node, ast.Inf):
        return Scalar(math.inf)
    if isinstance(node, ast.Name):
        return _name(low, node, scope)
    if isinstance(node, ast.Access):
        return _access(low, node, scope, extents)
    if isinstance(node, ast.Call):
        return _call(low, node, scope, extents)
    if isinstance(node, ast.Reduction):
        return _reduction(low, node, scope, extents)
    if isinstance(node, ast.Unary):
        x = elaborate(low, node.x, scope, extents)
        _numeric(low, x, node.x)
        if isinstance(x, Idx):
            return Idx(("-", ("int", 0), x.expr))
        return _fold(low, "neg", (x,), node.loc) or Pw("neg", (x,), node.loc)
    if isinstance(node, ast.Where):
        value, cond = (elaborate(low, n, scope, extents) for n in (node.value, node.cond))
        fill = elaborate(low, node.fill, scope, extents) if node.fill else Scalar(0.0)
        if not is_bool(cond):
            raise low.error("'where' needs a condition such as j <= i", node.cond.loc)
        _numeric(low, value, node.value)
        _numeric(low, fill, node.fill or node)
        return Pw("select", (cond, value, fill), node.loc)
    return _binary(low, node, scope, extents)


def _numeric(low, v, node) -> None:
    if is_bool(v):
        raise low.error("a comparison is not a number; use it in 'where' or select(...)", node.loc)


def _name(low, node: ast.Name, scope):
    name = node.id
    if name in low.consts:
        return Scalar(low.consts[name], name in low.integer_consts)
    if name in low.params:
        return Idx(("param", name))
    if name in scope:
        return Idx(("var", name))
    tensor = low.tensors.get(name)
    if tensor is None:
        raise low.error(f"unknown name '{name}': not a tensor, constant or shape parameter, nor an index "
                        f"of the left-hand side or of an enclosing reduction", node.loc)
    return Leaf(_tensor_value(low, tensor, (), node), ())  # a rank-0 tensor read by its name


def _tensor_value(low, tensor, subscripts, node):
    """The ta value of ``tensor``, checked to be assigned and indexed by its rank."""
    if tensor.value is None:
        raise low.error(f"'{tensor.name}' is read before it is assigned", node.loc)
    mismatch = tensor.rank_mismatch(len(subscripts), "read")
    if mismatch:
        raise low.error(mismatch, node.loc)
    return tensor.value


def _access(low, node: ast.Access, scope, extents):
    tensor = low.tensors.get(node.name)
    if tensor is None:
        raise low.error(f"unknown tensor '{node.name}'", node.loc)
    value = _tensor_value(low, tensor, node.subscripts, node)
    subs = []
    for sub in node.subscripts:
        idx = as_idx(elaborate(low, sub, scope, extents))
        if idx is None:
            raise low.error("a subscript must be an integer index expression such as i, i + 1 or h / G", sub.loc)
        subs.append(_check_index(low, idx, sub.loc))
    names = [s.expr[1] for s in subs if s.expr[0] == "var"]
    if len(names) == len(subs) and len(set(names)) == len(names):
        return Leaf(value, tuple(names))
    for name in free_indices(Pw("tuple", tuple(subs), node.loc)):
        extents.require(name, node.loc)
    return low.emitter.remap(value, subs, node.loc)


def _check_function(low, node: ast.Call) -> None:
    """``node`` calls a function of the spec language, the way that function is called."""
    fn = node.fn
    if fn in low.tensors:
        raise low.error(f"'{fn}' is a tensor, not a function: read it as {fn}[...]", node.loc)
    if fn in ("sum", "softmax", "logsumexp"):
        raise low.error(f"'{fn}' reduces over an index: write {fn}[j](...)", node.loc)
    if fn not in FUNCTIONS:
        raise low.error(unknown_function(fn), node.loc)
    if node.indices is not None:
        raise low.error(f"'{fn}' is applied elementwise and takes no index: write {fn}(...)", node.loc)


def _call(low, node: ast.Call, scope, extents):
    _check_function(low, node)
    fn, arity = node.fn, len(node.args)
    expected = 1 if fn in UNARY_FUNCTIONS else 2 if fn in BINARY_FUNCTIONS else 3
    if arity != expected:
        raise low.error(f"'{fn}' takes {expected} argument{'s' * (expected > 1)}, got {arity}", node.loc)
    args = tuple(elaborate(low, a, scope, extents) for a in node.args)
    if fn == "select":
        if not is_bool(args[0]):
            raise low.error("select's first argument must be a condition such as j <= i", node.args[0].loc)
        for a, n in zip(args[1:], node.args[1:]):
            _numeric(low, a, n)
        return Pw("select", args, node.loc)
    for a, n in zip(args, node.args):
        _numeric(low, a, n)
    return _fold(low, fn, args, node.loc) or Pw(fn, args, node.loc)


def _reduction(low, node: ast.Reduction, scope, extents):
    if extents is None:
        raise low.error(f"'{node.kind}' cannot appear in a constant", node.loc)
    if node.kind in ("softmax", "logsumexp") and len(node.indices) != 1:
        raise low.error(f"'{node.kind}' takes exactly one index", node.loc)
    # softmax normalises along an index that stays free; the others bind a fresh one
    binds = node.kind != "softmax"
    for index in node.indices:
        if binds and (index in scope or low._is_symbol(index) or node.indices.count(index) > 1):
            raise low.error(f"index '{index}' is already bound; pick a fresh name for the reduction", node.loc)
        if not binds and index not in scope:
            raise low.error(f"softmax[{index}] normalises along '{index}', which must be an index of the "
                            f"left-hand side or of an enclosing reduction", node.loc)
        extents.require(index, node.loc)
    inner = {**scope, **dict.fromkeys(node.indices)} if binds else scope
    if len(inner) > MAX_INDICES:
        raise low.error(f"{len(inner)} indices are in use here; a statement has at most {MAX_INDICES}", node.loc)
    body = elaborate(low, node.body, inner, extents)
    _numeric(low, body, node.body)
    free = free_indices(body)
    for index in node.indices:
        if index not in free:
            raise low.error(f"'{node.kind}[{index}]' reduces over '{index}' but its body does not use it", node.loc)
    # materialised tensors follow the order of the enclosing indices, then the reduced ones
    rank = {name: k for k, name in enumerate((*scope, *node.indices))}
    order = lambda v: tuple(sorted(free_indices(v), key=rank.__getitem__))
    if node.kind == "sum" and isinstance(body, Pw) and body.fn == "*":
        contracted = _contraction(low, body, node, order, scope)
        if contracted is not None:
            return contracted
    return low.emitter.reduce(node.kind, body, order(body), node.indices, node.loc)


def _factors(v) -> list:
    return _factors(v.args[0]) + _factors(v.args[1]) if isinstance(v, Pw) and v.fn == "*" else [v]


def _product(factors, loc):
    result = factors[0]
    for f in factors[1:]:
        result = Pw("*", (result, f), loc)
    return result


def _contraction(low, body, node, order, scope):
    """sum[k](a * b * c...) as c... * contract(a, b): the factors that do not use a reduced index
    are scales outside the sum (sum[k](A[i,k] * B[k,j] * 0.5) = 0.5 * sum[k](A[i,k] * B[k,j])), and
    of the rest the factor holding the earliest left-hand-side index is the lhs (B[k,j] * A[i,k] is
    A·B). None when fewer than two factors use a reduced index."""
    reduced = set(node.indices)
    factors = _factors(body)
    dependent = [f for f in factors if set(free_indices(f)) & reduced]
    scales = [f for f in factors if not set(free_indices(f)) & reduced]
    if len(dependent) < 2:
        return None
    rank = {name: k for k, name in enumerate(scope)}
    first = lambda f: min((rank[i] for i in free_indices(f) if i in rank), default=len(rank))
    dependent.sort(key=first)  # stable: the written order among equals
    a, b = dependent[0], _product(dependent[1:], node.loc)
    result = low.emitter.contract((a, order(a)), (b, order(b)), node.indices, node.loc, tuple(scope))
    return _product([result, *scales], node.loc) if scales else result


def _binary(low, node: ast.Binary, scope, extents):
    a, b = elaborate(low, node.a, scope, extents), elaborate(low, node.b, scope, extents)
    if node.op in LOGIC:
        for v, n in ((a, node.a), (b, node.b)):
            if not is_bool(v):
                raise low.error(f"'{node.op}' joins conditions such as j <= i", n.loc)
        return Pw(node.op, (a, b), node.loc)
    _numeric(low, a, node.a)
    _numeric(low, b, node.b)
    if node.op in COMPARISONS:
        return Pw(node.op, (a, b), node.loc)
    ia, ib = as_idx(a), as_idx(b)
    if ia is not None and ib is not None and (isinstance(a, Idx) or isinstance(b, Idx)):
        if node.op == "/" and ib.expr == ("int", 0):
            raise low.error("division of an index by zero", node.b.loc)
        if node.op == "/" and not (ib.expr[0] == "param" or ib.expr[0] == "int" and ib.expr[1] > 0):
            raise low.error("an index is divided only by a positive integer constant or a shape parameter "
                            "(a divisor that can be zero has no value)", node.b.loc)
        return _check_index(low, Idx((node.op, ia.expr, ib.expr)), node.loc)
    return _fold(low, node.op, (a, b), node.loc) or Pw(node.op, (a, b), node.loc)


def _fold(low, fn, args, loc):
    """fold(), its errors at ``loc``."""
    try:
        return fold(fn, args)
    except FoldError as err:
        raise low.error(str(err), loc) from None


def _check_index(low, idx: Idx, loc) -> Idx:
    """Integer constants in index arithmetic stay within MAX_INT (MLIR's index constants are
    64-bit; products of two such constants still fit)."""
    expr = idx.expr
    if expr[0] == "int" and abs(expr[1]) > MAX_INT:
        raise low.error(f"the integer {expr[1]} is too large for an index; the limit is 2^31 - 1", loc)
    if expr[0] in ("+", "-", "*", "/"):
        for part in expr[1:]:
            _check_index(low, Idx(part), loc)
    return idx
