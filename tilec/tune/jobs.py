"""Compiling tuning candidates, side by side.

A candidate is compiled from data alone (the spec's text, the sizes, the schedule, the
target), in an MLIR context of its own, so the same function runs in this process, in a
pool of local processes or on a Ray worker (fanout.py), and gives the same package: the
tile module's hash says so. Most of a candidate's time is NVRTC, which holds the CPU, so
candidates go to separate processes (started fresh: MLIR contexts are not fork-safe).

    jobs = [Job(text, "gemm.ta", {"M": 4096}, "bm=128,bn=256,...", "sm_90a"), ...]
    built = compile_here(jobs, workers=2, done=print)   # [dict], in the order of jobs
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Job:
    """One candidate to compile: everything it needs, as plain data (sent to other processes)."""
    spec_text: str
    spec_name: str
    shapes: dict = field(hash=False)
    schedule: str   # Schedule.as_text: bm=...,bn=...
    target: str
    compiler: str = "nvrtc"


def tile_hash(build) -> str:
    """The sha256 of a candidate's tile module as printed: what is measured is what is proved."""
    return hashlib.sha256(str(build.tile).encode()).hexdigest()


def compile_candidate(job: Job) -> dict:
    """Spec to kernel package (bytes) at the job's schedule: {schedule, package_bytes,
    tile_sha256, registers, spill_bytes, fixed, seconds}, or {schedule, error} when it does
    not build (an error is the candidate's, not the search's)."""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.diagnostics import TilecError
    from tilec.lowering.driver import build_tile
    from tilec.frontend import source_to_ta
    from tilec.build.packaging import package_build
    from tilec.runtime.package import write_package

    start = time.perf_counter()
    try:
        with dialects.context(), ir.Location.unknown():
            module = source_to_ta(job.spec_text, job.spec_name)
            build = build_tile(module, job.shapes, job.schedule, job.target)
            manifest, files = package_build({job.target: build}, job.spec_name, job.spec_text, job.compiler)
            digest, fixed = tile_hash(build), dict(build.fixed)
    except TilecError as err:
        return {"schedule": job.schedule, "error": err.message}
    buffer = io.BytesIO()
    write_package(buffer, manifest, files)
    facts = manifest["kernels"][job.target]["ptxas"]
    return {"schedule": job.schedule, "package_bytes": buffer.getvalue(), "tile_sha256": digest,
            "registers": facts["registers"], "spill_bytes": facts["spill_stores"], "fixed": fixed,
            "seconds": time.perf_counter() - start}


def default_workers() -> int:
    """The processes to compile in: the CPUs this process may use."""
    return max(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 1)


def compile_here(jobs: list[Job], workers: int | None = None, done=None) -> list[dict]:
    """Compile ``jobs`` on this machine, ``workers`` processes at a time (1: in this process);
    ``done(n_done, result)`` is called as each finishes. Results in the order of ``jobs``."""
    workers = min(workers or default_workers(), len(jobs)) or 1
    results: list = [None] * len(jobs)
    if workers == 1:
        for n, job in enumerate(jobs):
            results[n] = compile_candidate(job)
            if done:
                done(n + 1, results[n])
        return results
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(compile_candidate, job): n for n, job in enumerate(jobs)}
        for finished, future in enumerate(as_completed(futures)):
            results[futures[future]] = future.result()
            if done:
                done(finished + 1, results[futures[future]])
    return results
