"""What an online-group kernel (attention) stores, against the fused ta: the epilogue's values
and the rows the grid reaches.

The loop over key blocks carries (m, l, acc) with provenance (``tile.computes``: the ta.online
op each carried value belongs to; an op's own value is its last slot). The online step lemma
(attention_step.py) proves the loop leaves l and acc equal to their ta.online values; here
the epilogue is checked on top of that: the stored element (r, c) of the CTA's tile, computed
from the loop's results, equals the fused ta's output at the element it is stored at, with
each ta.online value the same symbol on both sides. So a missing division by the row sum, or
any other epilogue change, is refuted. And the grid reaches every query row.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from .scalars import evaluate
from .report import Result
from .solver import prove
from .coverage import batch_coverage, stored_inside
from .tile_values import TileValues, own_slots, walk
from .views import view_of


def check_output(tiled, fused, replay) -> list[Result]:
    fn, ta_fn = tiled.body.operations[0], fused.body.operations[0]
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    tv = TileValues(fn)
    ta_ops = list(ta_fn.entry_block.operations)
    names = {arg: ir.StringAttr(ir.DictAttr(a)["ta.name"]).value
             for a, arg in zip(ir.ArrayAttr(ta_fn.attributes["arg_attrs"]), ta_fn.arguments)}
    store = next(op for op in walk(fn) if op.name == "tile.store")
    value, dst, *offs = store.operands
    offsets = [tv.index[o] for o in offs]
    r, c = z3.Ints("r c")
    shape = ir.RankedTensorType(value.type).shape
    # the element (r, c) of the stored tile, as the output's own index (the kernel may store
    # through a row-major view: [B, S, H*D] for [B, S, H, D])
    view = view_of(ta_fn, tv.args[dst][1], tv.args[dst][2], tv.params, tv.assumptions)
    if view.groups is None:
        return [_row(kernel, replay, "equivalence", *view.check(), "the output's dims")]
    written, facts = view.unflatten(offsets[:-2] + [offsets[-2] + r, offsets[-1] + c], "w")
    row_at = view.groups[len(offsets) - 2][0]
    numer = next(op for op in ta_ops if op.operation.name == "ta.online" and
                 len(ir.AffineMapAttr(op.attributes["map"]).value.results) == len(written))
    out_dims = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(numer.attributes["map"]).value.results]
    i, d = out_dims[row_at], out_dims[-1]
    coord = dict(zip(out_dims, written))
    ta_value = lambda n, idx: tv.vals.function(f"ta{n}", len(idx), z3.IntSort())(*idx)
    for loop, *_ in tv.loops:
        if "tile.computes" not in loop.attributes:
            continue
        for k, n in own_slots(loop).items():
            kept = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(ta_ops[n].attributes["map"]).value.results]
            # slot k at tile position (row, col): the ta.online value at this CTA's batch element,
            # query row offsets[-2] + row and head-dim column col
            tv.substitute[loop.results[k]] = lambda at, n=n, kept=kept: ta_value(
                n, [offsets[-2] + at[0] if x == i else at[1] if x == d else coord[x] for x in kept])

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

    returned = list(list(ta_fn.entry_block.operations)[-1].operation.operands)[0]
    ranges = [r >= 0, r < shape[0], c >= 0, c < shape[1]] + facts + view.sizes + \
        [z3.And(w >= 0, w < e) for w, e in zip(written, view.extents)]
    stored, expected = tv.value(value, [r, c]), reference(returned, written)
    rows = []
    watch = {"r": r, "c": c, **tv.params, **{f"pid{k}": p for k, p in enumerate(tv.pids)}}
    rows.append(_row(kernel, replay, "equivalence", "the stored element is the fused ta's output, from the loop's "
                     "final l and acc", prove(stored == expected, tv.assumptions + ranges, timeout_ms=20000,
                                              watch=watch),
                     "all shapes, program ids and elements of the tile; the ta.online values the same symbols on "
                     "both sides"))
    q = z3.Int("i")
    claim = z3.And(offsets[-2] == tv.pids[0] * shape[0], q / shape[0] < tv.grid[0])
    rows.append(_row(kernel, replay, "coverage", "the grid reaches every query row: row block pid0 is stored at "
                     "pid0 * bm", prove(claim, tv.assumptions + [q >= 0, q < view.extents[row_at]],
                                        watch={"i": q, **watch}), "all shapes and program ids"))
    rows.append(_row(kernel, replay, "in-bounds", *stored_inside(offsets, view, shape[1], tv.assumptions, watch)))
    batch = batch_coverage(tv.pids, tv.grid, tv.params, tv.assumptions, offsets, view, (r, c, shape), watch)
    if batch is not None:
        rows.append(_row(kernel, replay, "coverage", *batch))
    return rows


def _row(kernel, replay, prop, check, outcome, domain) -> Result:
    return Result(kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain, outcome.model,
                  outcome.detail, replay(outcome.model, prop) if outcome.verdict == "counterexample" else "")
