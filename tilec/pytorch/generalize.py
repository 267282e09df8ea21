"""One ta function for every size of a graph's dynamic dims, from the same graph raised at a
few sizes.

    module = generalize(modules, points)    # points[i]: {"T": 37}, the sizes modules[i] has

torch.export (or TorchDynamo) says which input dims may vary (a ``Dim``, a symbolic size) and
checks that the code does not specialise them. tilec raises the graph at static sizes, as
always, once per point: the example's sizes and others around them. Where the graph is
generic in its dynamic dims, those ta functions are the same ops with the same attributes,
index maps and constants; only the sizes in their tensor types differ, each an integer
polynomial of the dynamic sizes (T, B*T, 2*T). ``generalize`` checks exactly that and
returns the first function with each varying size named by its polynomial (a ``?`` dim of
the ta type, like a spec's parameter), the dynamic sizes its shape parameters. Anything
else that differs (an index map with T in it, a constant 1/T, a different op) is a
``Specialized`` error that names it: then the graph is compiled for its static sizes only.

A size is fitted as a multilinear polynomial (monomials: products of distinct dynamic
sizes) from the corners of a box of points, 2**k for k dynamic sizes, and must agree at
every other point given (``points`` ends with one inside no corner's reach).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from torch_mlir import ir

from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import parse_dim


class Specialized(Exception):
    """The raised functions differ in more than their sizes."""


def points_around(example: dict[str, int], ranges: dict[str, tuple[int, int]]) -> list[dict[str, int]]:
    """The sizes to raise a graph at: the example's, the corners of a box around it (each size
    moved by a step inside its range) and one more point inside no corner, to check the fit."""
    names = sorted(example)
    other, check = {}, {}
    for n in names:
        low, high = ranges.get(n, (2, 2**31 - 1))
        low = max(low, 2)
        up = [v for v in (example[n] + 7, example[n] + 13) if v <= high]
        down = [v for v in (example[n] - 7, example[n] - 5) if v >= low]
        steps = (up + down)[:2]
        if len(steps) < 2:
            raise Specialized(f"the range of {n}, [{low}, {high}], is too narrow to compile it as dynamic")
        other[n], check[n] = steps
    corners = [{n: (other[n] if bit else example[n]) for n, bit in zip(names, bits)}
               for bits in itertools.product((0, 1), repeat=len(names))]
    return corners + [check]


def generalize(modules: list[ir.Module], points: list[dict[str, int]]) -> ir.Module:
    """``modules[0]`` with each tensor size that varies across ``modules`` (raised at
    ``points``, as points_around gives them) named by its polynomial; the dynamic sizes become
    the function's shape parameters. Raises Specialized when the functions differ otherwise."""
    fns = [m.body.operations[0] for m in modules]
    ops = [list(_ops(fn)) for fn in fns]
    if len({len(o) for o in ops}) != 1:
        raise Specialized(f"the function has {len(ops[0])} ops at one size and {len(ops[1])} at another")
    for at_one_place in zip(*ops):
        _same_op(at_one_place)
    fitted: dict[tuple, str] = {}
    for values in zip(*(list(_values(fn)) for fn in fns)):
        types = [v.type for v in values]
        if not all(isinstance(t, ir.RankedTensorType) for t in types):
            if len({str(t) for t in types}) != 1:
                raise Specialized(f"a value has type {types[0]} at one size and {types[1]} at another")
            continue
        values[0].set_type(_general_type(types, points, fitted))
    fn = fns[0]
    returned = list(list(fn.entry_block.operations)[-1].operation.operands)
    fn.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get([a.type for a in fn.arguments], [r.type for r in returned]))
    fn.attributes["ta.params"] = ir.DictAttr.get({n: ir.UnitAttr.get() for n in sorted(points[0])})
    modules[0].operation.verify()
    return modules[0]


def fit(sizes: list[int], points: list[dict[str, int]]) -> str | None:
    """The multilinear integer polynomial of the points' dynamic sizes that takes ``sizes`` at
    ``points`` (the first 2**k the corners of a box), as a dimension expression; None if none."""
    names = sorted(points[0])
    monomials = [m for r in range(len(names) + 1) for m in itertools.combinations(names, r)]
    corners = points[:len(monomials)]
    rows = [[Fraction(_product(p, m)) for m in monomials] + [Fraction(s)] for p, s in zip(corners, sizes)]
    coefficients = _solve(rows)
    if coefficients is None or any(c.denominator != 1 for c in coefficients):
        return None
    if any(sum(int(c) * _product(p, m) for c, m in zip(coefficients, monomials)) != s for p, s in zip(points, sizes)):
        return None
    # positive terms first (a dimension expression starts with no sign), higher degrees first
    terms = sorted(((int(c), m) for c, m in zip(coefficients, monomials) if c != 0),
                   key=lambda cm: (cm[0] < 0, -len(cm[1])))
    if not terms or terms[0][0] < 0:
        return None  # no size is negative at every point
    text = ""
    for k, (c, m) in enumerate(terms):
        factors = ([str(abs(c))] if abs(c) != 1 or not m else []) + list(m)
        text += ("-" if c < 0 else "+" if k else "") + "*".join(factors)
    return str(parse_dim(text))


def _general_type(types: list, points, fitted: dict) -> ir.RankedTensorType:
    first = ir.RankedTensorType(types[0])
    if len({(ir.RankedTensorType(t).rank, str(ir.RankedTensorType(t).element_type)) for t in types}) != 1:
        raise Specialized(f"a tensor is {types[0]} at one size and {types[1]} at another")
    names = [[ir.StringAttr(d).value for d in ir.ArrayAttr(ir.RankedTensorType(t).encoding)] for t in types]
    dims = []
    for k in range(first.rank):
        column = [n[k] for n in names]
        if len(set(column)) == 1:
            dims.append(parse_dim(column[0]))
            continue
        if not all(c.isdigit() for c in column):
            raise Specialized(f"dim {k} of {first} is named {column[0]} at one size and {column[1]} at another")
        key = tuple(column)
        if key not in fitted:
            fitted[key] = fit([int(c) for c in column], points)
        if fitted[key] is None:
            sizes = ", ".join(f"{c} at {_where(p)}" for c, p in zip(column, points))
            raise Specialized(f"dim {k} of {first} is {sizes}: not a polynomial of the dynamic sizes")
        dims.append(parse_dim(fitted[key]))
    return tb.tensor_type(dims, first.element_type)


def _same_op(ops) -> None:
    """The ops at one place of each function: same name, same attributes (index maps, constants)."""
    first = ops[0]
    for other in ops[1:]:
        if other.name != first.name or len(other.results) != len(first.results):
            raise Specialized(f"{first.name} at one size is {other.name} at another")
        mine, theirs = _attributes(first), _attributes(other)
        for name in sorted(set(mine) | set(theirs)):
            if mine.get(name) != theirs.get(name):
                raise Specialized(f"{first.name}: its {name} is {mine.get(name)} at one size and "
                                  f"{theirs.get(name)} at another (it depends on a dynamic size)")


def _attributes(op) -> dict[str, str]:
    return {a.name: str(a.attr) for a in (op.attributes[k] for k in range(len(op.attributes)))}


def _ops(fn):
    """Every op of ``fn``'s body, nested ones included, in order."""
    for op in fn.entry_block.operations:
        yield from _walk(op.operation)


def _walk(op):
    yield op
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _walk(inner.operation)


def _values(fn):
    """Every value ``fn`` defines: its arguments, then each op's results and its regions' block
    arguments, in order."""
    yield from fn.arguments
    for op in _ops(fn):
        yield from op.results
        for region in op.regions:
            for block in region.blocks:
                yield from block.arguments


def _product(point: dict, monomial: tuple) -> int:
    value = 1
    for n in monomial:
        value *= point[n]
    return value


def _solve(rows: list) -> list | None:
    """Gaussian elimination over fractions of a square system given as augmented rows."""
    n = len(rows)
    rows = [list(r) for r in rows]
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[k][n] / rows[k][k] for k in range(n)]


def _where(point: dict) -> str:
    return ", ".join(f"{n}={v}" for n, v in sorted(point.items()))
