"""Which properties each kernel of a spec gets, and the Result rows they become."""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.op_rules import obligations
from tilec.dialects.tile import schedule_of

from . import gemm_values
from .contraction import check_contraction
from .index_divisions import check_index_divisions
from .operand_layouts import check_operand_layouts
from .raster import check_raster
from .staging import check_staging
from .replay import Replay
from .report import Result
from .stored_value import check_stored_value
from .symbolic import execute
from tilec.diagnostics import TilecError
from .loop_sums import check_loop_sums
from .loops import check_loops
from .online import check_online
from .ta_rewrites import check_rewrite

SYMBOLIC = "all shapes, all program ids, loop iterations and lanes"


def check_build(build, path: str, given: dict | None = None) -> list[Result]:
    """The tile properties of a TileBuild, checked against the ta it was lowered from; a
    kernel the checks cannot read is one ``error`` row, never a crash or a silent skip.
    ``given``: sizes bound before the build (a split piece's, from the whole spec's --shape),
    which replay commands name with the build's own."""
    try:
        return _check_build(build, path, given or {})
    except (TilecError, ValueError, KeyError, StopIteration, IndexError) as err:
        fn = build.tile.body.operations[0]
        message = err.message if isinstance(err, TilecError) else f"{type(err).__name__}: {err}"
        return [Result(ir.StringAttr(fn.attributes["sym_name"]).value, "tile", "equivalence",
                       "the tile program can be checked against its ta", "error", 0.0,
                       f"schedule {build.schedule or 'default'}, fixed sizes {build.fixed}",
                       detail=f"the tile checks could not run: {message}")]


def _check_build(build, path: str, given: dict) -> list[Result]:
    fn = build.tile.body.operations[0]
    replay = Replay.of(path, fn, {**given, **build.fixed})
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    # the checks speak of program ids; a launch raster must run each of them once; the index
    # arithmetic's divisions mean what C's do (dialects/index_ops.py)
    launch = [_row(kernel, *row) for row in check_raster(fn) + [check_index_divisions(fn)]]
    fused = build.fused  # the ta that ta-to-tile lowered, as the driver built it
    if "tile.pointwise" in fn.attributes:  # maps read at any index: by provenance and gathers
        from .pointwise import check_pointwise

        return check_pointwise(build.tile, fused, replay) + launch
    if not any(op in str(fn) for op in ('"tile.mma"', '"tile.wgmma"')):  # a row program: by provenance
        from .rows import check_rows

        return check_rows(build.tile, fused, replay) + launch
    return check_tile(build.tile, fused, replay) + launch


def check_loop_build(build, path: str, given: dict | None = None) -> list[Result]:
    """The loop IR of a LoopBuild against the ta it was lowered from, its online loops and its
    plain and centred sums; replay commands name ``path`` and the sizes ``given``."""
    fused, loops = build.fused.body.operations[0], build.loops.body.operations[0]
    replay = Replay.loop(path, fused, given)
    return check_loops(fused, loops, replay) + check_online(build.loops, replay) + \
        check_loop_sums(fused, loops, replay)


def check_rewrites(steps: list, seen: set | None = None) -> list[Result]:
    """Each ta rewrite step (pass, ta before, ta after) checked: the function's results are
    unchanged. ``seen`` holds steps already checked (the loop and tile lowerings share them)."""
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
    """The tile properties of ``tiled``, a program with a pipelined main loop (GEMM, SwiGLU,
    attention), against the fused ta ``reference``: the checks every such program gets, then
    those of the ta ops its loop computes (provenance: ``tile.computes`` on the loop for a
    ta.online group, on its mmas for contractions). ``replay`` is a Replay (or a spec path:
    the kernel's own schedule, no fixed sizes)."""
    fn = tiled.body.operations[0]
    if isinstance(replay, str):
        replay = Replay.of(replay, fn)
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    p = execute(fn)
    rows = []
    add = lambda prop, check, outcome, domain=None: rows.append(
        _row(kernel, prop, check, outcome, domain or SYMBOLIC, replay(outcome.model, prop)))
    own = obligations(fn, "obligations")  # what a target's own ops bring (sm_90a's ring, tiles, split)
    for check_own in own:
        for prop, check, outcome, domain in check_own(p, fn):
            add(prop, check, outcome, domain)
    if not own:  # the cp.async pipeline every target runs: its operand layouts and staging
        for prop, check, outcome, domain in check_operand_layouts(p, schedule_of(fn).threads):
            add(prop, check, outcome, domain)
        for prop, check, outcome in check_staging(p):
            add(prop, check, outcome)
    add("in-bounds", *gemm_values.offsets_not_negative(p))
    if "tile.computes" in p.loops["main"][3].attributes:  # a ta.online group: its step lemma, its reads
        from .attention import check_attention, check_reference

        rows += check_attention(tiled, replay) + check_reference(tiled, reference, replay)
    else:
        for prop, check, outcome, domain in check_contraction(p, reference.body.operations[0]):
            add(prop, check, outcome, domain)
    return rows + check_stored_value(tiled, reference, replay)
