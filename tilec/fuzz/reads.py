"""Reads of inputs in generated specs (the leaf that expressions and conditions share)."""

from __future__ import annotations


def read(g, scope: list, base: str = "X") -> tuple:
    """A plain read of an input over some of ``scope`` (in order, permuted, or a diagonal); rank 0
    when the scope is empty (``sc[]``, or ``sc`` by its bare name).

        read(g, [])   # ("read", "sc", ()) with `input sc[] : ...` declared
    """
    if not scope or g.chance(0.08):
        name = g.input((), base="sc")
        return ("bare", name) if g.chance(0.3) else ("read", name, ())
    n = g.pick([(1, 1), (2, min(2, len(scope))), (3, len(scope))])
    chosen = g.rng.sample(scope, n)
    if not g.chance(0.3):
        chosen.sort(key=scope.index)
    if g.chance(0.04):   # a diagonal X[i, i]
        dims = (g.scope_dims[chosen[0]],) * 2
        return ("read", g.input(dims, base=base), (("var", chosen[0]),) * 2)
    return g.read_over(chosen, base=base)
