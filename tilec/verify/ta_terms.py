"""Z3 terms of a ta function's elements, for comparing two ta functions (ta_rewrites.py).

Inputs are uninterpreted functions of their indices; exp/log/rsqrt/casts uninterpreted
functions shared by both sides. A reduction is ``sum[E](λr. body)`` (max, min alike): an
uninterpreted function of its extent and summand, after linearity (monomials, factors free
of r moved out); folds whose summands are proved equal for every r in range share one
symbol. A select whose condition the fold's index does not read moves out of the fold
(``sum_r If(c, a, b) = If(c, sum_r a, sum_r b)``). Division is ``a · recip(b)``, recip
uninterpreted. The ops mean:

    ta.map / ta.at / ta.remap / ta.fill / ta.index / ta.param   their element formula
    ta.contract      sum over the dims the result drops of lhs · rhs
    ta.reduce        sum / max / min over its dims
    ta.softmax       exp(x - max_j x) · recip(sum_j exp(x_j - max_j x))
    ta.logsumexp     max_j x + log(sum_j exp(x_j - max_j x))
    ta.online        sum_j t_j, max_j t_j, sum_j exp(x_j - max_j' x_j') · t_j, or (a centred
                     sum) sum_j (x_j - sum_j' x_j' · recip(n))^q · t_j
"""

from __future__ import annotations

import itertools

import numpy as np
import z3
from torch_mlir import ir

from tilec.dialects.affine import z3_results

from .scalars import Values, evaluate
from .solver import prove
from .ta_fubini import flatten, fold_many, split_log
from .symbolic import dim

# math on constant f32 operands, computed as the folder does (in f32), so a folded constant matches
_F32_FOLDS = {"math.rsqrt": lambda a: np.float32(1) / np.sqrt(a), "math.sqrt": np.sqrt, "math.exp": np.exp,
              "math.log": np.log, "math.tanh": np.tanh}
_MAX_MONOMIALS = 64  # a summand that expands further is kept whole (sound, maybe unprovable)
DOMAIN = "every element of every result, all shapes (parameters >= 1); exp, log and casts uninterpreted"


class OverBudget(Exception):
    """Building a result's terms passed its budget of fold comparisons (``_Vals.comparisons``)."""


class _Vals(Values):
    """Values with division as multiplication by an uninterpreted reciprocal, widening
    casts exact, a rounding of a 16-bit value (an input's element, or rounded before) the
    value itself, and the folds
    (reductions) both sides have built, so equal summands get one symbol."""

    def __init__(self, params: dict):
        super().__init__(params)
        self.assumptions = [p >= 1 for p in params.values()]
        self.folds = []  # (kind, extent, bound var, summand, free bound vars, symbol)
        self.facts = []  # what the terms rely on beyond the assumptions: n * recip(n) = 1 for an extent n >= 1
        self.ranges = {}  # bound var or element index (its Z3 id) -> (it, its extent): in [0, extent)
        self.comparisons = None  # how many more fold comparisons building terms may make (else OverBudget)
        self.fubini = False  # ta_fubini.py's identities (the saved backward's check): exp(x - log s), Σ Σ
        self.multi = []  # ta_fubini's sums over several variables

    def scalar(self, op, args):
        if op.operation.name == "arith.divf":
            return args[0] * self.function("recip", 1)(args[1])
        if op.operation.name == "arith.extf":  # widening is exact: a contraction reads its operands the same way
            return args[0]
        if op.operation.name == "arith.truncf":  # rounding a value already rounded so keeps it
            rounding = self.function(f"arith.truncf_f32_{op.result.type}", 1)
            if z3.is_app(args[0]) and args[0].decl() == rounding:
                return args[0]
        name = op.operation.name
        if name == "math.exp" and self.fubini:
            return split_log(self, args[0])
        args = [z3.simplify(a) if name in _F32_FOLDS else a for a in args]
        if name in _F32_FOLDS and all(z3.is_rational_value(a) for a in args):  # what canonicalize folds it to
            value = _F32_FOLDS[name](*(np.float32(float(a.as_fraction())) for a in args))
            return z3.RealVal(float(np.float32(value)))
        return super().scalar(op, args)

    def fold(self, kind: str, extent, r, body, scope: list):
        """The term of ``kind`` over r < extent of ``body``: an uninterpreted function of the
        enclosing bound variables the body reads, shared with every fold whose summand is
        equal to this one for every r in range and every value of those variables."""
        free = [v for v in scope if not z3.eq(v, r) and _occurs(v, body)]
        for k, e, r2, body2, free2, symbol in self.folds:
            if self.comparisons is not None:  # a count, not a time: the same verdict under any load
                if self.comparisons <= 0:
                    raise OverBudget()
                self.comparisons -= 1
            if k != kind or len(free2) != len(free):
                continue
            # the same term is the same extent (hash-consed: one node); else the solver decides
            if not z3.eq(e, extent) and prove(e == extent, budget=4_000_000).verdict != "proved":
                continue
            c = z3.FreshInt("r")
            for order in itertools.permutations(range(len(free))) if len(free) <= 3 else [range(len(free))]:
                ds = [z3.FreshInt("v") for _ in free]
                lhs = z3.substitute(body, (r, c), *zip(free, ds))
                rhs = z3.substitute(body2, (r2, c), *[(free2[o], ds[n]) for n, o in enumerate(order)])
                # each variable within its range (a reshape's `i mod n` is i there)
                inside = [z3.And(d >= 0, d < self.ranges[v.get_id()][1]) for v, d in zip(free, ds)
                          if v.get_id() in self.ranges]
                inside += [z3.And(v >= 0, v < e) for v, e in self.ranges.values()  # element indices
                           if not any(z3.eq(v, f) for f in free) and (_occurs(v, lhs) or _occurs(v, rhs))]
                if z3.eq(lhs, rhs) or prove(lhs == rhs, [c >= 0, c < extent, *inside, *self.assumptions],
                                            budget=10_000_000).verdict == "proved":
                    return symbol(*[free[order.index(n)] for n in range(len(free))]) if free else symbol
        symbol = z3.Function(f"{kind}{len(self.folds)}", *([z3.IntSort()] * len(free)), z3.RealSort()) \
            if free else z3.Real(f"{kind}{len(self.folds)}")
        self.folds.append((kind, extent, r, body, free, symbol))
        return symbol(*free) if free else symbol


class TaTerms:
    """Z3 terms of the elements of a ta function's values."""

    def __init__(self, fn, vals: _Vals, params: dict, tag: str):
        self.fn, self.vals, self.params, self.tag = fn, vals, params, tag
        self.args = {arg: f"arg{n}" for n, arg in enumerate(fn.arguments)}
        self.fresh = itertools.count()
        self.scope = []  # the bound variables of the folds being built, outermost first

    def extent(self, text: str):
        return dim(text, self.params)

    def bound(self, extent) -> z3.ArithRef:
        """A new bound variable in [0, extent) (the scope keeps creation order: outer folds
        first; its range is known before the folds inside its body are matched)."""
        r = z3.Int(f"{self.tag}r{next(self.fresh)}")
        self.scope.append(r)
        self.vals.ranges[r.get_id()] = (r, extent)
        return r

    def element(self, value, idx: list):
        """The element of ``value`` at integer terms ``idx``."""
        if value in self.args:
            element = self.vals.tensor(self.args[value], idx)
            narrow = str(ir.RankedTensorType(value.type).element_type)
            if narrow in ("bf16", "f16"):  # a 16-bit input holds values its rounding keeps
                return self.vals.function(f"arith.truncf_f32_{narrow}", 1)(element)
            return element
        op = value.owner
        name = op.name
        if name == "ta.remap":
            return self.element(op.operands[0], _apply(op.attributes["map"], idx))
        if name == "ta.fill":
            return z3.RealVal(ir.FloatAttr(op.attributes["value"]).value)
        if name == "ta.map":
            return self._body(op, idx)
        if name == "ta.contract":
            return self._contract(op, idx)
        if name == "ta.reduce":
            return self._reduce(op, idx)
        if name in ("ta.softmax", "ta.logsumexp"):
            return self._softmax(op, idx)
        if name == "ta.online":
            return self._online(op, idx)
        raise ValueError(f"the ta checker has no meaning for '{name}'")

    def _body(self, op, domain: list, terms: bool = False):
        def read(inner, local):
            name = inner.operation.name
            if name == "ta.at":
                return self.element(inner.operands[0], _apply(inner.attributes["map"], domain))
            if name == "ta.index":
                return domain[ir.IntegerAttr(inner.attributes["dim"]).value]
            if name == "ta.param":
                return self.params[ir.StringAttr(inner.attributes["name"]).value]
            return None
        out = evaluate(op.regions[0].blocks[0], self.vals, read, self._outer)
        return out if terms or not isinstance(out, list) else out[0]

    def _outer(self, v):
        """A scalar defined outside a body (a hoisted constant)."""
        op = v.owner
        return self.vals.scalar(op, [self._outer(x) for x in op.operands])

    def _contract(self, op, idx: list):
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        kept = [ir.AffineDimExpr(e).position for e in maps[2].results]
        dims = _domain_dims(op, maps)
        domain = [None] * maps[2].n_dims
        for p, i in zip(kept, idx):
            domain[p] = i
        reduced = [(p, self.bound(self.extent(dims[p]))) for p in range(len(domain)) if domain[p] is None]
        for p, r in reduced:
            domain[p] = r
        body = self.element(op.operands[0], _eval_map(maps[0], domain)) * \
            self.element(op.operands[1], _eval_map(maps[1], domain))
        return self._fold("sum", [(r, self.extent(dims[p])) for p, r in reduced], body)

    def _reduce(self, op, idx: list):
        src = op.operands[0]
        dims_src = _dims(src.type)
        reduced = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
        kept = iter(idx)
        domain, bounds = [], []
        for p in range(len(dims_src)):
            if p in reduced:
                r = self.bound(self.extent(dims_src[p]))
                bounds.append((r, self.extent(dims_src[p])))
                domain.append(r)
            else:
                domain.append(next(kept))
        kind = ir.StringAttr(op.attributes["kind"]).value
        return self._fold(kind, bounds, self.element(src, domain))

    def _stable(self, src, idx_with: callable, extent):
        """(max_j x, sum_j exp(x_j - max_j x)) for the row of ``src`` through ``idx_with(j)``."""
        exp = self.vals.function("math.exp", 1)
        r = self.bound(extent)
        m = self._fold("max", [(r, extent)], self.element(src, idx_with(r)))
        r = self.bound(extent)
        return m, self._fold("sum", [(r, extent)], exp(self.element(src, idx_with(r)) - m))

    def _softmax(self, op, idx: list):
        src, d = op.operands[0], ir.IntegerAttr(op.attributes["dim"]).value
        extent = self.extent(_dims(src.type)[d])
        if op.name == "ta.softmax":
            m, s = self._stable(src, lambda r: idx[:d] + [r] + idx[d + 1:], extent)
            exp, recip = self.vals.function("math.exp", 1), self.vals.function("recip", 1)
            return exp(self.element(src, idx) - m) * recip(s)
        m, s = self._stable(src, lambda r: idx[:d] + [r] + idx[d:], extent)
        return m + self.vals.function("math.log", 1)(s)

    def _online(self, op, idx: list):
        extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(op.attributes["extents"])]
        d = ir.IntegerAttr(op.attributes["dim"]).value
        kept = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(op.attributes["map"]).value.results]
        domain = [z3.Int(f"{self.tag}unused{p}") for p in range(len(extents))]  # dims the terms must not read
        for p, i in zip(kept, idx):
            domain[p] = i

        def terms(r):
            return self._body(op, domain[:d] + [r] + domain[d + 1:], terms=True)
        kind = ir.StringAttr(op.attributes["kind"]).value
        extent = self.extent(extents[d])
        r = self.bound(extent)
        first = terms(r)
        if not isinstance(first, list):
            return self._fold(kind, [(r, extent)], first)
        if "moment" in op.attributes:  # centred: sum_j (x_j - mean x)^q t_j, mean x = sum_j x_j / extent
            n = z3.ToReal(extent)
            mean = self._fold("sum", [(r, extent)], first[0]) * self.vals.function("recip", 1)(n)
            self.vals.facts.append(n * self.vals.function("recip", 1)(n) == 1)  # an extent is >= 1
            r = self.bound(extent)
            x, t = terms(r)
            power = ir.IntegerAttr(op.attributes["moment"]).value
            return self._fold("sum", [(r, extent)], z3.Product(*[x - mean] * power, t))  # a product: linearity expands it
        m = self._fold("max", [(r, extent)], first[0])
        r = self.bound(extent)
        x, t = terms(r)
        return self._fold("sum", [(r, extent)], self.vals.function("math.exp", 1)(x - m) * t)

    def _fold(self, kind: str, bounds: list, body):
        """``kind`` over ``bounds`` (innermost last) of ``body``, after linearity."""
        for r, extent in reversed(bounds):
            body = _fold_one(self.vals, kind, r, extent, body, self.scope)
        return body


def _fold_one(vals: "_Vals", kind: str, r, extent, body, scope: list):
    guard = _guard(body, r)
    if guard is not None:  # If(c, a, b) with c free of r: for each row all of one branch
        c, a, b = guard.children()
        return z3.If(c, _fold_one(vals, kind, r, extent, z3.substitute(body, (guard, a)), scope),
                     _fold_one(vals, kind, r, extent, z3.substitute(body, (guard, b)), scope))
    if kind != "sum":  # max/min of a term free of r is the term (extents are >= 1)
        return body if not _occurs(r, body) else vals.fold(kind, extent, r, body, scope)
    total = []
    for coeff, dep in _monomials(body, r):
        if dep is not None and vals.fubini:  # a factor that is a sum over r's row: one sum over both
            bounds, flat = flatten(vals, [(r, extent)], dep)
            if len(bounds) > 1:
                total.append(coeff * fold_many(vals, kind, bounds, flat, scope))
                continue
        total.append(coeff * (z3.ToReal(extent) if dep is None else vals.fold(kind, extent, r, dep, scope)))
    return z3.Sum(total) if total else z3.RealVal(0)


def _guard(e, r):
    """A select inside ``e`` whose condition does not read r while a branch does (SDPA's
    where(max_j x == -inf, 0, softmax)), or None: such a select moves out of a fold whole."""
    seen, todo = set(), [e]
    while todo:
        x = todo.pop()
        if x.get_id() in seen or not z3.is_app(x):
            continue
        seen.add(x.get_id())
        if z3.is_app_of(x, z3.Z3_OP_ITE) and not _occurs(r, x.children()[0]) and _occurs(r, x):
            return x
        todo.extend(x.children())
    return None


def _monomials(e, r) -> list:
    """``e`` as a list of (factor free of r, factor with r or None) whose sum is ``e``."""
    if not _occurs(r, e):
        return [(e, None)]
    if z3.is_add(e):
        return [m for c in e.children() for m in _monomials(c, r)]
    if z3.is_sub(e):
        first, *rest = e.children()
        return _monomials(first, r) + [(-c, d) for x in rest for c, d in _monomials(x, r)]
    if e.decl().kind() == z3.Z3_OP_UMINUS:
        return [(-c, d) for c, d in _monomials(e.children()[0], r)]
    if z3.is_mul(e):
        out = [(z3.RealVal(1), None)]
        for child in e.children():
            parts = _monomials(child, r)
            if len(out) * len(parts) > _MAX_MONOMIALS:
                return [(z3.RealVal(1), e)]
            out = [(c1 * c2, d1 if d2 is None else d2 if d1 is None else d1 * d2)
                   for c1, d1 in out for c2, d2 in parts]
        return out
    return [(z3.RealVal(1), e)]


def _occurs(r, e) -> bool:
    """Whether the constant ``r`` occurs in ``e`` (quantifier bodies included): substituting a
    fresh constant for it changes the term. One call into Z3 (terms are hash-consed, so an
    unchanged term is the same node), not a walk of the DAG in Python (a third of a rewrite's
    check on attention, docs/compile-time.md)."""
    return not z3.eq(z3.substitute(e, (r, z3.FreshConst(r.sort(), "occurs"))), e)


def _apply(map_attr, idx: list) -> list:
    return _eval_map(ir.AffineMapAttr(map_attr).value, idx)


def _eval_map(amap, idx: list) -> list:
    return z3_results(amap, idx)


def _dims(value_type) -> list[str]:
    return [ir.StringAttr(a).value for a in ir.RankedTensorType(value_type).encoding]


def _domain_dims(op, maps) -> list[str]:
    """The extent of every iteration dim of a ta.contract, read off the operand that uses it."""
    out = [None] * maps[2].n_dims
    for amap, value in zip(maps, [op.operands[0], op.operands[1], op.result]):
        for e, d in zip(amap.results, _dims(value.type)):
            if isinstance(e, ir.AffineDimExpr):
                out[ir.AffineDimExpr(e).position] = d
    return out
