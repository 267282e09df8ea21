"""Lowering of a ta.online group (ta-to-loops): one loop over the reduced index.

For every point of the dims all results keep:
    init:  max/min results -inf/+inf, sums 0, one running max per distinct stabiliser x
    for j:
        x = ...;  m' = max(m, x);  c = exp(m - m');  p = exp(x - m');  m = m'
        for the extra dims of each result:
            max: r = max(r, t)      sum: r = r + t      stabilised sum: r = r * c + p * t
After the loop a stabilised sum holds sum_j exp(x - max_j x) * t, its closed form:
the step lemma  exp(a - m') = exp(a - m) * exp(m - m')  carries the partial sum
from one running max to the next. A centred sum (``moment`` q) takes one key at a time
by Welford's step (passes/_centred.py), reading the states of its group's count, sum of x
and lower moments before they take the key: it is updated first. (c is 1 when its exponent would be -inf - -inf,
i.e. while every x so far is -inf; p is 0 for x = -inf, so a row whose every x is
-inf keeps its sums at 0 and its softmax is 0 / 0 = NaN in every stage, as in the
oracle and torch.softmax.)
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, math as math_d, memref

from tilec.dialects.dims import parse_dim
from tilec.dialects.reduce_kinds import KINDS
from tilec.dialects.ta_online import centred_parts, is_one, moment, term_dims

from ._centred import Moments, combine
from ._loops import Builder, emit_value, positions


def _key(value, memo: dict):
    """A structural key of how ``value`` is computed inside a body (equal keys, equal values)."""
    if value in memo:
        return memo[value]
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.parent is None or \
            owner.operation.parent.name not in ("ta.online",):
        key = ("value", value)
    else:
        key = (owner.operation.name, tuple(sorted((k, str(v)) for k, v in owner.operation.attributes.items())),
               str(value.type), tuple(_key(v, memo) if _inside(v) else ("value", v) for v in owner.operation.operands))
    memo[value] = key
    return key


def _inside(value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.parent is not None and \
        owner.operation.parent.name == "ta.online"


def _terms(op) -> list:
    return list(list(op.regions[0].blocks[0].operations)[-1].operation.operands)


def lower_online_group(b: Builder, ops: list) -> None:
    first = ops[0]
    extents = [parse_dim(ir.StringAttr(e).value) for e in ir.ArrayAttr(first.attributes["extents"])]
    j = ir.IntegerAttr(first.attributes["dim"]).value
    kept = [positions(ir.AffineMapAttr(op.attributes["map"]).value) for op in ops]
    # loop outside the reduced index only over dims the stabilisers (else the terms) depend
    # on: a dim only some results keep (like the head dim of softmax·V) goes inside
    deps = [term_dims(op.regions[0].blocks[0]) for op in ops]
    driving = [d[0] for d in deps if len(d) == 2] or [t for d in deps for t in d]
    needed = set().union(*driving) if driving else set()
    common = [d for d in range(len(extents)) if all(d in k for k in kept) and d in needed]
    sizes = [b.dim(e) for e in extents]
    f32 = ir.F32Type.get()
    bufs = [b.buffer(op.result) for op in ops]

    # one running max per distinct stabiliser
    stabilisers, memo = {}, {}
    for op in ops:
        terms = _terms(op)
        if len(terms) == 2 and not moment(op):
            stabilisers.setdefault(_key(terms[0], memo), (op, terms[0]))
    running = {key: memref.AllocOp(ir.MemRefType.get([], f32), [], []).result for key in stabilisers}

    with b.loops([sizes[d] for d in common]) as outer:
        ivs = [None] * len(extents)
        for d, iv in zip(common, outer):
            ivs[d] = iv
        for key in running:
            memref.StoreOp(arith.ConstantOp(f32, -math.inf).result, running[key], [])
        for op, buf, k in zip(ops, bufs, kept):
            kind = ir.StringAttr(op.attributes["kind"]).value
            init = KINDS[kind].neutral
            with _extra_loops(b, sizes, k, common, ivs) as inner:
                memref.StoreOp(arith.ConstantOp(f32, init).result, buf, [inner[d] for d in k])
        with b.loops([sizes[j]]) as (jv,):
            ivs[j] = jv
            scale = {}
            for key, (op, x_value) in stabilisers.items():
                x = emit_value(b, x_value, ivs, {})
                m_old = memref.LoadOp(running[key], []).result
                m_new = arith.MaximumFOp(m_old, x).result
                scale[key] = (_exp_or_one(m_old, m_new), exp_or_zero(x, m_new))
                memref.StoreOp(m_new, running[key], [])
            held = {op.operation: buf for op, buf in zip(ops, bufs)}
            # centred sums first, highest moment first: each reads the others' states before this key
            for op, buf, k in sorted(zip(ops, bufs, kept), key=lambda e: -moment(e[0])):
                if moment(op):
                    _update_centred(b, op, buf, k, common, sizes, ivs, held, ops)
                else:
                    _update(b, op, buf, k, common, sizes, ivs, scale, memo)
    for key in running:
        memref.DeallocOp(running[key])


def _exp_or_one(a: ir.Value, m: ir.Value) -> ir.Value:
    """exp(a - m), or 1 when a == m (which also covers -inf - -inf)."""
    one = arith.ConstantOp(ir.F32Type.get(), 1.0).result
    equal = arith.CmpFOp(arith.CmpFPredicate.OEQ, a, m).result
    return arith.SelectOp(equal, one, math_d.ExpOp(arith.SubFOp(a, m).result).result).result


def exp_or_zero(x: ir.Value, m: ir.Value) -> ir.Value:
    """exp(x - m), or 0 when x is -inf: a masked term adds nothing, also while every x so far
    is -inf (then exp(-inf - -inf) would be NaN). A row whose every x is -inf keeps its sums
    at 0, so its softmax is 0 / 0 = NaN, as the ta semantics (torch.softmax) says."""
    zero = arith.ConstantOp(ir.F32Type.get(), 0.0).result
    masked = arith.CmpFOp(arith.CmpFPredicate.OEQ, x, arith.ConstantOp(ir.F32Type.get(), -math.inf).result).result
    return arith.SelectOp(masked, zero, math_d.ExpOp(arith.SubFOp(x, m).result).result).result


def _update_centred(b, op, buf, k, common, sizes, ivs, held, ops) -> None:
    """One more key for centred sum ``op``: Welford's step, as Chan's combine with a state of
    one key (count 1, mean x, S_0 = t)."""
    parts = {r: held[part.operation] for r, part in centred_parts(op, ops).items()}
    x_value, t_value = _terms(op)
    with _extra_loops(b, sizes, k, common, ivs) as inner:
        at = [inner[d] for d in k]
        x, t = emit_value(b, x_value, inner, {}), emit_value(b, t_value, inner, {})
        load = lambda buf: memref.LoadOp(buf, at).result
        count, total = load(parts["count"]), load(parts["total"])
        sums = {r: load(parts[r]) for r in parts if isinstance(r, int)}
        sums[moment(op)] = load(buf)
        if is_one(t_value):
            sums[0] = count
        one = arith.ConstantOp(ir.F32Type.get(), 1.0).result
        new = combine(moment(op), Moments(count, total, sums), Moments(one, x, {0: t}, mean=x))
        memref.StoreOp(new, buf, at)


def _update(b, op, buf, k, common, sizes, ivs, scale, memo) -> None:
    kind = ir.StringAttr(op.attributes["kind"]).value
    terms = _terms(op)
    with _extra_loops(b, sizes, k, common, ivs) as inner:
        at = [inner[d] for d in k]
        t = emit_value(b, terms[-1], inner, {})
        old = memref.LoadOp(buf, at).result
        if kind != "sum":  # max, min: the kind's combine
            new = KINDS[kind].arith_op(old, t)
        elif len(terms) == 2:
            c, p = scale[_key(terms[0], memo)]
            new = arith.AddFOp(arith.MulFOp(old, c).result, arith.MulFOp(p, t).result).result
        else:
            new = arith.AddFOp(old, t).result
        memref.StoreOp(new, buf, at)


class _extra_loops:
    """Loops over the dims ``kept`` has beyond ``common``; yields the full index list."""

    def __init__(self, b, sizes, kept, common, ivs):
        self.extra = [d for d in kept if d not in common]
        self.loops = b.loops([sizes[d] for d in self.extra])
        self.ivs = ivs

    def __enter__(self):
        inner = list(self.ivs)
        for d, iv in zip(self.extra, self.loops.__enter__()):
            inner[d] = iv
        return inner

    def __exit__(self, *exc):
        return self.loops.__exit__(*exc)
