"""The schedules a search tries, per kernel form and target, pruned before anything compiles.

The grid is data (TUNE_SPACE): each point is lowered (ta-to-tile checks its legality with
the sizes the IR fixes, Schedule.legal); a point it refuses is kept with its reason. The
legal ones are ranked by the cost model (model.py) at the sizes to tune for.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from tilec.diagnostics import TilecError
from tilec.dialects.schedule import Schedule, _grid
from tilec.dialects.tile import schedule_of

from .gpus import GPU
from .model import Estimate, estimate
from .rows_model import estimate_rows
from tilec.dialects.dims import DimError, parse_dim
from tilec.lowering.driver import build_tiles, kernel_form

# per form: the sm_80-form grid (any target) and the warp-specialised one (sm_90a); other
# options keep their defaults; a warp-specialised point has bm = 64 x consumers, warps = 4 x
# consumers (and a contraction's k tile bk = 64); a contraction also gets the ping-pong points
# (two warpgroups on 64-row tiles of their own, persistent) at each bn and stages, attention
# the rotated key loop on one or two warpgroups and one warpgroup with two CTAs an SM
TUNE_SPACE = {
    "contraction": ({"bm": (64, 128, 256), "bn": (64, 128, 256), "bk": (32, 64), "warps": (4, 8),
                     "stages": (2, 3, 4)},
                    {"consumers": (1, 2, 3), "bn": (64, 128, 192, 256), "stages": (2, 3, 4, 5),
                     "persistent": (False, True), "tma_store": (False, True)}),
    "online": ({"bm": (64, 128), "bn": (32, 64, 128), "warps": (4, 8), "stages": (2, 3)},
               {"consumers": (1, 2, 3), "bn": (64, 96, 128, 176, 192), "stages": (2, 3, 4),
                "softmax_overlap": (False, True)}),
    # a row program: rows per CTA, the column block, warps (one form for every target)
    "rows": ({"bm": (2, 4, 8, 16, 32), "bn": (32, 64, 128, 256), "warps": (2, 4, 8)}, None),
}


# once compiled, a candidate whose threads spill more than this many bytes is measured after
# every one that spills less: on the H200 (2026-12-01, attention and causal attention at D=128,
# 30 candidates each) spills of 4-16 bytes ranked 1st-22nd, of 52 bytes or more 24th-30th
# (bench/tuning_report.py on bench/results/tuning/h200-2026-12-01-final-*.json); the model
# knows no registers
SPILL_TOLERATED = 32


@dataclass
class Candidate:
    schedule: str          # bm=...,bn=...,... (Schedule.as_text)
    build: object          # the TileBuild
    estimate: Estimate


def points(form: str, target: str, space: dict | None = None) -> list[Schedule]:
    """The grid's schedules for ``form`` on ``target`` (space: TUNE_SPACE's, or another of its shape)."""
    if form not in (space or TUNE_SPACE):
        raise TilecError(f"schedule search covers contractions, attention and row programs; a {form} kernel "
                         f"takes its default schedule")
    plain, hopper = (space or TUNE_SPACE)[form]
    out = [Schedule(**p) for p in _grid(plain)]
    if hopper:  # the warp-specialised points, kept below where the target has their features
        bk = {"bk": 64} if form == "contraction" else {}
        out += [Schedule(bm=64 * p["consumers"], warps=4 * p["consumers"], **bk, **p) for p in _grid(hopper)]
        if form == "contraction":  # ping-pong: two warpgroups with tiles of their own (bm = 64), persistent
            out += Schedule.pingpong_points(hopper["bn"], hopper["stages"], hopper.get("tma_store", (False,)))
        if form == "online":  # one warpgroup, two CTAs an SM, its loop rotated
            out += [Schedule(bm=64, bn=bn, warps=4, stages=n, consumers=1, softmax_overlap=True, occupancy=2)
                    for bn in hopper["bn"] for n in hopper["stages"]]
    return [p for p in out if p.runs_on([target])]


def rank(module: ir.Module, shapes: dict, target: str, gpu: GPU, space: dict | None = None) -> tuple:
    """([Candidate] fastest predicted first, {schedule: why illegal}) for the ta ``module`` at
    ``shapes`` on ``target`` (the kernels are built for ``shapes``; the model takes a
    parameter's default for a size not given)."""
    form = kernel_form(module)
    fn = module.body.operations[0]
    defaults = {n.name: ir.IntegerAttr(n.attr).value for n in ir.DictAttr(fn.attributes["ta.params"])
                if isinstance(n.attr, ir.IntegerAttr)} if "ta.params" in fn.attributes else {}
    sizes = dict(defaults, **shapes)  # the model needs every size: a parameter's default where none is given
    legal, illegal = [], {}
    for text, build in build_tiles(module, shapes, [point.as_text() for point in points(form, target, space)],
                                   target):
        if isinstance(build, TilecError):
            illegal[text] = build.message
            continue
        env = dict(sizes, **build.fixed)
        with build.tile.context:
            reasons = schedule_of(build.tile.body.operations[0]).copy_engine_reasons(copy_rows(build.tile, env),
                                                                                     target)
        if reasons:  # at the sizes ranked for, the copy engine cannot describe a row this point reads
            illegal[text] = f"at {sizes_text(env)}: " + "; ".join(reasons)
            continue
        try:
            with build.tile.context:
                model = estimate_rows if form == "rows" else estimate
                legal.append(Candidate(text, build, model(build.tile, env, gpu)))
        except ValueError as err:
            raise TilecError(f"{err}: give every size with --shape") from None
    legal.sort(key=lambda c: c.estimate.seconds)
    return legal, illegal


def with_ptxas_facts(entries: list[dict]) -> list[dict]:
    """Compiled candidates (dicts with predicted_ms and ptxas's spill_bytes) in the order to
    measure them: the model's, with those spilling more than SPILL_TOLERATED bytes last."""
    return sorted(entries, key=lambda e: (e["spill_bytes"] > SPILL_TOLERATED, e["predicted_ms"]))


def copy_rows(tile: ir.Module, env: dict) -> dict:
    """{tensor: (bytes per row, "read" or "write")} of the tensors the tile module moves with the
    copy engine (tile.tma_copy reads, tile.tma_store writes), their rows at the sizes ``env``
    (those it cannot evaluate left out)."""
    fn = tile.body.operations[0]
    attrs = ir.ArrayAttr(fn.attributes["arg_attrs"])
    rows = {}

    def visit(op) -> None:
        name = op.operation.name
        if name in ("tile.tma_copy", "tile.tma_store"):
            target = op.operation.operands[0 if name == "tile.tma_copy" else 1]
            if isinstance(target.owner, ir.Block) and target.owner.owner == fn.operation:
                entry = ir.DictAttr(attrs[ir.BlockArgument(target).arg_number])
                last = ir.StringAttr(list(ir.ArrayAttr(entry["ta.dims"]))[-1]).value
                element = 4 if isinstance(ir.MemRefType(target.type).element_type, ir.F32Type) else 2
                try:
                    size = parse_dim(last).evaluate(env)
                except (DimError, ZeroDivisionError, KeyError):
                    size = None
                if size is not None:
                    rows[ir.StringAttr(entry["ta.name"]).value] = (size * element,
                                                                   "read" if name == "tile.tma_copy" else "write")
        for region in op.operation.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner)

    for op in fn.entry_block.operations:
        visit(op)
    return rows


def sizes_text(env: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(env.items())) or "its sizes"
