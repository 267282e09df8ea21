"""ta-to-tile: lower a fused ta function to one CTA's tile program, under a schedule.

    ta-to-tile{target=sm_90a bm=128 bn=128 bk=32 warps=4 stages=3 swizzle=true group-m=8}

The options are the target (a registered one, dialects/target.py; sm_80 when not named) and
the schedule (``tilec.dialects.schedule.Schedule``): the module records the target as its
``tile.target`` attribute, which every later layer asks, and the tile function carries the
schedule as its ``tile.schedule`` attribute. One matcher per kernel form, tried in
order; the first that recognises the function lowers it:

- ``contraction.py``: one ta.contract with its epilogue maps (batched, broadcast, either
  operand transposed, reduced indices side by side merged into one, prologue maps on an
  operand: ``prologue.py``; several contractions sharing A): a pipelined, swizzled mma kernel;
- ``online.py``: a ta.online group feeding a contraction (softmax(Q·Kᵀ)·V after
  ta-fuse-reductions): a FlashAttention-style kernel;
- ``recompute.py``: plain online sums over t reading contractions at (r, t) (attention's
  backward after ta-fuse-reductions in a ``ta.recompute`` function): the contractions
  recomputed per block of t, one mma accumulator per sum;
- ``rows.py``: reductions along the rows of [rows, cols] tensors and the maps around
  them (softmax, logsumexp, layernorm, RMSNorm, pointwise functions): a warp per row;
- ``pointwise.py``: maps and remaps of any rank, each input read at any affine index
  (RoPE's rotate_half, a head transpose): one expression per output element;

Each matcher checks the schedule's legality for its form (``Schedule.legal``) before it
builds anything. A function no matcher takes gets one error naming, per form, what it
lacks. Tiles that run past an extent are masked, so no size has to divide the tiles.
"""

from torch_mlir import ir

from dataclasses import dataclass, fields

from tilec.dialects.schedule import Schedule
from tilec.dialects.target import DEFAULT, get as get_target, set_target

from .. import PassInfo
from . import contraction, layouts, online, pointwise, recompute, rows
from .common import NoTileLowering



@dataclass(frozen=True)
class Options(Schedule):
    """The schedule, and the target the module is lowered for."""

    target: str = DEFAULT

    def __post_init__(self):
        super().__post_init__()
        get_target(self.target)  # ValueError naming the registered targets

    def schedule(self) -> Schedule:
        return Schedule(**{f.name: getattr(self, f.name) for f in fields(Schedule)})

# form name -> matcher module (match(fn) -> analysis, lower(fn, analysis, schedule)), in order
MATCHERS = {"online": online, "recompute": recompute, "contraction": contraction, "rows": rows,
            "pointwise": pointwise}
# the forms that read whole tiles; a split tries them (and strided copies, merged rows) before
# a pointwise kernel, whose reads are single elements
TILED = ("online", "recompute", "contraction", "rows")


def _anchor(fn):
    """Where errors are reported: the computation that did not fit (the spec's statement), else the function."""
    return next((op for op in fn.entry_block.operations
                 if op.operation.name in ("ta.contract", "ta.online", "ta.reduce")), fn)


def match_form(fn, forms=tuple(MATCHERS)) -> tuple:
    """(form, matcher, analysis) of the first matcher of ``forms`` that takes ``fn``; NoTileLowering,
    located, with the recognised form's own limit or what each form lacks."""
    reasons = []
    for form, matcher in ((f, MATCHERS[f]) for f in forms):
        try:
            return form, matcher, matcher.match(fn)
        except NoTileLowering as err:
            if getattr(err, "decisive", False):  # the form is recognised; its own limit is the error
                err.location = getattr(err, "location", None) or _anchor(fn).location
                raise
            reasons.append(f"{form}: {err}")
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    error = NoTileLowering(f"no tile lowering takes '{name}': " + "; ".join(reasons))
    error.location = _anchor(fn).location
    raise error


def _lower(fn, schedule: Schedule) -> None:
    _, matcher, found = match_form(fn)
    try:
        tiled, parent = matcher.lower(fn, found, schedule)
    except NoTileLowering as err:  # a limit of the form, found while building it (or the schedule's)
        if not getattr(err, "flag", False):
            err.location = getattr(err, "location", None) or _anchor(fn).location
        raise
    layouts.assign(tiled, parent)  # every register tile's distribution, in its type


def run(module: ir.Operation, options: Options) -> None:
    if not isinstance(options, Options):
        raise TypeError("ta-to-tile takes its Options (a schedule and a target)")
    set_target(module, options.target)  # first: the matchers check the schedule against it
    schedule = options.schedule()
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name == "func.func":
            _lower(op, schedule)


PASS = PassInfo("ta-to-tile", "lower a fused ta function (contraction, online group, row program) to a tile program",
                Options, run, __doc__)
