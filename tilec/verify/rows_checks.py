"""The checks of a row program (see rows.py): maps, reductions, stores."""

from __future__ import annotations

import z3
from torch_mlir import ir

from .solver import Outcome, prove

_COMBINE = {"sum": lambda a, b: a + b, "max": lambda a, b: z3.If(a >= b, a, b),
            "min": lambda a, b: z3.If(a <= b, a, b)}


def check_maps(ck) -> None:
    """Each tile.map that computes a ta op equals it at (I, J)."""
    for op in _ops(ck.fn, "tile.map"):
        if "tile.computes" not in op.attributes:
            continue
        n = ir.IntegerAttr(op.attributes["tile.computes"]).value
        coords = [ck.r, ck.c][:ir.RankedTensorType(op.result.type).rank]
        kernel = ck.tv._map(op, coords)
        reference = ck.reference(n, ck.global_at(op.result, coords))
        outcome = prove(kernel == reference, ck.tv.assumptions + ck.ranges(op.result), timeout_ms=20000,
                        watch=_watch(ck, kernel=kernel, reference=reference))
        ck.add("equivalence", f"the tile.map of ta op #{n} ({ck.ta_ops[n].operation.name}) computes it", outcome)


def check_reductions(ck) -> None:
    """Each reduction loop: neutral start, one block folded per iteration, block terms, coverage."""
    for loop, iv, lb, ub, step in ck.tv.loops:
        if "tile.computes" not in loop.attributes:
            continue
        slots = [ir.IntegerAttr(x).value for x in ir.ArrayAttr(loop.attributes["tile.computes"])]
        body = loop.regions[0].blocks[0]
        yields = list(list(body.operations)[-1].operands)
        reduces = [op for op in body.operations if op.operation.name == "tile.reduce"]
        # a stabilised sum that rescales by the running max of a max over the same term
        shared = {ir.IntegerAttr(pair[0]).value: ir.IntegerAttr(pair[1]).value
                  for pair in map(ir.ArrayAttr, ir.ArrayAttr(loop.attributes["tile.shared_max"]))} \
            if "tile.shared_max" in loop.attributes else {}
        k = 0
        while k < len(slots):
            n = slots[k]
            width = 2 if k + 1 < len(slots) and slots[k + 1] == n else 1
            if n in shared:
                _shared_stabilised(ck, loop, iv, n, shared[n], k, slots, yields, reduces)
            else:
                _reduction(ck, loop, iv, n, list(range(k, k + width)), yields, reduces)
            k += width
        bn = max(ir.RankedTensorType(r.operation.operands[0].type).shape[1] for r in reduces) if reduces else 1
        cols = ck.domain_extent(1)
        outcome = prove(z3.And(lb == 0, step == 1, ub * bn >= cols), ck.tv.assumptions, watch=_watch(ck))
        ck.add("coverage", f"the column blocks of the loop over ta ops {sorted(set(slots))} reach every column",
               outcome)


def _reduction(ck, loop, iv, n, slots, yields, reduces) -> None:
    op = ck.ta_ops[n]
    kind = ir.StringAttr(op.attributes["kind"]).value if "kind" in op.attributes else "sum"
    r = ck.r
    args = list(loop.regions[0].blocks[0].arguments)[1:]
    old = [ck.tv.value(args[k], [r]) for k in slots]
    new = [ck.tv.value(yields[k], [r]) for k in slots]
    init = [ck.tv.value(loop.operands[3 + k], [r]) for k in slots]
    ninf = ck.vals.function("ninf", 0)()
    neutral = {"sum": z3.RealVal(0), "max": ninf, "min": ck.vals.function("inf", 0)()}
    label = f"ta op #{n} ({op.operation.name} {kind})"
    rows = _rows_of(ck, loop)
    if len(slots) == 1:
        ck.add("equivalence", f"{label}: the running value starts at the neutral element",
               prove(init[0] == neutral[kind], ck.tv.assumptions, watch=_watch(ck)))
        red = _folded(ck, new[0], lambda red: _COMBINE[kind](old[0], red), reduces, kind, label)
        if red is not None:
            _terms(ck, red, iv, rows, lambda I, J: ck.term(n, [I, J])[-1], neutral[kind], label)
        return
    E = lambda a, b: z3.If(a == ninf, z3.RealVal(0), ck.vals.function("math.exp", 1)(a - b))
    ck.add("equivalence", f"{label}: the running max starts at -inf and the sum at 0",
           prove(z3.And(init[0] == ninf, init[1] == 0), ck.tv.assumptions, watch=_watch(ck)))
    red_x = _folded(ck, new[0], lambda red: _COMBINE["max"](old[0], red), reduces, "max", f"{label} (running max)")
    red_p = _folded(ck, new[1], lambda red: old[1] * E(old[0], new[0]) + red, reduces, "sum", label)
    if red_x is not None:
        _terms(ck, red_x, iv, rows, lambda I, J: ck.term(n, [I, J])[0], ninf, f"{label} (stabiliser)")
    if red_p is not None:
        m_new = new[0]
        _terms(ck, red_p, iv, rows, lambda I, J: E(ck.term(n, [I, J])[0], m_new) * ck.term(n, [I, J])[1],
               z3.RealVal(0), label)
    _step_lemma(ck, label, E, ninf)


def _shared_stabilised(ck, loop, iv, n, n_max, k, slots, yields, reduces) -> None:
    """A stabilised sum carrying only its sum, rescaled by max op ``n_max``'s running max: that
    max's term is proved to be this sum's stabiliser at every element (so its running max is
    the stabiliser's), then the sum's start, fold and block terms as for any stabilised sum."""
    label = f"ta op #{n} ({ck.ta_ops[n].operation.name} sum)"
    if n_max not in slots:
        ck.add("equivalence", f"{label}: the running max it rescales by is carried by the loop",
               Outcome("error", 0.0, {}, f"ta op #{n_max} has no slot in the loop"))
        return
    I, J = z3.Ints("I J")
    ck.add("equivalence", f"{label}: its stabiliser is the term of ta op #{n_max}, whose running max it shares",
           prove(ck.term(n_max, [I, J])[-1] == ck.term(n, [I, J])[0], ck.tv.assumptions, watch=_watch(ck)),
           "every element (I, J)")
    r = ck.r
    args = list(loop.regions[0].blocks[0].arguments)[1:]
    m_slot = slots.index(n_max)
    old_m, new_m = ck.tv.value(args[m_slot], [r]), ck.tv.value(yields[m_slot], [r])
    old_l, new_l = ck.tv.value(args[k], [r]), ck.tv.value(yields[k], [r])
    ninf = ck.vals.function("ninf", 0)()
    E = lambda a, b: z3.If(a == ninf, z3.RealVal(0), ck.vals.function("math.exp", 1)(a - b))
    ck.add("equivalence", f"{label}: the sum starts at 0",
           prove(ck.tv.value(loop.operands[3 + k], [r]) == 0, ck.tv.assumptions, watch=_watch(ck)))
    red_p = _folded(ck, new_l, lambda red: old_l * E(old_m, new_m) + red, reduces, "sum", label)
    if red_p is not None:
        _terms(ck, red_p, iv, _rows_of(ck, loop), lambda I, J: E(ck.term(n, [I, J])[0], new_m) * ck.term(n, [I, J])[1],
               z3.RealVal(0), label)
    _step_lemma(ck, label, E, ninf)


def _folded(ck, new, expected, reduces, kind: str, label: str):
    """The tile.reduce the yielded state folds in, proved to be ``expected(reduce)``; None if none is."""
    candidates = [red for red in reduces if ir.StringAttr(red.attributes["kind"]).value == kind]
    outcome = Outcome("error", 0.0, {}, f"no {kind} reduction of a block is folded into the state")
    for red in candidates:
        value = ck.tv.value(red.result, [ck.r])
        outcome = prove(new == expected(value), ck.tv.assumptions, timeout_ms=20000, watch=_watch(ck))
        if outcome.verdict == "proved":
            ck.add("equivalence", f"{label}: each iteration folds one block's {kind} into the running state",
                   outcome, "every iteration (induction over column blocks), every row")
            return red
    ck.add("equivalence", f"{label}: each iteration folds one block's {kind} into the running state", outcome,
           "every iteration (induction over column blocks), every row")
    return None


def _terms(ck, red, iv, rows: int, reference, neutral, label: str) -> None:
    """The terms of a block reduction: the ta terms inside the row, the neutral element past it."""
    src = red.operation.operands[0]
    bn = ir.RankedTensorType(src.type).shape[1]
    r, c = ck.r, ck.c
    I, J = ck.pid * rows + r, iv * bn + c
    kernel = ck.tv.value(src, [r, c])
    cols = ck.domain_extent(1)
    claim = kernel == z3.If(J < cols, reference(I, J), neutral)
    assumptions = ck.tv.assumptions + [r >= 0, r < rows, c >= 0, c < bn, I < ck.domain_extent(0)]
    ck.add("equivalence", f"{label}: a block's terms are the ta terms inside the row and neutral past it",
           prove(claim, assumptions, timeout_ms=20000, watch=_watch(ck, kernel=kernel)))


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
    stored = {}
    for op in _ops(ck.fn, "tile.store"):
        value, dst, *offs = op.operands
        name = ck.tv.args[dst][1]
        stored.setdefault(name, []).append(op)
        n = ck.outputs.get(name)
        source = _provenance(value)
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
        lb, ub = loop
        claims.append(z3.And(lb == 0, j / shape[1] < ub))
        bounds += [j >= 0, j < ck.domain_extent(1)]
    ck.add("coverage", f"every element of {name} is written by some CTA, block and position in the tile",
           prove(z3.And(*claims), ck.tv.assumptions + bounds, watch=_watch(ck, i=i, j=j)))


def _provenance(value):
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    if owner.name == "tile.map" and "tile.computes" in owner.attributes:
        return ir.IntegerAttr(owner.attributes["tile.computes"]).value
    if owner.name == "scf.for" and "tile.computes" in owner.attributes:
        return ir.IntegerAttr(ir.ArrayAttr(owner.attributes["tile.computes"])[value.result_number]).value
    return None


def _rows_of(ck, loop) -> int:
    return ir.RankedTensorType(loop.operands[3].type).shape[0]


def _watch(ck, **extra) -> dict:
    return {"pid": ck.pid, "r": ck.r, "c": ck.c, **ck.tv.params,
            **{f"jt{k}": iv for k, (_, iv, *_rest) in enumerate(ck.tv.loops)}, **extra}


def _ops(fn, name: str) -> list:
    from .tile_values import walk
    return [op for op in walk(fn) if op.name == name]
