"""The schedules a search tries, per kernel form and target, pruned before anything compiles.

The grid is data (dialects/schedule.py ``GRIDS["search"]``, and each target's own points:
tilec/targets/sm_90a/space.py): each point is lowered (ta-to-tile checks its legality with
the sizes the IR fixes, Schedule.legal); a point it refuses is kept with its reason. The
legal ones are ranked by the cost model (model.py) at the sizes to tune for.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from tilec.diagnostics import TilecError
from tilec.dialects.schedule import GRIDS, Schedule
from tilec.dialects.tile import schedule_of

from .gpus import GPU
from .model import Estimate, estimate
from .rows_model import estimate_rows
from tilec.dialects.dims import DimError, parse_dim
from tilec.lowering.driver import build_tiles, default_sizes, kernel_form  # default_sizes: pick.py reads it here

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


def points(form: str, target: str) -> list[Schedule]:
    """The schedules a search ranks for ``form`` on ``target``: the "search" grid's points every
    target runs, then the target's own (dialects/schedule.py ``Schedule.space``)."""
    if form not in GRIDS["search"]:
        raise TilecError(f"schedule search covers contractions, attention and row programs; a {form} kernel "
                         f"takes its default schedule")
    return Schedule.space(form, target, "search")


def rank(module: ir.Module, shapes: dict, target: str, gpu: GPU) -> tuple:
    """([Candidate] fastest predicted first, {schedule: why illegal}) for the ta ``module`` at
    ``shapes`` on ``target`` (the kernels are built for ``shapes``; the model takes a
    parameter's default for a size not given)."""
    form = kernel_form(module)
    sizes = dict(default_sizes(module), **shapes)  # the model needs every size: a parameter's default where none is given
    legal, illegal = [], {}
    for text, build in build_tiles(module, shapes, [point.as_text() for point in points(form, target)],
                                   target):
        if isinstance(build, TilecError):
            illegal[text] = build.message
            continue
        env = dict(sizes, **build.fixed)
        refused = copy_engine_refusal(build, env, target)
        if refused:  # at the sizes ranked for, the copy engine cannot describe a row this point reads
            illegal[text] = refused
            continue
        try:
            with build.tile.context:
                model = estimate_rows if form == "rows" else estimate
                legal.append(Candidate(text, build, model(build.tile, env, gpu)))
        except ValueError as err:
            raise TilecError(f"{err}: give every size with --shape") from None
    legal.sort(key=lambda c: c.estimate.seconds)
    return legal, illegal


def parameters(module: ir.Module) -> list[str]:
    """The shape parameters of the ta ``module``'s function, with a default or not."""
    fn = module.body.operations[0]
    return [n.name for n in ir.DictAttr(fn.attributes["ta.params"])] if "ta.params" in fn.attributes else []


def copy_engine_refusal(build, env: dict, target: str) -> str:
    """Why the copy engine cannot describe a row that ``build``'s kernel reads or writes at the
    sizes ``env`` ("" when it can, or when the kernel does not use it)."""
    with build.tile.context:
        reasons = schedule_of(build.tile.body.operations[0]).copy_engine_reasons(copy_rows(build.tile, env), target)
    return f"at {sizes_text(env)}: " + "; ".join(reasons) if reasons else ""


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
