"""The checks that belong to a ta.online group a tile program's main loop computes
(attention; the layouts, pipeline, stored value and coverage are every form's: kernels.py).

equivalence one key block carries the online-softmax invariants
              l * exp(m) = sum_j exp(x_j)    acc * exp(m) = sum_j exp(x_j) v_j
            from the keys before it to the keys up to its end: the new max is the max, each
            p_j satisfies p_j * exp(m') = exp(x_j) (termwise: a block sum is a fold of such
            terms), l' = l * exp(m - m') + sum_j p_j and acc' = acc * exp(m - m') + sum_j p_j v_j
            (attention_step.py); the stabiliser, Q/K/V indices and head dims against the ta
coverage   key blocks the loop skips are masked (-inf) for every row of the CTA
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.ta_online import is_one
from tilec.dialects.tile import is_mma, mma_depth, schedule_of

from .attention_rotated import is_rotated, rotated_ends, rotated_step
from .attention_step import _Scalars, _online_step
from .scalars import evaluate
from .replay import Replay
from .report import Result
from .solver import Outcome, prove
from .symbolic import dim, execute, staged_copy
from .tile_values import TileValues
from .views import view_of
from tilec.dialects.ta import tensor_dims


def check_attention(tiled, replay) -> list[Result]:
    """The online step lemma and the key blocks a causal mask lets the loop skip, for the
    ta.online group of an attention tile program; ``replay`` is a Replay (or the spec's path)."""
    fn = tiled.body.operations[0]
    if isinstance(replay, str):
        replay = Replay.of(replay, fn)
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    sched = schedule_of(fn)
    p = execute(fn)
    rows = []
    add = lambda prop, check, outcome, domain: rows.append(Result(
        kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain, outcome.model, outcome.detail,
        replay(outcome.model, prop) if outcome.verdict == "counterexample" else ""))
    _, _, _, loop = p.loops["main"]
    steps = rotated_step(p, loop) if is_rotated(loop) else _online_step(p, fn)  # a rotated loop carries P
    for check, outcome in steps:
        add("equivalence", check, outcome, "every row and key; every sequence length by induction over key blocks")
    add("coverage", *_skipped_blocks_masked(p, fn, sched.bm, sched.bn), "all shapes, program ids, rows and skipped keys")
    return rows


def _skipped_blocks_masked(p, fn, bm: int, bn: int):
    kt, _, n_blocks, loop = p.loops["main"]
    body = loop.regions[0].blocks[0]
    maxes = [op for op in body.operations if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    x_map = maxes[0].operation.operands[0].owner
    s = _Scalars(p, loop)
    r, c = z3.Ints("pos0 pos1")
    block = z3.Int("skipped_block")
    # evaluate the stabiliser with the loop index standing for a skipped block
    p.values[body.arguments[0]] = block
    for op in body.operations:
        if op.operation.name in ("arith.muli", "arith.addi") and op.operation.results:
            a, b = (p.values.get(v) for v in op.operation.operands)
            if a is not None and b is not None and not isinstance(a, tuple) and not isinstance(b, tuple):
                p.values[op.result] = a * b if op.operation.name == "arith.muli" else a + b
    x = s._map(x_map)
    keys = dim_of_keys(p, fn)
    j = block * bn + c
    claim = x == s.neg_inf
    assumptions = p.assumptions + [block >= n_blocks, r >= 0, r < bm, c >= 0, c < bn, j < keys]
    outcome = prove(claim, assumptions, watch={"block": block, "row": r, "col": c, "blocks visited": n_blocks,
                                              **p.params})
    return "key blocks the loop skips are masked (-inf) for every row of the CTA", outcome


def dim_of_keys(p, fn):
    """The key count: the row extent of the tensor the scores mma's B tile (K) is copied from."""
    scores = next(e for e in p.events if e.kind == "mma")
    k_tile = scores.data["b"][1]
    name = next(e.data["src"] for e in p.events if e.kind == "copy" and e.data["dst"] == k_tile)
    dims = next(d for _, n, d in p.args.values() if n == name)
    return dim(dims[-2], p.params)


def check_reference(tiled, fused, replay) -> list[Result]:
    """The stabiliser and the Q, K, V reads of the tile program against the fused ta."""
    fn = tiled.body.operations[0]
    if isinstance(replay, str):
        replay = Replay.of(replay, fn)
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    bn = schedule_of(fn).bn
    p = execute(fn)
    ref = _Reference(fused.body.operations[0], p)
    kt, _, _, loop = p.loops["main"]
    store = next(e for e in p.events if e.kind == "store")
    pos0, pos1, e_idx, col = z3.Ints("pos0 pos1 e col")
    rows = []
    add = lambda check, outcome: rows.append(Result(
        kernel, "tile", "equivalence", check, outcome.verdict, round(outcome.seconds, 4),
        "all shapes, program ids, key blocks, rows and keys; values uninterpreted", outcome.model, outcome.detail,
        replay(outcome.model) if outcome.verdict == "counterexample" else ""))
    views = {name: view_of(ref.fn, name, dims, p.params, p.assumptions) for _, name, dims in p.args.values()}
    for view in views.values():  # a tensor the kernel reads through a row-major view of its memory
        if view.groups is None or view.merged:
            add(*view.check())
    out = views[store.data["dst"]]
    if out.groups is None:
        return rows
    # the element the CTA stores at (pos0, col) of its tile, as the output's own index: its
    # dims are the online domain's (batch, query i, head dim d); the row index is the tile's rows
    offs = store.data["offsets"]
    own, facts = out.unflatten(offs[:-2] + [offs[-2] + pos0, offs[-1] + col], "o")
    ref.bind(out.groups[len(offs) - 2][0])
    coords = {d: x for d, x in zip(ref.out_dims, own) if d != ref.out_dims[-1]}
    coords[ref.j] = kt * bn + pos1
    width = ir.RankedTensorType(store.op.operation.operands[0].type).shape[1]
    facts += [col >= 0, col < width] + [f for view in views.values() for f in view.sizes] + \
        [z3.And(x >= 0, x < e) for x, e in zip(own, out.extents)]  # an element of the output
    # the stabiliser x(i, j), for keys inside the sequence
    body = loop.regions[0].blocks[0]
    maxes = [op for op in body.operations if op.operation.name == "tile.reduce" and
             ir.StringAttr(op.attributes["kind"]).value == "max"]
    s = _Scalars(p, loop)
    score = z3.Real("score")
    tile_x = _stabiliser_value(s, p, maxes[0].operation.operands[0].owner, score)
    ref_x = ref.stabiliser(coords, score, s)
    bounds = p.assumptions + facts + [pos0 >= 0, pos1 >= 0, kt >= 0, kt * bn + pos1 < ref.keys]
    if is_rotated(loop):  # its first block before it, its last P·V after
        x_at = lambda x_map: _stabiliser_value(s, p, x_map, score)
        for check, outcome in rotated_ends(p, loop, x_at, tile_x, p.assumptions + facts +
                                           [pos0 >= 0, pos1 >= 0, pos1 < bn]):
            add(check, outcome)
    add("the stabiliser x(i, j) is the reference's (scale, bias, masks) for every key",
        _followed(ref, prove(tile_x == ref_x, bounds, watch={"kt": kt, "row": pos0, "col": pos1, **p.params})))
    for op in ref.maxes:  # the loop's m stands for this op (its provenance): it must maximise the same x
        kind = ir.StringAttr(op.attributes["kind"]).value
        max_x = ref.stabiliser(coords, score, s, op.regions[0].blocks[0]) if kind == "max" else None
        add("the group's max op maximises the stabiliser x(i, j) (the loop's running max)",
            _followed(ref, prove(max_x == ref_x, bounds, watch={"kt": kt, "row": pos0, "col": pos1, **p.params}))
            if max_x is not None else Outcome("error", 0.0, {}, f"a ta.online {kind} is not a running max"))
    # keys past the end of the sequence, in any block the loop visits, add nothing: x = -inf
    past = p.assumptions + facts + [pos0 >= 0, pos1 >= 0, pos1 < bn, kt >= 0, kt < p.loops["main"][2],
                            kt * bn + pos1 >= ref.keys]
    add("keys past the end of the sequence are masked (-inf) in every block the loop visits",
        prove(tile_x == s.neg_inf, past, watch={"kt": kt, "row": pos0, "col": pos1, **p.params}))
    # the head dims the tiles are sized for are the tensors' own (read from the IR, not assumed)
    for check, outcome in _head_dims(p, loop, ref, fused.body.operations[0]):
        add(check, outcome)
    # Q, K and V are read at the reference's indices
    # Q, K and V: the tiles the mmas read (Q·Kᵀ's A and B, P·V's B) hold the reference's elements
    mmas = [e for e in p.events if e.kind == "mma" and e.loop == "main"]
    operands = {"Q": mmas[0].data["a"], "K": mmas[0].data["b"], "V": mmas[1].data["b"] if len(mmas) > 1 else None}
    # a rotated loop's P·V multiplies the block before's P (carried) by that block's V: both lag 1
    lag, why = _pv_lag(p, mmas, body)
    if why:
        add("V is read at the reference's indices", Outcome("counterexample", 0.0, {}, why))
    for name, role, local in (("Q", "q", (pos0, e_idx)), ("K", "k", (pos1, e_idx)), ("V", "v", (pos1, e_idx))):
        check = f"{name} is read at the reference's indices"
        late = lag if name == "V" else 0
        at = {**coords, ref.j: (kt - late) * bn + pos1}
        tensor, reference_index = ref.operand(role, at, e_idx, views)
        operand = operands[name]
        filled = staged_copy(p, operand[1]) if isinstance(operand, tuple) and operand[0] == "smem" else None
        if filled is None or reference_index is None:  # nothing to compare, and no solver call
            add(check, Outcome("error", 0.0, {}, f"the kernel's {name} tile is not one shared tile filled by "
                                                 f"copies this check reads"))
            continue
        src, origin = filled
        origin = [z3.substitute(o, (kt, kt - late)) for o in origin]  # the copy of block kt - late
        kernel_index = origin[:-2] + [origin[-2] + local[0], origin[-1] + local[1]]
        outcome = prove(z3.And(z3.BoolVal(src == tensor), *[a == b for a, b in zip(kernel_index, reference_index)]),
                        bounds + [e_idx >= 0, kt - late >= 0, (kt - late) * bn + pos1 < ref.keys], watch={"kt": kt, "row": pos0, "key": pos1, "e": e_idx, **p.params,
                                                      **{f"kernel {n}": x for n, x in enumerate(kernel_index)},
                                                      **{f"reference {n}": x for n, x in enumerate(reference_index)}})
        if src != tensor:
            outcome.detail = f"the {name} tile is copied from {src}; the reference reads {tensor}"
        add(check, outcome)
    return rows


def _pv_lag(p, mmas, body) -> tuple[int, str]:
    """(r, why not): P·V reads V of block kt - r, r = 1 when its P is the one the loop carries
    (computed the iteration before), else 0; ``why`` when V's stage is not block kt - 1's."""
    if len(mmas) < 2:
        return 0, ""
    if mmas[1].op.operation.operands[0] not in list(body.arguments):
        return 0, ""  # P of this block: V is the iteration's own (the ring's stage s(t))
    want = 1
    kt = p.loops["main"][0]
    v_read = next(e for e in p.events if e.kind == "read" and e.op == mmas[1].op)
    k_read = next(e for e in p.events if e.kind == "read" and e.op == mmas[0].op and
                  e.data["buffer"] == mmas[0].data["b"][1])
    same = prove(v_read.data["stage"] == z3.substitute(k_read.data["stage"], (kt, kt - want)), [kt >= want])
    if same.verdict != "proved":
        return want, "P·V multiplies the P of block kt - 1 by the V of another block's stage"
    return want, ""


def _stabiliser_value(s, p, x_map, score):
    """The tile program's x at (pos0, pos1): its stabiliser map by the tile ops' one semantics
    (tile_values.py: a bias tile inside its tensor, else its padding), the scores a symbol."""
    tv = TileValues.over(p, s.vals)
    for inner in x_map.regions[0].blocks[0].operations:
        src = inner.operation.operands[0] if inner.operation.name == "tile.elem" else None
        if src is not None and not isinstance(src.owner, ir.Block) and is_mma(src.owner):
            tv.substitute[src] = lambda coords: score
    return tv.value(x_map.result, [z3.Int("pos0"), z3.Int("pos1")])


def _head_dims(p, loop, ref, fused_fn):
    """The scores mma sums over as many e as Q and K have, and the stored tile is as wide as
    the output's last dim: a kernel built for other head dims is refuted, whatever its name."""
    body = loop.regions[0].blocks[0]
    mmas = [op for op in body.operations if is_mma(op)]
    width_e = mma_depth(mmas[0])
    lhs, rhs = ref.contract.operands[0], ref.contract.operands[1]
    store = next(e for e in p.events if e.kind == "store")
    width_d = ir.RankedTensorType(store.op.operation.operands[0].type).shape[1]
    out_type = ir.FunctionType(ir.TypeAttr(fused_fn.attributes["function_type"]).value).results[0]
    rows = []
    for what, value, width in (("Q", lhs.type, width_e), ("K", rhs.type, width_e), ("the output", out_type, width_d)):
        size = ir.RankedTensorType(value).shape[-1]  # static once the kernel fixed it
        extent = z3.IntVal(size) if not ir.ShapedType.is_dynamic_size(size) else \
            dim(str(tensor_dims(value)[-1]), p.params)
        rows.append((f"the tiles are as wide as {what}'s head dim ({width})",
                     prove(extent == width, p.assumptions, watch={"head dim": extent, **p.params})))
    return rows


def _positions(amap: ir.AffineMap) -> list[int]:
    """The dims a projection map picks, in order."""
    return [ir.AffineDimExpr(e).position for e in amap.results]


class _Reference:
    """The fused ta function's online group, read the way the tile lowering reads it."""

    def __init__(self, fn, p):
        self.fn = fn
        self.names = {arg: ir.StringAttr(ir.DictAttr(a)["ta.name"]).value
                      for a, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments)}
        online = [op for op in fn.entry_block.operations if op.operation.name == "ta.online" and
                  ir.StringAttr(op.attributes["kind"]).value == "sum"]
        # the group's max, where the epilogue reads it (SDPA's guard): the loop's running max
        self.maxes = [op for op in fn.entry_block.operations if op.operation.name == "ta.online" and
                      ir.StringAttr(op.attributes["kind"]).value != "sum"]
        self.numer = next(op for op in online if not is_one(list(op.regions[0].blocks[0].operations)[-1]
                                                             .operation.operands[1]))
        body = self.numer.regions[0].blocks[0]
        self.x_value, self.t_value = list(list(body.operations)[-1].operation.operands)
        self.body = body
        at_s = next(op for op in body.operations if op.operation.name == "ta.at" and
                    not isinstance(op.operation.operands[0].owner, ir.Block) and
                    op.operation.operands[0].owner.name == "ta.contract")
        self.contract = at_s.operation.operands[0].owner
        self.scores = _positions(ir.AffineMapAttr(at_s.attributes["map"]).value)  # online domain dims
        self.j = ir.IntegerAttr(self.numer.attributes["dim"]).value
        self.out_dims = _positions(ir.AffineMapAttr(self.numer.attributes["map"]).value)
        self.i, self.batch = None, []
        extents = [ir.StringAttr(e).value for e in ir.ArrayAttr(self.numer.attributes["extents"])]
        self.keys = dim(extents[self.j], p.params)
        self.positions = _positions
        self.unread = []  # values the stabilisers read that this check does not follow

    def bind(self, row: int) -> None:
        """The query index: the output's own dim ``row``, which the stored tile's rows run along."""
        self.i = self.out_dims[row]
        self.batch = [d for d in self.scores if d not in (self.i, self.j)]

    def stabiliser(self, coords, score, s, body=None):
        """x at ``coords`` as the numerator's body computes it (or ``body``'s first yield)."""
        def read(op, local):
            name = op.operation.name
            if name == "ta.param":
                return s.p.params[ir.StringAttr(op.attributes["name"]).value]
            if name == "ta.index":
                d = ir.IntegerAttr(op.attributes["dim"]).value
                return coords.get(d, z3.Int(f"d{d}"))
            if name != "ta.at":
                return None
            src = op.operation.operands[0]
            if src == self.contract.result:
                return score
            if src in self.names or self._remap_of_input(src):  # an input, or a slice or view of one
                dims = self.positions(ir.AffineMapAttr(op.attributes["map"]).value)
                tensor, index = self._through_remap(src, [coords.get(d, z3.Int(f"d{d}")) for d in dims])
                return s.vals.tensor(tensor, index)
            self.unread.append(src)  # a value this check does not follow: a failed proof is an error
            return z3.Real(f"other{len(local)}")

        value = evaluate(body or self.body, s.vals, read, lambda v: s.vals.scalar(v.owner, []))
        return value[0] if isinstance(value, list) else value

    def _remap_of_input(self, value) -> bool:
        owner = value.owner
        return not isinstance(owner, ir.Block) and owner.operation.name == "ta.remap" and \
            owner.operation.operands[0] in self.names

    def operand(self, role, coords, e, views):
        """(tensor, the reference's index of Q, K or V in the kernel's view of it, None without
        one) at the domain coordinates ``coords``, ``e`` the head-dim index."""
        cmaps = [self.positions(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(self.contract.attributes["maps"])]
        c_to_o = dict(zip(cmaps[2], self.scores))
        if role in ("q", "k"):
            value = self.contract.operation.operands[0 if role == "q" else 1]
            dims = [coords[c_to_o[c]] if c in c_to_o else e for c in cmaps[0 if role == "q" else 1]]
        else:
            t = self.t_value.owner
            at = t if t.operation.name == "ta.at" else t.operation.operands[0].owner
            value = at.operation.operands[0]
            dims = [coords.get(d, e) for d in self.positions(ir.AffineMapAttr(at.attributes["map"]).value)]
        tensor, reference = self._through_remap(value, dims)
        view = views.get(tensor)
        return tensor, (view.flatten(reference) if view is not None and view.groups is not None else None)

    def _through_remap(self, value, dims):
        owner = value.owner
        if not isinstance(owner, ir.Block) and owner.operation.name == "ta.remap":
            from .loops import affine
            amap = ir.AffineMapAttr(owner.attributes["map"]).value
            return self.names[owner.operation.operands[0]], [affine(x, dims) for x in amap.results]
        return self.names[value], dims


def _followed(ref, outcome: Outcome) -> Outcome:
    """``outcome``, or an ``error`` where it failed on a value of the reference's stabiliser that
    the check took as unknown (never a counterexample made of a value it did not read)."""
    if outcome.verdict == "proved" or not ref.unread:
        return outcome
    return Outcome("error", outcome.seconds, {}, f"the reference's stabiliser reads {len(ref.unread)} value(s) "
                                                 f"this check does not follow (not an input, nor a remap of one)")

