"""Expression productions: each row of a table builds one kind of node over the indices in scope.

    expr(g, ["i", "j"], depth=2)   # e.g. ("call", "tanh", (("read", "X", (("var", "i"),)),))

A production that does not fit the scope (a softmax with no index, a temp of another shape)
falls back to a plain read. Functions with a restricted domain get a positive argument, and
masks whose fill is -inf keep index 0 of the masked index (``k <= i``), so no row is empty.
"""

from __future__ import annotations

from .masks import cond, safe_mask
from .reads import read
from .model import NUMBERS, free, plain_uses

LEAVES = [(5, "read"), (1.2, "num"), (0.5, "ixval"), (0.3, "paramval"), (0.3, "constval"),
          (0.8, "temp"), (0.6, "shifted")]
NODES = [(3, "leaf"), (3, "arith"), (1, "div"), (2.5, "unary"), (0.6, "neg"), (1, "minmax"), (0.6, "select"),
         (1, "where"), (1.2, "reduce"), (0.5, "softmax"), (0.8, "contract"), (0.6, "numdiv")]
UNARY = [(2, "exp"), (1.5, "log"), (1, "sqrt"), (1, "rsqrt"), (1.5, "tanh"), (1.5, "sigmoid"), (1.5, "abs"),
         (1.5, "erf")]


def expr(g, scope: list, depth: int) -> tuple:
    """A random expression over ``scope`` (index names), at most ``depth`` operators deep.

        expr(g, ["i"], 1)   # e.g. ("call", "erf", (("read", "X", (("var", "i"),)),))
    """
    kind = g.pick(NODES) if depth > 0 else "leaf"
    if kind == "leaf":
        return leaf(g, scope)
    return _NODES[kind](g, scope, depth)


def leaf(g, scope: list) -> tuple:
    """A read, a number, an index or parameter as a value, a constant, a temp, a shifted read.

        leaf(g, ["i", "j"])   # e.g. ("read", "X", (("var", "j"), ("var", "i")))
    """
    return _LEAVES[g.pick(LEAVES)](g, scope)


def _num(g, scope):
    return ("num", g.rng.choice(NUMBERS))


def _ixval(g, scope):
    if not scope:
        return _num(g, scope)
    a, b = (("var", g.rng.choice(scope)) for _ in range(2))
    return ("ix", g.pick([(3, a), (1, ("+", a, ("int", 1))), (1, ("-", a, b)), (1, ("*", ("int", 2), a))]))


def _paramval(g, scope):
    if not g.sizes:
        return _num(g, scope)
    return ("ix", ("param", g.rng.choice(sorted(g.sizes))))


def _constval(g, scope):
    value, base, tree = g.pick([(2, (1e-5, "eps", None)), (1, (0.125, "scale", None)),
                                (1, (1 / 64 ** 0.5, "scale", ("bin", "/", ("num", 1.0), ("call", "sqrt", (("num", 64.0),))))),
                                (1, (0.5, "cst", None))])
    return ("const", g.const(value, base, tree))


def _temp(g, scope):
    options = list(g.temps)
    g.rng.shuffle(options)
    for name, dims in options:
        match = _assign(dims, scope, g.scope_dims)
        if match is not None:
            return ("read", name, tuple(("var", i) for i in match))
    return read(g, scope)


def _assign(dims, scope, scope_dims, used=()):
    """Distinct indices of ``scope`` whose dims are ``dims``, in order (None if there are none)."""
    if not dims:
        return []
    for i in scope:
        if i not in used and scope_dims[i] == dims[0]:
            rest = _assign(dims[1:], scope, scope_dims, (*used, i))
            if rest is not None:
                return [i, *rest]
    return None


def _shifted(g, scope):
    """X[i + 1] from X[N + 1], A[2 * i + 1] from A[2 * N], H[i / 2] from H[(N + 1) / 2]."""
    if not scope:
        return read(g, scope)
    i = g.rng.choice(scope)
    d, var = g.scope_dims[i], ("var", i)
    c = g.rng.choice([1, 2])
    dim, sub = g.pick([(3, (("+", d, ("int", c)), ("+", var, ("int", g.rng.randint(0, c))))),
                       (1, (("*", ("int", 2), d), ("+", ("*", ("int", 2), var), ("int", g.rng.randint(0, 1))))),
                       (1, (("/", ("+", d, ("int", 1)), ("int", 2)), ("/", var, ("int", 2))))])
    others = [j for j in scope if j != i]
    dims, subs = [dim], [sub]
    if others and g.chance(0.5):
        j = g.rng.choice(others)
        at = g.rng.randint(0, 1)
        dims.insert(at, g.scope_dims[j])
        subs.insert(at, ("var", j))
    return ("read", g.input(tuple(dims), base="X"), tuple(subs))


_LEAVES = {"read": read, "num": _num, "ixval": _ixval, "paramval": _paramval, "constval": _constval,
           "temp": _temp, "shifted": _shifted}


def positive(g, scope, depth) -> tuple:
    """An expression bounded away from zero from below (for log, sqrt, rsqrt and divisors).

        positive(g, ["i"], 1)   # e.g. ("bin", "+", ("call", "abs", (x,)), ("num", 1.0))
    """
    kind = g.pick([(2, "num"), (1, "param"), (3, "abs"), (1, "square"), (1, "exp"), (1, "sigmoid")])
    if kind == "param" and g.sizes:
        return _paramval(g, scope)
    if kind in ("num", "param"):   # an integer divisor of an index is floor division: i / 2
        return ("num", g.rng.choice([0.5, 2.0, 3.0, 2]))
    x = expr(g, scope, depth - 1)
    return {"abs": ("bin", "+", ("call", "abs", (x,)), ("num", 1.0)),
            "square": ("bin", "+", ("bin", "*", x, x), ("num", 0.5)), "exp": ("call", "exp", (x,)),
            "sigmoid": ("bin", "+", ("call", "sigmoid", (x,)), ("num", 0.5))}[kind]


def _arith(g, scope, depth):
    return ("bin", g.rng.choice("+-*"), expr(g, scope, depth - 1), expr(g, scope, depth - 1))


def _div(g, scope, depth):
    return ("bin", "/", expr(g, scope, depth - 1), positive(g, scope, depth))


def _unary(g, scope, depth):
    fn = g.pick(UNARY)
    arg = positive(g, scope, depth) if fn in ("log", "sqrt", "rsqrt") else expr(g, scope, depth - 1)
    return ("call", fn, (arg,))


def _neg(g, scope, depth):
    return ("neg", expr(g, scope, depth - 1))


def _minmax(g, scope, depth):
    return ("call", g.rng.choice(["max", "min"]), (expr(g, scope, depth - 1), expr(g, scope, depth - 1)))


def _select(g, scope, depth):
    return ("call", "select", (cond(g, scope), expr(g, scope, depth - 1), expr(g, scope, depth - 1)))


def _where(g, scope, depth):
    fill = None if g.chance(0.4) else _num(g, scope)
    return ("where", expr(g, scope, depth - 1), cond(g, scope), fill)


def anchored(g, body: tuple, indices: list, scope: list) -> tuple:
    """``body`` combined with a plain read of each of ``indices`` it does not read plainly.

        anchored(g, ("num", 2.0), ["k"], [])   # e.g. ("bin", "*", ("num", 2.0), ("read", "X", (("var", "k"),)))
    """
    missing = [k for k in indices if k not in plain_uses(body)]
    if not missing:
        return body
    extra = [i for i in scope if g.chance(0.3)]
    return ("bin", g.rng.choice("+*"), body, g.read_over(missing + extra))


def reduce(g, scope: list, depth: int, kind: str | None = None) -> tuple:
    """sum / max / min over one to three fresh indices, or logsumexp over one.

        reduce(g, ["i"], 1, "max")   # e.g. ("red", "max", ("k",), ("read", "X", (("var", "i"), ("var", "k"))))
    """
    kind = kind or g.pick([(3, "sum"), (1.5, "max"), (1, "min"), (0.7, "logsumexp")])
    count = 1 if kind == "logsumexp" else g.pick([(7, 1), (2.5, 2), (0.5, 3)])
    new = [g.index(g.dim()) for _ in range(count)]
    inner = scope + new
    body = anchored(g, expr(g, inner, depth - 1), new, scope)
    if kind != "sum" and scope and g.chance(0.25):
        body = ("where", body, safe_mask(g, new[0], g.rng.choice(scope)), ("inf", -1))
    return ("red", kind, tuple(new), body)


def _softmax(g, scope, depth):
    if not scope:
        return read(g, scope)
    j = g.rng.choice(scope)
    body = expr(g, scope, depth - 1)
    if j not in free(body):
        body = ("bin", "+", body, g.read_over([j]))
    others = [i for i in scope if i != j]
    if others and g.chance(0.4):
        body = ("where", body, safe_mask(g, j, g.rng.choice(others)), ("inf", -1))
    return ("red", "softmax", (j,), body)


def contract(g, scope: list, depth: int) -> tuple:
    """sum[k](L * R) of two plain reads sharing the fresh k: GEMM-like, transposed, batched,
    matrix-vector or outer forms, by which scope indices each side reads; sometimes a scale inside.

        contract(g, ["i", "j"], 1)   # e.g. sum[k](A[i, k] * W[k, j]) as a tree
    """
    ks = [g.index(g.dim()) for _ in range(g.pick([(6, 1), (1, 2)]))]
    sides = []
    for _ in range(2):
        mine = [i for i in scope if g.chance(0.5)] + ks
        if g.chance(0.3):
            g.rng.shuffle(mine)
        sides.append(g.read_over(mine, base=g.rng.choice(["A", "B", "X", "W"])))
    left, right = sides
    if g.chance(0.15):
        left = ("bin", "*", left, _num(g, scope))
    return ("red", "sum", tuple(ks), ("bin", "*", left, right))


def _numdiv(g, scope, depth):
    """x * (n / N): a number over a parameter or index, by the number rule (tilec.fuzz.arith):
    f32 division when n has a point or an exponent (``1.0 / N``, ``2e0 / N``) and floor division
    on integers when it is an integer literal or const (``1 / N``, ``C / N``, ``(i + 1) / 2``)."""
    x = expr(g, scope, depth - 1)
    number = g.pick([(1.5, ("num", 1.0)), (1.5, ("num", 2.0, "2e0")), (2, ("num", 1)), (1, ("num", 3)),
                     (1, ("const", g.const(g.rng.choice([2, 4]), "C")))])
    param, value = _paramval(g, scope), _ixval(g, scope)   # numbers when there is none
    options = [(3, ("bin", "/", number, param))] if param[0] == "ix" else []   # a parameter is >= 1
    if value[0] == "ix":
        options += [(1, ("bin", "/", value, ("num", 2))), (1, ("bin", "/", ("bin", "+", value, ("num", 1)), number))]
    return ("bin", g.rng.choice("*+"), x, g.pick(options)) if options else x


_NODES = {"arith": _arith, "div": _div, "unary": _unary, "neg": _neg, "minmax": _minmax, "select": _select,
          "where": _where, "reduce": lambda g, s, d: reduce(g, s, d), "softmax": _softmax,
          "contract": lambda g, s, d: contract(g, s, d), "numdiv": _numdiv}
