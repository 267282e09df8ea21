"""Z3 plumbing: bit-vector terms that the layout functions can run on, and prove()."""

from __future__ import annotations

import ctypes
import functools
import time
from dataclasses import dataclass, field

import z3

WIDTH = 32  # bits of the bit-vector terms: offsets and indices of one CTA stay far below 2^31


class BV:
    """A Z3 bit-vector with Python's integer operators (unsigned / and %, logical >>), so the
    functions of dialects/layout.py evaluate on it unchanged."""

    def __init__(self, term):
        self.term = term

    @staticmethod
    def var(name: str) -> "BV":
        return BV(z3.BitVec(name, WIDTH))

    @staticmethod
    def lift(value) -> "BV":
        return value if isinstance(value, BV) else BV(z3.BitVecVal(value, WIDTH))

    def _op(self, other, fn, swap=False):
        a, b = self.term, BV.lift(other).term
        return BV(fn(b, a) if swap else fn(a, b))

    __add__ = lambda self, o: self._op(o, lambda a, b: a + b)
    __radd__ = lambda self, o: self._op(o, lambda a, b: a + b, True)
    __sub__ = lambda self, o: self._op(o, lambda a, b: a - b)
    __mul__ = lambda self, o: self._op(o, lambda a, b: a * b)
    __rmul__ = lambda self, o: self._op(o, lambda a, b: a * b, True)
    __floordiv__ = lambda self, o: self._op(o, z3.UDiv)
    __mod__ = lambda self, o: self._op(o, z3.URem)
    __xor__ = lambda self, o: self._op(o, lambda a, b: a ^ b)
    __and__ = lambda self, o: self._op(o, lambda a, b: a & b)
    __rshift__ = lambda self, o: self._op(o, z3.LShR)

    def __lt__(self, o):
        return z3.ULT(self.term, BV.lift(o).term)

    def __eq__(self, o):  # noqa: D105 — a Z3 formula, not a bool
        return self.term == BV.lift(o).term

    def __ne__(self, o):
        return self.term != BV.lift(o).term

    __hash__ = object.__hash__


@dataclass
class Outcome:
    verdict: str                    # proved | counterexample | unknown | error
    seconds: float
    model: dict = field(default_factory=dict)
    detail: str = ""


def structural(ok: bool, detail: str, model: dict | None = None) -> Outcome:
    """The outcome of a check decided by reading the IR's structure (no solver call)."""
    return Outcome("proved" if ok else "counterexample", 0.0, {} if ok else (model or {}), "" if ok else detail)


# Every query is bounded by Z3's resource limit ("rlimit", a count of the solver's own steps),
# never by the wall clock, and runs in a Z3 context of its own (its terms translated there): the
# same query gets the same verdict on an idle machine and on a loaded one, and after any other
# queries in the same process (a shared context carries their terms, and the search of a
# nonlinear query follows their order), so what a report calls proved depends on neither. A
# query that runs out is ``unknown``, with its budget stated. Calibrated on every example
# verified at its pick and at bm=64,bn=64,bk=32, and on the gemm, attention and softmax spaces
# with --schedules all (docs/verification.md, "Solver budgets"): the costliest query, a causal
# kernel's raster proved for every grid, takes 2.0 M steps; the rest stay under 1.1 M.
BUDGET = 120_000_000


def prove(claim, assumptions=(), budget: int = BUDGET, watch: dict | None = None,
          logic: str | None = None) -> Outcome:
    """Is ``claim`` true whenever ``assumptions`` hold? A counterexample reports ``watch``'s
    values; ``budget`` bounds the solver's steps (rlimit), so the verdict is the same on any
    machine. ``logic="QF_NRA"`` picks Z3's nlsat for that fragment (real
    polynomials)."""
    solver, ctx = _solver(budget, logic)
    solver.add(*[_moved(f, ctx) for f in assumptions])
    solver.add(z3.Not(_moved(claim, ctx)))
    start = time.perf_counter()
    result = solver.check()
    seconds = time.perf_counter() - start
    if result == z3.unsat:
        return Outcome("proved", seconds)
    if result == z3.sat:
        model = solver.model()
        values = {name: _value(model.eval(_moved(term, ctx), model_completion=True))
                  for name, term in (watch or {}).items()}
        return Outcome("counterexample", seconds, values)
    return Outcome("unknown", seconds, detail=f"solver gave up ({solver.reason_unknown()}) "
                                              f"at its resource limit of {budget:,} steps")


def satisfiable(formulas, budget: int = BUDGET):
    """z3.sat, unsat or unknown for the conjunction of ``formulas``, in a context of its own."""
    solver, ctx = _solver(budget)
    solver.add(*[_moved(f, ctx) for f in formulas])
    return solver.check()


def _moved(x, ctx):
    """``x`` (a Z3 term, or a Python bool or number) in context ``ctx``."""
    if isinstance(x, z3.AstRef):
        return x.translate(ctx)
    return z3.BoolVal(x, ctx) if isinstance(x, bool) else z3.IntVal(x, ctx)


# glibc's malloc options M_MMAP_THRESHOLD and M_TOP_PAD. Each query's context is freed after
# it; with torch and MLIR loaded glibc served a context's large blocks by mmap and returned them
# on free, so every new context faulted its memory in again (several ms a context, a hundred
# and more contexts a verification). Blocks under 32 MB from the heap (glibc's own ceiling for
# its moving threshold), 32 MB kept at its top when trimmed: docs/compile-time.md
M_MMAP_THRESHOLD, M_TOP_PAD, HEAP_BYTES = -3, -2, 32 * 2**20


@functools.cache
def _keep_heap() -> None:
    """Set M_MMAP_THRESHOLD and M_TOP_PAD to HEAP_BYTES, once (a hint: a C library without
    mallopt, or one that ignores it, costs time, never a verdict)."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, HEAP_BYTES)
        mallopt(M_TOP_PAD, HEAP_BYTES)


def _solver(budget: int, logic: str | None = None):
    """A solver in a fresh Z3 context (for ``logic``, else the general one) whose every check
    stops after ``budget`` steps (rlimit)."""
    _keep_heap()
    ctx = z3.Context()
    if logic == "QF_NRA":  # nlsat alone: Z3's QF_NRA strategy tries it under wall-clock limits first
        solver = z3.Tactic("qfnra-nlsat", ctx).solver()
    else:
        solver = z3.Solver(ctx=ctx)
        # incremental from the start, so the check runs Z3's SMT core: a first, non-incremental
        # check would run the strategy Z3 picks by logic, and some (QF_NIA's, for the raster's
        # divisions) move to another procedure after a wall-clock limit (try_for), which made a
        # verdict depend on the machine's load
        solver.push()
    solver.set("rlimit", budget)
    return solver, ctx


def _value(v):
    if z3.is_bv_value(v) or z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        return float(v.as_fraction())
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return str(v)
