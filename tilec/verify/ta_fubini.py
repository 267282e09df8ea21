"""Two identities the saved backward's check needs, on ta_terms' folds (opt in: ``_Vals.fubini``).

ta-grad{saved=true} (passes/ta_grad/saved.py) rewrites the plain gradient in two ways that the
fold terms of ta_terms.py cannot equate as they stand:

    exp(x - lse) = exp(x - m) · recip(s)         lse = m + log(s), s = Σ_j exp(..) > 0
    Σ_j (Σ_d a_d v_jd) y_j = Σ_d a_d (Σ_j y_j v_jd)       (finite sums commute: Fubini)

The first: an exponent holding -log(s), s a sum of exponentials (positive), is split off as
recip(s) (``split_log``). The second: a summand with a factor that is itself a sum over a
bound variable, and depends on the outer one, is flattened into one sum over both
(``flatten``); such sums are registered with their bound variables as a set
(``fold_many``), matched under any order of them, so Σ_j Σ_d and Σ_d Σ_j of one summand
are one symbol. Both hold in the real arithmetic the terms are read in, the first for s > 0:
a non-empty sum of exponentials of finite values (a row whose every score is -inf has s = 0
and no log-sum-exp; the rows' domain says so: saved_gradient.py).
"""

from __future__ import annotations

import itertools

import z3

from .solver import prove


def split_log(vals, arg):
    """exp(arg) with each term -log(s) of ``arg`` (s a registered sum of exponentials) taken
    out as a factor recip(s)."""
    exp, log, recip = vals.function("math.exp", 1), vals.function("math.log", 1), vals.function("recip", 1)
    terms = _summands(z3.simplify(arg))
    kept, factors = [], []
    for t in terms:
        s = _negated_log(t, log)
        if s is not None and _positive_sum(vals, s, exp):
            factors.append(recip(s))
        else:
            kept.append(t)
    if not factors:
        return exp(arg)
    return z3.Product(exp(z3.Sum(kept) if kept else z3.RealVal(0)), *factors)


def _summands(e) -> list:
    return list(e.children()) if z3.is_add(e) else [e]


def _negated_log(t, log):
    """s where ``t`` is -1 · log(s), else None."""
    if not (z3.is_mul(t) and len(t.children()) == 2):
        return None
    c, f = t.children()
    if z3.is_rational_value(c) and c.as_fraction() == -1 and z3.is_app(f) and f.decl() == log:
        return f.children()[0]
    return None


def _positive_sum(vals, s, exp) -> bool:
    """Whether ``s`` is a registered sum whose summand is an exponential (so s > 0)."""
    entry = fold_entry(vals, s)
    return entry is not None and entry[0] == "sum" and z3.is_app(entry[2]) and entry[2].decl() == exp


def flatten(vals, bounds: list, body):
    """(bounds, body) with every factor of ``body`` that is a registered sum depending on a
    bound variable of ``bounds`` opened into the sum: Σ_r c · (Σ_s b(s)) = Σ_r Σ_s c · b(s)."""
    changed = True
    while changed:
        changed = False
        for k, factor in enumerate(_factors(body)):
            entry = fold_entry(vals, factor)
            if entry is None or entry[0] != "sum" or not any(_occurs(r, factor) for r, _ in bounds):
                continue
            inner_bounds, inner_body = _instantiate(vals, entry, factor)
            rest = [f for j, f in enumerate(_factors(body)) if j != k]
            body = z3.Product(*rest, inner_body) if rest else inner_body
            bounds = bounds + inner_bounds
            changed = True
            break
    return bounds, body


def _factors(e) -> list:
    return list(e.children()) if z3.is_mul(e) else [e]


def _occurs(r, e) -> bool:
    return not z3.eq(z3.substitute(e, (r, z3.FreshConst(r.sort(), "occurs"))), e)


def fold_entry(vals, term):
    """(kind, bounds, body, free, symbol) of the registered fold ``term`` is an application of
    (ta_terms' one-variable folds and fold_many's), or None."""
    for kind, extent, r, body, free, symbol in vals.folds:
        if _is(term, symbol, free):
            return kind, [(r, extent)], body, free, symbol
    for entry in vals.multi:
        if _is(term, entry[4], entry[3]):
            return entry
    return None


def _is(term, symbol, free) -> bool:
    if free:
        return z3.is_app(term) and term.decl() == symbol
    return z3.eq(term, symbol)


def _instantiate(vals, entry, term):
    """The bounds (fresh variables, their ranges known) and body of fold ``entry`` at the
    arguments ``term`` applies it to."""
    _, bounds, body, free, _ = entry
    fresh = []
    pairs = []
    for r, extent in bounds:
        c = z3.FreshInt("fb")
        vals.ranges[c.get_id()] = (c, extent)
        fresh.append((c, extent))
        pairs.append((r, c))
    if free:
        pairs += list(zip(free, term.children()))
    return fresh, z3.substitute(body, *pairs)


def fold_many(vals, kind: str, bounds: list, body, scope: list):
    """The fold of ``kind`` over every variable of ``bounds`` of ``body``: one symbol, shared
    with every registered one whose body is equal under some order of the bound variables (and
    of the enclosing variables the body reads, as ta_terms' ``fold`` matches them)."""
    rs = [r for r, _ in bounds]
    free = [v for v in scope if not any(z3.eq(v, r) for r in rs) and _occurs(v, body)]
    for entry in vals.multi:
        k, bounds2, body2, free2, symbol = entry
        if k != kind or len(bounds2) != len(bounds) or len(free2) != len(free):
            continue
        for order in itertools.permutations(range(len(bounds))):
            if not all(z3.eq(bounds[n][1], bounds2[o][1]) for n, o in enumerate(order)):
                continue
            cs = [z3.FreshInt("c") for _ in bounds]
            for forder in itertools.permutations(range(len(free))) if len(free) <= 3 else [range(len(free))]:
                ds = [z3.FreshInt("v") for _ in free]
                lhs = z3.substitute(body, *zip(rs, cs), *zip(free, ds))
                rhs = z3.substitute(body2, *[(bounds2[o][0], cs[n]) for n, o in enumerate(order)],
                                    *[(free2[o], ds[n]) for n, o in enumerate(forder)])
                inside = [z3.And(c >= 0, c < e) for c, (_, e) in zip(cs, bounds)]
                inside += [z3.And(d >= 0, d < vals.ranges[v.get_id()][1]) for v, d in zip(free, ds)
                           if v.get_id() in vals.ranges]
                if z3.eq(lhs, rhs) or prove(lhs == rhs, inside + vals.assumptions, budget=10_000_000).verdict == "proved":
                    return symbol(*[free[forder.index(n)] for n in range(len(free))]) if free else symbol
    name = f"{kind}{len(vals.folds) + len(vals.multi)}m"
    symbol = z3.Function(name, *([z3.IntSort()] * len(free)), z3.RealSort()) if free else z3.Real(name)
    vals.multi.append((kind, list(bounds), body, free, symbol))
    return symbol(*free) if free else symbol
