"""The checks of a centred sum's fold in a row program (rows_checks.py; passes/ta_to_tile/rows_fold.py).

A centred sum S_q = sum_j (x_j - mean x)^q t_j carries S_q alone; its running count and sum of
x are the plain sums of its group (``centred_parts``), folded in the same pass. Per fold:

- S_q starts at 0; the parts' terms are 1, x (and t, with x, for lower moments of weight t);
- each block holds a column of the row (so its count is at least 1 and its mean defined);
- the block's own centred sum has the terms (x - m_b)^q t inside the row and 0 past it, m_b
  the block's sum of x over its count (the parts' block reductions, each proved by its fold);
- the step lemma (centred.py): the stored S_q represents the keys so far and the block's.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.ta_online import centred_parts, is_one, moment, yielded

from .centred import step_lemma
from .solver import Outcome, prove


def check_centred(ck, fold, n: int, k: int, blocks: dict, terms_outcome, watch):
    """Rows of the report for centred sum ta op ``n`` at slot ``k`` of ``fold``; the block
    reduction proved to be its block's S_q, or None. ``blocks``: the block reduction each
    earlier op of the fold is proved to take."""
    op, q, r = ck.ta_ops[n], moment(ck.ta_ops[n]), ck.r
    label = f"ta op #{n} (ta.online sum, moment {q})"
    fail = lambda check, detail: ck.add("equivalence", f"{label}: {check}", Outcome("error", 0.0, {}, detail))
    try:
        parts = {key: ck.number[part.result] for key, part in centred_parts(
            op, [o for o in ck.ta_ops if o.operation.name == "ta.online"]).items()}
    except KeyError as err:
        return fail("its group holds the sums its step reads", str(err).strip("'\""))
    unproved = [m for m in parts.values() if blocks.get(m) is None]
    if unproved:
        return fail(f"the sums it reads are folded before it in {fold.where}",
                    f"ta ops {sorted(unproved)} have no proved block reduction there")
    ck.add("equivalence", f"{label}: S starts at 0",
           prove(ck.tv.value(fold.init[k], [r]) == 0, ck.tv.assumptions, watch=watch(ck)))
    _parts_terms(ck, label, n, parts, is_one(yielded(op)[1]), watch)
    bn = ir.RankedTensorType(blocks[parts["count"]].operation.operands[0].type).shape[1]
    ck.add("equivalence", f"{label}: each block holds a column of the row (its count is at least 1)",
           prove(fold.iv * bn < ck.domain_extent(1), ck.tv.assumptions, watch=watch(ck)),
           "every block of every row")
    value = lambda red: ck.tv.value(red.result, [r])
    count, total = value(blocks[parts["count"]]), value(blocks[parts["total"]])

    def deviation(I, J):
        x, t = ck.term(n, [I, J])
        return z3.Product(*[x - total / count] * q, t)
    red, outcome = _own_block(ck, fold, blocks, deviation, [count >= 1], terms_outcome)
    ck.add("equivalence", f"{label}: a block's terms are (x - the block's mean)^{q} t inside the row and 0 past it",
           outcome, f"every row, column and block{_where(fold)}")
    if red is None:
        return None
    slot = lambda m: fold.slots.index(m)
    state = lambda values, own: {"count": values[slot(parts["count"])], "total": values[slot(parts["total"])],
                                 **{key: values[slot(m)] for key, m in parts.items() if isinstance(key, int)}, q: own}
    block = {"count": count, "total": total, q: value(red),
             **{key: value(blocks[m]) for key, m in parts.items() if isinstance(key, int)}}
    ck.add("equivalence", f"{label}: the stored S represents the keys so far and the block's (step lemma)",
           step_lemma(q, is_one(yielded(op)[1]), state(fold.old, fold.old[k]), fold.new[k], block=block),
           f"every block (induction over blocks), every row, whatever the keys{_where(fold)}")
    return red


def _where(fold) -> str:
    return "" if fold.where.startswith("the column") else f" ({fold.where})"


def _parts_terms(ck, label: str, n: int, parts: dict, weight_one: bool, watch) -> None:
    """The parts sum what the step assumes: 1 (the count), x (the total), t or (x, t) (lower moments)."""
    I, J = z3.Ints("I J")
    x, t = ck.term(n, [I, J])
    claims = [ck.term(parts["count"], [I, J])[-1] == 1, ck.term(parts["total"], [I, J])[-1] == x]
    for key, m in parts.items():
        if isinstance(key, int):
            claims.append(ck.term(m, [I, J])[-1] == t if key == 0 else z3.And(*[
                a == b for a, b in zip(ck.term(m, [I, J]), [x, t])]))
    numbers = ", ".join(f"#{m}" for m in parts.values())
    ck.add("equivalence", f"{label}: ta ops {numbers} sum 1, its x and its lower moments (its running count and mean)",
           prove(z3.And(*claims), ck.tv.assumptions, watch=watch(ck)), "every element (I, J)")


def _own_block(ck, fold, blocks: dict, deviation, extra: list, terms_outcome) -> tuple:
    """(the block reduction of ``fold``, not already another op's, whose terms are ``deviation``,
    its outcome), or (None, the outcome of the last one tried)."""
    taken = [red.operation for red in blocks.values() if red is not None]
    outcome = Outcome("error", 0.0, {}, "no sum reduction of the block is left for it")
    for red in fold.reduces:
        if red.operation in taken or ir.StringAttr(red.attributes["kind"]).value != "sum":
            continue
        outcome = terms_outcome(ck, red, fold.iv, fold.rows, deviation, z3.RealVal(0), extra)
        if outcome.verdict == "proved":
            return red, outcome
    return None, outcome  # the last candidate's counterexample, if one was tried
