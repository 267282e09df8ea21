"""Which properties each kernel of a spec gets, and the Result rows they become."""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.tile import schedule_of

from . import gemm, gemm_values
from .gemm_views import check_views
from .operand_layouts import check_operand_layouts
from .replay import Replay
from .report import Result
from .symbolic import execute

SYMBOLIC = "all shapes (M, N, K >= 1), all program ids, k tiles and lanes"


def check_build(build, path: str) -> list[Result]:
    """The tile properties of a TileBuild, checked against the ta it was lowered from; a
    kernel the checks cannot read is one ``error`` row, never a crash or a silent skip."""
    from tilec.diagnostics import TilecError

    try:
        return _check_build(build, path)
    except (TilecError, ValueError, KeyError, StopIteration, IndexError) as err:
        fn = build.tile.body.operations[0]
        message = err.message if isinstance(err, TilecError) else f"{type(err).__name__}: {err}"
        return [Result(ir.StringAttr(fn.attributes["sym_name"]).value, "tile", "equivalence",
                       "the tile program can be checked against its ta", "error", 0.0,
                       f"schedule {build.schedule or 'default'}, fixed sizes {build.fixed}",
                       detail=f"the tile checks could not run: {message}")]


def _check_build(build, path: str) -> list[Result]:
    fn = build.tile.body.operations[0]
    replay = Replay.of(path, fn, build.fixed)
    fused = build.fused  # the ta that ta-to-tile lowered, as the driver built it
    if "tile.mma" not in str(fn):  # a row program: translation validation by provenance
        from .rows import check_rows

        return check_rows(build.tile, fused, replay)
    if "tile.reduce" in str(fn):  # a running state over key blocks: the online group's checks
        from .attention import check_attention, check_reference
        from .stored_value import check_stored_value

        return check_attention(build.tile, replay) + check_reference(build.tile, fused, replay) + \
            check_stored_value(build.tile, fused, replay)
    return check_tile(build.tile, fused, replay)


def check_loop_build(build, path: str) -> list[Result]:
    """The loop IR of a LoopBuild against the ta it was lowered from, and its online loops."""
    from .loops import check_loops
    from .online import check_online

    return check_loops(build.fused.body.operations[0], build.loops.body.operations[0], path) + \
        check_online(build.loops, path)


def check_rewrites(steps: list, seen: set | None = None) -> list[Result]:
    """Each ta rewrite step (pass, ta before, ta after) checked: the function's results are
    unchanged. ``seen`` holds steps already checked (the loop and tile lowerings share them)."""
    from .ta_rewrites import check_rewrite

    rows = []
    for name, before, after in steps:
        if seen is not None and (before, after) in seen:
            continue
        if seen is not None:
            seen.add((before, after))
        old, new = ir.Module.parse(before), ir.Module.parse(after)
        rows += check_rewrite(name, old.body.operations[0], new.body.operations[0])
    return rows


def _row(kernel, prop, check, outcome, domain, replay="") -> Result:
    return Result(kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain,
                  outcome.model, outcome.detail, replay if outcome.verdict == "counterexample" else "")


def check_tile(tiled, reference, replay) -> list[Result]:
    """GEMM-family tile properties of ``tiled`` against the canonical ta ``reference``;
    ``replay`` is a Replay (or a spec path: the kernel's own schedule, no fixed sizes)."""
    fn = tiled.body.operations[0]
    if isinstance(replay, str):
        replay = Replay.of(replay, fn)
    ref_fn = reference.body.operations[0]
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    sched = schedule_of(fn)
    p = execute(fn)
    threads = sched.threads
    refs = gemm_values.references(ref_fn, p.params)
    ref = next(iter(refs.values()))
    mmas = [e for e in p.events if e.kind == "mma"]
    rows = []
    add = lambda prop, check, outcome, domain=SYMBOLIC: rows.append(
        _row(kernel, prop, check, outcome, domain, replay(outcome.model, prop)))
    for prop, check, outcome, domain in check_operand_layouts(p, threads):
        add(prop, check, outcome, domain)
    add("coverage", *gemm.k_coverage(p, ref.size_k))
    for check, outcome in check_views(p, ref):  # several reduced indices read as one
        add("equivalence", check, outcome, "all shapes (symbolic extents)")
    for prop, check, outcome in gemm.pipeline(p, ref):
        add(prop, check, outcome)
    for event in mmas:  # each mma accumulates the contraction it computes (provenance)
        number = gemm_values.computes(event.op, ref.number)
        if number not in refs:
            add("equivalence", f"an mma computes ta op #{number}", gemm_values.Outcome(
                "error", 0.0, {}, f"ta op #{number} is not a contraction of the reference"))
            continue
        for check, outcome in gemm_values.operand_indices(p, refs[number], event):
            add("equivalence", check, outcome)
    add("equivalence", *gemm_values.accumulates_across_k(p), "every K step (structural)")
    for slot in range(len(mmas)):
        add("equivalence", *gemm_values.accumulator_starts_at_zero(p, slot), "the initial accumulator tile")
    add("in-bounds", *gemm_values.offsets_not_negative(p))
    from .stored_value import check_stored_value  # the epilogue and where the batch id stores, as for every form

    return rows + check_stored_value(tiled, reference, replay)
