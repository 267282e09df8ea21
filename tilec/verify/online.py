"""The online-softmax step lemma, proved on the loop IR that ta-to-loops emitted.

For every loop over a reduced index that keeps a running max (a rank-0 buffer), one
iteration is executed symbolically: the running max m, the partial sums s and the new
term (x, t) are reals, exp is an uninterpreted function with the identities the
rescale relies on (exp(a) * exp(b) = exp(a + b), exp(0) = 1). The invariant

    s * exp(m) = sum over the keys so far of exp(x_j) * t_j

holds after the step if it held before: by induction it holds for every sequence
length, whatever the block of keys, so the loop computes sum_j exp(x_j - max x) * t_j.
"""

from __future__ import annotations

import time

import z3
from torch_mlir import ir

from tilec.dialects.scalar_ops import PYTHON, evaluate

from .replay import Replay
from .report import Result
from .solver import Outcome, prove


def check_online(loop_module, replay) -> list[Result]:
    """The step lemma of every loop of ``loop_module`` that keeps a running max; ``replay``: a
    Replay of the loop stage (or the spec's path).

        rows = check_online(build.loops, "attention.ta")
    """
    rows = []
    for fn in loop_module.body.operations:
        if isinstance(replay, str):
            replay = Replay.loop(replay, fn)
        name = ir.StringAttr(fn.attributes["sym_name"]).value
        for loop, running in _running_max_loops(fn):
            start = time.perf_counter()
            outcome = _step_lemma(loop, running)
            outcome.seconds = time.perf_counter() - start
            rows.append(Result(name, "loop", "equivalence",
                               "online softmax step: running max and rescaled sums stay exact", outcome.verdict,
                               round(outcome.seconds, 4), "every sequence length (induction over keys), every "
                               "block size; exp uninterpreted", outcome.model, outcome.detail,
                               replay(outcome.model) if outcome.verdict == "counterexample" else ""))
    return rows


def _running_max_loops(fn):
    """(scf.for over the reduced index, its running-max buffer) pairs."""
    found = []

    def visit(op):
        if op.name == "scf.for":
            body = op.regions[0].blocks[0]
            loads = {inner.operation.operands[0] for inner in body.operations if inner.operation.name == "memref.load"}
            for inner in body.operations:  # an update (load, then store) of a rank-0 buffer: the running max
                buf = inner.operation.operands[1] if inner.operation.name == "memref.store" else None
                # the lowering's own rank-0 scratch buffer: not an argument, and not a buffer that
                # holds a ta value (ta.holds: a plain reduction to a scalar updates one of those)
                if buf is not None and buf in loads and ir.MemRefType(buf.type).rank == 0 and \
                        not isinstance(buf.owner, ir.Block) and "ta.holds" not in buf.owner.attributes:
                    found.append((op, inner.operation.operands[1]))
                    break
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    return found


def _step_lemma(loop, running):
    exp = z3.Function("exp", z3.RealSort(), z3.RealSort())
    m = z3.Real("m")
    ctx = _Context(running, m, exp)
    ctx.run(loop.regions[0].blocks[0])
    if ctx.m_new is None or ctx.x is None:
        return _fail("the loop keeps no running max of a term")
    if not ctx.updates:
        return _fail("no sum is rescaled against the running max in the loop")
    m_new, x = ctx.m_new, ctx.x
    claims = [m_new == z3.If(m >= x, m, x)]  # the stored max is the max
    for old, new, t in ctx.updates:
        # invariant s * exp(m) = sum_j exp(x_j) t_j, carried across one key
        claims.append(new * exp(m_new) == old * exp(m) + exp(x) * t)
    axioms = [exp(z3.RealVal(0)) == 1, exp(ctx.ninf) == 0]
    for a in (m, x):  # the one identity the rescale uses: exp(a - m') * exp(m') = exp(a)
        axioms.append(exp(a - m_new) * exp(m_new) == exp(a))
    outcome = prove(z3.And(*claims), axioms, budget=40_000_000, watch={"m": m, "x": x, "m'": m_new})
    if outcome.verdict == "counterexample":
        outcome.detail = "one key's update does not carry s * exp(m) = sum_j exp(x_j) * t_j"
    return outcome


def _fail(detail):
    return Outcome("error", 0.0, {}, detail)


class _Context:
    """Symbolic execution of one iteration: loads of the state are symbols, inputs arbitrary."""

    def __init__(self, running, m, exp):
        self.running, self.m, self.exp = running, m, exp
        self.ninf = z3.Real("ninf")
        self.env, self.defs = {}, {}
        self.loaded = {}          # buffer -> symbol of its value before this key
        self.m_new = self.x = None
        self.updates = []         # (old, new, t) per rescaled sum

    def val(self, v):
        if v not in self.env:
            self.env[v] = z3.Real(f"v{len(self.env)}")  # computed from inputs: arbitrary
        return self.env[v]

    def run(self, block):
        for op in block.operations:
            self.step(op, op.operation.name, list(op.operation.operands))

    def step(self, op, name, operands):
        if name == "memref.load":
            buf = operands[0]
            if buf == self.running:
                self.env[op.result] = self.m
            else:
                self.loaded.setdefault(buf, z3.Real(f"s{len(self.loaded)}"))
                self.env[op.result] = self.loaded[buf]
        elif name == "memref.store":
            self.store(operands[0], operands[1])
        elif name == "arith.maximumf":
            a, b = self.val(operands[0]), self.val(operands[1])
            self.env[op.result] = z3.If(a >= b, a, b)
            if a is self.m or b is self.m:
                self.x = b if a is self.m else a
        elif name in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf"):
            self.env[op.result] = evaluate(op, [self.val(v) for v in operands], PYTHON)
        elif name == "math.exp":
            self.env[op.result] = self.exp(self.val(operands[0]))
        elif name == "arith.cmpf":
            self.env[op.result] = self.val(operands[0]) == self.val(operands[1])
        elif name == "arith.select" and z3.is_bool(self.env.get(operands[0], z3.Real("_"))):
            self.env[op.result] = z3.If(self.env[operands[0]], self.val(operands[1]), self.val(operands[2]))
        elif name == "arith.constant" and isinstance(op.attributes["value"], ir.FloatAttr):
            value = ir.FloatAttr(op.attributes["value"]).value
            # -inf is one symbol whose exponential is 0 (the axiom the masked-term rule relies on)
            self.env[op.result] = self.ninf if value == float("-inf") else \
                z3.Real("pinf") if value == float("inf") else z3.RealVal(value)
        elif name == "scf.for" and not list(op.operation.results):
            self.run(op.regions[0].blocks[0])
        for r in op.operation.results:
            self.defs[r] = op
            if not z3.is_bool(self.env.get(r, z3.RealVal(0))):
                self.val(r)

    def store(self, value, buf):
        if buf == self.running:
            self.m_new = self.val(value)
            return
        if buf not in self.loaded:
            return
        # the rescaled update the lowering emits: new = old * c + p * t; t is the summand
        add = self.defs.get(value)
        if add is None or add.operation.name != "arith.addf":
            return
        scaled = [self.defs.get(v) for v in add.operation.operands]
        products = [op for op in scaled if op is not None and op.operation.name == "arith.mulf"]
        if len(products) != 2:
            return
        p, t = products[1].operation.operands
        self.updates.append((self.loaded[buf], self.val(value), self.val(t)))
