"""What a tile program stores, against the fused ta, for any form with a pipelined loop (GEMM,
SwiGLU, attention): the epilogue's values, and which CTA stores where (coverage.py).

Each value the main loop carries has provenance: the ta op it computes, from the loop's
``tile.computes`` (an online group: a running max and its sums) or from the tile.mma it
yields (a contraction). The form's own checks prove the loop leaves each carried value equal
to its ta op's value (GEMM: operand indices, K coverage, accumulation from 0; attention: the
online step lemma). On top of that, this check proves the epilogue: the stored element (r, c)
of the CTA's tile, computed from the loop's results, equals the fused ta's output at the
element it is stored at, each carried value the same symbol on both sides (the ta op's value
at that element). A missing division by the row sum, a bias subtracted, any other epilogue
change is refuted.

Which output positions a ta op's value is indexed by is read from the reference's epilogue
maps (``ta.at`` maps from the output's positions), not from the form; the stored element's
index is the output's own (read back through a row-major view, views.py).
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import store_parts

from .attention_rotated import completed_slots
from .coverage import batch_coverage, stored_inside, tile_coverage, tile_partition
from .report import Result
from .scalars import evaluate
from .solver import prove
from .tile_values import TileValues, own_slots, ta_input_names, walk
from .views import view_of

DOMAIN = "all shapes, program ids and elements of the tile; each carried value its ta op's, one symbol on both sides"


def check_stored_value(tiled, fused, replay) -> list[Result]:
    """The epilogue and the batch coverage rows of a tile program against its fused ta, for
    each store (a kernel of several outputs: each row names the output)."""
    fn, ta_fn = tiled.body.operations[0], fused.body.operations[0]
    stores = [op for op in walk(fn) if op.name in ("tile.store", "tile.tma_store")]
    rows = []
    for store in stores:
        rows += _check_store(fn, ta_fn, store, replay, len(stores) > 1)
    return rows


def returned_as(fn, ta_fn, dst):
    """The value the ta function returns as the tile function's output argument ``dst`` (the
    outputs of both in the same order)."""
    outputs = [arg for arg in fn.arguments if "ta.output" in ir.DictAttr(
        ir.ArrayAttr(fn.attributes["arg_attrs"])[arg.arg_number])]
    return list(list(ta_fn.entry_block.operations)[-1].operation.operands)[outputs.index(dst)]


def _check_store(fn, ta_fn, store, replay, named: bool) -> list[Result]:
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    tv = TileValues(fn)
    ta_ops = list(ta_fn.entry_block.operations)
    names = ta_input_names(ta_fn)
    value, dst, offs = store_parts(store)
    label = f"{tv.args[dst][1]}: " if named else ""  # a kernel of several outputs: which one a row speaks of
    row = lambda kernel, replay, prop, check, *rest: _row(kernel, replay, prop, label + check, *rest)
    offsets = [tv.index[o] for o in offs]
    r, c = z3.Ints("r c")
    shape = ir.RankedTensorType(value.type).shape
    view = view_of(ta_fn, tv.args[dst][1], tv.args[dst][2], tv.params, tv.assumptions)
    if view.groups is None:
        return [row(kernel, replay, "equivalence", *view.check(), "the output's dims")]
    # the element (r, c) of the stored tile, as the output's own index
    written, facts = view.unflatten(offsets[:-2] + [offsets[-2] + r, offsets[-1] + c], "w")
    row_at, col_at = view.groups[len(offsets) - 2][0], len(written) - 1
    returned = returned_as(fn, ta_fn, dst)
    positions = output_positions(returned, len(written))
    ta_value = lambda n, idx: tv.vals.function(f"ta{n}", len(idx), z3.IntSort())(*idx)

    def at_tile(at: list, kept: list) -> list:
        """The output's own index at tile position ``at`` (the stored element's, moved by the
        offset of ``at`` from (r, c)), at the output positions ``kept``."""
        shift = {row_at: at[0] - r, col_at: (at[1] - c) if len(at) > 1 else 0}
        return [written[k] + shift.get(k, 0) for k in kept]

    for loop, *_ in tv.loops:
        completed = completed_slots(loop)  # a rotated loop's acc is complete after its last P·V
        for k, n in _provenance(loop).items():
            if ta_ops[n].result not in positions:
                continue  # read by no epilogue map: the store does not depend on it
            tv.substitute[completed.get(k, loop.results[k])] = lambda at, n=n, kept=positions[ta_ops[n].result]: \
                ta_value(n, at_tile(at, kept))

    def reference(v, idx):
        owner = v.owner
        if v in names:
            return tv.vals.tensor(names[v], idx)
        n = next(k for k, op in enumerate(ta_ops) if op.operation == owner)
        if owner.name != "ta.map":
            return ta_value(n, idx)

        def read(inner, local):
            name = inner.operation.name
            if name == "ta.param":
                return tv.params[ir.StringAttr(inner.attributes["name"]).value]
            if name == "ta.index":
                return idx[ir.IntegerAttr(inner.attributes["dim"]).value]
            if name != "ta.at":
                return None
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            return reference(inner.operation.operands[0], [idx[ir.AffineDimExpr(e).position] for e in amap.results])

        return evaluate(owner.regions[0].blocks[0], tv.vals, read, lambda x: tv.vals.scalar(x.owner, []))

    ranges = [r >= 0, r < shape[0], c >= 0, c < shape[1]] + facts + view.sizes + \
        [z3.And(w >= 0, w < e) for w, e in zip(written, view.extents)]
    stored, expected = tv.value(value, [r, c]), reference(returned, written)
    watch = {"r": r, "c": c, **tv.params, **{str(p): p for p in tv.pids}}
    rows = [row(kernel, replay, "equivalence", "the stored element is the fused ta's output at the element it is "
                 "stored at, from the values the loop carries", prove(stored == expected, tv.assumptions + ranges,
                                                                      budget=40_000_000, watch=watch), DOMAIN),
            row(kernel, replay, "in-bounds", *stored_inside(offsets, view, shape[1], tv.assumptions, watch)),
            row(kernel, replay, "coverage", *tile_coverage(tv.tile_id, tv.grid, tv.params, tv.assumptions,
                                                            offsets, view, shape, watch))]
    if tv.ctas is not None:  # a persistent kernel: its tile loops visit each tile id once
        pid0 = next(x for x in tv.pids if str(x) == "pid0")
        rows.append(row(kernel, replay, "coverage", *tile_partition(pid0, tv.ctas, tv.tile_loops, tv.grid,
                                                                     tv.assumptions, tv.warpgroups)))
    split = next((op for op in walk(fn) if op.name == "tile.split_sum"), None)
    splits = ir.IntegerAttr(split.attributes["splits"]).value if split is not None else 1
    batch = batch_coverage(tv.pids, tv.grid, tv.params, tv.assumptions, offsets, view, (r, c, shape), watch, splits)
    if batch is not None:
        rows.append(row(kernel, replay, "coverage", *batch))
    return rows


def _provenance(loop) -> dict:
    """{carried slot: ta op number}: the loop's ``tile.computes`` (its own value of each op), else
    the ``tile.computes`` of the tile.mma each slot yields."""
    if "tile.computes" in loop.attributes:
        return own_slots(loop)
    yielded = list(list(loop.regions[0].blocks[0].operations)[-1].operation.operands)
    return {k: ir.IntegerAttr(v.owner.attributes["tile.computes"]).value for k, v in enumerate(yielded)
            if not isinstance(v.owner, ir.Block) and "tile.computes" in v.owner.attributes}


def output_positions(returned, rank: int) -> dict:
    """{ta value: the output positions its dims stand at}, read from the epilogue's ta.at maps
    (a map of the output's rank has the output's positions as its dims)."""
    positions, todo = {returned: list(range(rank))}, [returned]
    while todo:
        v = todo.pop()
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.name != "ta.map" or len(positions[v]) != rank:
            continue
        for inner in owner.regions[0].blocks[0].operations:
            if inner.operation.name != "ta.at":
                continue
            src = inner.operation.operands[0]
            dims = [positions[v][ir.AffineDimExpr(e).position]
                    for e in ir.AffineMapAttr(inner.attributes["map"]).value.results]
            if src not in positions:
                positions[src] = dims
                todo.append(src)
    return positions


def _row(kernel, replay, prop, check, outcome, domain) -> Result:
    return Result(kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain, outcome.model,
                  outcome.detail, replay(outcome.model, prop) if outcome.verdict == "counterexample" else "")
