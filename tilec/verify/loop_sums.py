"""The plain and centred sums of a ta.online group, proved on the loop IR ta-to-loops emitted.

A group is one loop nest (passes/_lower_online.py): the result's dims outside, one loop over
the reduced index j, each op's update inside it. For each sum of one term, or centred sum
(``moment`` q), of the group, with its buffer found through ``ta.holds`` (or the output it is):

- every store outside the loop over j writes 0 (the sum starts empty);
- the one store inside it, executed once on Z3 terms (the loads of the group's buffers being
  their values before this key), is  old + t  for a plain sum, and for a centred sum the state
  the step lemma (centred.py) asks for: if the count, the sum of x and the lower moments as
  loaded represent the keys so far, the stored S_q represents them and the key (x, t) of the
  ta op's own body at these indices;
- the loop over j runs from 0 to the extent of the op's reduced dim by 1.

By induction over j the sums are the ta.online's closed forms (stabilised sums: online.py).
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.ta import tensor_dims
from tilec.dialects.ta_online import centred_parts, is_one, moment, yielded
from tilec.dialects.tile import encloses

from .centred import step_lemma
from .loops import Run, affine, body_value, function_level_indices, run_scalars, value_key
from .replay import Replay
from .report import Result
from .scalars import Values
from .solver import Outcome, prove
from .symbolic import dim, size_facts, static_dims

DOMAIN = "every element, every key (induction over the reduced index), all shapes; real arithmetic"


def check_loop_sums(ta_fn, loop_fn, replay) -> list[Result]:
    """Rows for each plain and centred ta.online sum of ``ta_fn`` against ``loop_fn``; ``replay``:
    a Replay of the loop stage (or the spec's path: no sizes fixed)."""
    if isinstance(replay, str):
        replay = Replay.loop(replay, ta_fn)
    params = {n.name: z3.Int(n.name) for n in ir.DictAttr(ta_fn.attributes["ta.params"])}
    ctx = _Context(ta_fn, loop_fn, params)
    rows = []
    for n, op in enumerate(ctx.ta_ops):
        if op.operation.name != "ta.online" or not (moment(op) or len(yielded(op)) == 1) or \
                ir.StringAttr(op.attributes["kind"]).value != "sum":
            continue
        label = f"op #{n} (ta.online sum{f', moment {moment(op)}' if moment(op) else ''})"
        try:
            outcome = ctx.check(op)
        except (KeyError, ValueError) as err:
            outcome = Outcome("error", 0.0, {}, f"the loops of this sum have a form the check does not read: {err}")
        rows.append(Result(ctx.name, "loop", "equivalence", f"{label} equals its loop: start, one key a step, "
                           "the range of the key loop", outcome.verdict, round(outcome.seconds, 4), DOMAIN,
                           outcome.model, outcome.detail,
                           replay(outcome.model) if outcome.verdict == "counterexample" else ""))
    return rows


class _Context:
    def __init__(self, ta_fn, loop_fn, params):
        self.params, self.vals = params, Values(params)
        # every parameter >= 1, inside its stated range, and the sizes the types fix (a head dim
        # the function was specialised to): the loops are built for those
        fixed = static_dims(ta_fn)
        self.sizes = size_facts(ta_fn, params) + [dim(d, params) == n for d, n in fixed.items()]
        # a parameter the types fix is its size in a sum's key: the loop's bound 64 is the ta's D
        self.fixed = [(params[d], z3.IntVal(n)) for d, n in fixed.items() if d in params]
        self.ta_ops = list(ta_fn.entry_block.operations)[:-1]
        self.online = [op for op in self.ta_ops if op.operation.name == "ta.online"]
        self.name = ir.StringAttr(loop_fn.attributes["sym_name"]).value
        returned = list(list(ta_fn.entry_block.operations)[-1].operation.operands)
        loop_args = list(loop_fn.arguments)
        self.buffers = dict(zip(loop_args, list(ta_fn.arguments)))
        self.buffers.update(zip(loop_args[len(list(ta_fn.arguments)):], returned))
        for op in loop_fn.entry_block.operations:
            if op.operation.name == "memref.alloc" and "ta.holds" in op.attributes:
                self.buffers[op.result] = self.ta_ops[ir.IntegerAttr(op.attributes["ta.holds"]).value].result
        self.index_env = function_level_indices(loop_fn, params)
        self.stores = _stores(loop_fn)  # (store, enclosing loops outermost first), program order
        self.stored = set(self.buffers.values())  # the ta values a buffer holds (the rest are inlined)
        self.folded = {}  # (extent, body) -> the symbol of that sum

    def T(self, value, idx):
        """The element of ta value ``value`` at ``idx``, read through remaps (the loops read a
        remapped input at its source: X1[i / 2] for the remap's element i)."""
        owner = value.owner
        while not isinstance(owner, ir.Block) and owner.operation.name == "ta.remap":
            amap = ir.AffineMapAttr(owner.attributes["map"]).value
            idx = [affine(e, idx) for e in amap.results]
            value = owner.operation.operands[0]
            owner = value.owner
        if not isinstance(owner, ir.Block) and value not in self.stored:  # computed where the sum reads it
            if owner.operation.name == "ta.contract":
                return self._contract(owner, idx)
            if owner.operation.name == "ta.map":
                return body_value(owner, idx, self.vals, self.params, self.T)
        return self.vals.tensor(value_key(self.vals, value), idx)

    def _contract(self, op, idx):
        """An inlined contraction's element at ``idx``: the sum over its reduced dims, outermost
        first, of lhs · rhs (each widened to f32), as ta-to-loops computes it where read."""
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        out = [ir.AffineDimExpr(e).position for e in maps[2].results]
        domain = [None] * maps[0].n_dims
        for p, i in zip(out, idx):
            domain[p] = i
        extents = {}
        for value, amap in zip(op.operation.operands, maps):
            for d, e in zip(tensor_dims(value.type), amap.results):
                extents.setdefault(ir.AffineDimExpr(e).position, dim(str(d), self.params))
        reduced = [d for d in range(len(domain)) if d not in out]
        bound = [z3.Int(f"rb{len(self.folded)}_{k}") for k in range(len(reduced))]
        for d, r in zip(reduced, bound):
            domain[d] = r
        lhs, rhs = (self.wide(v, self.T(v, [affine(e, domain) for e in m.results]))
                    for v, m in zip(op.operation.operands, maps))
        term = lhs * rhs
        for d, r in reversed(list(zip(reduced, bound))):
            term = self.sum(r, extents[d], term)
        return term

    def wide(self, value, term):
        element = ir.RankedTensorType(value.type).element_type
        return term if isinstance(element, ir.F32Type) else \
            self.vals.function(f"arith.extf_{element}_f32", 1)(term)

    def sum(self, r, extent, body):
        """Σ_{0 <= r < extent} body: one symbol per extent and body (r renamed), so the loop's
        sum and the ta's are the same term when their bodies are."""
        fixed = lambda term: z3.substitute(term, *self.fixed) if self.fixed else term
        canonical = z3.simplify(fixed(z3.substitute(body, (r, z3.Int("bound")))))
        key = (z3.simplify(fixed(extent)).sexpr(), canonical.sexpr())
        if key not in self.folded:
            self.folded[key] = z3.Real(f"sum{len(self.folded)}")
        return self.folded[key]

    def loop_sum(self, loop, env, run):
        """The result of an scf.for that carries one accumulator and yields acc + t (an inlined
        contraction): its start + Σ_r t(r) over [0, ub) by 1; a KeyError for any other loop."""
        lb, ub, step = (env.get(v) for v in list(loop.operation.operands)[:3])
        block = loop.regions[0].blocks[0]
        args = list(block.arguments)
        if len(args) != 2 or len(list(loop.operation.operands)) != 4 or \
                prove(z3.And(lb == 0, step == 1), self.sizes).verdict != "proved":
            raise KeyError("an inner loop that is not one sum from 0 by 1")
        r, acc = z3.Int(f"rl{len(self.folded)}"), z3.Real(f"acc{len(self.folded)}")
        inner = dict(env)
        inner[args[0]], inner[args[1]] = r, acc
        for op in block.operations:
            if op.operation.name == "scf.for":
                inner[op.result] = self.loop_sum(op, inner, run)
            elif op.operation.name == "scf.yield":
                t = z3.simplify(inner[op.operation.operands[0]] - acc)
                if not z3.eq(z3.substitute(t, (acc, z3.Real("other"))), t):
                    raise KeyError("an inner loop whose step is not acc + t")
                start = env[list(loop.operation.operands)[3]] if list(loop.operation.operands)[3] in env \
                    else self.vals.scalar(list(loop.operation.operands)[3].owner, [])
                return start + self.sum(r, ub, t)
            else:
                run_scalars([op], inner, self.buffers, self.vals, self.params, run)
        raise KeyError("an inner loop with no yield")

    def check(self, op) -> Outcome:
        # a store into a buffer that holds no ta value (an index tensor's temporary) is not the sum's;
        # MLIR's Value == None raises, so None is ruled out first
        held = [(s, loops) for s, loops in self.stores
                if (held_value := self.buffers.get(s.operation.operands[1])) is not None and held_value == op.result]
        folds = [(s, loops) for s, loops in held if _key_loop(s, loops) is not None]
        if len(folds) != 1:
            raise ValueError(f"{len(folds)} stores of the sum inside a loop over its key, where 1 was expected")
        store, loops = folds[0]
        j_loop = _key_loop(store, loops)
        starts = [s for s, _ in held if s.operation != store.operation]
        env, run = dict(self.index_env), Run()
        extents = [dim(ir.StringAttr(e).value, self.params) for e in ir.ArrayAttr(op.attributes["extents"])]
        d = ir.IntegerAttr(op.attributes["dim"]).value
        kept = [ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(op.attributes["map"]).value.results]
        claims, facts = [], []
        for k, loop in enumerate(loops):  # the loops' indices and ranges, then the body up to the store
            lb, ub, step = (env.get(v) for v in list(loop.operands)[:3])
            iv = env[loop.regions[0].blocks[0].arguments[0]] = z3.Int(f"i{k}")
            facts += [iv >= 0, iv < ub]
            claims += [lb == 0, step == 1] + ([ub == extents[d]] if loop.operation == j_loop.operation else [])
            _execute_until(loop.regions[0].blocks[0], store, env, self, run)
        idx = [env[v] for v in list(store.operation.operands)[2:]]
        domain = [None] * len(extents)
        for p, i in zip(kept, idx):
            domain[p] = i
        domain[d] = env[j_loop.regions[0].blocks[0].arguments[0]]
        facts += [z3.And(i >= 0, i < extents[p]) for p, i in zip(kept, idx)]
        new = run.stores[-1][2]
        start = z3.And(*[_value(s, self, env) == 0 for s in starts]) if starts else z3.BoolVal(False)
        base = prove(z3.And(start, *claims), self.sizes + facts,
                     watch=dict(self.params))
        if base.verdict != "proved":
            base.detail = base.detail or "the sum does not start at 0, or its key loop misses the range"
            return base
        terms = body_value(op, domain, self.vals, self.params, self.T)
        if not moment(op):
            return prove(new == self.T(op.result, idx) + terms, self.sizes + facts, watch=dict(self.params))
        x, t = terms
        parts = centred_parts(op, self.online)
        old = {key: self.T(part.result, idx) for key, part in parts.items()}
        old[moment(op)] = self.T(op.result, idx)
        return step_lemma(moment(op), is_one(yielded(op)[1]), old, new, key=(x, t))


def _stores(fn) -> list:
    """(memref.store, [enclosing scf.for, outermost first]) of every store of ``fn``, in program order."""
    found = []

    def visit(block, loops):
        for op in block.operations:
            if op.operation.name == "memref.store":
                found.append((op, loops))
            elif op.operation.name == "scf.for":
                visit(op.regions[0].blocks[0], loops + [op])
    visit(fn.entry_block, [])
    return found


def _key_loop(store, loops):
    """The enclosing loop whose index the store's indices do not use (the key loop), or None."""
    indices = list(store.operation.operands)[2:]
    free = [loop for loop in loops if loop.regions[0].blocks[0].arguments[0] not in indices]
    return free[-1] if len(free) == 1 else None


def _execute_until(block, store, env, ctx, run) -> None:
    """Execute ``block``'s ops (not its loops) up to ``store`` or the loop holding it; a load of a
    buffer this iteration stored at the same indices reads what was stored."""
    written = []  # (buffer, indices, value) stored so far in this block
    for op in block.operations:
        if op.operation == store.operation or (op.operation.name == "scf.for" and encloses(op, store)):
            if op.operation == store.operation:
                run_scalars([op], env, ctx.buffers, ctx.vals, ctx.params, run)
            return
        if op.operation.name == "scf.for" and list(op.operation.results):  # a contraction inlined
            env[op.result] = ctx.loop_sum(op, env, run)
            continue
        run_scalars([op], env, ctx.buffers, ctx.vals, ctx.params, run)
        if op.operation.name == "memref.store":
            written.append(run.stores[-1])
        elif op.operation.name == "memref.load":
            buf, idx = op.operation.operands[0], [env[v] for v in list(op.operation.operands)[1:]]
            for b, i, value in reversed(written):
                if b == buf and len(i) == len(idx) and all(z3.eq(u, v) for u, v in zip(i, idx)):
                    env[op.result] = value
                    break


def _value(store, ctx, env):
    """The value a store outside the key loop writes (a constant: the sum's start)."""
    value = store.operation.operands[0]
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "arith.constant":
        return z3.Real(f"start{id(store)}")  # not a constant: not proved to be 0
    return ctx.vals.scalar(owner, [])
