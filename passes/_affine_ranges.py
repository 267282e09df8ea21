"""Affine index arithmetic that the extents of an index space decide (ta-canonicalize's
drop_bounded_mods and the reshape folds of _ta_reshape.py).

    simplified((b + t floordiv 37) mod 2, [2, 37])        --> b
    simplified((64 b + 16 h + d) floordiv 64, [2, 4, .., 16]) --> b

Each floordiv and mod whose operand's range over the index space lies in one block of its
divisor is replaced by what it is there; terms that are multiples of the divisor split off
first ((q n + r) floordiv n = q + r floordiv n holds for every integer q).
"""

from __future__ import annotations

from torch_mlir import ir


def simplified(expr, shape):
    """(``expr`` with each ``e mod n`` and ``e floordiv n`` that the range of e over the index
    space ``shape`` decides replaced by e and 0, its range (lo, hi) inclusive or None)."""
    expr = ir.AffineMap.get(len(shape), 0, [expr]).results[0]  # typed as what it simplified to
    if isinstance(expr, ir.AffineDimExpr):
        return expr, (0, shape[ir.AffineDimExpr(expr).position] - 1)
    if isinstance(expr, ir.AffineConstantExpr):
        c = ir.AffineConstantExpr(expr).value
        return expr, (c, c)
    if isinstance(expr, ir.AffineAddExpr):
        (lhs, a), (rhs, b) = (simplified(x, shape) for x in (ir.AffineAddExpr(expr).lhs, ir.AffineAddExpr(expr).rhs))
        return lhs + rhs, (a[0] + b[0], a[1] + b[1]) if a and b else None
    if isinstance(expr, ir.AffineMulExpr):
        (lhs, a), (rhs, b) = (simplified(x, shape) for x in (ir.AffineMulExpr(expr).lhs, ir.AffineMulExpr(expr).rhs))
        ends = [x * y for x in a for y in b] if a and b else None
        return lhs * rhs, (min(ends), max(ends)) if ends else None
    if isinstance(expr, (ir.AffineFloorDivExpr, ir.AffineModExpr)):
        binary = ir.AffineFloorDivExpr(expr) if isinstance(expr, ir.AffineFloorDivExpr) else ir.AffineModExpr(expr)
        lhs, a = simplified(binary.lhs, shape)
        n = ir.AffineConstantExpr(binary.rhs).value if isinstance(binary.rhs, ir.AffineConstantExpr) else None
        if n is None or n <= 0:
            rhs, _ = simplified(binary.rhs, shape)
            rebuilt = ir.AffineExpr.get_floor_div(lhs, rhs) if isinstance(expr, ir.AffineFloorDivExpr) else \
                ir.AffineExpr.get_mod(lhs, rhs)
            return rebuilt, None
        inside = a is not None and 0 <= a[0] and a[1] < n
        if not inside:
            found = _split_multiples(lhs, n, shape, isinstance(expr, ir.AffineFloorDivExpr))
            if found is not None:
                return found
        if isinstance(expr, ir.AffineFloorDivExpr):
            if inside:
                return ir.AffineConstantExpr.get(0), (0, 0)
            return ir.AffineExpr.get_floor_div(lhs, n), (a[0] // n, a[1] // n) if a else None
        return (lhs, a) if inside else (ir.AffineExpr.get_mod(lhs, n), (0, n - 1))
    return expr, None


def _terms(expr) -> list:
    """``expr`` as a sum of (atom, coefficient) terms, a constant as (None, value):
    (4 d0 + d1) * 16 + 3 is [(d0, 64), (d1, 16), (None, 3)]."""
    if isinstance(expr, ir.AffineAddExpr):
        return _terms(ir.AffineAddExpr(expr).lhs) + _terms(ir.AffineAddExpr(expr).rhs)
    if isinstance(expr, ir.AffineConstantExpr):
        return [(None, ir.AffineConstantExpr(expr).value)]
    if isinstance(expr, ir.AffineMulExpr):
        lhs, rhs = ir.AffineMulExpr(expr).lhs, ir.AffineMulExpr(expr).rhs
        if isinstance(rhs, ir.AffineConstantExpr):
            return [(a, k * ir.AffineConstantExpr(rhs).value) for a, k in _terms(lhs)]
    return [(expr, 1)]


def _sum(terms: list):
    """The affine expression of ``terms`` (_terms' form)."""
    parts = [atom if k == 1 else atom * k for atom, k in terms if atom is not None and k != 0]
    const = sum(k for a, k in terms if a is None)
    if const or not parts:
        parts.append(ir.AffineConstantExpr.get(const))
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


def _split_multiples(lhs, n: int, shape, floordiv: bool):
    """(q n + r) floordiv n --> q + j and (q n + r) mod n --> r - j n, where r's range over
    ``shape`` lies in [j n, (j + 1) n): the split of a merged index ((64 b + 16 h + d) floordiv 64
    is b for 16 h + d < 64); None when r's range is unknown or crosses a multiple of n."""
    terms = _terms(lhs)
    whole = [(a, k // n) for a, k in terms if k % n == 0]
    rest = [(a, k) for a, k in terms if k % n != 0]
    if not whole:
        return None
    rest_expr, span = simplified(_sum(rest), shape)
    if span is None or span[0] // n != span[1] // n:
        return None
    j = span[0] // n
    if floordiv:
        return simplified(_sum(whole + [(None, j)]), shape)
    return simplified(_sum(rest + [(None, -j * n)]), shape)
