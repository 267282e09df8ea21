"""Translation validation of pointwise programs (passes/ta_to_tile/pointwise.py) against their ta.

A CTA (program ids p0, p1) stores, in each column block jt, a [bm, bn] tile whose element
(r, c) it writes at the global index G = (stored offsets) + (r, c) of the output. For every
store, symbolically in the program ids, the block and the position:

- equivalence: the tile's element is the ta output at G, wherever G lies inside the domain.
  The reference expands the ta function down to its inputs (maps inlined, remaps composed),
  the kernel side reads each input through its tile.gather, so both are terms over the same
  input elements, and their indices (floordiv and mod included) are compared as integers;
- in-bounds: every tile.gather of the stored value reads inside its tensor there (outside,
  it would read its padding);
- coverage: every element of the output is some CTA's: with p0 = G[-2] / bm, p1 the leading
  indices of G in row-major order, jt = G[-1] / bn, the program ids and block lie in the grid
  and the loop, and the element they store at (G[-2] - r0, G[-1] - j0) is G.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from .report import Result
from .scalars import evaluate
from .solver import Outcome, prove
from .symbolic import size_facts
from .rows import TileChecker
from .tile_values import walk
from tilec.dialects.affine import z3_results
from tilec.dialects.tile import encloses


def check_pointwise(tiled, fused, replay) -> list[Result]:
    """The properties of pointwise program ``tiled`` against ``fused`` (the ta it was lowered from)."""
    return _Checker(tiled.body.operations[0], fused.body.operations[0], replay).run()


class _Checker(TileChecker):
    def __init__(self, fn, ta_fn, replay):
        super().__init__(fn, ta_fn, replay)
        shapes = "all shapes" if self.tv.params else "the shapes read from the IR"
        self.domain_text = f"{shapes}, all program ids, column blocks and positions in the tile"

    def run(self) -> list[Result]:
        returned = list(self.ta_ops[-1].operation.operands)
        names = [ir.StringAttr(ir.DictAttr(a)["ta.name"]).value for a in ir.ArrayAttr(self.ta_fn.attributes["res_attrs"])]
        stores = {}
        for op in walk(self.fn):
            if op.name == "tile.store":
                stores.setdefault(self.tv.args[op.operands[1]][1], []).append(op)
        for name, value in zip(names, returned):
            if len(stores.get(name, [])) != 1:
                self.add("coverage", f"{name} is stored by one tile.store", Outcome(
                    "error", 0.0, {}, f"{len(stores.get(name, []))} stores of {name}"))
                continue
            self.store(stores[name][0], name, value)
        return self.rows

    # -- one store -----------------------------------------------------------------------------
    def store(self, op, name: str, value) -> None:
        tile, dst, *offs = op.operands
        bm, bn = ir.RankedTensorType(tile.type).shape
        offsets = [self.tv.index[o] for o in offs]
        at = offsets[:-2] + [offsets[-2] + self.r, offsets[-1] + self.c]
        extents = self.tv.dims(dst)
        inside = [z3.And(x >= 0, x < n) for x, n in zip(at, extents)] + \
            [self.r >= 0, self.r < bm, self.c >= 0, self.c < bn]
        facts = self.tv.assumptions + inside
        watch = {**{str(p): p for p in self.tv.pids}, "r": self.r, "c": self.c}
        if tile.owner.name != "tile.map":
            self.add("equivalence", f"{name}: the stored tile is computed by a tile.map", Outcome(
                "error", 0.0, {}, f"the store of {name} writes a tile made by '{tile.owner.name}'"))
            return
        kernel = self.tv.value(tile, [self.r, self.c])
        reference = self.reference(value, at)
        self.add("equivalence", f"{name}: element (r, c) of the stored tile is the ta value at the element "
                 f"it is stored at", prove(kernel == reference, facts, budget=40_000_000, watch=watch))
        reads = [self.gather_inside(inner, [self.r, self.c]) for inner in _gathers(tile.owner)]
        if reads:
            self.add("in-bounds", f"{name}: each of its {len(reads)} tile.gather reads inside its tensor",
                     prove(z3.And(*reads), facts, budget=40_000_000, watch=watch))
        self.coverage(op, name, offsets, extents, bm, bn)

    def coverage(self, op, name, offsets, extents, bm, bn) -> None:
        g = [z3.Int(f"g{k}") for k in range(len(extents))]
        flat = z3.IntVal(0)
        for x, n in zip(g[:-2], extents[:-2]):
            flat = flat * n + x
        pids = {str(p): p for p in self.tv.pids}
        witness = [(pids["pid0"], g[-2] / bm)] + ([(pids["pid1"], flat)] if "pid1" in pids else [])
        loops = [(iv, lb, ub) for loop, iv, lb, ub, _ in self.tv.loops if encloses(loop, op)]
        witness += [(iv, g[-1] / bn) for iv, _, _ in loops]
        sub = lambda e: z3.substitute(e, *witness) if witness else e  # noqa: E731
        r, c = g[-2] - sub(offsets[-2]), g[-1] - sub(offsets[-1])
        claims = [sub(a) for a in self.tv.assumptions] + [sub(lb) <= sub(iv) for iv, lb, _ in loops] + \
            [sub(iv) < sub(ub) for iv, _, ub in loops] + \
            [r >= 0, r < bm, c >= 0, c < bn] + [sub(o) == x for o, x in zip(offsets[:-2], g[:-2])]
        # the element ranges over the output at the sizes the kernel was built for, not at any size
        domain = [z3.And(x >= 0, x < n) for x, n in zip(g, extents)] + size_facts(self.tv.fn, self.tv.params) + \
            self.tv.fixed_facts()
        self.add("coverage", f"every element of {name} is stored by some CTA, column block and position",
                 prove(z3.And(*claims), domain, watch={f"g{k}": x for k, x in enumerate(g)}))

    def gather_inside(self, op, coords):
        """In the tile.map whose element ``coords`` is taken: ``op``'s indices lie inside its tensor."""
        at = self.tv.gather_indices(op, coords)
        return z3.And(*[z3.And(x >= 0, x < n) for x, n in zip(at, self.tv.dims(op.operands[0]))])

    # -- the reference ---------------------------------------------------------------------------
    def reference(self, value, idx: list):
        """ta ``value``'s element at ``idx``, expanded down to the input elements it reads."""
        if value in self.ta_names:
            return self.vals.tensor(self.ta_names[value], idx)
        op = value.owner
        apply = lambda attr, at: z3_results(ir.AffineMapAttr(attr).value, at)  # noqa: E731
        if op.name == "ta.remap":
            return self.reference(op.operands[0], apply(op.attributes["map"], idx))
        if op.name != "ta.map":
            raise ValueError(f"a pointwise program holds '{op.name}'")

        def read(inner, local):
            name = inner.operation.name
            if name == "ta.at":
                return self.reference(inner.operands[0], apply(inner.attributes["map"], idx))
            if name == "ta.index":
                return idx[ir.IntegerAttr(inner.attributes["dim"]).value]
            if name == "ta.param":
                return self.tv.params[ir.StringAttr(inner.attributes["name"]).value]
            return None
        return evaluate(op.regions[0].blocks[0], self.vals, read, lambda v: self.vals.scalar(v.owner, []))


def _gathers(map_op) -> list:
    return [inner.operation for inner in map_op.regions[0].blocks[0].operations
            if inner.operation.name == "tile.gather"]
