"""The shipped form of a kernel: the tile module is emitted as CUDA and compiled per target.

A proof about a tile program says nothing if its CUDA cannot be built, so verification
runs the same emitter and compiler as packaging, on the same tile module, and reports
each as a row: ``proved`` when the source was emitted and compiled (with the ptxas
facts), ``error`` with the emitter's or compiler's message otherwise. The emitted text is
also run on the CPU model of the GPU against the oracle (verification_run.py, ``tested``).
"""

from __future__ import annotations

import hashlib
import time

from ..verify.report import Result
from tilec.codegen.compile import check_limits, compile_cuda, registered
from tilec.codegen.cuda import emit_cuda
from tilec.diagnostics import TilecError
from tilec.dialects.op_rules import features_used, obligations
from .cuda_cpu import build_cpu_program
from .verification_run import check_run


def compiled(source: str, name: str, target: str, compiler: str):
    """(sha256 of the cubin, ptxas facts) of ``source`` compiled for ``target`` (once per process:
    compile_cuda), for the CUDA rows and the package comparison (verification_package.py)."""
    cubin, facts = compile_cuda(source, name, target, compiler)
    return hashlib.sha256(cubin).hexdigest(), facts


def compile_ahead(kernel, target: str, compiler: str) -> None:
    """Compile ``kernel``'s CUDA for ``target`` and build its CPU program now (in a worker, while
    the proofs run), so that check_cuda finds both done; text in, no IR read. A failure is left
    for check_cuda, which compiles again and says it."""
    try:
        compiled(kernel.source, kernel.name, target, compiler)
    except TilecError:
        pass
    build_cpu_program(kernel.source)


def check_cuda(build, targets: tuple, compiler: str = "nvrtc", execute: bool = True,
               kernel=None) -> list[Result]:
    """The rows of emitting ``build.tile`` as CUDA, running that text on the CPU model of the
    GPU against the oracle (``execute``; verification_run.py) and compiling it for each target
    (``kernel``: the CUDA emitted from ``build.tile``, where the caller has it)."""
    from torch_mlir import ir

    fn = build.tile.body.operations[0]
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    start = time.perf_counter()
    try:
        kernel = kernel or emit_cuda(build.tile)
    except (TilecError, ValueError, KeyError, NotImplementedError) as err:
        return [Result(name, "cuda", "build", "the tile program is emitted as CUDA", "error",
                       round(time.perf_counter() - start, 4), "the emitted module",
                       detail=f"the CUDA emitter failed: {err}")]
    digest = hashlib.sha256(kernel.source.encode()).hexdigest()
    lowered = ir.StringAttr(build.tile.operation.attributes["tile.target"]).value  # emit_cuda read it
    rows = [Result(name, "cuda", "build", f"the tile program, lowered for {lowered}, is emitted as its CUDA",
                   "proved", round(time.perf_counter() - start, 4), f"source sha256 {digest[:16]}")]
    for check_own in obligations(fn, "cuda-obligations"):  # what a target's own ops bring (sm_90a: setmaxnreg)
        rows += check_own(fn, kernel.source, name, digest)
    if execute:  # the text itself, run (a test: its verdict is "tested")
        rows += check_run(build, kernel, name)
    for target in targets:
        start = time.perf_counter()
        check = f"the CUDA source compiles for {target} ({compiler})"
        try:
            lacking = registered(target).lacks(*features_used(fn))
            if lacking:  # the module was lowered for a target with features this one has not
                raise TilecError(f"the kernel uses {', '.join(lacking)}, which {target} does not have")
            check_limits(target, kernel.threads, kernel.smem_bytes)
            cubin_digest, facts = compiled(kernel.source, kernel.name, target, compiler)
        except TilecError as err:
            rows.append(Result(name, "cuda", "build", check, "error", round(time.perf_counter() - start, 4),
                               f"source sha256 {digest[:16]}", detail=" | ".join(err.message.splitlines()[:4])[:800]))
            continue
        rows.append(Result(name, "cuda", "build", check, "proved", round(time.perf_counter() - start, 4),
                           f"cubin sha256 {cubin_digest[:16]}", counterexample={},
                           detail=f"{facts.registers} registers, {facts.spill_stores} bytes spilled"
                           + (", wgmmas serialised by ptxas (C7514)" if facts.wgmma_serialized else "")))
    return rows
