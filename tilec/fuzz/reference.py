"""The independent reference: a generated spec's outputs computed with plain torch ops.

This reads the spec's expression trees (tilec.fuzz.model), not tilec's IR: index ranges are
read off plain subscripts as the language defines them, every expression is evaluated on
broadcast tensors with one axis per index of its statement, in float64 (integer arithmetic
where the number rule says so, tilec.fuzz.arith: ``1 / N`` floors, ``1.0 / N`` divides), and
each output is rounded once to its element type (an output read later is read rounded, a
``let`` is not).

    outputs = evaluate(spec, {"N": 7}, inputs)            # name -> float64 tensor, unrounded
    ok = check(stage_output, outputs["Y"], torch.bfloat16).ok
"""

from __future__ import annotations

import math

import torch

from tilec.executors.compare import TOLERANCE, Comparison, compare

from .arith import ReferenceError, index_value, integer_consts, integer_form
from .model import Case, Spec, walk

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}
_UNARY = {"exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "rsqrt": torch.rsqrt, "tanh": torch.tanh,
          "sigmoid": torch.sigmoid, "abs": torch.abs, "erf": torch.erf}
_CMP = {"<": torch.lt, "<=": torch.le, ">": torch.gt, ">=": torch.ge, "==": torch.eq, "!=": torch.ne}


def constants(spec: Spec) -> dict:
    """The value of each ``const`` (folded in float64, as the frontend folds them).

        constants(spec) == {"eps": 1e-05, "G": 4}
    """
    values = {}
    for name, expr in spec.consts:
        values[name] = float(_Statement(spec, {}, values, {}, torch.float64, {}, ()).expr(expr).item())
    return values


def shape_of(tensor, env: dict, consts: dict) -> tuple[int, ...]:
    """A declared tensor's concrete shape: shape_of(Tensor("X", (("param", "N"),), "f32"), {"N": 3}, {}) == (3,)"""
    return tuple(index_value(d, env, consts) for d in tensor.dims)


def make_inputs(spec: Spec, env: dict, seed: int) -> dict:
    """Standard-normal inputs in declaration order from ``seed`` (the recipe of ``tilec run --seed``).

        make_inputs(spec, {"N": 3}, 0)["X"].shape == (3,)
    """
    gen = torch.Generator().manual_seed(seed)
    consts = constants(spec)
    return {t.name: torch.randn(shape_of(t, env, consts), generator=gen).to(DTYPES[t.dtype]) for t in spec.inputs}


def evaluate(spec: Spec, env: dict, inputs: dict, compute: torch.dtype = torch.float64) -> dict:
    """Each output of ``spec`` in ``compute`` precision, before its final rounding.

        evaluate(spec, case.env(), make_inputs(spec, case.env(), 0))["Y"].dtype == torch.float64
    """
    consts = constants(spec)
    values = {name: t.to(compute) for name, t in inputs.items()}
    outputs = {t.name: t for t in spec.outputs}
    results = {}
    for stmt in spec.stmts:
        extents = _extents(stmt, spec, env, consts, values)
        axes = list(stmt.lhs) + sorted(set(extents) - set(stmt.lhs))
        ev = _Statement(spec, env, consts, values, compute, extents, axes)
        shape = [extents[i] for i in stmt.lhs]
        full = [extents[a] if a in stmt.lhs else 1 for a in axes]
        value = ev.expr(stmt.expr).expand(full).reshape(shape).clone()
        if stmt.let:
            values[stmt.name] = value
            continue
        results[stmt.name] = value
        values[stmt.name] = value.to(DTYPES[outputs[stmt.name].dtype]).to(compute)
    return results


def _extents(stmt, spec, env, consts, values) -> dict:
    """index -> size, from the target's dims and every plain subscript (conflicts are an error)."""
    extents = {}
    declared = {t.name: t for t in (*spec.inputs, *spec.outputs)}

    def record(index, size):
        if extents.setdefault(index, size) != size:
            raise ReferenceError(f"index {index} ranges over {extents[index]} and {size}")

    if not stmt.let:
        for index, size in zip(stmt.lhs, shape_of(declared[stmt.name], env, consts)):
            record(index, size)
    for node in walk(stmt.expr):
        if node[0] != "read":
            continue
        shape = values[node[1]].shape if node[1] in values else shape_of(declared[node[1]], env, consts)
        for sub, size in zip(node[2], shape):
            if sub[0] == "var":
                record(sub[1], size)
    return extents


class _Statement:
    """Evaluates one statement's expressions on tensors with one axis per index (size 1 if unused)."""

    def __init__(self, spec, env, consts, values, compute, extents, axes):
        self.env, self.consts, self.values, self.compute = env, consts, values, compute
        self.ints = integer_consts(spec.consts)
        self.extents, self.axes = extents, list(axes)
        self.pos = {a: (k, extents[a], len(self.axes)) for k, a in enumerate(self.axes)}

    def scalar(self, value) -> torch.Tensor:
        return torch.tensor(value, dtype=self.compute).reshape([1] * len(self.axes))

    def expr(self, e) -> torch.Tensor:
        kind = e[0]
        if kind == "num":
            return self.scalar(e[1])
        if kind == "inf":
            return self.scalar(math.inf * e[1])
        if kind == "const":
            return self.scalar(self.consts[e[1]])
        if kind == "ix":
            return self.index(e[1])
        if kind in ("read", "bare"):
            return self.read(e[1], e[2] if kind == "read" else ())
        form = integer_form(e, self.ints) if kind in ("bin", "neg") else None
        if form is not None and form[0] == "idx":   # integer arithmetic: 1 / N is floor division
            return self.index(form[1])
        return getattr(self, "_" + kind)(e)

    def index(self, ix) -> torch.Tensor:
        """An index expression's value, computed on integers and converted to a value."""
        value = index_value(ix, self.env, self.consts, self.pos)
        return value.to(self.compute) if isinstance(value, torch.Tensor) else self.scalar(float(value))

    def read(self, name, subs) -> torch.Tensor:
        tensor = self.values[name]
        if tensor.dim() != len(subs):
            raise ReferenceError(f"{name} has rank {tensor.dim()}, read with {len(subs)} subscripts")
        if not subs:
            return tensor.reshape([1] * len(self.axes))
        coords = []
        for sub, size in zip(subs, tensor.shape):
            c = torch.as_tensor(index_value(sub, self.env, self.consts, self.pos))
            if c.numel() and (int(c.min()) < 0 or int(c.max()) >= size):
                raise ReferenceError(f"{name} read at {int(c.min())}..{int(c.max())}, outside 0..{size - 1}")
            coords.append(c.reshape(c.shape if c.dim() else [1] * len(self.axes)))
        return tensor[tuple(coords)]

    def _bin(self, e):
        a, b = self.expr(e[2]), self.expr(e[3])
        return {"+": torch.add, "-": torch.sub, "*": torch.mul, "/": torch.div}[e[1]](a, b)

    def _neg(self, e):
        return -self.expr(e[1])

    def _call(self, e):
        args = [self.expr(a) for a in e[2]]
        if e[1] in _UNARY:
            return _UNARY[e[1]](args[0])
        if e[1] == "select":
            return torch.where(*torch.broadcast_tensors(*args))
        return (torch.maximum if e[1] == "max" else torch.minimum)(args[0], args[1])

    def _cmp(self, e):
        return _CMP[e[1]](self.expr(e[2]), self.expr(e[3]))

    def _logic(self, e):
        a, b = self.expr(e[2]), self.expr(e[3])
        return a & b if e[1] == "and" else a | b

    def _where(self, e):
        fill = self.expr(e[3]) if e[3] is not None else self.scalar(0.0)
        return torch.where(self.expr(e[2]), self.expr(e[1]), fill)

    def _red(self, e):
        kind, indices, body = e[1], e[2], self.expr(e[3])
        dims = [self.pos[i][0] for i in indices]
        body = body.expand([self.extents[a] if k in dims else n for k, (a, n) in
                            enumerate(zip(self.axes, body.shape))])
        if kind == "softmax":
            return torch.softmax(body, dims[0])
        if kind == "logsumexp":
            return torch.logsumexp(body, dims[0], keepdim=True)
        if kind == "sum":
            return body.sum(dims, keepdim=True)
        return body.amax(dims, keepdim=True) if kind == "max" else body.amin(dims, keepdim=True)


def _neighbours(value: torch.Tensor, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """The two values of ``dtype`` around each float64 ``value`` (equal where it is exact)."""
    near = value.to(dtype)
    bits = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}[dtype]
    wide = near.double()
    # one step away from zero when the rounding went down in magnitude, towards zero when up
    step = torch.where((wide.abs() < value.abs()), 1, torch.where(wide.abs() > value.abs(), -1, 0))
    step = torch.where(near.isfinite() & (near != 0), step, 0).to(bits)
    other = (near.view(bits) + step).view(dtype)
    return near, other


def check(actual: torch.Tensor, expected: torch.Tensor, dtype: torch.dtype) -> Comparison:
    """``actual`` (a stage's output, in ``dtype``) against the unrounded reference, with
    tilec.executors.compare's tolerance: the stage may round to either neighbour of the exact value.

        check(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64), torch.float32).ok
    """
    near, other = _neighbours(expected, dtype)
    a = actual.double()
    closer = (a - other.double()).abs() < (a - near.double()).abs()
    return compare(actual, torch.where(closer, other, near))


def conditioning(spec: Spec, env: dict, inputs: dict) -> str:
    """"" when float32 arithmetic reproduces the float64 reference well inside the tolerance,
    with the same infinities and NaNs (a fully masked softmax row is NaN, as in torch.softmax),
    else why not: a spec that is not is no test of a compiler.

        conditioning(case.spec, case.env(), make_inputs(case.spec, case.env(), 0)) == ""
    """
    wide = evaluate(spec, env, inputs)
    narrow = evaluate(spec, env, inputs, torch.float32)
    for out in spec.outputs:
        dtype = DTYPES[out.dtype]
        e, n = wide[out.name], narrow[out.name].to(dtype).double()
        if not torch.equal(e.isnan(), n.isnan()):
            return f"{out.name}: NaNs differ in float32"
        near = e.to(dtype).double()
        if not torch.equal(near.isinf(), n.isinf()) or not torch.equal(near[near.isinf()], n[n.isinf()]):
            return f"{out.name}: infinities differ in float32"
        atol, rtol = TOLERANCE[dtype]
        finite = near.isfinite()
        err = ((n - e).abs() - (near - e).abs()).clamp_min(0)[finite]
        if err.numel() and bool((err > (atol + rtol * e[finite].abs()) / 8).any()):
            return f"{out.name}: float32 evaluation is off by {float(err.max()):.2e}"
    return ""


def reference(case: Case) -> tuple[dict, dict]:
    """(inputs, unrounded outputs) of a case.  inputs, expected = reference(case)"""
    env = case.env()
    inputs = make_inputs(case.spec, env, case.data_seed)
    return inputs, evaluate(case.spec, env, inputs)
