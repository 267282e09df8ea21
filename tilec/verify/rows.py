"""Translation validation of row programs against the ta they were lowered from.

The lowering marks provenance: a tile.map's ``tile.computes`` is the position of the ta op
it computes, a reduction loop's ``tile.computes`` lists the ta op of each carried value.
Each element a tile holds at in-tile (r, c) stands for the ta element at row
I = pid * bm + r and column J = jt * bn + c (jt: the enclosing loop's block). Then,
symbolically in the shapes, program id, block and position:

- every tile.map equals its ta op at (I, J), the values it reads being the same symbols on
  both sides (each proved where it is computed);
- every reduction starts at its neutral element, folds one block per iteration the way
  ta.online defines (s + rowsum t; max(m, rowmax x); l * E(m, m') + rowsum E(x, m') * t with
  E(a, b) = exp(a - b), 0 where a = -inf), its block terms equal the ta terms inside the row
  and are neutral past it, and its blocks reach every column; a stabilised sum's step keeps
  l = sum_j E(x_j, m) t_j (one lemma per op, exp(a - m) * exp(m - m') = exp(a - m'));
- every store writes the output's own ta value, at (I, J), and the grid and column loop
  reach every element of the output.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from .report import Result
from .rows_checks import check_maps, check_reductions, check_stores, own_states
from .solver import Outcome
from .symbolic import dim
from .tile_values import TileValues, ta_input_names, own_slots, walk
from tilec.dialects.ta import tensor_dims
from .scalars import evaluate

DOMAIN = "all shapes (rows, cols >= 1), program ids, column blocks and positions in the tile"


def check_rows(tiled, fused, replay) -> list[Result]:
    """The properties of row program ``tiled`` against ``fused`` (the ta ta-to-tile lowered)."""
    return _Checker(tiled.body.operations[0], fused.body.operations[0], replay).run()


class TileChecker:
    """What the checks of a tile program against its ta share (row programs here, pointwise
    ones in pointwise.py): the tile function's semantics, the ta's ops and input names, the
    in-tile coordinates (r, c), and the report's rows, each for ``domain_text``."""

    domain_text = DOMAIN

    def __init__(self, fn, ta_fn, replay):
        self.fn, self.ta_fn, self.replay = fn, ta_fn, replay
        self.kernel = ir.StringAttr(fn.attributes["sym_name"]).value
        self.tv = TileValues(fn)
        # the sizes the kernel's types fix: every check assumes them, and says so
        self.fixed_text = self.tv.fixed_text()
        self.vals = self.tv.vals
        self.ta_ops = list(ta_fn.entry_block.operations)
        self.ta_names = ta_input_names(ta_fn)
        self.rows: list[Result] = []
        self.r, self.c = z3.Ints("r c")

    def add(self, prop: str, check: str, outcome: Outcome, domain: str | None = None) -> None:
        replay = self.replay(outcome.model, prop) if outcome.verdict == "counterexample" else ""
        self.rows.append(Result(self.kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4),
                                (domain or self.domain_text) + self.fixed_text, outcome.model, outcome.detail, replay))


class _Checker(TileChecker):
    def __init__(self, fn, ta_fn, replay):
        super().__init__(fn, ta_fn, replay)
        self.number = {op.result: n for n, op in enumerate(self.ta_ops) if len(op.operation.results) == 1}
        self.pid = self.tv.pids[0]
        self._substitute_provenance()

    # -- coordinates ---------------------------------------------------------------------------
    def _iv(self, op):
        parent = op.operation.parent
        for loop, iv, *_ in self.tv.loops:
            if parent == loop.operation:
                return iv
        return None

    def global_at(self, value, coords) -> list:
        """(I, J) (or I) of a tile's element at in-tile ``coords``."""
        shape = ir.RankedTensorType(value.type).shape
        at = [self.pid * shape[0] + coords[0]]
        if len(coords) == 2:
            iv = self._iv(value.owner)  # outside a column loop: the one block, at column 0
            at.append(coords[1] if iv is None else iv * shape[1] + coords[1])
        return at

    def ta(self, n: int, at: list):
        """ta op ``n``'s value at ``at`` (an uninterpreted function shared by both sides)."""
        return self.vals.function(f"ta{n}", len(at), z3.IntSort())(*at)

    def _substitute_provenance(self) -> None:
        """Tiles that compute a ta value stand for it wherever they are read."""
        for op in walk(self.fn):
            if op.name == "tile.map" and "tile.computes" in op.attributes:
                n = ir.IntegerAttr(op.attributes["tile.computes"]).value
                self.tv.substitute[op.result] = lambda at, v=op.result, n=n: self.ta(n, self.global_at(v, at))
            if op.name == "scf.for" and "tile.computes" in op.attributes:
                for k, n in own_slots(op).items():
                    self.tv.substitute[op.results[k]] = lambda at, n=n, rows=_rows(op): self.ta(
                        n, [self.pid * rows + at[0]])
        for n, op in own_states(self.fn).items():  # a one-block fold: each op's last state is its value
            rows = ir.RankedTensorType(op.result.type).shape[0]
            self.tv.substitute[op.result] = lambda at, n=n, rows=rows: self.ta(n, [self.pid * rows + at[0]])

    # -- the reference ---------------------------------------------------------------------------
    def reference(self, n: int, at: list):
        """The value(s) ta op ``n``'s body yields at ``at``."""
        op = self.ta_ops[n]

        def read(inner, local):
            name = inner.operation.name
            if name == "ta.param":
                return self.tv.params[ir.StringAttr(inner.attributes["name"]).value]
            if name == "ta.index":
                return at[ir.IntegerAttr(inner.attributes["dim"]).value]
            if name != "ta.at":
                return None
            amap = ir.AffineMapAttr(inner.attributes["map"]).value
            idx = [at[ir.AffineDimExpr(e).position] for e in amap.results]
            return self.operand(inner.operation.operands[0], idx)

        return evaluate(op.regions[0].blocks[0], self.vals, read, lambda v: self.vals.scalar(v.owner, []))

    def operand(self, src, idx):
        if src in self.ta_names:
            return self.vals.tensor(self.ta_names[src], idx)
        return self.ta(self.number[src], idx)

    def term(self, n: int, at: list) -> list:
        """The terms of reduction ``n`` at (I, J): [t] or [x, t] (a stabilised sum)."""
        op = self.ta_ops[n]
        name = op.operation.name
        if name == "ta.online":
            value = self.reference(n, at)
            return value if isinstance(value, list) else [value]
        if name == "ta.reduce":
            return [self._f32(op.operation.operands[0], self.operand(op.operation.operands[0], at))]
        a, b = op.operation.operands
        return [self._f32(a, self.operand(a, at)) * self._f32(b, self.operand(b, at))]

    def _f32(self, value, term):
        element = str(ir.RankedTensorType(value.type).element_type)
        return term if element == "f32" else self.vals.function(f"arith.extf_{element}_f32", 1)(term)

    # -- rows of the report ------------------------------------------------------------------------
    def domain_extent(self, k: int):
        return dim(self.domain[k], self.tv.params)

    def ranges(self, value) -> list:
        """In-tile coordinates within the tile, and the element inside the ta domain."""
        shape = ir.RankedTensorType(value.type).shape
        coords = [self.r, self.c][:len(shape)]
        at = self.global_at(value, coords)
        extents = [dim(d, self.tv.params) for d in self.domain[:len(at)]]
        return [z3.And(x >= 0, x < n) for x, n in zip(coords, shape)] + \
            [z3.And(g >= 0, g < e) for g, e in zip(at, extents)]

    def run(self) -> list[Result]:
        returned = list(list(self.ta_fn.entry_block.operations)[-1].operation.operands)
        self.domain = _domain(self.ta_fn)
        self.outputs = {name: self.number.get(v) for name, v in zip(_output_names(self.ta_fn), returned)}
        folded = self._folded()
        if folded:
            self.add("equivalence", "the row program's reductions can be read", Outcome(
                "error", 0.0, {}, f"{folded}: a reduction is read from a column loop's tile.computes or a "
                "one-block fold's tile.state provenance, and these have neither"))
            return self.rows
        check_maps(self)
        check_reductions(self)
        check_stores(self)
        return self.rows

    def _folded(self) -> str:
        """The reductions of the ta that no fold of the tile program computes, or ''."""
        looped = {n for loop, *_ in self.tv.loops if "tile.computes" in loop.attributes
                  for n in (ir.IntegerAttr(x).value for x in ir.ArrayAttr(loop.attributes["tile.computes"]))}
        looped |= set(own_states(self.fn))
        loose = [n for n, op in enumerate(self.ta_ops) if op.operation.name in ("ta.reduce", "ta.online", "ta.contract")
                 and n not in looped]
        return f"ta ops {sorted(set(loose))} are computed by no fold" if loose else ""


def _rows(loop) -> int:
    init = loop.operands[3]
    return ir.RankedTensorType(init.type).shape[0]


def _domain(ta_fn) -> list:
    """The [rows, cols] dims of the row program (its rank-2 values')."""
    for op in ta_fn.entry_block.operations:
        for v in op.operation.results:
            if isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).rank == 2:
                return [str(d) for d in tensor_dims(v.type)]
    for arg in ta_fn.arguments:
        if ir.RankedTensorType(arg.type).rank == 2:
            return [str(d) for d in tensor_dims(arg.type)]
    for op in ta_fn.entry_block.operations:
        if op.operation.name == "ta.online":
            return [ir.StringAttr(e).value for e in ir.ArrayAttr(op.attributes["extents"])]
    raise ValueError("a row program without a [rows, cols] domain")


def _output_names(ta_fn) -> list:
    return [ir.StringAttr(ir.DictAttr(a)["ta.name"]).value for a in ir.ArrayAttr(ta_fn.attributes["res_attrs"])]
