"""The algebra of ta-fuse-reductions: summands as expressions, and their normal form.

An expression is a tuple tree over a common index domain (classes of dims):
    ("ref", value, (c0, c1, ...))    element of a tensor that is not a ta.map
    ("index", c) | ("param", name)   the current index, a shape parameter (index type)
    ("op", name, attrs, type, args)  an arith/math op on its argument expressions

A summand is brought into the normal form  sum_t  sign_t * guard_t(outside_t * inner_t)
(distributing * over + and -), where ``inner_t`` depends on no reduction of the
group and ``outside_t`` does not depend on the reduced index, so that
    sum_j summand = sum_t sign_t * guard_t(outside_t * (sum_j inner_t))   (linearity)
A guard is a select whose condition does not depend on the reduced index and whose other
branch is 0 (SDPA's ``where(max_j x == -inf, 0, softmax)``): for each row it is either 0
for every j or the branch for every j, so it moves out of the sum as it is, even where the
branch is not finite (0 * NaN would not be 0).
and a factor exp(x - m), m = max_j x a reduction of the group, becomes the
stabiliser of the inner sum: sum_j exp(x - m) * w is computed online with a
running max (exp(a - m') = exp(a - m) * exp(m - m')).

A difference x - mu of a summand x that varies along j and a value mu of the group
(mean then variance: mu = sum_k x_k / n) is centred the same way, about the mean of x
instead of a maximum:  x - mu = (x - mean_j x) + (mean_j x - mu).  The first part stays
inside the sum as a factor of a *centred* sum, sum_j (x - mean x)^q * w, which is computed
online about a running mean (the step (a - s') = (a - s) + (s - s')); the second is a row
value outside it, ("mean", x, j), rebuilt from the group's sums of x and of 1. Expanding
about 0 instead, sum x^2 - 2 mu sum x + n mu^2, is exact in real arithmetic and cancels
catastrophically in f32 when |mean| >> std (see docs/passes.md).
"""

from collections import Counter
from dataclasses import dataclass, field, replace

from torch_mlir import ir

from tilec.dialects.ta_online import MAX_MOMENT

from ._loops import positions

MAX_TERMS = 8
# A summand is a tree with the maps it reads inlined: a chain of lets, each reading the one
# before twice, doubles it per let, so it is bounded (as a tree, its shared parts counted at
# each use); the largest of the examples has 21 nodes. Past the bound the group is left
# unfused. Products of sums are bounded as they expand, before like terms merge.
MAX_NODES = 256
MAX_EXPANDED = 256


class NotFusable(Exception):
    """The summand is not of a form the rewrite can split."""


def expression(value, idx: tuple, _sizes: dict | None = None, _depth: int = 0) -> tuple:
    """The element of ``value`` at domain classes ``idx``; ta.map producers are inlined.
    NotFusable past MAX_NODES nodes or maps nested MAX_NODES deep."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "ta.map":
        return ("ref", value, tuple(idx))
    if _depth >= MAX_NODES:
        raise NotFusable(f"maps inlined more than {MAX_NODES} deep")
    sizes = {} if _sizes is None else _sizes  # id -> (expression, its size as a tree)
    local: dict = {}
    for op in owner.regions[0].blocks[0].operations:
        name = op.operation.name
        if name == "ta.yield":  # a value of the body, or one from outside it (a constant hoisted out)
            yielded = op.operation.operands[0]
            return local.get(yielded, ("outer", yielded))
        if name == "ta.at":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            expr = expression(op.operation.operands[0], tuple(idx[p] for p in positions(amap)), sizes, _depth + 1)
        elif name == "ta.index":
            expr = ("index", idx[ir.IntegerAttr(op.attributes["dim"]).value])
        elif name == "ta.param":
            expr = ("param", ir.StringAttr(op.attributes["name"]).value)
        else:
            args = tuple(local[v] if v in local else ("outer", v) for v in op.operation.operands)
            attrs = tuple(sorted(op.attributes.items(), key=lambda kv: kv[0]))
            expr = ("op", name, attrs, op.result.type, args)
            _count(expr, sizes)
        local[op.result] = expr
    raise NotFusable("ta.map without ta.yield")


def _count(expr: tuple, sizes: dict) -> None:
    """Record the tree size of the new node ``expr`` (its arguments' are recorded, a leaf is 1)."""
    size = 1 + sum(sizes[id(a)][1] if id(a) in sizes else 1 for a in expr[4])
    if size > MAX_NODES:
        raise NotFusable(f"a summand of more than {MAX_NODES} nodes")
    sizes[id(expr)] = (expr, size)  # the expression is kept so that its id is not reused


def relabel(expr, f) -> tuple:
    """``expr`` with every domain class c replaced by f(c)."""
    kind = expr[0]
    if kind == "ref":
        return ("ref", expr[1], tuple(f(c) for c in expr[2]))
    if kind == "index":
        return ("index", f(expr[1]))
    if kind == "op":
        return expr[:4] + (tuple(relabel(a, f) for a in expr[4]),)
    if kind == "mean":
        return ("mean", relabel(expr[1], f), f(expr[2]))
    return expr


def mean_of(x, j: int) -> tuple:
    """The row value mean_j x (an expression the sums of the group rebuild)."""
    return ("mean", x, j)


def means_read(expr) -> set:
    """The x of every mean_j x inside ``expr``."""
    if expr[0] == "mean":
        return {expr[1]}
    if expr[0] == "op":
        return set().union(*(means_read(a) for a in expr[4])) if expr[4] else set()
    return set()


def values_read(expr) -> set:
    """Every SSA value (tensors and outer scalars) the expression reads."""
    if expr[0] in ("ref", "outer"):
        return {expr[1]}
    if expr[0] == "op":
        return set().union(*(values_read(a) for a in expr[4])) if expr[4] else set()
    return set()


def refs(expr) -> set:
    """Every (value, idx) the expression reads."""
    if expr[0] == "ref":
        return {(expr[1], expr[2])}
    if expr[0] == "op":
        return set().union(*(refs(a) for a in expr[4])) if expr[4] else set()
    return set()


def uses_any(expr, values: set) -> bool:
    return any(v in values for v, _ in refs(expr))


def uses_class(expr, c: int) -> bool:
    if expr[0] == "ref":
        return c in expr[2]
    if expr[0] == "index":
        return expr[1] == c
    if expr[0] == "op":
        return any(uses_class(a, c) for a in expr[4])
    if expr[0] == "mean":  # constant along the index it averages over
        return c != expr[2] and uses_class(expr[1], c)
    return False


@dataclass
class Term:
    """sign * guards(prod(outside) * prod(inner) [* exp(x - max_j x) when stabiliser is set]
    [* (c - mean_j c)^power when centre is c])."""

    sign: float = 1.0
    outside: list = field(default_factory=list)  # (expr, power) with power +1 or -1
    inner: list = field(default_factory=list)    # (expr, power)
    stabiliser: tuple | None = None              # (max reduction value, x expression)
    guards: tuple = ()                           # (condition, zero_when): 0 where condition == zero_when
    centre: tuple | None = None                  # c of the factors (c - mean_j c)
    power: int = 0                               # how many such factors

    def times(self, other: "Term") -> "Term":
        if self.stabiliser and other.stabiliser:
            raise NotFusable("two exp(x - max) factors in one product")
        if (self.stabiliser or other.stabiliser) and (self.centre or other.centre):
            raise NotFusable("exp(x - max) times a difference from a mean")
        if self.centre and other.centre and self.centre != other.centre:
            raise NotFusable("differences from two different means in one product")
        if self.power + other.power > MAX_MOMENT:
            raise NotFusable(f"a difference from a mean to a power above {MAX_MOMENT}")
        return Term(self.sign * other.sign, self.outside + other.outside, self.inner + other.inner,
                    self.stabiliser or other.stabiliser, self.guards + other.guards,
                    self.centre or other.centre, self.power + other.power)

    def negated(self) -> "Term":
        return replace(self, sign=-self.sign)

    def inverse(self) -> "Term":
        if self.stabiliser or len(self.inner) + len(self.outside) == 0 and self.sign == 0:
            raise NotFusable("division by exp(x - max)")
        if self.centre:
            raise NotFusable("division by a difference from a mean")
        if self.guards:
            raise NotFusable("division by a guarded value")
        return Term(1.0 / self.sign, [(e, -p) for e, p in self.outside], [(e, -p) for e, p in self.inner])


class Normaliser:
    """Splits summands over reduced class ``j`` for a group of reductions ``group``.

    ``max_exprs`` maps each max reduction of the group to the expression of what it
    maximises, in the same domain, so exp(x - m) can be recognised.
    """

    def __init__(self, j: int, group: set, max_exprs: dict):
        self.j, self.group, self.max_exprs = j, group, max_exprs

    def terms(self, expr) -> list[Term]:
        # sum_j (x_j - mean_j x) is 0: a term with that one factor of j adds nothing
        out = _like_terms_merged([t for t in self._terms(expr) if not (t.power == 1 and not t.inner)])
        if len(out) > MAX_TERMS:
            raise NotFusable(f"more than {MAX_TERMS} terms after expansion")
        return out

    def _atom(self, expr) -> list[Term]:
        if not uses_class(expr, self.j):
            return [Term(outside=[(expr, 1)])]  # constant along j: out of the sum
        if not uses_any(expr, self.group):
            return [Term(inner=[(expr, 1)])]
        raise NotFusable("a group reduction appears inside a non-linear function of the reduced index")

    def _terms(self, expr) -> list[Term]:
        if expr[0] != "op":
            return self._atom(expr)
        name, args = expr[1], expr[4]
        if name in ("arith.addf", "arith.subf"):
            centred = self._centred(name, expr[3], *args)
            if centred is not None:
                return centred
            right = self._terms(args[1])
            if name == "arith.subf":
                right = [t.negated() for t in right]
            return self._terms(args[0]) + right
        if name == "arith.negf":
            return [t.negated() for t in self._terms(args[0])]
        if name == "arith.select" and not uses_class(args[0], self.j):
            for zero_when, branch, other in ((True, args[2], args[1]), (False, args[1], args[2])):
                if _is_zero(other):
                    guard = (args[0], zero_when)
                    return [replace(t, guards=t.guards + (guard,)) for t in self._terms(branch)]
        if name == "arith.mulf":
            left, right = self._terms(args[0]), self._terms(args[1])
            if len(left) * len(right) > MAX_EXPANDED:
                raise NotFusable(f"more than {MAX_EXPANDED} terms while expanding a product")
            return [a.times(b) for a in left for b in right]
        if name == "arith.divf":
            divisor = self._terms(args[1])
            if len(divisor) != 1:
                raise NotFusable("division by a sum")
            return [a.times(divisor[0].inverse()) for a in self._terms(args[0])]
        if name == "math.exp":
            stabilised = self._stabiliser(args[0])
            if stabilised:
                return [Term(stabiliser=stabilised)]
        return self._atom(expr)

    def _centred(self, name: str, result_type, a, b) -> list[Term] | None:
        """x - mu (x + mu, mu - x) with x varying along j and mu a value of the group, as
        (x - mean_j x) + (mean_j x - mu): the difference is kept about the mean of x, never
        expanded about 0 (where sum x^2 and mu^2 sum 1 would cancel), and mean_j x - mu stays
        one factor outside the sum (as a difference it is small; expanded, it would cancel
        again); None for other sums."""
        inner = lambda e: uses_class(e, self.j) and not uses_any(e, self.group)
        # a sum of the group (a mean); x - max x stays the stabiliser's (softmax, entropy terms)
        group_value = lambda e: not uses_class(e, self.j) and uses_any(e, self.group) and \
            not uses_any(e, set(self.max_exprs))
        if inner(a) and group_value(b):  # x -+ mu = (x - mean x) + (mean x -+ mu)
            x, sign, outside = a, 1.0, ("op", name, (), result_type, (mean_of(a, self.j), b))
        elif group_value(a) and inner(b) and name == "arith.subf":  # mu - x = -(x - mean x) + (mu - mean x)
            x, sign, outside = b, -1.0, ("op", name, (), result_type, (a, mean_of(b, self.j)))
        elif group_value(a) and inner(b):  # mu + x = (x - mean x) + (mean x + mu)
            x, sign, outside = b, 1.0, ("op", name, (), result_type, (mean_of(b, self.j), a))
        else:
            return None
        return [Term(sign=sign, centre=x, power=1), Term(outside=[(outside, 1)])]

    def _stabiliser(self, arg) -> tuple | None:
        """(m, x) when ``arg`` is x - m with m = max_j x a reduction of the group."""
        if arg[0] != "op" or arg[1] != "arith.subf":
            return None
        x, m = arg[4]
        if m[0] != "ref" or m[1] not in self.max_exprs:
            return None
        if self.max_exprs[m[1]] != x or uses_any(x, self.group):
            raise NotFusable("exp(a - m) where a is not what m maximises")
        return (m[1], x)


def _like_terms_merged(terms: list[Term]) -> list[Term]:
    """``terms`` with the terms that differ only in sign (and the order of their factors) added:
    (x - mean x + d)^4 has 4 terms of one form (x - mean x)^3 d, not 4 of its own."""
    merged: dict = {}
    for t in terms:
        key = (frozenset(Counter(t.outside).items()), frozenset(Counter(t.inner).items()), t.stabiliser,
               t.guards, t.centre, t.power)
        merged[key] = replace(t, sign=merged[key].sign + t.sign) if key in merged else t
    return [t for t in merged.values() if t.sign != 0.0]


def _is_zero(expr) -> bool:
    """The expression is the constant 0.0 (in the body, or hoisted out of it)."""
    if expr[0] == "outer":
        owner = expr[1].owner
        if isinstance(owner, ir.Block) or owner.name != "arith.constant":
            return False
        value = owner.attributes["value"]
    elif expr[0] == "op" and expr[1] == "arith.constant":
        value = dict(expr[2]).get("value")
    else:
        return False
    return isinstance(value, ir.FloatAttr) and ir.FloatAttr(value).value == 0.0
