"""The checks that belong to a ta.contract a tile program's main loop computes (GEMM,
batched, SwiGLU's two, with prologue maps or reshaped operands):

coverage   every k < K lies in one of the K tiles the loop visits (split-K: in those of
           exactly one of the output tile's CTAs; split_k.py)
equivalence each mma accumulates A and B at the contraction's indices (its index maps, for
           every CTA, k tile and k step; gemm_values.py), prologue maps equal the reference's
           (gemm_prologue.py), reduced indices merged by a view are one sum (gemm_views.py);
           each K step adds to the accumulator the loop carries, which starts at 0
"""

from __future__ import annotations

import z3

from tilec.dialects.tile import schedule_of

from . import gemm_values
from .gemm_views import check_views
from .solver import Outcome, prove
from .split_k import check_split, split_event
from .symbolic import Program


def k_coverage(p: Program, size_k) -> tuple[str, Outcome]:
    iv, lb, ub, _ = p.loops["main"]
    bk = schedule_of(p.fn).bk
    k = z3.Int("k")
    # iteration kt takes k tile kt - lb (lb: 0, or where a persistent CTA's tile starts its ring)
    claim = z3.And(k / bk < ub - lb) if "tiles" in p.loops else z3.And(lb == 0, k / bk < ub)
    return "every k < K lies in one of the K tiles the loop visits", \
        prove(claim, p.assumptions + [k >= 0, k < size_k], watch={"k": k, **p.params, "tiles": ub - lb})


def check_contraction(p: Program, ref_fn) -> list[tuple[str, str, Outcome, str | None]]:
    """(property, check, Outcome, domain or None for the default) rows of the contractions the
    main loop's mmas compute (their ``tile.computes``; the first contraction without one)."""
    refs = gemm_values.references(ref_fn, p.params)
    ref = next(iter(refs.values()))
    mmas = [e for e in p.events if e.kind == "mma"]
    # split-K: the K tiles of a slot's CTAs partition K (split_k.py); else the loop's cover it
    rows = check_split(p, ref.size_k) if split_event(p) is not None else [("coverage", *k_coverage(p, ref.size_k), None)]
    rows += [("equivalence", check, outcome, "all shapes (symbolic extents)") for check, outcome in check_views(p, ref)]
    for event in mmas:  # each mma accumulates the contraction it computes (provenance)
        number = gemm_values.computes(event.op, ref.number)
        if number not in refs:
            rows.append(("equivalence", f"an mma computes ta op #{number}", Outcome(
                "error", 0.0, {}, f"ta op #{number} is not a contraction of the reference"), None))
            continue
        rows += [("equivalence", check, outcome, None) for check, outcome in
                 gemm_values.operand_indices(p, refs[number], event)]
    rows.append(("equivalence", *gemm_values.accumulates_across_k(p), "every K step (structural)"))
    rows += [("equivalence", *gemm_values.accumulator_starts_at_zero(p, slot), "the initial accumulator tile")
             for slot in range(len(mmas))]
    return rows
