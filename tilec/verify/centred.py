"""The step lemma of a centred sum (ta.online with ``moment`` q; dialects/ta_online.py).

A state of keys K, for a centre x and a weight t, *represents* K when, for some mean m,

    count = n,  total = m n,  S_r = C_r   (each S_r it holds)

with n = |K|, C_r = sum_K (x - m)^r t (so C_0 = n and C_1 = 0 when t = 1: m is the keys' mean;
an empty state has n = 0 and every C_r = 0). The lemma: if the running state represents the
keys so far and a block state (a column block's count, sum and centred sums; or one key x, t:
n = 1, m = x, C_0 = t) its keys, the state the program stores represents both: its S_q is
sum_K' (x - s')^q t over the union, s' its mean, written with the power sums
W_i = sum_r C(i, r) m^(i - r) C_r of each part. m, n and the C_r are fresh reals, so it holds
whatever the keys, for every block and, by induction, every row length; nothing is assumed of
how the program combines (Chan's step, Welford's, or another): only what it stores is tested.
Means as unknowns (not total / count) keep the problem polynomial but for the division by the
union's count: nlsat decides it in milliseconds up to q = 4.
"""

from __future__ import annotations

from math import comb

import z3

from .solver import Outcome, prove


def centred(q: int, mean, sums: list):
    """sum_K (x - mean)^q t written with the power sums ``sums`` (W_0..W_q).

    Example: centred(2, s, [W0, W1, W2]) is W2 - 2 s W1 + s^2 W0."""
    return z3.Sum([comb(q, i) * _power(-mean, q - i) * sums[i] for i in range(q + 1)])


def _power(x, n: int):
    return z3.Product(*[x] * n) if n > 1 else x if n == 1 else z3.RealVal(1)


def _represents(state: dict, name: str, q: int, weight_one: bool, nonempty: bool) -> tuple[list, tuple]:
    """(hypotheses, (n, m, W)): ``state`` ({"count", "total", r: S_r}) represents keys whose
    count n, mean m and power sums W are fresh (W from the fresh centred moments C)."""
    n, m = z3.Real(f"{name}_n"), z3.Real(f"{name}_m")
    C = [z3.Real(f"{name}_c{r}") for r in range(q + 1)]
    if weight_one:
        C[0], C[1] = n, z3.RealVal(0)
    hyps = [state["count"] == n, state["total"] == m * n]
    hyps += [n >= 1] if nonempty else [z3.Or(n == 0, n >= 1), z3.Implies(n == 0, z3.And(*[c == 0 for c in C]))]
    hyps += [value == C[r] for r, value in state.items() if isinstance(r, int)]
    W = [z3.Sum([comb(i, r) * _power(m, i - r) * C[r] for r in range(i + 1)]) for i in range(q + 1)]
    return hyps, (n, m, W)


def step_lemma(q: int, weight_one: bool, old: dict, new, block: dict | None = None, key: tuple | None = None,
               budget: int = 40_000_000) -> Outcome:
    """Is ``new`` S_q of the keys ``old`` represents and those of ``block`` (a state, at least one
    key) or ``key`` ((x, t), one key)? ``old`` and ``block``: {"count", "total", r: S_r}.

    Example: step_lemma(2, True, {"count": n, "total": l, 2: m2}, new, key=(x, 1)) proves
    Welford's update when ``new`` is m2 + (x - l/n)(x - (l + x)/(n + 1)) (n = 0 included)."""
    hyps, (n, m, W) = _represents(old, "a", q, weight_one, nonempty=False)
    if key is not None:
        x, t = key
        n_b, m_b = z3.RealVal(1), x
        W_b = [_power(x, i) * t for i in range(q + 1)]
    else:
        more, (n_b, m_b, W_b) = _represents(block, "b", q, weight_one, nonempty=True)
        hyps += more
    s_new = (m * n + m_b * n_b) / (n + n_b)
    goal = new == centred(q, s_new, [w + wb for w, wb in zip(W, W_b)])
    # the program's values (uninterpreted functions of the row) as plain reals: a real polynomial
    # problem, which nlsat decides in milliseconds where the mixed solver times out
    goal, *hyps = _as_reals([goal, *hyps])
    outcome = prove(goal, hyps, budget=budget, logic="QF_NRA")
    if outcome.verdict == "counterexample":
        outcome.detail = "the stored state does not represent the keys so far and the block's"
    return outcome


def _as_reals(formulas: list) -> list:
    """``formulas`` with each application of an uninterpreted function (a state or reduction of the
    row) replaced by one fresh real: sound for proving (equal applications stay equal, others
    merely lose the link a shared argument would give)."""
    found = {}

    def visit(e):
        if z3.is_app(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED and e.num_args() > 0:
            found.setdefault(e.sexpr(), e)  # the outermost application stands for all of it
            return
        for child in e.children():
            visit(child)
    for f in formulas:
        visit(f)
    pairs = [(e, z3.Real(f"v{k}")) for k, e in enumerate(found.values())]
    return [z3.substitute(f, *pairs) if pairs else f for f in formulas]
