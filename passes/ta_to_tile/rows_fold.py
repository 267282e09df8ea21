"""The reduction phases of a row program (rows.py): each reduction's running state, folded
one column block at a time in a loop over the blocks (``tile.computes`` on the loop), or once
in straight-line code when one block holds the row (``tile.state`` on the states).

A state folds a block the way ta.online defines: s + rowsum t; max(m, rowmax x); a sum
stabilised by x: l * exp(m - m') + rowsum(exp(x - m') t), where a stabilised sum whose
stabiliser is the term of a max in the same phase (softmax's) rescales by that max's.

A centred sum (layernorm's sum of (x - mean x)^2) keeps only its own S_q: the running count
and sum of x are its group's plain sums, folded first in the same pass. Each block is taken
in two steps over the registers that hold it: its mean s_b = rowsum x / count (those sums'
block reductions), then its own rowsum((x - s_b)^q t); the two states are combined by Chan's
step (passes/_centred.py). The block crosses global memory once, as for any other sum; where
one block holds the row, the combine from the empty state leaves exactly the two-pass form
(the mean first, then the sum of squared deviations), from registers.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, scf

from tilec.dialects.ta_online import centred_parts, is_one, moment, same_value, yielded
from tilec.dialects.reduce_kinds import KINDS

from .._centred import Moments, combine, mean
from .._lower_online import exp_or_zero
from .common import const_index



class Folds:
    """The reduction phases of rows._Lowering (which supplies translate, tile_map, masked, ...)."""

    def reduction_loop(self, ops) -> None:
        """One pass over the column blocks folding the reductions ``ops``; their results become row tiles.
        A stabilised sum whose stabiliser is the term of a max in the same pass (softmax's) keeps no
        running max of its own: it rescales by that max's (``tile.shared_max`` on the loop)."""
        ops, shared, states = self.start_states(ops)
        flat = [v for st in states for v in st]
        loop = scf.ForOp(const_index(0), self.n_blocks, const_index(1), flat)
        i64 = ir.IntegerType.get_signless(64)
        loop.attributes["tile.computes"] = ir.ArrayAttr.get([  # the ta op each carried value belongs to
            ir.IntegerAttr.get(i64, self.number[op.operation]) for op, st in zip(ops, states) for _ in st])
        if shared:
            loop.attributes["tile.shared_max"] = ir.ArrayAttr.get([ir.ArrayAttr.get([
                ir.IntegerAttr.get(i64, self.number[a.operation]), ir.IntegerAttr.get(i64, self.number[b.operation])])
                for a, b in shared.items()])
        with ir.InsertionPoint(loop.body):
            j0 = arith.MulIOp(loop.induction_variable, const_index(self.s.bn)).result
            scf.YieldOp(self.fold_all(ops, shared, states, list(loop.inner_iter_args), j0, {}, {}))
        self.take_results(ops, states, list(loop.results))

    def reduction_block(self, ops) -> None:
        """The reductions ``ops`` over a row that one column block holds: each state starts
        neutral and folds the block once, in straight-line code reading the block's tiles."""
        ops, shared, states = self.start_states(ops)
        new = self.fold_all(ops, shared, states, [v for st in states for v in st], *self.block)
        i64 = ir.IntegerType.get_signless(64)
        mark = lambda n, k: ir.ArrayAttr.get([ir.IntegerAttr.get(i64, n), ir.IntegerAttr.get(i64, k)])
        at = 0
        for op, st in zip(ops, states):
            n = self.number[op.operation]
            for k, start in enumerate(st):
                start.owner.attributes["tile.state_init"] = mark(n, k)
                new[at + k].owner.attributes["tile.state"] = mark(n, k)
            if op in shared:
                new[at + len(st) - 1].owner.attributes["tile.shared_max"] = \
                    ir.IntegerAttr.get(i64, self.number[shared[op].operation])
            at += len(st)
        self.take_results(ops, states, new)

    def start_states(self, ops) -> tuple:
        """(ops, maxes shared, the neutral start of each op's running state): the maxes first,
        as a stabilised sum sharing one reads its new value."""
        s = self.s
        shared = _shared_max(ops)
        # a centred sum after the plain sums and lower moments whose states and blocks it reads
        ops = sorted(ops, key=lambda op: (op in shared, moment(op)))
        states = []
        for op in ops:
            if moment(op):
                states.append([self.constant([s.bm], 0.0)])
            elif is_stabilised(op):
                states.append(([] if op in shared else [self.constant([s.bm], float("-inf"))]) +
                              [self.constant([s.bm], 0.0)])
            else:
                states.append([self.constant([s.bm], KINDS[_kind(op)].neutral)])
        return ops, shared, states

    def fold_all(self, ops, shared, states, carried, j0, loads, elems) -> list:
        """The states of ``ops`` (``carried``, flat) after folding the column block at ``j0``."""
        self.map_op = None
        folded, new = {}, []  # op -> (old state, new state, the block's reduction)
        for op, st in zip(ops, states):
            old = carried[:len(st)]
            carried = carried[len(st):]
            if moment(op):
                step, block = self.fold_centred(op, old[0], ops, folded, j0, loads, elems)
            else:
                m = folded[shared[op]] if op in shared else None
                step, block = self.fold(op, old, j0, loads, elems, (m[0][0], m[1][0]) if m else None)
            folded[op] = (old, step, block)
            new += step
        return new

    def fold_centred(self, op, old, ops, folded, j0, loads, elems) -> tuple:
        """([S_q after the block], the block's S_q) of centred sum ``op`` (state ``old``): the
        block's mean from its count and sum (``folded``), its centred sum from the registers that
        hold it, and Chan's combine with the running state."""
        shape, q = [self.s.bm, self.s.bn], moment(op)
        parts = {r: folded[part] for r, part in centred_parts(op, ops).items()}
        (n_old,), _, n_block = parts["count"]
        (l_old,), _, l_block = parts["total"]
        s_block = self.row_map(lambda: mean(self.elem(n_block), self.elem(l_block)))
        block = op.regions[0].blocks[0]

        def deviation():  # (x - mean_b)^q t, 0 past the row
            x, t = self.translate(block, shape, j0, loads, elems)
            value = _to_f32(t)
            for _ in range(q):
                value = arith.MulFOp(value, arith.SubFOp(_to_f32(x), self.elem(s_block, 2, [0])).result).result
            return self.masked(value, j0, 0.0)
        b_q = _reduce(self.tile_map(shape, self.f32, deviation), "sum")
        lower = {r: part for r, part in parts.items() if isinstance(r, int)}
        weight_one = is_one(yielded(op)[1])  # then S_0 is the count and S_1 is 0

        def step():
            running = {r: self.elem(part[0][0]) for r, part in lower.items()}
            this = {r: self.elem(part[2]) for r, part in lower.items()}
            if weight_one:
                running[0], this[0] = self.elem(n_old), self.elem(n_block)
            a = Moments(self.elem(n_old), self.elem(l_old), {**running, q: self.elem(old)})
            b = Moments(self.elem(n_block), self.elem(l_block), {**this, q: self.elem(b_q)}, mean=self.elem(s_block))
            return combine(q, a, b)
        return [self.row_map(step)], b_q
    def take_results(self, ops, states, results) -> None:
        for op, st in zip(ops, states):
            self.rows[op.result] = results[len(st) - 1]  # the sum (or the max, min) is the op's value
            results = results[len(st):]

    def fold(self, op, old, j0, loads, elems, max_state=None) -> list:
        """The running state of reduction ``op`` after one more column block (``max_state``: the
        (old, new) running max a stabilised sum shares with a max of the same term)."""
        s, f32 = self.s, self.f32
        shape = [s.bm, s.bn]
        kind = _kind(op)
        name = op.operation.name
        if name == "ta.online":
            block = op.regions[0].blocks[0]
            terms = lambda: self.translate(block, shape, j0, loads, elems)
        elif name == "ta.reduce":
            src = op.operation.operands[0]
            terms = lambda: [self._read(src, [0, 1], shape, j0, loads, elems)]
        else:
            a, b = op.operation.operands
            terms = lambda: [arith.MulFOp(*[_to_f32(self._read(v, [0, 1], shape, j0, loads, elems))
                                            for v in (a, b)]).result]
        if not is_stabilised(op):
            term = self.tile_map(shape, f32, lambda: self.masked(_to_f32(terms()[-1]), j0, KINDS[kind].neutral))
            block_value = _reduce(term, kind)
            return [self.row_map(lambda: KINDS[kind].arith_op(self.elem(old[0]), self.elem(block_value)))], block_value
        x = self.tile_map(shape, f32, lambda: self.masked(_to_f32(terms()[0]), j0, float("-inf")))
        if max_state is not None:
            (m, m_new), (l,) = max_state, old
        else:
            m, l = old
            x_max = _reduce(x, "max")
            m_new = self.row_map(lambda: arith.MaximumFOp(self.elem(m), self.elem(x_max)).result)
        p = self.tile_map(shape, f32, lambda: self.masked(arith.MulFOp(
            exp_or_zero(self.elem(x, 2), self.elem(m_new, 2, [0])), _to_f32(terms()[1])).result, j0, 0.0))
        total = _reduce(p, "sum")
        l_new = self.row_map(lambda: arith.AddFOp(arith.MulFOp(self.elem(l), exp_or_zero(
            self.elem(m), self.elem(m_new))).result, self.elem(total)).result)
        return ([l_new] if max_state is not None else [m_new, l_new]), total


def _kind(op) -> str:
    return ir.StringAttr(op.attributes["kind"]).value if "kind" in op.attributes else "sum"


def is_stabilised(op) -> bool:
    """A ta.online sum of exp(x - max x) * t (two yielded terms, no ``moment``)."""
    if op.operation.name != "ta.online" or moment(op):
        return False
    return len(yielded(op)) == 2


def _shared_max(ops) -> dict:
    """Stabilised sum -> a max among ``ops`` over the same domain whose term is its stabiliser."""
    same_domain = lambda a, b: all(str(a.attributes[k]) == str(b.attributes[k]) for k in ("dim", "map", "extents"))
    maxes = [op for op in ops if op.operation.name == "ta.online" and _kind(op) == "max" and not is_stabilised(op)]
    out = {}
    for op in ops:
        if not is_stabilised(op):
            continue
        x = yielded(op)[0]
        found = [m for m in maxes if same_domain(op, m) and same_value(x, yielded(m)[0])]
        if found:
            out[op] = found[0]
    return out


def _to_f32(value) -> ir.Value:
    return value if isinstance(value.type, ir.F32Type) else arith.ExtFOp(ir.F32Type.get(), value).result


def _reduce(tile, kind: str) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    t = ir.RankedTensorType(tile.type)
    return ir.Operation.create("tile.reduce", results=[ir.RankedTensorType.get([t.shape[0]], t.element_type)],
                               operands=[tile], attributes={"kind": ir.StringAttr.get(kind),
                                                            "dim": ir.IntegerAttr.get(i64, 1)}).result
