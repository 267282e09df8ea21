"""The shipped CUDA, run: a verification row that executes the very text ``tilec compile``
packages on the CPU under the runtime's model of the GPU (tilec/runtime/cpu/) and compares
it with the oracle. It is a test, not a proof, and says so: its verdict is ``tested`` (the
sizes and seed in its domain), ``counterexample`` when the outputs differ or the kernel
faults or deadlocks (the sizes, the output and the model's line), ``error`` when it cannot
run (no C++ compiler, an instruction the model refuses).

What it covers that the proofs do not: the CUDA text itself. The proofs are about the tile
module; the emitter's index, address, descriptor, box and barrier arithmetic is checked here,
by running it (tests/runtime/test_cpu_mutants.py: bugs put into that text, each refuted this way).

The sizes: each shape parameter not fixed at compile time at its default capped to ``CAP``
and made odd (a size no tile divides, rows of no whole 16-byte chunk: the element-copy
variant), or, for a kernel the copy engine feeds (whose rows must be whole 16-byte chunks),
capped and rounded down to a multiple of 8; where those do not bind (a size another must
divide), the defaults. A kernel with no size left to choose (a PyTorch graph compiled at its
inputs' shapes, every size fixed in its types) runs at its own sizes alone; past ``RUN_WORK``
multiply-adds of a contraction or ``RUN_ELEMENTS`` elements of inputs and outputs (GPT-2's and
Llama's blocks at T = 1024: minutes to hours on the model) its row is ``unknown``, saying why,
as a solver's timeout is: it neither passes as tested nor stops the package, and
``tilec verify --strict`` refuses it.
"""

from __future__ import annotations

import math
import time

from ..diagnostics import TilecError
from ..executors.compare import compare
from ..executors.magnitude import magnitudes, recomputes
from ..executors.oracle import evaluate
from ..signature import bind, random_inputs, signature
from ..verify.report import Result
from ..verify.symbolic import static_dims
from ..runtime.cpu.launch import ORDERS
from .cuda_cpu import CpuRefusal, run_cuda

CAP = 130      # the largest size a run takes (a default above it is brought down)
RUN_WORK = 2**26      # multiply-adds of one contraction a run may take (sizes fixed in the kernel's types)
RUN_ELEMENTS = 2**20  # elements of its inputs and outputs
SEED = 0
NO_DEFAULT = 37


def run_sizes(sig, fixed: dict, mapped: bool) -> list[dict]:
    """The size sets to try, in order (the first that binds is run)."""
    defaults = {k: (NO_DEFAULT if v is None else v) for k, v in sig.params.items() if k not in fixed}
    if mapped:
        shaped = {k: max(8, min(v, CAP) // 8 * 8) if v >= 8 else v for k, v in defaults.items()}
    else:
        shaped = {k: min(v, CAP) - (min(v, CAP) % 2 == 0) if v > 8 else v for k, v in defaults.items()}
    held = {k: v for k, v in fixed.items() if k in sig.params}  # the kernel's own sizes, as they are
    return [{**shaped, **held}, {**defaults, **held}]


def _over_budget(sig, env: dict) -> str:
    """What makes a run at ``env`` too large for the CPU model ("" when it fits)."""
    for space in sig.work:
        work = math.prod(space.shape(env))
        if work > RUN_WORK:
            return f"a contraction over {list(space.shape(env))}, {work:.3g} multiply-adds"
    elements = sum(math.prod(s.shape(env)) for s in (*sig.inputs, *sig.outputs))
    return f"inputs and outputs of {elements:.3g} elements" if elements > RUN_ELEMENTS else ""


def check_run(build, kernel, name: str) -> list[Result]:
    """The execution row of ``kernel`` (the CUDA emitted from ``build.tile``, as shipped)."""
    start = time.perf_counter()
    fn = build.ta.body.operations[0]
    sig = signature(fn)
    check = "the shipped CUDA, run on the CPU model of the GPU, equals the oracle"
    env = None
    # the sizes bound at build time, and those the function's types fix (a split piece of a spec
    # specialised to a head dim: its kernel is built for that size alone)
    fixed = {**{d: n for d, n in static_dims(fn).items() if d in sig.params}, **build.fixed}
    for given in run_sizes(sig, fixed, bool(kernel.tensor_maps)):
        try:
            env = bind(sig, given)
            break
        except TilecError:
            continue
    if env is None:
        return [Result(name, "cuda", "execution", check, "error", 0.0, "no sizes",
                       detail="no sizes bind the function's parameters: give them defaults")]
    sizes = ", ".join(f"{k}={v}" for k, v in env.items())
    free = set(sig.params) - set(fixed)  # sizes a run chooses (capped); the others are the kernel's
    too_large = "" if free else _over_budget(sig, env)
    if too_large:  # sizes fixed in the kernel's types (a PyTorch graph at its inputs' shapes)
        return [Result(name, "cuda", "execution", check, "unknown", 0.0, f"not run at {sizes or 'its fixed sizes'}",
                       detail=f"{too_large}, past what a CPU run of the CUDA takes ({RUN_WORK:.3g} multiply-adds, "
                              f"{RUN_ELEMENTS:.3g} tensor elements): its sizes are fixed in its types, so it runs "
                              f"at those alone; not run")]
    domain = f"at {sizes}, random inputs (seed {SEED}), threads run lowest-numbered first and highest first: a run, not a proof"
    if recomputes(fn):
        domain += "; each element within the output type's tolerance of Σ|W·X| (W rounded to X's type)"
    try:
        inputs = random_inputs(sig, env, SEED)
        expected = evaluate(fn, inputs, env)
        # a saved backward's sums round W before their mma: their error is measured against Σ|W·X|
        scales = magnitudes(fn, inputs, env) if recomputes(fn) else {}
    except TilecError as err:  # sizes a CPU run cannot hold: no run, said as an error
        return [Result(name, "cuda", "execution", check, "error", round(time.perf_counter() - start, 4), domain,
                       detail=f"the oracle of the run could not be computed: {err.message}")]
    for order in ORDERS:  # a warp released at a barrier running ahead; the producer running ahead
        try:
            got = run_cuda(build, sig, inputs, env, kernel=kernel, order=order)
        except TilecError as err:  # the model cannot run it (an error), or the kernel failed (a counterexample)
            refused = isinstance(err, CpuRefusal)
            return [Result(name, "cuda", "execution", check, "error" if refused else "counterexample",
                           round(time.perf_counter() - start, 4), domain, {} if refused else {"sizes": env, "order": order},
                           detail=" | ".join(err.message.splitlines()[:4])[:800])]
        for spec in sig.outputs:
            result = compare(got[spec.name], expected[spec.name], scales.get(spec.name))
            if not result.ok:
                return [Result(name, "cuda", "execution", check, "counterexample", round(time.perf_counter() - start, 4),
                               domain, {"sizes": env, "output": spec.name, "order": order},
                               detail=f"{spec.name}, threads {order}: {result} (reproduce: tilec run SPEC --stage cuda "
                                      f"--shape {','.join(f'{k}={v}' for k, v in env.items())} --thread-order {order})")]
    return [Result(name, "cuda", "execution", check, "tested", round(time.perf_counter() - start, 4), domain)]
