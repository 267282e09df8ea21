"""The step lemma of a centred sum (ta.online with ``moment`` q; dialects/ta_online.py).

A state of keys K, for a centre x and a weight t, *represents* K when

    count = U_0,  total = U_1,  S_r = sum_i C(r, i) (-s)^(r - i) W_i   (each S_r it holds)

with U_i = sum_K x^i, W_i = sum_K x^i t (U = W when t = 1) and s = U_1 / U_0 (0 for no key):
S_r is sum_K (x - s)^r t expanded. The lemma: if the running state represents the keys so
far and a block state (a column block's count, sum and centred sums; or one key x, t) its
keys, the state the program stores represents both, S'_q = sum_i C(q, i) (-s')^(q - i)
(W_i + W'_i), s' = (U_1 + U'_1) / (U_0 + U'_0). The power sums are fresh reals, so it holds
whatever the keys, for every block and, by induction, every row length; nothing is assumed of
how the program combines (Chan's step, Welford's, or another): only what it stores is tested.
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


def _mean(count, total):
    return z3.If(count > 0, total / count, 0)


def _represents(state: dict, name: str, q: int, weight_one: bool, nonempty: bool) -> tuple[list, list, list]:
    """(hypotheses, U, W): ``state`` ({"count", "total", r: S_r}) represents keys with fresh power sums."""
    U = [z3.Real(f"{name}_u{i}") for i in range(q + 1)]
    W = U if weight_one else [z3.Real(f"{name}_w{i}") for i in range(q + 1)]
    count = state["count"]
    hyps = [count == U[0], state["total"] == U[1]]
    hyps += [count >= 1] if nonempty else [z3.Or(count == 0, count >= 1),
                                           z3.Implies(count == 0, z3.And(*[u == 0 for u in U + W]))]
    s = _mean(U[0], U[1])
    hyps += [value == centred(r, s, W) for r, value in state.items() if isinstance(r, int)]
    return hyps, U, W


def step_lemma(q: int, weight_one: bool, old: dict, new, block: dict | None = None, key: tuple | None = None,
               timeout_ms: int = 20000) -> Outcome:
    """Is ``new`` S_q of the keys ``old`` represents and those of ``block`` (a state, at least one
    key) or ``key`` ((x, t), one key)? ``old`` and ``block``: {"count", "total", r: S_r}."""
    hyps, U, W = _represents(old, "a", q, weight_one, nonempty=False)
    if key is not None:
        x, t = key
        V = [_power(x, i) for i in range(q + 1)]
        Wb = [v * t for v in V]
    else:
        more, V, Wb = _represents(block, "b", q, weight_one, nonempty=True)
        hyps += more
    s_new = (U[1] + V[1]) / (U[0] + V[0])
    goal = new == centred(q, s_new, [w + wb for w, wb in zip(W, Wb)])
    # the program's values (uninterpreted functions of the row) as plain reals: a real polynomial
    # problem, which nlsat decides in milliseconds where the mixed solver times out
    goal, *hyps = _as_reals([goal, *hyps])
    outcome = prove(goal, hyps, timeout_ms=timeout_ms, logic="QF_NRA")
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
