"""Translation validation of ta-to-loops: each ta op against the loop nests lowered from it.

ta-to-loops tags every top-level loop nest with the number of the ta op it came from
(``ta.origin``). For each op, one iteration of its innermost body is executed on Z3
terms: every ta value is an uninterpreted function of its indices, a load from the buffer
that holds it is that function applied to the load's indices. Then, for all loop
indices and all shapes:

    ta.map       the stored element is the map body at those indices
    ta.reduce    the result starts at the identity; each step stores kind(old, src[...])
    ta.contract  the result starts at 0; each step stores old + lhs[...] * rhs[...]
    ta.remap     the stored element is src at the map of the indices
    ta.fill      the stored element is the fill value
    and every loop runs from 0 to the extent of its domain dim, by 1.

A fold that stores kind(old, t) at indices independent of the reduced loop computes the
reduction over the whole range: with the bounds proved, the loop nest is the ta op.
ta.online groups are proved by the step lemma (online.py). An op read only inside a
ta.online group (the scores contraction of attention, a grouped-head remap) is inlined into
the fused loop and has no nest of its own; that inlined term is not compared here (the tile
verifier compares the kernel's stabiliser and Q/K/V reads with the ta). Any other op that no
loop nest or store computes is an error row.
"""

from __future__ import annotations

import math

import z3
from torch_mlir import ir

from tilec.dialects.affine import affine as evaluate_affine
from tilec.dialects.index_ops import INDEX, z3_domain
from tilec.dialects.reduce_kinds import KINDS

from .replay import Replay
from .report import Result
from .scalars import Values, evaluate
from .solver import prove
from .symbolic import dim, size_facts, static_dims
from tilec.dialects.ta import tensor_dims

Z3 = z3_domain()  # index values as Z3 integers (dialects/index_ops.py)


def check_loops(ta_fn, loop_fn, replay) -> list[Result]:
    """Each op of ``ta_fn`` against the loop nests of ``loop_fn`` lowered from it; ``replay``:
    a Replay of the loop stage (or the spec's path: no sizes fixed).

        rows = check_loops(fused_fn, loop_fn, Replay.loop("a.ta", fused_fn, {"N": 1}))
    """
    if isinstance(replay, str):
        replay = Replay.loop(replay, ta_fn)
    params = {n.name: z3.Int(n.name) for n in ir.DictAttr(ta_fn.attributes["ta.params"])}
    # a parameter bound when the function was built (--shape, a split piece) has that size only:
    # its loops may run to the constant, so the proof is for that size, not for every one
    assumptions = size_facts(ta_fn, params) + \
        [dim(d, params) == n for d, n in static_dims(ta_fn).items()]
    vals = Values(params)
    ta_ops = list(ta_fn.entry_block.operations)[:-1]
    ta_args = list(ta_fn.arguments)
    returned = list(list(ta_fn.entry_block.operations)[-1].operation.operands)
    loop_args = list(loop_fn.arguments)
    # which ta value each buffer holds: inputs, outputs (what is returned), and tagged allocs
    buffers = dict(zip(loop_args, ta_args))
    buffers.update(zip(loop_args[len(ta_args):], returned))
    for op in loop_fn.entry_block.operations:
        if op.operation.name == "memref.alloc" and "ta.holds" in op.attributes:
            buffers[op.result] = ta_ops[ir.IntegerAttr(op.attributes["ta.holds"]).value].result
    index_env = function_level_indices(loop_fn, params)
    name = ir.StringAttr(loop_fn.attributes["sym_name"]).value
    rows = []
    nests: dict = {}
    for op in loop_fn.entry_block.operations:
        if op.operation.name == "scf.for" and "ta.origin" in op.attributes:
            nests.setdefault(ir.IntegerAttr(op.attributes["ta.origin"]).value, []).append(op)
    scalar_inits = _scalar_inits(loop_fn, buffers, vals, params, index_env)
    for number, ta_op in enumerate(ta_ops):
        kind = ta_op.operation.name
        if kind in ("arith.constant", "ta.online"):
            continue
        runs = [_execute(nest, buffers, vals, params, index_env) for nest in nests.get(number, [])]
        if ta_op.results and ta_op.result in scalar_inits:  # a rank-0 result starts outside any loop
            runs.insert(0, scalar_inits[ta_op.result])
        if not runs and _only_read_by_online(ta_op):
            continue  # inlined into a fused loop: its term is read there (see the module docstring)
        if not runs:  # nothing computes it: that is no proof, and no silent skip either
            rows.append(Result(name, "loop", "equivalence", f"op #{number} ({kind}) equals its loop nests",
                               "error", 0.0, "all shapes, all loop indices", {},
                               f"no loop nest or store in the loop IR computes {kind} #{number}"))
            continue
        claim, domain_ok, watch, problem = _expected(ta_op, runs, vals, params, buffers)
        if problem:  # a form the check cannot read is no evidence either way
            rows.append(Result(name, "loop", "equivalence", f"op #{number} ({kind}) equals its loop nests",
                               "error", 0.0, "all shapes, all loop indices", {},
                               f"the loops lowered from {kind} have a form this check does not read: {problem}"))
            continue
        outcome = prove(z3.And(claim, *domain_ok), assumptions + [c for r in runs for c in r.bounds],
                        watch=watch)
        if outcome.verdict == "counterexample":
            outcome.detail = f"the loops lowered from {kind} do not compute it"
        rows.append(Result(name, "loop", "equivalence", f"op #{number} ({kind}) equals its loop nests",
                           outcome.verdict, round(outcome.seconds, 4), "all shapes, all loop indices; "
                           "values uninterpreted, real arithmetic", outcome.model, outcome.detail,
                           replay(outcome.model) if outcome.verdict == "counterexample" else ""))
    return rows


def _only_read_by_online(ta_op) -> bool:
    """Whether every use of ``ta_op``'s result is inside a ta.online group (which inlines it),
    or is an operand of an op that is (a grouped-head remap the scores contraction reads)."""
    users = []
    for use in ta_op.result.uses:
        op = use.owner
        if op.name == "ta.contract" and op.parent is not None and op.parent.name == "func.func":
            users.append(_only_read_by_online(op))
            continue
        while op is not None and op.name not in ("ta.online", "func.func"):
            op = op.parent
        users.append(op is not None and op.name == "ta.online")
    return bool(users) and all(users)


def _scalar_inits(loop_fn, buffers, vals, params, index_env) -> dict:
    """ta value -> a loop-free run of the function-level stores into its buffer: a rank-0
    result is computed (or, for a reduction, initialised) outside every loop."""
    ops = [op for op in loop_fn.entry_block.operations
           if op.operation.name in ("memref.load", "memref.store") or op.operation.name.startswith(("arith.", "math."))]
    whole = Run()
    run_scalars(ops, dict(index_env), buffers, vals, params, whole)
    inits = {}
    for buf, idx, value in whole.stores:
        if buf in buffers:
            inits.setdefault(buffers[buf], Run()).stores.append((buf, idx, value))
    return inits


def function_level_indices(fn, params: dict) -> dict:
    """{index value: its Z3 integer} of a loop function's top level: the shape parameters'
    arguments and the index arithmetic on them (``%c = arith.constant 4 : index`` -> 4)."""
    env = {}
    for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
        d = ir.DictAttr(attrs)
        if "ta.param" in d:
            env[arg] = params[ir.StringAttr(d["ta.param"]).value]
    _index_ops(fn.entry_block.operations, env)
    return env


def _index_ops(ops, env) -> None:
    for op in ops:  # on shape parameters (>= 1) and constants: a division's meaning is given there
        name = op.operation.name
        if name == "arith.constant" and isinstance(op.result.type, ir.IndexType):
            env[op.result] = z3.IntVal(ir.IntegerAttr(op.attributes["value"]).value)
        elif name in INDEX and all(v in env for v in op.operation.operands):
            env[op.result] = INDEX[name](*(env[v] for v in op.operation.operands), Z3)


class Run:
    """What symbolic execution of a loop nest saw: its induction variables, upper bounds, range
    facts, stores (buffer, indices, value) and the lb = 0, step = 1 claims."""

    def __init__(self):
        self.ivs, self.ubs, self.bounds, self.stores, self.steps_ok = [], [], [], [], []


def _execute(nest, buffers, vals, params, index_env) -> Run:
    run = Run()
    env = dict(index_env)
    op = nest
    while True:
        lb, ub, step = (env.get(v) for v in list(op.operation.operands)[:3])
        iv = z3.Int(f"i{len(run.ivs)}")
        run.ivs.append(iv)
        run.ubs.append(ub)
        run.bounds += [iv >= 0, iv < ub]
        run.steps_ok += [lb == 0, step == 1]
        body = op.regions[0].blocks[0]
        env[body.arguments[0]] = iv
        inner = [o for o in body.operations if o.operation.name == "scf.for"]
        if not inner:
            break
        run_scalars(list(body.operations), env, buffers, vals, params, run)
        op = inner[0]
    run_scalars(list(body.operations), env, buffers, vals, params, run)
    return run


def run_scalars(ops, env, buffers, vals, params, run) -> None:
    """Execute the non-loop ops of ``ops`` on Z3 terms, extending ``env``: a load from the buffer
    of ta value v is v's uninterpreted element at the indices; stores are recorded in ``run``."""
    for op in ops:
        name = op.operation.name
        operands = list(op.operation.operands)
        get = lambda v: env[v] if v in env else vals.scalar(v.owner, [])
        if name == "scf.for":
            continue
        if name == "memref.load":
            ta = buffers.get(operands[0])
            idx = [env[v] for v in operands[1:]]
            env[op.result] = vals.tensor(value_key(vals, ta), idx) if ta is not None else z3.Real(f"unknown{len(env)}")
        elif name == "memref.store":
            run.stores.append((operands[1], [env[v] for v in operands[2:]], get(operands[0])))
        elif name == "affine.apply":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            env[op.result] = affine(amap.results[0], [env[v] for v in operands])
        elif op.operation.results:
            env[op.result] = vals.scalar(op, [get(v) for v in operands])


def affine(expr, dims):
    """An affine expression on Z3 integers (the operands of divisions are non-negative)."""
    return evaluate_affine(expr, dims, const=z3.IntVal, floordiv=lambda a, b: a / b)


def value_key(vals, value) -> str:
    """The name of ta value ``value``'s uninterpreted element function ("t0", "t1", ...)."""
    names = vals.__dict__.setdefault("value_names", {})
    if value not in names:
        names[value] = f"t{len(names)}"
    return names[value]


def _expected(ta_op, runs, vals, params, buffers):
    name = ta_op.operation.name
    result = ta_op.result
    T = lambda v, idx: vals.tensor(value_key(vals, v), idx)
    ext = lambda v, term: term if isinstance(ir.RankedTensorType(v.type).element_type, ir.F32Type) else \
        vals.function(f"arith.extf_{ir.RankedTensorType(v.type).element_type}_f32", 1)(term)
    rdims = [dim(str(d), params) for d in tensor_dims(result.type)]
    constant = lambda x: vals.function("inf" if x > 0 else "ninf", 0)() if math.isinf(x) else z3.RealVal(x)
    claims, domain, problems = [], [], []

    def store_of(run):
        if len(run.stores) != 1:
            return None
        return run.stores[0]

    def check(run, extents, index, value):
        nonlocal claims, domain
        stored = store_of(run)
        if stored is None or len(run.ivs) != len(extents):
            problems.append(f"a nest of {len(run.ivs)} loops with {len(run.stores)} stores where "
                            f"{len(extents)} loops and one store were expected")
            return
        _, idx, got = stored
        domain += run.steps_ok + [ub == e for ub, e in zip(run.ubs, extents)]
        claims += [a == b for a, b in zip(idx, index)] + [len(idx) == len(index), got == value]

    if name == "ta.map":
        run = runs[0]
        check(run, rdims, run.ivs, body_value(ta_op, run.ivs, vals, params, T))
    elif name == "ta.fill":
        check(runs[0], rdims, runs[0].ivs, constant(ir.FloatAttr(ta_op.attributes["value"]).value))
    elif name == "ta.remap":
        src = ta_op.operation.operands[0]
        amap = ir.AffineMapAttr(ta_op.attributes["map"]).value
        run = runs[0]
        check(run, rdims, run.ivs, T(src, [affine(e, run.ivs) for e in amap.results]))
    elif name in ("ta.reduce", "ta.contract") and len(runs) == 2:
        init, fold = runs
        if name == "ta.reduce":
            kind = ir.StringAttr(ta_op.attributes["kind"]).value
            src = ta_op.operation.operands[0]
            dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(ta_op.attributes["dims"])]
            extents = [dim(str(d), params) for d in tensor_dims(src.type)]
            kept = [iv for k, iv in enumerate(fold.ivs) if k not in dims]
            old, new = T(result, kept), T(src, fold.ivs)
            step = KINDS[kind].combine(old, new, z3.If)
            check(init, rdims, init.ivs, constant(KINDS[kind].neutral))
            check(fold, extents, kept, step)
        else:
            maps = [[ir.AffineDimExpr(e).position for e in ir.AffineMapAttr(m).value.results]
                    for m in ir.ArrayAttr(ta_op.attributes["maps"])]
            lhs, rhs = ta_op.operation.operands
            extents = {}
            for v, ps in ((lhs, maps[0]), (rhs, maps[1])):
                for d, p in zip(tensor_dims(v.type), ps):
                    extents.setdefault(p, dim(str(d), params))
            at = lambda ps: [fold.ivs[p] for p in ps] if len(fold.ivs) > max(ps, default=-1) else []
            product = ext(lhs, T(lhs, at(maps[0]))) * ext(rhs, T(rhs, at(maps[1])))
            check(init, rdims, init.ivs, z3.RealVal(0))
            check(fold, [extents[p] for p in range(len(extents))], at(maps[2]), T(result, at(maps[2])) + product)
    else:
        problems.append(f"{len(runs)} loop nests (an initialisation and a fold were expected)"
                        if name in ("ta.reduce", "ta.contract") else f"no rule for {name}")
    watch = {f"i{n}": iv for n, iv in enumerate(runs[-1].ivs)} if runs else {}
    return z3.And(*claims), domain, {**watch, **params}, "; ".join(problems)


def body_value(ta_op, ivs, vals, params, T):
    """What the body of ``ta_op`` (ta.map, ta.online) yields at domain indices ``ivs``, reading ta
    values through ``T(value, indices)`` (a list for several terms)."""
    def read(op, local):
        name = op.operation.name
        if name == "ta.at":
            amap = ir.AffineMapAttr(op.attributes["map"]).value
            return T(op.operation.operands[0], [ivs[ir.AffineDimExpr(e).position] for e in amap.results])
        if name == "ta.index":
            return ivs[ir.IntegerAttr(op.attributes["dim"]).value]
        if name == "ta.param":
            return params[ir.StringAttr(op.attributes["name"]).value]
        return None

    return evaluate(ta_op.regions[0].blocks[0], vals, read, lambda v: vals.scalar(v.owner, []))
