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
from .symbolic import dim
from .tile_values import TileValues, own_slots, walk


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
    written = offsets[:-2] + [offsets[-2] + r, offsets[-1] + c]
    ta_value = lambda n, idx: tv.vals.function(f"ta{n}", len(idx), z3.IntSort())(*idx)
    for loop, *_ in tv.loops:
        if "tile.computes" not in loop.attributes:
            continue
        for k, n in own_slots(loop).items():
            rank = ir.RankedTensorType(ta_ops[n].result.type).rank
            tv.substitute[loop.results[k]] = \
                lambda at, n=n, rank=rank: ta_value(n, (offsets[:-2] + [offsets[-2] + at[0]] + at[1:])[:rank])

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
    extents = [dim(d, tv.params) for d in tv.args[dst][2]]
    ranges = [r >= 0, r < shape[0], c >= 0, c < shape[1]] + \
        [z3.And(w >= 0, w < e) for w, e in zip(written, extents)]
    stored, expected = tv.value(value, [r, c]), reference(returned, written)
    rows = []
    add = lambda prop, check, outcome, domain: rows.append(Result(
        kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain, outcome.model,
        outcome.detail, replay(outcome.model, prop) if outcome.verdict == "counterexample" else ""))
    watch = {"r": r, "c": c, **tv.params, **{f"pid{k}": p for k, p in enumerate(tv.pids)}}
    add("equivalence", "the stored element is the fused ta's output, from the loop's final l and acc",
        prove(stored == expected, tv.assumptions + ranges, timeout_ms=20000, watch=watch),
        "all shapes, program ids and elements of the tile; the ta.online values the same symbols on both sides")
    i = z3.Int("i")
    claim = z3.And(offsets[-2] == tv.pids[0] * shape[0], offsets[-1] == 0, i / shape[0] < tv.grid[0])
    add("coverage", "the grid reaches every query row: row block pid0 is stored at pid0 * bm",
        prove(claim, tv.assumptions + [i >= 0, i < extents[-2]], watch={"i": i, **watch}),
        "all shapes and program ids")
    return rows
