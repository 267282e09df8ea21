"""The loop of a recompute tile program (ta-to-tile's form for a saved backward's sums: dK/dV
over key blocks, dQ over query blocks) against the fused ta it was lowered from.

Each accumulator the loop carries stands for one sum of the ta (its ``tile.computes``),
Σ_t W[r, t]·X[t, d] (recomputed_reference.py reads W and X from the summand). For symbolic
program ids, rows r, blocks kt, positions t in the block, columns d and every shape:

equivalence  the accumulator starts at 0; each iteration adds its mmas onto it unchanged: W
             rounded to X's type, then at most its rounding residual, times one X tile (the
             mma's meaning: acc'[r, d] = acc[r, d] + Σ_t W[r, t]·X[t, d]); W at (r, t) is the
             reference's W, each contraction it reads the value of an mma that reads the
             contraction's operands at the reference's indices, over as many e as it sums; X is
             read at the reference's (t, d); the tiles are as wide as the output's dim
coverage     a t outside the extent in a block the loop visits adds nothing (W = 0), and the
             reference's W is 0 at every t of a block the loop skips (a causal block skip),
             given finite saved statistics (a row whose keys are all masked has lse = -inf and
             a NaN reference)

Values are real arithmetic, uninterpreted where the ta is (exp, the inputs), W's rounding to
X's type read as exact as the forward's P is; with each t's term equal and every t added once,
a plain sum equals its reference in any order, for every length.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import is_mma, mma_depth, schedule_of, store_parts

from .attention_step import _exp_of_masked, _is_residual, _pv_chain, _unround, exp_differences
from .recomputed_reference import Summands, positions
from .report import Result
from .scalars import Values
from .solver import Outcome, prove, structural
from .stored_value import output_positions, returned_as
from .symbolic import execute, staged_copy
from .tile_values import TileValues, own_slots
from .views import view_of

DOMAIN = "all shapes, program ids, rows, blocks and columns; values uninterpreted, W's rounding read as exact"


class _Loop:
    """What every row reads: the program's symbolic execution and values, the reference."""

    def __init__(self, tiled, fused):
        self.fn, self.ta_fn = tiled.body.operations[0], fused.body.operations[0]
        self.p = p = execute(self.fn)
        self.vals = Values(p.params)
        self.tv = TileValues.over(p, self.vals)
        self.ref = Summands(self.ta_fn, self.vals, p.params)
        self.kt, self.lb, self.ub, self.loop = p.loops["main"]
        self.body = self.loop.regions[0].blocks[0]
        sched = schedule_of(self.fn)
        self.bm, self.bn = sched.bm, sched.bn
        self.r, self.t_in, self.col, self.e = z3.Ints("row t_in_block col e")
        self.t = self.kt * self.bn + self.t_in
        self.views = {name: view_of(self.ta_fn, name, dims, p.params, p.assumptions)
                      for _, name, dims in p.args.values()}
        self.watch = {"kt": self.kt, "row": self.r, "t": self.t, "col": self.col, **p.params}

    def stored_coords(self, slot: int, s) -> tuple[str, dict, list, int]:
        """(the output accumulator ``slot`` is stored as, the domain coordinates of its element
        (row, col), the facts that bound them, the stored tile's width), read from the store of
        that output; coordinates None where it is stored nowhere or not read from sum ``s``."""
        store = next((e for e in self.p.events if e.kind == "store" and _reads(e.data["value"], self.loop.results[slot])),
                     None)
        if store is None:  # stored nowhere
            return f"accumulator {slot}", None, [], 0
        output = store.data["dst"]
        view = self.views[output]
        offs = store.data["offsets"]
        own, facts = view.unflatten(offs[:-2] + [offs[-2] + self.r, offs[-1] + self.col], "o")
        returned = returned_as(self.fn, self.ta_fn, store_parts(store.op)[1])
        at = output_positions(returned, len(own)).get(self.ref.ops[s.number].result)
        if at is None:  # the accumulator is stored as an output its sum does not become
            return output, None, [], 0
        coords = {d: own[q] for d, q in zip(s.out_dims, at)}
        coords[s.t] = self.t
        width = ir.RankedTensorType(store.op.operation.operands[0].type).shape[1]
        facts += view.sizes + [z3.And(x >= 0, x < n) for x, n in zip(own, view.extents)] + \
            [self.r >= 0, self.r < self.bm, self.col >= 0, self.col < width, self.t_in >= 0, self.t_in < self.bn]
        return output, coords, facts, width

    def index_of(self, value, local: tuple) -> tuple[str, list] | None:
        """(tensor, index) the shared tile ``value`` (an mma operand) holds at its stored
        position ``local`` (row, column of the shared buffer), or None."""
        held = self.p.values.get(value)
        if not (isinstance(held, tuple) and held[0] == "smem"):
            return None
        filled = staged_copy(self.p, held[1])
        if filled is None:
            return None
        src, origin = filled
        return src, origin[:-2] + [origin[-2] + local[0], origin[-1] + local[1]]

    def transposed(self, value) -> bool:
        held = self.p.values.get(value)
        return isinstance(held, tuple) and held[0] == "smem" and held[3]


def check_recomputed(tiled, fused, replay) -> list[Result]:
    """The rows of a recompute tile program's loop (the module docstring)."""
    c = _Loop(tiled, fused)
    kernel = ir.StringAttr(c.fn.attributes["sym_name"]).value
    rows = []

    def add(prop, check, outcome, domain=DOMAIN):
        rows.append(Result(kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain,
                           outcome.model, outcome.detail,
                           replay(outcome.model, prop) if outcome.verdict == "counterexample" else ""))

    for view in c.views.values():  # a tensor read through a row-major view of its memory
        if view.groups is None or view.merged:
            add("equivalence", *view.check())
    yielded = list(list(c.body.operations)[-1].operation.operands)
    sums = {slot: c.ref.sum(n) for slot, n in own_slots(c.loop).items()}
    chains = {slot: _chain(yielded[slot]) for slot in sums}
    in_chains = {op for chain, _ in chains.values() for op in chain}
    contractions = [op for op in c.body.operations if is_mma(op) and op not in in_chains]
    for slot, s in sums.items():
        for prop, check, outcome, domain in _sum_rows(c, slot, s, chains[slot], contractions):
            add(prop, check, outcome, domain)
    return rows


def _sum_rows(c: _Loop, slot: int, s, chain_base, contractions):
    """(property, check, outcome, domain) rows of the accumulator ``slot``, computing sum ``s``,
    each check naming the output it is stored as."""
    output, coords, facts, width = c.stored_coords(slot, s)
    for prop, check, outcome, domain in _rows_of_sum(c, slot, s, chain_base, contractions, (coords, facts, width)):
        yield prop, f"{output}: {check}", outcome, domain


def _rows_of_sum(c: _Loop, slot: int, s, chain_base, contractions, stored):
    chain, base = chain_base
    coords, facts, width = stored
    yield "equivalence", "the accumulator is stored as an output read from the sum it computes", \
        structural(coords is not None, f"the loop says it computes op {s.number} of the function; no output "
                                       f"stored from it reads that op"), DOMAIN
    if coords is None:
        return
    visited = c.p.assumptions + facts + [c.kt >= c.lb, c.kt < c.ub]
    extent_t = c.ref.extent(s, s.t)
    inside = [c.t >= 0, c.t < extent_t]
    init = list(c.loop.operation.operands)[3 + slot]
    arg = list(c.body.arguments)[1 + slot]
    yield "equivalence", "the accumulator starts at 0", \
        prove(c.tv.value(init, [c.r, c.col]) == 0, c.p.assumptions + facts, watch=c.watch), DOMAIN
    if not chain:
        yield "equivalence", "each iteration adds its block's W·X onto the accumulator", \
            structural(False, "the value the loop carries on is not made by an mma"), DOMAIN
        return
    w_tile = _unround(chain[0].operation.operands[0])
    x_tile = chain[0].operation.operands[1]
    shape_ok = all(_is_residual(op.operation.operands[0], w_tile, chain[0].operation.operands[0]) and
                   op.operation.operands[1] == x_tile for op in chain[1:])
    step = structural(shape_ok, "the mmas onto the accumulator do not multiply W (rounded, then at most its "
                                "rounding residual) by one X tile")
    if shape_ok:
        step = prove(c.tv.value(base, [c.r, c.col]) == c.tv.value(arg, [c.r, c.col]), visited, watch=c.watch)
        step.detail = step.detail or ("" if step.verdict == "proved" else "the accumulator is changed before "
                                                                           "the block's mmas add onto it")
    yield "equivalence", "each iteration adds its block's W·X onto the accumulator unchanged " \
                         "(W rounded to X's type, then at most its rounding residual)", step, DOMAIN
    # W: each contraction it reads is the value of the mma that computes it at (row, t)
    score = lambda op, idx: c.vals.function(f"contraction{c.ref.ops.index(op)}", len(idx), z3.IntSort())(*idx)
    matched, rows = _contractions(c, s, coords, inside, visited, contractions)
    yield from rows
    for mma, (contract, amap) in matched.items():
        at = [coords.get(d, z3.Int(f"free_d{d}")) for d in positions(amap)]
        c.tv.substitute[mma.result] = lambda here, at=at, op=contract: score(
            op, [z3.substitute(x, (c.r, here[0]), (c.t_in, here[1])) for x in at])
    for mma in contractions:
        if mma not in matched:  # a product of no contraction W reads: a value of its own
            c.tv.substitute[mma.result] = lambda here, k=len(c.tv.substitute): \
                c.vals.function(f"unmatched{k}", 2, z3.IntSort())(*here)
    tile_w = c.tv.value(w_tile, [c.r, c.t_in])
    ref_w = c.ref.w(s, coords, score)
    outcome = prove(tile_w == ref_w, visited + inside, watch=c.watch)
    if outcome.verdict != "proved" and c.ref.unread:
        outcome = Outcome("error", outcome.seconds, {}, "W reads a value this check does not follow "
                                                         "(not an input, a remap of one, nor a contraction)")
    yield "equivalence", "W at (row, t) is the reference's W (scale, masks, statistics) for every t of the sum", \
        outcome, DOMAIN
    yield "coverage", "a t outside the sum's extent adds nothing in a block the loop visits (W = 0)", \
        prove(tile_w == 0, visited + [z3.Or(c.t < 0, c.t >= extent_t)], watch=c.watch), DOMAIN
    finite = [w != c.vals.function("ninf", 0)() for _, _, w in exp_differences(ref_w)]  # the saved statistics
    skipped = c.p.assumptions + facts + inside + [z3.Or(c.kt < c.lb, c.kt >= c.ub)]
    yield "coverage", "every t of a block the loop skips adds nothing to the reference (its W = 0)", \
        prove(ref_w == 0, skipped + _exp_of_masked(ref_w, c.vals.function("ninf", 0)()) + finite, watch=c.watch), \
        "all shapes, program ids, rows and skipped blocks; the saved statistics finite"
    # X: the mmas' B tile holds X at (t, d), as wide as the output's dim
    yield _operand_row(c, "X", x_tile, (c.t_in, c.col), [c.ref.x_index(s, coords)], visited + inside)
    extent_d = c.ref.extent(s, s.out_dims[-1])
    yield "equivalence", f"the tiles are as wide as the output's last dim ({width})", \
        prove(extent_d == width, c.p.assumptions + facts, watch=dict(c.p.params)), "all shapes"


def _contractions(c: _Loop, s, coords, inside, visited, contractions):
    """({mma: (ta.contract, the map W reads it at)}, rows): each contraction ``s``'s W reads,
    the mma whose operands are its own at the reference's indices, over its whole depth."""
    matched, rows = {}, []
    for contract, amap in c.ref.contractions_read(s):
        idx = [coords.get(d, z3.Int(f"free_d{d}")) for d in positions(amap)]
        refs = c.ref.operands(contract, idx, c.e)
        depth = c.ref.depth(contract)
        found = None
        for mma in contractions:
            a, b = mma.operation.operands[0], mma.operation.operands[1]
            row = _operand_row(c, f"the mma of {' and '.join(n for n, _ in refs)}", None, None, refs,
                               visited + inside + [c.e >= 0, c.e < mma_depth(mma)], pair=(a, b))
            if row[2].verdict == "proved":
                found = mma
                rows.append(row)
                rows.append(("equivalence", f"the mma sums over the contraction's whole depth ({depth})",
                             structural(mma_depth(mma) == depth, f"the mma sums over {mma_depth(mma)} of e"),
                             "all shapes"))
                break
        if found is None:
            names = " and ".join(n for n, _ in refs)
            rows.append(("equivalence", "the contraction W reads is an mma of its operands at the reference's indices",
                         structural(False, f"no mma of the loop multiplies {names} at the reference's indices over "
                                           f"the contraction's depth ({depth})"), DOMAIN))
            continue
        matched[found] = (contract, amap)
    return matched, rows


def _operand_row(c: _Loop, what, tile, local, refs, facts, pair=None):
    """The row proving an mma operand (``tile`` at ``local``; or an mma's (A, B) ``pair`` at
    (row, e) and (t, e), in either order) holds the reference's elements ``refs``."""
    if pair is None:
        held = c.index_of(tile, local[::-1] if c.transposed(tile) else local)
        claims = [_same(c, held, refs[0])] if held is not None else []
    else:
        a = c.index_of(pair[0], (c.r, c.e))
        b = c.index_of(pair[1], (c.t_in, c.e) if c.transposed(pair[1]) else (c.e, c.t_in))
        claims = [z3.And(_same(c, a, x), _same(c, b, y)) for x, y in (refs, refs[::-1])] \
            if a is not None and b is not None else []
    check = f"{what}: read at the reference's indices"
    if not claims:
        return "equivalence", check, Outcome("error", 0.0, {}, "an operand is not one shared tile filled by copies "
                                                              "this check reads"), DOMAIN
    return "equivalence", check, prove(z3.Or(*claims), facts, watch=c.watch), DOMAIN


def _same(c: _Loop, held, ref) -> z3.BoolRef:
    """The kernel's (tensor, index) is the reference's, read through the kernel's view."""
    name, index = ref
    view = c.views.get(name)
    if held[0] != name or view is None or view.groups is None:
        return z3.BoolVal(False)
    return z3.And(*[x == y for x, y in zip(held[1], view.flatten(index))])


def _chain(value):
    """(the mmas accumulating onto one base, that base) for the value an accumulator is carried
    on as, or ([], value) when no mma makes it."""
    owner = value.owner
    if isinstance(owner, ir.Block) or not is_mma(owner):
        return [], value
    return _pv_chain(owner.opview if hasattr(owner, "opview") else owner)


def _reads(value, target) -> bool:
    """Does the tile ``value`` read ``target`` (through tile.map bodies)?"""
    if value == target:
        return True
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "tile.map":
        return False
    return any(_reads(op.operation.operands[0], target) for op in owner.regions[0].blocks[0].operations
               if op.operation.name == "tile.elem")
