"""The ta rewrites checked as they run: each pass's output function against its input.

For every result, both functions are executed on Z3 terms (ta_terms.py) at one symbolic
element, indices and shape parameters integer unknowns, and the two terms are proved equal
for all shapes. The terms abstract sums, exp and division (uninterpreted, after linearity),
so Z3 finding them unequal is not yet a counterexample: both functions are then run by the
oracle on random inputs, and only a difference beyond the output dtype's tolerance is one;
otherwise the row is ``unknown``.
"""

from __future__ import annotations

import time

import z3
from torch_mlir import ir

from tilec.dialects.dims import parse_dim

from .report import Result
from .solver import Outcome, prove
from .symbolic import dim, size_facts, static_dims
from .ta_terms import DOMAIN, OverBudget, TaTerms, _dims, _Vals
from tilec.diagnostics import TilecError
from tilec.executors.compare import compare
from tilec.executors.oracle import evaluate as run
from tilec.signature import bind, random_inputs, signature

# per result, fold comparisons (each a bounded solver query), not seconds: the verdict is the same
# under any load. Every example takes at most 41 (verified at bm=64,bn=64,bk=32, 2026-12-04); a
# whole block's terms compared fold by fold can take far more (a split function is checked kernel
# by kernel)
TERMS_BUDGET = 3000


def _witness(before, after, n: int, outcome: Outcome) -> Outcome:
    """Z3 found the two sides unequal with sums, exp and division uninterpreted; that is a
    counterexample only if real inputs show it. Run both functions with the oracle on random
    data at the model's shapes and at 3 and 5 for every size; a difference beyond the output
    dtype's tolerance is the counterexample, else the row is ``unknown``."""
    sig = signature(before)
    # a size the function was built at stays that size (bind takes it from the function itself)
    bound = set().union(*(parse_dim(d).symbols for d in static_dims(before)))
    free = [k for k in sig.params if k not in bound]
    model = {k: v for k, v in outcome.model.items() if k in free and isinstance(v, int) and 1 <= v <= 8}
    for given in (model, {k: 3 for k in free}, {k: 5 for k in free}):
        try:
            env = bind(sig, given)
            inputs = random_inputs(sig, env, seed=0)
            old, new = (list(run(fn, inputs, env).values())[n] for fn in (before, after))
        except (TilecError, RuntimeError, ValueError) as err:
            return Outcome("error", outcome.seconds, detail=f"not proved, and the oracle could not run it: {err}")
        diff = compare(new, old)
        if not diff.ok:
            return Outcome("counterexample", outcome.seconds, {**env, "seed": 0},
                           f"the rewrite changes the result on random inputs at these sizes ({diff})")
    return Outcome("unknown", outcome.seconds, detail="not proved (the sums or exp terms differ in form), and "
                   "the oracle found no difference at the tried sizes")


def check_rewrite(pass_name: str, before, after, fubini: bool = False) -> list[Result]:
    """One row per result of the function: ``after`` (what ``pass_name`` produced from
    ``before``) computes the same element as ``before`` everywhere. ``fubini``: the terms
    also use ta_fubini.py's identities (exp(x - log s), sums exchanged)."""
    name = ir.StringAttr(before.attributes["sym_name"]).value
    params = {n.name: z3.Int(n.name) for n in ir.DictAttr(before.attributes["ta.params"])}
    vals = _Vals(params)
    vals.fubini = fubini
    sides = [TaTerms(fn, vals, params, tag) for fn, tag in ((before, "b"), (after, "a"))]
    results = [list(list(fn.entry_block.operations)[-1].operation.operands) for fn in (before, after)]
    rows = []
    fixed = [dim(d, params) == size for d, size in static_dims(before).items()]  # the sizes it was built at
    if len(results[0]) != len(results[1]):
        return [Result(name, "ta", "equivalence", f"{pass_name} keeps the function's results", "counterexample", 0.0,
                       DOMAIN, detail=f"{len(results[0])} results before, {len(results[1])} after")]
    for n, (old, new) in enumerate(zip(*results)):
        start = time.perf_counter()
        idx = [z3.Int(f"i{k}") for k in range(len(_dims(old.type)))]
        vals.ranges.update((i.get_id(), (i, dim(d, params))) for i, d in zip(idx, _dims(old.type)))
        assumptions = size_facts(before, params) + fixed
        assumptions += [z3.And(i >= 0, i < dim(d, params)) for i, d in zip(idx, _dims(old.type))]
        check = f"{pass_name} keeps result #{n}: every element equal before and after"
        vals.comparisons = TERMS_BUDGET
        try:
            claim = sides[0].element(old, idx) == sides[1].element(new, idx)
            outcome = prove(claim, assumptions + vals.facts, budget=40_000_000,
                            watch={**params, **{f"i{k}": i for k, i in enumerate(idx)}})
        except OverBudget:
            outcome = Outcome("unknown", round(time.perf_counter() - start, 4),
                              detail=f"not proved: building the terms of this result took more than {TERMS_BUDGET} "
                              f"fold comparisons (each reduction's summand is compared with every other one of "
                              f"its kind); a split function is checked kernel by kernel")
        except (ValueError, KeyError, z3.Z3Exception) as err:
            outcome = Outcome("error", 0.0, detail=f"the ta checker cannot read the function: {err}")
        if outcome.verdict == "counterexample":  # sat over the abstraction: a real difference, or unknown
            outcome = _witness(before, after, n, outcome)
        rows.append(Result(name, "ta", "equivalence", check, outcome.verdict,
                           round(time.perf_counter() - start, 4), DOMAIN, outcome.model, outcome.detail))
    return rows
