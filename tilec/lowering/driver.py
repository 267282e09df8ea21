"""The compiler's stages, each a straight-line list of passes with the reason for each."""

from __future__ import annotations

from dataclasses import dataclass, field

from torch_mlir import ir

from ..diagnostics import TilecError, mlir_loc
from .pipeline import build
from ..dialects.target import DEFAULT
from tilec import passes
from tilec.dialects.schedule import Schedule
from tilec.dialects.target import common, get as get_target
from tilec.passes.ta_to_tile import match_form
from tilec.passes.ta_to_tile.common import NeedsStaticSize, NoTileLowering
from ..signature import MAX_SIZE, signature

# ta -> ta: the rewrites both lowerings start with; each is checked as it runs (TA_REWRITES steps)
TA_REWRITES = [
    "ta-decompose-softmax",   # softmax/logsumexp -> max, exp, sum, div: the form fusion reads
    "ta-canonicalize",        # fold reindexing and scales into index maps and results, fold constants
    "ta-fuse-reductions",     # reductions over one index -> one pass with running state (softmax·V online)
    "canonicalize",           # drop what fusion made dead
    "cse",
]

# ta (as the spec frontend emits it) -> loop IR
LOOP_PIPELINE = TA_REWRITES + [
    "ta-to-loops",            # loop nests over buffers, fused reductions as one loop
]


# ta -> tile IR for a target (a registered one: dialects/target.py), under a schedule
def tile_pipeline(schedule: str, target: str = DEFAULT) -> list[str]:
    if any(item.partition("=")[0] == "target" for item in schedule.replace(",", " ").split()):
        raise TilecError(f"'{schedule}': the target is not a schedule option (name it with --target)")
    options = " ".join([f"target={target}"] + schedule.split())
    return TA_REWRITES + [
        f"ta-to-tile{{{options}}}",        # records the target; CTA tiling, staged copies, swizzled smem, mma
        *get_target(target).passes,        # the target's own rewrites of the staged program (sm_90a: wgmma)
        "tile-canonicalize",               # fold the index arithmetic of constant tile sizes (keeps the
                                           # main loop of one iteration: the verifier reads the pipeline)
    ]


def copy_module(module: ir.Module) -> ir.Module:
    """A copy of ``module`` that keeps its source locations (errors point into the spec)."""
    return ir.Module.parse(module.operation.get_asm(enable_debug_info=True))


# the rewrites without reduction fusion: what a function is split into kernels from when its
# fused form has a group no kernel takes (tilec.graph.split); each kernel is then fused on its own
UNFUSED_REWRITES = [p for p in TA_REWRITES if p != "ta-fuse-reductions"]


def rewrite(module: ir.Module, passes: list = TA_REWRITES) -> tuple[ir.Module, list]:
    """The ta that ``passes`` (TA_REWRITES) make of ``module`` (a copy), and the steps: (pass,
    ta before, ta after) as text for each pass that changed the function, which the verifier checks."""
    copy, steps = copy_module(module), []
    for name in passes:
        before = str(copy)
        run_passes(copy, [name])
        if str(copy) != before:
            steps.append((name, before, str(copy)))
    return copy, steps


def run_passes(module: ir.Module, passes: list[str], verify_each: bool = True) -> None:
    """Run ``passes`` (pipeline elements) on ``module`` in the active context; the IR is
    verified after each pass, or, ``verify_each=False``, once after the last (a schedule search
    lowers hundreds of points: verifying between passes took a fifth of its time).

    A tilec pass's failure becomes a TilecError whose ``origin`` is the pass's exception."""
    pm, failures = build(f"builtin.module({', '.join(passes)})")
    pm.enable_verifier(verify_each)
    try:
        pm.run(module.operation)
        if not verify_each:
            module.operation.verify()
    except ir.MLIRError as err:
        where = getattr(failures[0], "location", None) if failures else None  # a pass may name the op at fault
        error = TilecError(f"{failures[0]}" if failures else f"lowering failed: {err}",
                           mlir_loc(where, "<ir>") if where is not None else None)
        error.origin = failures[0] if failures else None
        raise error from None


def specialize(module: ir.Module, shapes: dict[str, int]) -> None:
    """Bind shape parameters of ``module`` (in place) to sizes; names are checked first."""
    if not shapes:
        return

    sig = signature(module.body.operations[0])
    for name, size in shapes.items():  # the others may stay symbolic: sizes are checked when bound in full
        if name not in sig.params:
            known = ", ".join(sig.params) or "none"
            raise TilecError(f"'{name}' is not a shape parameter of {sig.name} (parameters: {known})")
        if not 1 <= size <= MAX_SIZE:
            raise TilecError(f"shape parameter '{name}' = {size}: sizes are between 1 and 2^31 - 1")
    run_passes(module, [f"ta-specialize-shapes{{shapes={','.join(f'{k}={v}' for k, v in shapes.items())}}}"])


def parse_schedule(schedule: str):
    """The Schedule of ta-to-tile's schedule options (``bm=128 bn=64 ...`` or ``bm=128,bn=64,...``);
    a TilecError naming what is wrong."""
    items = dict(item.split("=", 1) for item in schedule.replace(",", " ").split() if "=" in item)
    try:
        return passes.parse_options(passes.get("ta-to-tile"), items).schedule()
    except ValueError as err:
        raise TilecError(str(err)) from None


def schedule_targets(schedule: str) -> tuple:
    """Every registered target that runs the kernels of ``schedule`` (has the features it uses)."""
    return tuple(parse_schedule(schedule).targets())


def lowering_target(schedule: str, targets=()) -> str:
    """The target a kernel of ``schedule`` (ta-to-tile's schedule options) is lowered for when it
    is to run on every one of ``targets`` (every target that can, when none is named): of the
    targets with the features the schedule needs, the one with the fewest (dialects/target.py
    ``common``), so its kernel is every one's own. A TilecError when some of ``targets`` lack them."""
    try:
        wanted = parse_schedule(schedule)
    except TilecError:  # options that do not parse: ta-to-tile says what is wrong with them, located
        return common(targets or (DEFAULT,)).name
    targets = tuple(targets) or tuple(wanted.targets())
    try:
        runs = wanted.runs_on(targets)
    except ValueError as err:
        raise TilecError(str(err)) from None
    if not runs:
        having = ", ".join(wanted.targets())
        raise TilecError(f"schedule {wanted.as_text()} needs {', '.join(wanted.features())}, which "
                         f"{', '.join(targets)} {'does' if len(targets) == 1 else 'do'} not have "
                         f"(targets with them: {having}): give it to those alone (--schedule "
                         f"{wanted.targets()[0]}:...), each target's kernel has its own schedule")
    if len(runs) < len(targets):
        raise TilecError(f"schedule {wanted.as_text()} builds a kernel for {', '.join(runs)} alone (it needs "
                         f"{', '.join(wanted.features())}); build it with --target {' --target '.join(runs)}, "
                         f"or use consumers=0 for every target")
    return common(runs).name


@dataclass
class TileBuild:
    """A tile kernel and what it was built from: the one object that is verified, emitted and packaged.

    ``ta`` is the spec's ta with ``fixed`` sizes bound (those the user gave, and those the
    tile program needs fixed, e.g. a head dim, taken from the parameter's default); ``fused``
    the ta after the rewrites, which ta-to-tile lowered; ``steps`` those rewrites, one
    (pass, ta before, ta after) each."""

    ta: ir.Module
    tile: ir.Module
    schedule: str
    fixed: dict = field(default_factory=dict)
    fused: ir.Module | None = None
    steps: list = field(default_factory=list)
    target: str = DEFAULT  # what ta-to-tile lowered for; the tile module records it (tile.target)


@dataclass
class LoopBuild:
    """The loop IR of a ta module and what it came from: ``fused`` the ta after the rewrites
    (``steps``, as in TileBuild), ``loops`` what ta-to-loops made of it."""

    fused: ir.Module
    loops: ir.Module
    steps: list


def default_sizes(module: ir.Module) -> dict:
    """{parameter: its default} of the ta ``module``'s function (those that have one)."""
    fn = module.body.operations[0]
    return {n.name: ir.IntegerAttr(n.attr).value for n in ir.DictAttr(fn.attributes["ta.params"])
            if isinstance(n.attr, ir.IntegerAttr)} if "ta.params" in fn.attributes else {}


def build_tile(module: ir.Module, shapes: dict[str, int] | None = None, schedule: str = "",
               target: str | None = None) -> TileBuild:
    """Lower a ta module to its tile kernel for ``target`` under ``schedule`` (ta-to-tile's
    schedule options, or Schedule.as_text's ``bm=128,bn=64,...``), fixing ``shapes``; a size the
    lowering needs fixed is bound to its parameter's default (an error names it if none).
    Without ``target``: the one a package for every target that runs the schedule is lowered
    for (lowering_target), as ``tilec compile`` without --target builds it."""
    schedule = " ".join(schedule.split(","))  # pass options are space-separated
    target = target or lowering_target(schedule)

    defaults = default_sizes(module)
    fixed = dict(shapes or {})
    ta = copy_module(module)
    specialize(ta, fixed)
    while True:
        try:
            fused, steps = rewrite(ta)
            tile = copy_module(fused)
            run_passes(tile, tile_pipeline(schedule, target)[len(TA_REWRITES):])
            return TileBuild(ta, tile, schedule, fixed, fused, steps, target)
        except TilecError as err:
            need = getattr(err, "origin", None)
            if not isinstance(need, NeedsStaticSize) or need.param is None or need.param in fixed \
                    or need.param not in defaults:
                raise
            fixed[need.param] = defaults[need.param]
            specialize(ta, {need.param: defaults[need.param]})


def build_tiles(module: ir.Module, shapes: dict[str, int] | None, schedules: list[str], target: str | None = None):
    """(schedule, TileBuild or the TilecError that refused it) for each of ``schedules``, as
    build_tile builds them; the ta rewrites, the same for every schedule, run once (a schedule
    search lowers hundreds of points)."""
    done = None  # the first build: its ta, fused ta, rewrite steps and fixed sizes serve the rest
    for schedule in schedules:
        try:
            if done is None:
                done = build_tile(module, shapes, schedule, target)
                yield schedule, done
                continue
            tile = copy_module(done.fused)
            lowered = target or lowering_target(schedule)
            run_passes(tile, tile_pipeline(" ".join(schedule.split(",")), lowered)[len(TA_REWRITES):],
                       verify_each=False)
            yield schedule, TileBuild(done.ta, tile, " ".join(schedule.split(",")), dict(done.fixed), done.fused,
                                      done.steps, lowered)
        except TilecError as err:
            if isinstance(getattr(err, "origin", None), NeedsStaticSize):  # another size to fix: the whole build
                try:
                    yield schedule, build_tile(module, shapes, schedule, target)
                except TilecError as again:
                    yield schedule, again
                continue
            yield schedule, err


def kernel_form(module: ir.Module) -> str:
    """The form ta-to-tile lowers ``module`` as (its first matcher that takes the fused ta)."""
    fused, _ = rewrite(module)
    try:
        return match_form(fused.body.operations[0])[0]
    except NoTileLowering as err:
        raise located(err) from None


def located(err: NoTileLowering) -> TilecError:
    """``err`` (a matcher's refusal) as the user's error, at the op it names when it names one."""
    where = getattr(err, "location", None)
    return TilecError(str(err), mlir_loc(where, "<ir>") if where is not None else None)


def legal_schedules(module: ir.Module, shapes: dict | None = None, targets: tuple = (DEFAULT,)) -> tuple:
    """(form, [(schedule text, TileBuild)], {schedule text: why illegal}) over the form's
    schedule space on ``targets`` (Schedule.space: the points some of them run): each point
    is built for the target whose kernel all of those that run it run (lowering_target), and one
    ta-to-tile refuses (its legality check) is kept with the reason."""
    form = kernel_form(module)
    points = list(dict.fromkeys(p for t in targets for p in Schedule.space(form, t)))
    by_target: dict = {}
    for point in points:
        by_target.setdefault(common(point.runs_on(targets)).name, []).append(point.as_text())
    built, illegal = {}, {}
    for target, texts in by_target.items():
        for text, tiled in build_tiles(module, shapes, texts, target):
            if isinstance(tiled, TilecError):
                illegal[text] = tiled.message
                continue
            built[text] = tiled
    order = [p.as_text() for p in points]
    return form, [(text, built[text]) for text in order if text in built], \
        {text: illegal[text] for text in order if text in illegal}


def to_tile(module: ir.Module, schedule: str = "", target: str | None = None) -> ir.Module:
    """The tile-IR module of a ta module (a copy) for ``target`` (build_tile's default when
    None), under ``schedule`` ("bm=128 bn=64 ...")."""
    copy = copy_module(module)
    run_passes(copy, tile_pipeline(schedule, target or lowering_target(schedule)))
    return copy


def build_loops(module: ir.Module) -> LoopBuild:
    """The loop IR of ``module`` with the ta it was lowered from and the rewrite steps."""
    fused, steps = rewrite(module)
    loops = copy_module(fused)
    run_passes(loops, LOOP_PIPELINE[len(TA_REWRITES):])
    return LoopBuild(fused, loops, steps)


def to_loops(module: ir.Module) -> ir.Module:
    """The loop-IR module of a ta module (a copy; ``module`` is left as it is)."""
    copy = copy_module(module)
    run_passes(copy, LOOP_PIPELINE)
    return copy
