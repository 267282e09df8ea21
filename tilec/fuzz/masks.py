"""Conditions and masks: comparisons of indices and inputs, and/or, integer constants, windows.

    cond(g, ["i", "j"])         # e.g. i - j < W, with `const W = 4`
    safe_mask(g, "j", "i")      # j <= i: keeps key 0 of every row
    row_mask(g, "j", "i")       # j < i: row 0 has no key left, and its softmax is NaN

A -inf fill with safe_mask empties no row; row_mask may (a strict or shifted causal mask, a
sliding window `j <= i and i - j < W`, `j >= i` with fewer keys than rows): such a softmax row is
0/0 = NaN in every stage, as in torch.softmax, and the generator reads that result no further.
"""

from __future__ import annotations
from .reads import read

CMP = ["<", "<=", ">", ">=", "==", "!="]


def _var(i: str) -> tuple:
    return ("var", i)


def _integer(g) -> tuple:
    """A small integer, written as a literal (``3``) or an integer const (``const W = 3``)."""
    value = g.rng.randint(1, 4)
    return ("num", value) if g.chance(0.5) else ("const", g.const(value, "W"))


def cond(g, scope: list, depth: int = 1) -> tuple:
    """A condition: indices compared (with integer offsets, literals or integer consts), an input
    compared with a number or another input (inputs only: both sides exact, so no stage can round
    across the boundary), or two conditions joined by ``and`` / ``or``.

        cond(g, ["i", "j"])   # e.g. ("cmp", "<=", ("ix", ("var", "j")), ("ix", ("+", ("var", "i"), ("int", 2))))
    """
    kind = g.pick([(3, "index"), (2, "value"), (1.2 if depth > 0 else 0, "logic")])
    if kind == "logic":
        return ("logic", g.rng.choice(["and", "or"]), cond(g, scope, depth - 1), cond(g, scope, depth - 1))
    if kind == "index" and scope:
        a, b = (_var(g.rng.choice(scope)) for _ in range(2))
        c = g.rng.randint(0, 3)
        lhs, rhs = g.pick([(3, (("ix", a), ("ix", b))), (2, (("ix", a), ("ix", ("+", b, ("int", c))))),
                           (1, (("ix", ("-", a, b)), ("num", float(c + 1)))), (1, (("ix", a), ("num", float(c)))),
                           (1.5, (("ix", ("-", a, b)), _integer(g))), (1, (("bin", "+", ("ix", a), _integer(g)),
                                                                            ("ix", b)))])
        return ("cmp", g.rng.choice(CMP), lhs, rhs)
    other = read(g, scope) if g.chance(0.3) else ("num", g.rng.choice([0.0, 0.5, -0.5, 1.0, 0, 1]))
    return ("cmp", g.rng.choice(CMP), read(g, scope), other)


def safe_mask(g, j: str, i: str) -> tuple:
    """A causal-style condition that holds at j = 0 for every i (so a -inf fill empties no row).

        safe_mask(g, "j", "i")   # e.g. ("cmp", "<=", ("ix", ("var", "j")), ("ix", ("var", "i")))
    """
    return g.pick([(3, ("cmp", "<=", ("ix", _var(j)), ("ix", _var(i)))),
                   (1, ("cmp", "<=", ("ix", _var(j)), ("ix", ("+", _var(i), ("int", g.rng.randint(1, 3)))))),
                   (1, ("cmp", ">=", ("ix", _var(i)), ("ix", _var(j)))),
                   (1, ("logic", "or", ("cmp", "<=", ("ix", _var(j)), ("ix", _var(i))),
                        ("cmp", "==", ("ix", _var(j)), ("num", 0))))])


def window(g, j: str, i: str) -> tuple:
    """A sliding window, ``j <= i and i - j < W`` with an integer const or literal W (it keeps
    key i of row i: no row is empty while there are as many keys as rows).

        window(g, "j", "i")   # ("logic", "and", j <= i, i - j < W)
    """
    return ("logic", "and", ("cmp", "<=", ("ix", _var(j)), ("ix", _var(i))),
            ("cmp", "<", ("ix", ("-", _var(i), _var(j))), _integer(g)))


def row_mask(g, j: str, i: str) -> tuple:
    """A condition that may hold for no j of some rows i (their softmax is NaN).

        row_mask(g, "j", "i")   # e.g. ("cmp", "<", ("ix", ("var", "j")), ("ix", ("var", "i"))): row 0 is empty
    """
    shift = g.rng.randint(1, 3)
    return g.pick([(2, ("cmp", "<", ("ix", _var(j)), ("ix", _var(i)))),
                   (1, ("cmp", "<=", ("ix", ("+", _var(j), ("int", shift))), ("ix", _var(i)))),
                   (1, ("cmp", ">=", ("ix", _var(j)), ("ix", _var(i)))),
                   (1, ("logic", "and", ("cmp", "<", ("ix", _var(j)), ("ix", _var(i))),
                        ("cmp", "<", ("ix", ("-", _var(i), _var(j))), _integer(g))))])
