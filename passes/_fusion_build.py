"""Build the ta.online ops of one fusion group and the values that replace its members."""

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import ta_builders as tb

from ._fusion_algebra import NotFusable, Normaliser, means_read, relabel, uses_any, uses_class, values_read

_COUNT = ()  # the inner factors of the sum of 1


def build_group(group, ids, cls, name: str, whole: bool = False) -> None:
    """Rewrite reductions ``group`` (dim ids (ids[k], d)) as ta.online ops of group ``name``.
    ``whole``: a group of plain sums reading no member (a recomputed one, _fusion_recompute.py)
    keeps each summand whole, one online sum per reduction: dS = P * (dP - D) stays one factor
    of dK = sum_i dS * Q, the form a tile kernel computes with one mma, where the normal form
    would split it into sum_i P * dP * Q - sum_i P * D * Q (two accumulators that cancel)."""
    n_dom = 1 + max(cls((n, d)) for r, n in zip(group, ids) for d in range(len(r.extents)))
    extents = [None] * n_dom
    for r, n in zip(group, ids):
        for d, e in enumerate(r.extents):
            c = cls((n, d))
            if extents[c] is not None and str(extents[c]) != str(e):
                raise NotFusable("dims of one class have different extents")
            extents[c] = e
    members = {r.op.result for r in group}
    summands = {r.op.result: relabel(r.summand, lambda ident: cls(ident)) for r in group}
    j = cls((ids[0], group[0].j))
    max_exprs = {r.op.result: summands[r.op.result] for r in group if r.kind == "max"}
    normaliser = Normaliser(j, members, max_exprs)

    specs: dict = {}   # key -> (kind, x, inner, kept, moment)
    plans = []         # (reduction, kept, [(sign, outside, guards, key)])
    for r, n in zip(group, ids):
        kept = [cls((n, d)) for d in r.kept]
        summand = summands[r.op.result]
        if whole and r.kind == "sum":
            terms = [(1.0, [], (), ("sum", None, ((summand, 1),), tuple(kept), 0))]
        elif r.kind in ("max", "min"):
            if uses_any(summand, members):
                raise NotFusable(f"a {r.kind} over a value that depends on the group")
            terms = [(1.0, [], (), (r.kind, summand, (), tuple(kept), 0))]
        else:
            terms = []
            for t in normaliser.terms(summand):
                x = t.stabiliser[1] if t.stabiliser else t.centre
                if x is not None and any(uses_class(x, c) for c in range(n_dom) if c not in kept and c != j):
                    raise NotFusable("the stabiliser depends on a dim the result does not keep")
                for expr in [e for e, _ in t.outside] + [c for c, _ in t.guards]:
                    if any(uses_class(expr, c) for c in range(n_dom) if c not in kept):
                        raise NotFusable("a factor outside the sum depends on a dim the result does not keep")
                terms.append((t.sign, t.outside, t.guards, ("sum", x, tuple(t.inner), tuple(kept), t.power)))
        for *_, key in terms:
            specs.setdefault(key, key)
        plans.append((r, kept, terms))
    _check_centred_parts(specs, plans)

    anchor = min((r.op for r in group), key=_position)
    needed = set()
    for kind, x, inner, *_ in specs:
        for expr in ([x] if x is not None else []) + [e for e, _ in inner]:
            needed |= values_read(expr)
    for _, _, terms in plans:
        for _, outside, guards, _ in terms:
            for expr in _outside_exprs(outside, guards):
                needed |= values_read(expr) - members
    _hoist(needed, anchor, members)

    i64 = ir.IntegerType.get_signless(64)
    online = {}
    with ir.InsertionPoint(anchor.operation), anchor.location:
        for key in specs:
            kind, x, inner, kept, moment = key
            attributes = {"kind": ir.StringAttr.get("max" if kind == "max" else kind),
                          "dim": ir.IntegerAttr.get(i64, j),
                          "group": ir.StringAttr.get(name),
                          "map": ir.AffineMapAttr.get(tb.projection(n_dom, list(kept))),
                          "extents": ir.ArrayAttr.get([ir.StringAttr.get(str(e)) for e in extents])}
            if moment:  # a centred sum: sum_j (x - mean_j x)^moment * inner
                attributes["moment"] = ir.IntegerAttr.get(i64, moment)
            op = ir.Operation.create("ta.online", results=[tb.tensor_type([extents[c] for c in kept], ir.F32Type.get())],
                                     regions=1, attributes=attributes)
            with ir.InsertionPoint(op.regions[0].blocks.append()):
                emit = _Emitter(n_dom, {c: c for c in range(n_dom)}, {})
                terms = [x] if kind in ("max", "min") else ([x] if x is not None else []) + [emit.product(inner)]
                values = [emit(t) if isinstance(t, tuple) else t for t in terms]
                ir.Operation.create("ta.yield", operands=values)
            online[key] = op.result
        replaced = {}
        for r, kept, terms in _in_dependency_order(plans, members):
            replaced[r.op.result] = _reconstruct(r, kept, terms, online, replaced)
    for old, new in replaced.items():
        old.replace_all_uses_with(new)


def _check_centred_parts(specs: dict, plans: list) -> None:
    """Each centred sum's step reads its count, its sum of x and its lower moments: they must be
    sums the members are rebuilt from (so they stay, and canonicalize does not drop them)."""
    for _, kept, terms in plans:
        for _, outside, guards, _ in terms:
            for x in set().union(*(means_read(e) for e in _outside_exprs(outside, guards))):
                for part in (("sum", None, _COUNT, tuple(kept), 0), ("sum", None, ((x, 1),), tuple(kept), 0)):
                    specs.setdefault(part, part)
    missing = [part for key in specs for part in _centred_parts(key) if part not in specs]
    if missing:
        raise NotFusable("a centred sum whose lower moments the members are not rebuilt from")


def _centred_parts(key) -> list:
    """The keys whose states the step of centred sum ``key`` reads (dialects/ta_online.py,
    ``centred_parts``): the count and the sum of its x, whose ratio is the running mean, and its
    lower moments of the same weight (moment 1 of weight 1 is 0: none)."""
    kind, x, inner, kept, moment = key
    if not moment:
        return []
    parts = [("sum", None, _COUNT, kept, 0), ("sum", None, ((x, 1),), kept, 0)]
    first = 2 if inner == _COUNT else 0
    return parts + [("sum", None if r == 0 else x, inner, kept, r) for r in range(first, moment)]


def _outside_exprs(outside, guards) -> list:
    """The expressions a term reads outside its sum: its factors and its guards' conditions."""
    return [e for e, _ in outside] + [c for c, _ in guards]


def _position(op) -> int:
    return [o.operation for o in op.operation.block.operations].index(op.operation)


def _hoist(values: set, anchor, members: set) -> None:
    """Move the definitions of ``values`` (and what they need) above ``anchor``."""
    for value in sorted(values, key=lambda v: 0 if isinstance(v.owner, ir.Block) else _position(v.owner)):
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.operation.block != anchor.operation.block:
            continue
        if _position(owner) < _position(anchor):
            continue
        if value in members:
            raise NotFusable("a term reads a reduction of its own group")
        _hoist(set(owner.operation.operands) | _captured(owner), anchor, members)
        owner.operation.move_before(anchor.operation)


def _captured(op) -> set:
    """Values defined outside ``op`` that ops in its regions use."""
    found = set()
    for region in op.operation.regions:
        for block in region.blocks:
            for inner in block.operations:
                found.update(v for v in inner.operation.operands
                             if isinstance(v.owner, ir.Block) and v.owner != block or
                             not isinstance(v.owner, ir.Block) and v.owner.operation.parent != op.operation)
    return found


def _in_dependency_order(plans, members):
    done, order = set(), []
    pending = list(plans)
    while pending:
        for plan in pending:
            reads = {v for _, outside, guards, _ in plan[2] for e in _outside_exprs(outside, guards)
                     for v in values_read(e)} & members
            if reads <= done:
                order.append(plan)
                done.add(plan[0].op.result)
                pending.remove(plan)
                break
        else:
            raise NotFusable("members depend on each other in a cycle")
    return order


def _reconstruct(r, kept, terms, online, replaced):
    """The new value of member ``r``: sum of sign * outside * online term, over its result dims."""
    if len(terms) == 1 and terms[0][0] == 1.0 and not terms[0][1] and not terms[0][2] and \
            (online[terms[0][3]].type == r.op.result.type or not _returned(r.op.result)):
        return online[terms[0][3]]  # (a result the function returns keeps its own type, through a map)
    local = {c: k for k, c in enumerate(kept)}
    result_type = r.op.result.type
    at = lambda key: tb.at(online[key], tb.projection(len(kept), list(range(len(kept)))))

    def mean(x):  # mean_j x as the group's sum of x over its sum of 1
        return arith.DivFOp(at(("sum", None, ((x, 1),), tuple(kept), 0)), at(("sum", None, _COUNT, tuple(kept), 0))).result

    def body():
        emit = _Emitter(len(kept), local, replaced, mean)
        total = None
        for sign, outside, guards, key in terms:
            value = at(key)
            factor = emit.product(outside)
            value = arith.MulFOp(value, factor).result if factor is not None else value
            for condition, zero_when in guards:  # select(c, 0, v) as it was, outside the sum
                zero = arith.ConstantOp(ir.F32Type.get(), 0.0).result
                value = arith.SelectOp(emit(condition), *((zero, value) if zero_when else (value, zero))).result
            if sign != 1.0:
                value = arith.MulFOp(value, arith.ConstantOp(ir.F32Type.get(), sign).result).result
            total = value if total is None else arith.AddFOp(total, value).result
        return total

    return tb.build_map(result_type, body)


def _returned(value) -> bool:
    return any(use.owner.name == "func.return" for use in value.uses)


class _Emitter:
    """Emits expressions inside a body whose dim k is domain class c where local[c] = k."""

    def __init__(self, rank: int, local: dict, replaced: dict, mean=None):
        self.rank, self.local, self.replaced, self.memo, self.mean = rank, local, replaced, {}, mean

    def __call__(self, expr) -> ir.Value:
        if expr not in self.memo:
            self.memo[expr] = self._emit(expr)
        return self.memo[expr]

    def _emit(self, expr) -> ir.Value:
        kind = expr[0]
        if kind == "ref":
            value = self.replaced.get(expr[1], expr[1])
            return tb.at(value, tb.projection(self.rank, [self.local[c] for c in expr[2]]))
        if kind == "index":
            return tb.index(self.local[expr[1]])
        if kind == "param":
            return tb.param(expr[1])
        if kind == "outer":
            return expr[1]
        if kind == "mean":
            return self.mean(expr[1])
        _, name, attrs, result_type, args = expr
        return ir.Operation.create(name, results=[result_type], operands=[self(a) for a in args],
                                   attributes=dict(attrs)).result

    def product(self, factors) -> ir.Value | None:
        """prod(e ** p) for (e, p) in factors, p = +1 or -1; None for an empty product."""
        num = [self(e) for e, p in factors if p > 0]
        den = [self(e) for e, p in factors if p < 0]
        f32 = ir.F32Type.get()
        value = num[0] if num else (arith.ConstantOp(f32, 1.0).result if den or not factors else None)
        for v in num[1:]:
            value = arith.MulFOp(value, v).result
        for v in den:
            value = arith.DivFOp(value, v).result
        return value
