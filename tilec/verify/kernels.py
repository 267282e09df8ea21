"""Which properties each kernel of a spec gets, and the Result rows they become.

A tile function's checks come from what it holds, not from the kernel form a matcher built:

- how its values are read (``READERS``, the first that applies): a function marked
  ``tile.pointwise`` by the provenance of its gathers (pointwise.py); one with an mma (any op
  ``dialects.tile.is_mma`` names: tile.mma, a target's wgmma) by symbolic execution of its
  staged loop (symbolic.py); one of maps and reductions alone by the provenance of the row
  state its loops carry (rows.py);
- in a staged program, the checks its ops bring (``ATTACHED``, each where the op is held):
  a target's own ops their obligations (dialects/op_rules.py: sm_90a's warp_specialize its
  mbarrier ring), tile.mma its fragment tables and its operands' layouts (bijection, banks),
  tile.async_copy the cp.async stages and groups, a staged loop that computes a ta.online group
  (``tile.computes``) the step lemma and its reads, an mma of a loop that computes no group its
  contraction; every copy and store its offsets, every store its value (stored_value.py);
- every kernel: its launch raster and its index divisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from torch_mlir import ir

from tilec.dialects.op_rules import obligations
from tilec.dialects.tile import holds_mma, schedule_of

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
from .tile_values import walk
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


def _pointwise(tiled, fused, replay):
    from .pointwise import check_pointwise

    return check_pointwise(tiled, fused, replay)


def _rows(tiled, fused, replay):
    from .rows import check_rows

    return check_rows(tiled, fused, replay)


# (what the function holds, whether it holds it, the reader of its values); the first that applies
READERS = (
    ("the mark tile.pointwise", lambda fn: "tile.pointwise" in fn.attributes, _pointwise),
    ("an mma", holds_mma, lambda *args: check_tile(*args)),  # check_tile looked up at the call
    ("maps and reductions", lambda fn: True, _rows),
)


def _check_build(build, path: str, given: dict) -> list[Result]:
    fn = build.tile.body.operations[0]
    replay = Replay.of(path, fn, {**given, **build.fixed})
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    # the checks speak of program ids; a launch raster must run each of them once; the index
    # arithmetic's divisions mean what C's do (dialects/index_ops.py)
    launch = [_row(kernel, *row) for row in check_raster(fn) + [check_index_divisions(fn)]]
    reader = next(read for _, holds, read in READERS if holds(fn))
    return reader(build.tile, build.fused, replay) + launch  # build.fused: the ta that ta-to-tile lowered


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


@dataclass(frozen=True)
class Staged:
    """What one check of a staged program reads: the tile module, its function, the names of
    its ops, its symbolic execution, the fused ta and the replay."""
    tiled: object
    fn: object
    names: frozenset
    program: object
    reference: object
    replay: Replay

    @property
    def online_group(self) -> bool:
        """Does the staged loop compute a ta.online group (``tile.computes`` on it)?"""
        return "tile.computes" in self.program.loops["main"][3].attributes


def _own(s: Staged) -> list:
    return [row for check in obligations(s.fn, "obligations") for row in check(s.program, s.fn)]


def _online(s: Staged) -> list:
    from .attention import check_attention, check_reference

    if "ta.recompute" in s.reference.body.operations[0].attributes:
        from .recomputed import check_recomputed

        return check_recomputed(s.tiled, s.reference, s.replay)  # a saved backward's plain sums
    return check_attention(s.tiled, s.replay) + check_reference(s.tiled, s.reference, s.replay)


@dataclass(frozen=True)
class Attached:
    """A check a staged program gets where ``holds`` (the op it is attached to is there);
    ``check`` gives (property, check, outcome, domain or None) tuples, or Result rows
    (``results``)."""
    op: str
    holds: Callable[[Staged], bool]
    check: Callable[[Staged], list]
    results: bool = False


# in the order the rows come; every staged program copies into its stages and stores its tile
ATTACHED = (
    Attached("a target's own op", lambda s: True, _own),  # obligations() finds the ops that bring one
    Attached("tile.mma", lambda s: "tile.mma" in s.names,
             lambda s: check_operand_layouts(s.program, schedule_of(s.fn).threads)),
    Attached("tile.async_copy", lambda s: "tile.async_copy" in s.names,
             lambda s: [(*row, None) for row in check_staging(s.program)]),
    Attached("a copy or a store", lambda s: True,
             lambda s: [("in-bounds", *gemm_values.offsets_not_negative(s.program), None)]),
    Attached("scf.for computing a ta.online group", lambda s: s.online_group, _online, results=True),
    Attached("an mma of a loop computing no group", lambda s: not s.online_group,
             lambda s: check_contraction(s.program, s.reference.body.operations[0])),
    Attached("a store", lambda s: True, lambda s: check_stored_value(s.tiled, s.reference, s.replay),
             results=True),
)


def attached_to(staged: Staged) -> list[Attached]:
    """The checks ``staged`` gets, in order."""
    return [a for a in ATTACHED if a.holds(staged)]


def check_tile(tiled, reference, replay) -> list[Result]:
    """The tile properties of ``tiled``, a program with an mma in a staged main loop (GEMM,
    SwiGLU, attention), against the fused ta ``reference``: the checks its ops bring
    (``ATTACHED``). ``replay`` is a Replay (or a spec path: the kernel's own schedule, no
    fixed sizes)."""
    fn = tiled.body.operations[0]
    if isinstance(replay, str):
        replay = Replay.of(replay, fn)
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    staged = Staged(tiled, fn, frozenset(op.name for op in walk(fn)), execute(fn), reference, replay)
    rows = []
    for attached in attached_to(staged):
        if attached.results:
            rows += attached.check(staged)
            continue
        for prop, check, outcome, domain in attached.check(staged):
            rows.append(_row(kernel, prop, check, outcome, domain or SYMBOLIC, replay(outcome.model, prop)))
    return rows
