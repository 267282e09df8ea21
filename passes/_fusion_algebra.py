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
"""

from dataclasses import dataclass, field

from torch_mlir import ir

from ._loops import positions

MAX_TERMS = 8


class NotFusable(Exception):
    """The summand is not of a form the rewrite can split."""


def expression(value, idx: tuple) -> tuple:
    """The element of ``value`` at domain classes ``idx``; ta.map producers are inlined."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "ta.map":
        return ("ref", value, tuple(idx))
    local: dict = {}
    for op in owner.regions[0].blocks[0].operations:
        name = op.operation.name
        if name == "ta.yield":
            return local[op.operation.operands[0]]
        if name == "ta.at":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            expr = expression(op.operation.operands[0], tuple(idx[p] for p in positions(amap)))
        elif name == "ta.index":
            expr = ("index", idx[ir.IntegerAttr(op.attributes["dim"]).value])
        elif name == "ta.param":
            expr = ("param", ir.StringAttr(op.attributes["name"]).value)
        else:
            args = tuple(local[v] if v in local else ("outer", v) for v in op.operation.operands)
            attrs = tuple(sorted(op.attributes.items(), key=lambda kv: kv[0]))
            expr = ("op", name, attrs, op.result.type, args)
        local[op.result] = expr
    raise NotFusable("ta.map without ta.yield")


def relabel(expr, f) -> tuple:
    """``expr`` with every domain class c replaced by f(c)."""
    kind = expr[0]
    if kind == "ref":
        return ("ref", expr[1], tuple(f(c) for c in expr[2]))
    if kind == "index":
        return ("index", f(expr[1]))
    if kind == "op":
        return expr[:4] + (tuple(relabel(a, f) for a in expr[4]),)
    return expr


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
    return False


@dataclass
class Term:
    """sign * guards(prod(outside) * prod(inner) [* exp(x - max_j x) when stabiliser is set])."""

    sign: float = 1.0
    outside: list = field(default_factory=list)  # (expr, power) with power +1 or -1
    inner: list = field(default_factory=list)    # (expr, power)
    stabiliser: tuple | None = None              # (max reduction value, x expression)
    guards: tuple = ()                           # (condition, zero_when): 0 where condition == zero_when

    def times(self, other: "Term") -> "Term":
        if self.stabiliser and other.stabiliser:
            raise NotFusable("two exp(x - max) factors in one product")
        return Term(self.sign * other.sign, self.outside + other.outside, self.inner + other.inner,
                    self.stabiliser or other.stabiliser, self.guards + other.guards)

    def negated(self) -> "Term":
        return Term(-self.sign, self.outside, self.inner, self.stabiliser, self.guards)

    def inverse(self) -> "Term":
        if self.stabiliser or len(self.inner) + len(self.outside) == 0 and self.sign == 0:
            raise NotFusable("division by exp(x - max)")
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
        out = self._terms(expr)
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
                    return [Term(t.sign, t.outside, t.inner, t.stabiliser, t.guards + (guard,))
                            for t in self._terms(branch)]
        if name == "arith.mulf":
            return [a.times(b) for a in self._terms(args[0]) for b in self._terms(args[1])]
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
