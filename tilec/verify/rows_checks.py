"""The checks of a row program (see rows.py): maps, reductions, stores."""

from __future__ import annotations

from dataclasses import dataclass

import z3
from torch_mlir import ir

from tilec.dialects.reduce_kinds import KINDS
from tilec.dialects.ta_online import moment

from .rows_centred import check_centred
from .solver import Outcome, prove
from .tile_values import walk

ONE_BLOCK = "the one column block"


def check_maps(ck) -> None:
    """Each tile.map that computes a ta op equals it at (I, J)."""
    for op in _ops(ck.fn, "tile.map"):
        if "tile.computes" not in op.attributes:
            continue
        n = ir.IntegerAttr(op.attributes["tile.computes"]).value
        coords = [ck.r, ck.c][:ir.RankedTensorType(op.result.type).rank]
        kernel = ck.tv._map(op, coords)
        reference = ck.reference(n, ck.global_at(op.result, coords))
        outcome = prove(kernel == reference, ck.tv.assumptions + ck.ranges(op.result), budget=40_000_000,
                        watch=_watch(ck, kernel=kernel, reference=reference))
        ck.add("equivalence", f"the tile.map of ta op #{n} ({ck.ta_ops[n].operation.name}) computes it", outcome)


@dataclass
class Fold:
    """Where reductions fold a column block into their running states: a column loop (one block
    an iteration, by induction every block) or, for a row one block holds, straight-line code
    folding that block once into the neutral starts (``tile.state`` provenance)."""

    slots: list        # the ta op of each state
    init: list         # each state's start (an IR value)
    old: list          # each state before the block: z3 values at row r
    new: list          # each state after the block: z3 values at row r
    after: list        # each state as what follows reads it (an op's own value: its ta symbol)
    reduces: list      # the tile.reduce ops that fold the block
    iv: object         # z3: the block's index, in [lb, ub) by step
    lb: object
    ub: object
    step: object
    shared: dict       # stabilised sum -> the max whose running max it rescales by
    where: str         # how the report names it

    @property
    def rows(self) -> int:
        return ir.RankedTensorType(self.init[0].type).shape[0]


def folds(ck) -> list[Fold]:
    """The reduction loops of the row program, then its one-block straight-line fold (if any)."""
    out, r = [], ck.r
    for loop, iv, lb, ub, step in ck.tv.loops:
        if "tile.computes" not in loop.attributes:
            continue
        body = loop.regions[0].blocks[0]
        args, yields = list(body.arguments)[1:], list(list(body.operations)[-1].operands)
        new = [ck.tv.value(y, [r]) for y in yields]  # inside the loop, read as they are built
        out.append(Fold([ir.IntegerAttr(x).value for x in ir.ArrayAttr(loop.attributes["tile.computes"])],
                        list(loop.operands[3:]), [ck.tv.value(a, [r]) for a in args], new, new,
                        [op for op in body.operations if op.operation.name == "tile.reduce"],
                        iv, lb, ub, step, _pairs(loop), "the column blocks of the loop"))
    starts, states, shared = {}, {}, {}
    for op in _ops(ck.fn, "tile.map"):
        for attr, into in (("tile.state_init", starts), ("tile.state", states)):
            if attr in op.attributes:
                into[tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(op.attributes[attr]))] = op
        if "tile.shared_max" in op.attributes and "tile.state" in op.attributes:
            shared[ir.IntegerAttr(ir.ArrayAttr(op.attributes["tile.state"])[0]).value] = \
                ir.IntegerAttr(op.attributes["tile.shared_max"]).value
    if states:
        keys = sorted(states, key=lambda key: list(states).index(key))
        missing = [key for key in keys if key not in starts]
        if missing:
            raise ValueError(f"the states {missing} of the one-block fold have no neutral start")
        zero = z3.IntVal(0)
        out.append(Fold([n for n, _ in keys], [starts[key].result for key in keys],
                        [ck.tv.value(starts[key].result, [r]) for key in keys],
                        [ck.tv._map(states[key], [r]) for key in keys],  # its own value, not the ta symbol
                        [ck.tv.value(states[key].result, [r]) for key in keys],
                        [op for op in ck.fn.entry_block.operations if op.operation.name == "tile.reduce"],
                        zero, zero, z3.IntVal(1), z3.IntVal(1), shared, ONE_BLOCK))
    return out


def check_reductions(ck) -> None:
    """Each fold: neutral start, one block folded per step, block terms, coverage."""
    for fold in folds(ck):
        slots = fold.slots
        blocks = {}  # ta op -> the block reduction its fold is proved to take (a centred sum reads them)
        k = 0
        while k < len(slots):
            n = slots[k]
            width = 2 if k + 1 < len(slots) and slots[k + 1] == n else 1
            if moment(ck.ta_ops[n]):
                blocks[n] = check_centred(ck, fold, n, k, blocks, _terms_outcome, _watch)
            elif n in fold.shared:
                _shared_stabilised(ck, fold, n, fold.shared[n], k)
            else:
                blocks[n] = _reduction(ck, fold, n, list(range(k, k + width)))
            k += width
        bn = max(ir.RankedTensorType(r.operation.operands[0].type).shape[1] for r in fold.reduces) \
            if fold.reduces else 1
        cols = ck.domain_extent(1)
        outcome = prove(z3.And(fold.lb == 0, fold.step == 1, fold.ub * bn >= cols), ck.tv.assumptions,
                        watch=_watch(ck))
        ck.add("coverage", f"{fold.where} over ta ops {sorted(set(slots))} reach every column", outcome)


def _reduction(ck, fold, n, slots):
    """The checks of a plain or stabilised reduction; the block reduction a plain one is proved
    to fold, or None."""
    op = ck.ta_ops[n]
    kind = ir.StringAttr(op.attributes["kind"]).value if "kind" in op.attributes else "sum"
    r = ck.r
    old = [fold.old[k] for k in slots]
    new = [fold.new[k] for k in slots]
    init = [ck.tv.value(fold.init[k], [r]) for k in slots]
    ninf = ck.vals.function("ninf", 0)()
    neutral = {"sum": z3.RealVal(0), "max": ninf, "min": ck.vals.function("inf", 0)()}
    label = f"ta op #{n} ({op.operation.name} {kind})"
    if len(slots) == 1:
        ck.add("equivalence", f"{label}: the running value starts at the neutral element",
               prove(init[0] == neutral[kind], ck.tv.assumptions, watch=_watch(ck)))
        red = _folded(ck, new[0], lambda red: KINDS[kind].combine(old[0], red, z3.If), fold, kind, label)
        if red is not None:
            _terms(ck, red, fold.iv, fold.rows, lambda I, J: ck.term(n, [I, J])[-1], neutral[kind], label)
        return red
    E = lambda a, b: z3.If(a == ninf, z3.RealVal(0), ck.vals.function("math.exp", 1)(a - b))
    ck.add("equivalence", f"{label}: the running max starts at -inf and the sum at 0",
           prove(z3.And(init[0] == ninf, init[1] == 0), ck.tv.assumptions, watch=_watch(ck)))
    red_x = _folded(ck, new[0], lambda red: KINDS["max"].combine(old[0], red, z3.If), fold, "max",
                    f"{label} (running max)")
    red_p = _folded(ck, new[1], lambda red: old[1] * E(old[0], new[0]) + red, fold, "sum", label)
    if red_x is not None:
        _terms(ck, red_x, fold.iv, fold.rows, lambda I, J: ck.term(n, [I, J])[0], ninf, f"{label} (stabiliser)")
    if red_p is not None:
        m_new = new[0]
        _terms(ck, red_p, fold.iv, fold.rows, lambda I, J: E(ck.term(n, [I, J])[0], m_new) * ck.term(n, [I, J])[1],
               z3.RealVal(0), label)
    _step_lemma(ck, label, E, ninf)


def _shared_stabilised(ck, fold, n, n_max, k) -> None:
    """A stabilised sum carrying only its sum, rescaled by max op ``n_max``'s running max: that
    max's term is proved to be this sum's stabiliser at every element (so its running max is
    the stabiliser's), then the sum's start, fold and block terms as for any stabilised sum."""
    label = f"ta op #{n} ({ck.ta_ops[n].operation.name} sum)"
    if n_max not in fold.slots:
        ck.add("equivalence", f"{label}: the running max it rescales by is carried by {fold.where}",
               Outcome("error", 0.0, {}, f"ta op #{n_max} has no slot in {fold.where}"))
        return
    I, J = z3.Ints("I J")
    ck.add("equivalence", f"{label}: its stabiliser is the term of ta op #{n_max}, whose running max it shares",
           prove(ck.term(n_max, [I, J])[-1] == ck.term(n, [I, J])[0], ck.tv.assumptions, watch=_watch(ck)),
           "every element (I, J)")
    m_slot = fold.slots.index(n_max)
    old_m, new_m = fold.old[m_slot], fold.after[m_slot]  # the max as this sum's maps read it
    old_l, new_l = fold.old[k], fold.new[k]
    ninf = ck.vals.function("ninf", 0)()
    E = lambda a, b: z3.If(a == ninf, z3.RealVal(0), ck.vals.function("math.exp", 1)(a - b))
    ck.add("equivalence", f"{label}: the sum starts at 0",
           prove(ck.tv.value(fold.init[k], [ck.r]) == 0, ck.tv.assumptions, watch=_watch(ck)))
    red_p = _folded(ck, new_l, lambda red: old_l * E(old_m, new_m) + red, fold, "sum", label)
    if red_p is not None:
        _terms(ck, red_p, fold.iv, fold.rows, lambda I, J: E(ck.term(n, [I, J])[0], new_m) * ck.term(n, [I, J])[1],
               z3.RealVal(0), label)
    _step_lemma(ck, label, E, ninf)


def _pairs(loop) -> dict:
    """A loop's ``tile.shared_max``: {stabilised sum: the max it shares}."""
    if "tile.shared_max" not in loop.attributes:
        return {}
    return {ir.IntegerAttr(pair[0]).value: ir.IntegerAttr(pair[1]).value
            for pair in map(ir.ArrayAttr, ir.ArrayAttr(loop.attributes["tile.shared_max"]))}


def _folded(ck, new, expected, fold, kind: str, label: str):
    """The tile.reduce the state after ``fold``'s block folds in, proved to be ``expected(reduce)``;
    None if none is."""
    if fold.where == ONE_BLOCK:
        check, domain = f"{label}: the block's {kind} is folded into the neutral start", "every row"
    else:
        check = f"{label}: each iteration folds one block's {kind} into the running state"
        domain = "every iteration (induction over column blocks), every row"
    candidates = [red for red in fold.reduces if ir.StringAttr(red.attributes["kind"]).value == kind]
    outcome = Outcome("error", 0.0, {}, f"no {kind} reduction of a block is folded into the state")
    for red in candidates:
        value = ck.tv.value(red.result, [ck.r])
        outcome = prove(new == expected(value), ck.tv.assumptions, budget=40_000_000, watch=_watch(ck))
        if outcome.verdict == "proved":
            break
    ck.add("equivalence", check, outcome, domain)
    return red if outcome.verdict == "proved" else None


def _terms(ck, red, iv, rows: int, reference, neutral, label: str) -> None:
    """The terms of a block reduction: the ta terms inside the row, the neutral element past it."""
    ck.add("equivalence", f"{label}: a block's terms are the ta terms inside the row and neutral past it",
           _terms_outcome(ck, red, iv, rows, reference, neutral))


def _terms_outcome(ck, red, iv, rows: int, reference, neutral, extra=()) -> Outcome:
    """Whether block reduction ``red`` sums ``reference(I, J)`` inside the row and ``neutral`` past
    it, for every row, column and block (``extra``: what else holds of the row)."""
    src = red.operation.operands[0]
    bn = ir.RankedTensorType(src.type).shape[1]
    r, c = ck.r, ck.c
    I, J = ck.pid * rows + r, iv * bn + c
    kernel = ck.tv.value(src, [r, c])
    cols = ck.domain_extent(1)
    claim = kernel == z3.If(J < cols, reference(I, J), neutral)
    assumptions = ck.tv.assumptions + [r >= 0, r < rows, c >= 0, c < bn, I < ck.domain_extent(0), *extra]
    return prove(claim, assumptions, budget=40_000_000, watch=_watch(ck, kernel=kernel))


def _step_lemma(ck, label, E, ninf) -> None:
    """exp(x - m) * exp(m - m') = exp(x - m'), with E's -inf rule: the rescale keeps every earlier term."""
    x, m, y = z3.Reals("x m y")
    exp = ck.vals.function("math.exp", 1)
    m_new = z3.If(m >= y, m, y)
    axioms = [x >= ninf, m >= ninf, y >= ninf, exp(x - m) * exp(m - m_new) == exp(x - m_new)]
    outcome = prove(z3.Implies(x <= m, E(x, m) * E(m, m_new) == E(x, m_new)), axioms, watch={"x": x, "m": m, "y": y})
    ck.add("equivalence", f"{label}: rescaling by E(m, m') keeps each earlier term E(x, m) t equal to E(x, m') t",
           outcome, "every term and running max (-inf terms add 0)")


def check_stores(ck) -> None:
    """Each store writes its output's ta value at (I, J), and the grid and loop reach every element."""
    states = {op: n for n, op in own_states(ck.fn).items()}  # an f32 max may store its fold's last state
    stored = {}
    for op in _ops(ck.fn, "tile.store"):
        value, dst, *offs = op.operands
        name = ck.tv.args[dst][1]
        stored.setdefault(name, []).append(op)
        n = ck.outputs.get(name)
        source = _provenance(value, states)
        if source != n:
            ck.add("equivalence", f"{name}: the stored tile is the output's ta value (op #{n})",
                   Outcome("counterexample", 0.0, {"stored": source, "output": n},
                           f"the store of {name} writes the value of ta op #{source}"))
            continue
        shape = ir.RankedTensorType(value.type).shape
        coords = [ck.r, ck.c][:len(shape)]
        offsets = [ck.tv.index[o] for o in offs]
        written = [o + x for o, x in zip(offsets[len(offsets) - len(coords):], coords)]
        at = ck.global_at(value, coords)
        ck.add("equivalence", f"{name}: element (r, c) of the tile is stored at the element it computes",
               prove(z3.And(*[w == a for w, a in zip(written, at)]), ck.tv.assumptions, watch=_watch(ck)))
        _reach(ck, op, value, name)
    for name in ck.outputs:
        if len(stored.get(name, [])) != 1:
            ck.add("coverage", f"{name} is stored by one tile.store", Outcome(
                "error", 0.0, {}, f"{len(stored.get(name, []))} stores of {name}"))


def _reach(ck, op, value, name: str) -> None:
    """Every output element (i, j) is some CTA's (pid, jt, r, c): i // bm < grid, j // bn < loop bound."""
    shape = ir.RankedTensorType(value.type).shape
    i, j = z3.Ints("i j")
    claims = [i / shape[0] < ck.tv.grid[0]]
    bounds = [i >= 0, i < ck.domain_extent(0)]
    loop = next(((lb, ub) for lp, iv, lb, ub, _ in ck.tv.loops if lp.operation == op.parent), None)
    if len(shape) == 2:
        lb, ub = loop or (z3.IntVal(0), z3.IntVal(1))  # outside a column loop: the one block
        claims.append(z3.And(lb == 0, j / shape[1] < ub))
        bounds += [j >= 0, j < ck.domain_extent(1)]
    ck.add("coverage", f"every element of {name} is written by some CTA, block and position in the tile",
           prove(z3.And(*claims), ck.tv.assumptions + bounds, watch=_watch(ck, i=i, j=j)))


def _provenance(value, states: dict):
    """The ta op ``value`` holds: its ``tile.computes``, or the op whose one-block fold ends in it (``states``)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    if owner in states:
        return states[owner]
    if owner.name == "tile.map" and "tile.computes" in owner.attributes:
        return ir.IntegerAttr(owner.attributes["tile.computes"]).value
    if owner.name == "scf.for" and "tile.computes" in owner.attributes:
        return ir.IntegerAttr(ir.ArrayAttr(owner.attributes["tile.computes"])[value.result_number]).value
    return None


def _watch(ck, **extra) -> dict:
    return {"pid": ck.pid, "r": ck.r, "c": ck.c, **ck.tv.params,
            **{f"jt{k}": iv for k, (_, iv, *_rest) in enumerate(ck.tv.loops)}, **extra}


def _ops(fn, name: str) -> list:
    return [op for op in walk(fn) if op.name == name]


def own_states(fn) -> dict:
    """{ta op: the tile.map of its last ``tile.state``} of a one-block fold (rows.py): ``{0: op}``
    for ``%6 = "tile.map"() ({...}) {tile.state = [0, 0]}`` after ``tile.state_init = [0, 0]``."""
    last = {}
    for op in walk(fn):
        if op.name == "tile.map" and "tile.state" in op.attributes:
            n, k = (ir.IntegerAttr(x).value for x in ir.ArrayAttr(op.attributes["tile.state"]))
            if k >= last.get(n, (-1, None))[0]:
                last[n] = (k, op)
    return {n: op for n, (_, op) in last.items()}
