"""A generated spec as data: declarations and expression trees, rendered to ``.ta`` text.

Expressions are tuples whose first item names the node::

    ("num", 0.5)  ("num", 2)  ("num", 2.0, "2e0")  ("inf", -1)  ("const", "eps")  ("ix", ("param", "N"))
    ("ix", ("var", "i"))
    ("read", "A", (("var", "i"), ("+", ("var", "k"), ("int", 1))))   ("bare", "s")
    ("bin", "+", a, b)  ("neg", a)  ("call", "exp", (a,))  ("cmp", "<=", a, b)  ("logic", "and", c, d)
    ("where", value, cond, fill_or_None)  ("red", "sum", ("k",), body)

Index expressions (subscripts, dims, index values) are ("var", i) | ("param", N) | ("const", G) |
("int", n) | (op, a, b) with op in + - * / (floor division). A number is spelled as it is held:
``2`` (an int, an integer in index arithmetic), ``2.0`` (a float), or as its third item says
(``2e0``, an f32). The shrinker edits these trees and the reference evaluates them; the compiler
only ever sees the rendered text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# the literals generated specs use
NUMBERS = [0.5, 2.0, -1.5, 0.125, 3.0, 1e-3, 0.7071067811865476, 1.0, 0.0, -0.25, 1e-6, 2, 1, -1, 3]


@dataclass(frozen=True)
class Tensor:
    """A declared input or output: Tensor("X", (("param", "N"), ("int", 1)), "bf16") is `X[N, 1] : bf16`."""

    name: str
    dims: tuple        # index expressions over params, consts and integers
    dtype: str         # f32 | f16 | bf16


@dataclass(frozen=True)
class Stmt:
    """An assignment: Stmt("Y", ("i",), ("read", "X", (("var", "i"),))) is `Y[i] = X[i]`."""

    name: str
    lhs: tuple         # index names
    expr: tuple
    let: bool = False


@dataclass(frozen=True)
class Spec:
    """A whole spec: Spec((("N", 8),), (), (x,), (y,), (stmt,)) renders as `param N = 8`, then x, y, stmt."""

    params: tuple      # (name, default or None)
    consts: tuple      # (name, expression tree of numbers)
    inputs: tuple      # Tensor
    outputs: tuple     # Tensor
    stmts: tuple       # Stmt


@dataclass(frozen=True)
class Case:
    """One generated test: the spec, the sizes given on the command line, and where it came from."""

    seed: int
    index: int
    spec: Spec
    shapes: tuple = ()             # (param, size) passed as --shape
    data_seed: int = 0             # the seed of the random inputs (as `tilec run --seed`)
    form: str = ""                 # the generator forms used, for the record
    extra: dict = field(default_factory=dict, compare=False)

    def env(self) -> dict:
        """Every parameter's value: ``--shape`` over defaults.

            Case(0, 0, Spec((("N", 4),), (), (), (), ()), (("N", 7),)).env() == {"N": 7}
        """
        env = {name: default for name, default in self.spec.params if default is not None}
        env.update(dict(self.shapes))
        return env


# precedence of the spec grammar: where < or < and < comparison < sum < product < unary < atom
_LEVEL = {"+": 4, "-": 4, "*": 5, "/": 5}


def render_index(e) -> str:
    """The text of an index expression.  render_index(("+", ("var", "i"), ("int", 1))) == "i + 1" """
    return _index(e)[0]


def _index(e) -> tuple[str, int]:
    kind = e[0]
    if kind in ("var", "param", "const"):
        return e[1], 7
    if kind == "int":
        return (str(e[1]), 7) if e[1] >= 0 else (f"-{-e[1]}", 6)
    level = _LEVEL[kind]
    a, b = _index(e[1]), _index(e[2])
    return f"{_wrap(a, level)} {kind} {_wrap(b, level + 1)}", level


def _wrap(part: tuple[str, int], level: int) -> str:
    return part[0] if part[1] >= level else f"({part[0]})"


def _number(value: float) -> tuple[str, int]:
    if value != value:
        raise ValueError("NaN has no spelling in the spec language")
    text = "inf" if abs(value) == float("inf") else str(abs(value)) if isinstance(value, int) else repr(abs(float(value)))
    return (f"-{text}", 6) if value < 0 or (value == 0 and str(value).startswith("-")) else (text, 7)


def render_expr(e) -> str:
    """The text of an expression.  render_expr(("bin", "*", ("num", 2.0), ("ix", ("var", "i")))) == "2.0 * i" """
    return _expr(e)[0]


def _expr(e) -> tuple[str, int]:
    kind = e[0]
    if kind == "num":
        return _number(e[1]) if len(e) == 2 else (e[2], 7)
    if kind == "inf":
        return ("inf", 7) if e[1] > 0 else ("-inf", 6)
    if kind in ("const", "bare"):
        return e[1], 7
    if kind == "ix":
        return _index(e[1])
    if kind == "read":
        return f"{e[1]}[{', '.join(render_index(s) for s in e[2])}]", 7
    if kind == "bin":
        level = _LEVEL[e[1]]
        return f"{_wrap(_expr(e[2]), level)} {e[1]} {_wrap(_expr(e[3]), level + 1)}", level
    if kind == "neg":
        return f"-{_wrap(_expr(e[1]), 6)}", 6
    if kind == "call":
        return f"{e[1]}({', '.join(_expr(a)[0] for a in e[2])})", 7
    if kind == "cmp":
        return f"{_wrap(_expr(e[2]), 4)} {e[1]} {_wrap(_expr(e[3]), 4)}", 3
    if kind == "logic":
        level = 2 if e[1] == "and" else 1
        return f"{_wrap(_expr(e[2]), level)} {e[1]} {_wrap(_expr(e[3]), level + 1)}", level
    if kind == "where":
        text = f"{_wrap(_expr(e[1]), 1)} where {_wrap(_expr(e[2]), 1)}"
        return (text + f" else {_wrap(_expr(e[3]), 1)}" if e[3] is not None else text), 0
    if kind == "red":
        return f"{e[1]}[{', '.join(e[2])}]({_expr(e[3])[0]})", 7
    raise ValueError(f"unknown expression node {kind!r}")


def render(spec: Spec) -> str:
    """The ``.ta`` text of a spec.

        render(Spec((("N", 4),), (), (Tensor("X", (("param", "N"),), "f32"),),
                    (Tensor("Y", (("param", "N"),), "f32"),), (Stmt("Y", ("i",), ("read", "X", (("var", "i"),))),)))
        == "param N = 4\\ninput X[N] : f32\\noutput Y[N] : f32\\nY[i] = X[i]\\n"
    """
    lines = []
    if spec.params:
        lines.append("param " + ", ".join(n if d is None else f"{n} = {d}" for n, d in spec.params))
    lines += [f"const {name} = {render_expr(value)}" for name, value in spec.consts]
    for io, tensors in (("input", spec.inputs), ("output", spec.outputs)):
        lines += [f"{io} {t.name}[{', '.join(render_index(d) for d in t.dims)}] : {t.dtype}" for t in tensors]
    for s in spec.stmts:
        target = f"{s.name}[{', '.join(s.lhs)}]" if s.lhs else s.name
        lines.append(f"{'let ' if s.let else ''}{target} = {render_expr(s.expr)}")
    return "\n".join(lines) + "\n"


def children(e) -> list:
    """The expression children of a node (index expressions excluded).

        children(("bin", "+", ("num", 1.0), ("num", 2.0))) == [("num", 1.0), ("num", 2.0)]
    """
    kind = e[0]
    if kind in ("bin", "cmp", "logic"):
        return [e[2], e[3]]
    if kind == "neg":
        return [e[1]]
    if kind == "call":
        return list(e[2])
    if kind == "where":
        return [x for x in e[1:4] if x is not None]
    if kind == "red":
        return [e[3]]
    return []


def with_children(e, kids: list) -> tuple:
    """``e`` with its expression children replaced (the inverse of children()).

        with_children(("neg", ("num", 1.0)), [("num", 2.0)]) == ("neg", ("num", 2.0))
    """
    kind = e[0]
    if kind in ("bin", "cmp", "logic"):
        return (kind, e[1], kids[0], kids[1])
    if kind == "neg":
        return ("neg", kids[0])
    if kind == "call":
        return ("call", e[1], tuple(kids))
    if kind == "where":
        return ("where", kids[0], kids[1], kids[2] if e[3] is not None else None)
    if kind == "red":
        return ("red", e[1], e[2], kids[0])
    return e


def nodes(e, path: tuple = ()):
    """(path, node) for every node, parents first; a path is a tuple of child positions.

        [p for p, _ in nodes(("neg", ("num", 1.0)))] == [(), (0,)]
    """
    yield path, e
    for k, child in enumerate(children(e)):
        yield from nodes(child, (*path, k))


def replace_at(e, path: tuple, new) -> tuple:
    """``e`` with the node at ``path`` replaced by ``new``.

        replace_at(("neg", ("num", 1.0)), (0,), ("num", 2.0)) == ("neg", ("num", 2.0))
    """
    if not path:
        return new
    kids = children(e)
    kids[path[0]] = replace_at(kids[path[0]], path[1:], new)
    return with_children(e, kids)


def walk(e):
    """Every node of an expression, parents first.  len(list(walk(("neg", ("num", 1.0))))) == 2"""
    yield e
    for child in children(e):
        yield from walk(child)


def index_vars(ix) -> set:
    """Index names in an index expression.  index_vars(("+", ("var", "i"), ("int", 1))) == {"i"}"""
    if ix[0] == "var":
        return {ix[1]}
    if ix[0] in _LEVEL:
        return index_vars(ix[1]) | index_vars(ix[2])
    return set()


def free(e) -> set:
    """Index names an expression depends on (reduction indices bound, softmax's left free).

        free(("red", "sum", ("k",), ("read", "A", (("var", "i"), ("var", "k"))))) == {"i"}
    """
    kind = e[0]
    if kind == "read":
        return set().union(*(index_vars(s) for s in e[2]))
    if kind == "ix":
        return index_vars(e[1])
    inner = set().union(*(free(c) for c in children(e)))
    return inner - set(e[2]) if kind == "red" and e[1] != "softmax" else inner


def plain_uses(e) -> set:
    """Index names used as a whole subscript somewhere in ``e`` (what gives an index its range).

        plain_uses(("read", "X", (("+", ("var", "i"), ("int", 1)), ("var", "j")))) == {"j"}
    """
    return {s[1] for node in walk(e) if node[0] == "read" for s in node[2] if s[0] == "var"}


def prune(spec: Spec) -> Spec:
    """The spec without inputs, consts and params that nothing reads (declarations stay in order).

        prune(spec).inputs  # only the inputs some statement reads
    """
    read = {n[1] for s in spec.stmts for n in walk(s.expr) if n[0] in ("read", "bare")}
    inputs = tuple(t for t in spec.inputs if t.name in read)
    names = set()
    for t in (*inputs, *spec.outputs):
        for d in t.dims:
            names |= _symbols(d)
    for s in spec.stmts:
        for node in walk(s.expr):
            if node[0] == "const":
                names.add(node[1])
            elif node[0] == "ix":
                names |= _symbols(node[1])
            elif node[0] == "read":
                for sub in node[2]:
                    names |= _symbols(sub)
    for name, expr in spec.consts:
        if name in names:
            names |= {n[1] for n in walk(expr) if n[0] == "const"}
    consts = tuple(c for c in spec.consts if c[0] in names)
    params = tuple(p for p in spec.params if p[0] in names)
    return Spec(params, consts, inputs, spec.outputs, spec.stmts)


def _symbols(ix) -> set:
    if ix[0] in ("param", "const"):
        return {ix[1]}
    if ix[0] in _LEVEL:
        return _symbols(ix[1]) | _symbols(ix[2])
    return set()
