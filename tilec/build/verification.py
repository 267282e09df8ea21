"""Build, emit and compile a kernel, then hand the very modules to the verifier.

The verifier (tilec.verify) checks modules it is given and builds nothing: this module is
where the driver, the CUDA emitter and the compiler run, so that what is checked is what
``tilec compile`` packages.

    verify_spec(path, schedule, shapes)  (verification_spec.py) the report of a spec's kernels, built
                                         as compile builds them (one, or a graph's)
    verify_package(path)                 (verification_package.py) the report of a package, rebuilt
                                         from its manifest and compared field by field and byte by byte
    check_spec(module, ...)              the rows of one ta module (used by both, and by packaging)
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor, wait

from torch_mlir import ir

from ..verify.report import Report, Result
from tilec import dialects
from tilec.frontend import load_spec
from .verification_cuda import check_cuda, compile_ahead
from ..codegen.compile import check_limits
from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError
from ..dialects.target import names as target_names
from ..lowering.driver import (build_loops, build_tile, legal_schedules, lowering_target, parse_schedule,
                               schedule_targets)
from ..verify.kernels import check_build, check_loop_build, check_rewrites


def verify_schedules(path: str, shapes: dict | None = None, targets: tuple = (),
                     progress=None) -> Report:
    """The report of the spec's kernel at every legal point of its form's schedule space
    (Schedule.space): each point is built, checked and compiled as ``verify_spec`` does one;
    a point that ta-to-tile refuses, or that exceeds a target's shared memory or threads, is
    listed in ``report.space["illegal"]`` with the reason. The rewrites and the loop IR, the
    same at every point, are checked once. ``progress(done, total, report)`` is called after
    each point."""
    text = open(path).read()
    report = Report(path, hashlib.sha256(text.encode()).hexdigest(), "all legal")
    with dialects.context(), ir.Location.unknown():
        module = load_spec(path)
        # the points some target runs (the warp-specialised ones where a target has their features)
        targets = tuple(targets) or tuple(target_names())
        form, built, illegal = legal_schedules(module, shapes, targets)
        checked, seen = [], set()
        for done, (point, build) in enumerate(built, 1):
            if progress is not None and done > 1:
                progress(done - 1, len(built), report)
            # the targets with the features the point's kernel uses (a warp-specialised one: the copy engine, wgmma)
            point_targets = tuple(parse_schedule(point).runs_on(targets))
            try:  # the pass checks the form's rules; the targets' limits need the emitted kernel
                kernel = emit_cuda(build.tile)
                for target in point_targets:
                    check_limits(target, kernel.threads, kernel.smem_bytes)
            except TilecError as err:
                illegal[point] = err.message
                continue
            # a sweep proves each point; running each point's CUDA is left to verify_spec and packaging
            rows = check_build(build, path) + check_cuda(build, point_targets, execute=False)
            for row in rows:
                row.schedule = point
            report.results += check_rewrites(build.steps, seen) + rows
            checked.append(point)
        if progress is not None and built:
            progress(len(built), len(built), report)
        loops = build_loops(module)
        report.results += check_rewrites(loops.steps, seen) + check_loop_build(loops, path)
    report.space = {"form": form, "checked": checked, "illegal": illegal}
    if not checked:
        report.results.append(Result(path, "tile", "build", f"some schedule of the {form} space is legal", "error",
                                     0.0, f"{len(illegal)} points", detail="no legal schedule"))
    return report


def check_spec(module, schedule: str, path: str, shapes: dict | None = None, stage: str = "tile",
               build=None, targets: tuple = (), given: dict | None = None,
               compiler: str = "nvrtc") -> list[Result]:
    """Every property of the kernel of ``module`` (a ta module): the ta rewrites as they ran,
    the tile kernel built under ``schedule`` and ``shapes`` (or the given ``build``, the very
    one that is packaged), its CUDA, and the loop IR. With ``stage="loop"`` only the rewrites
    and the loop IR are checked (specs with no tile kernel); otherwise a tile kernel that cannot
    be built is an ``error`` row. ``given``: sizes bound on ``module`` already (a split piece of
    a spec built with --shape); the replay commands of counterexamples name them. ``compiler``
    compiles the CUDA rows' cubin (a package's own). Without ``build`` the kernel is lowered for
    the target whose kernel every one of ``targets`` runs (driver.lowering_target; all
    registered ones when none is named); a package's kernels, one per target: check_builds."""
    if build is not None and targets and tuple(targets) != (build.target,):
        raise ValueError(f"a build for {build.target} is checked for its own target, not for {', '.join(targets)}")
    if stage == "tile" and build is None:
        try:
            targets = tuple(targets) or schedule_targets(schedule)
            build = build_tile(module, shapes, schedule, lowering_target(schedule, targets))
        except TilecError as err:
            return [refused(module, schedule, shapes, err)] + check_spec(module, schedule, path, shapes, "loop",
                                                                         given=given)
    return check_builds(module, {build.target: build} if build is not None else {}, path, given, compiler)


def check_builds(module, builds: dict, path: str, given: dict | None = None, compiler: str = "nvrtc") -> list[Result]:
    """check_spec's rows for the kernels of ``module`` built per target (``builds``: target ->
    TileBuild, each by that target's pipeline, as a package holds them): the rewrites and the
    loop IR once, and each kernel's tile and CUDA rows, naming its target."""
    results, seen = [], set()
    kernels = {}
    for target, build in builds.items():
        try:
            kernels[target] = emit_cuda(build.tile)
        except (TilecError, ValueError, KeyError, NotImplementedError):
            pass  # check_cuda emits it again and says why it fails
    # the CUDA's NVRTC compile and its CPU build run in a worker (a library call and a subprocess)
    # while the proofs run here: on attention about a second and a half of the command
    with ThreadPoolExecutor(max_workers=1) as pool:
        ahead = [pool.submit(compile_ahead, kernel, target, compiler) for target, kernel in kernels.items()]
        for target, build in builds.items():
            results += check_rewrites(build.steps, seen)
            rows = check_build(build, path, given)
            wait(ahead)
            rows += check_cuda(build, (target,), compiler, kernel=kernels.get(target))
            for row in rows:
                row.target = target
            results += rows
    loops = build_loops(module)
    results += check_rewrites(loops.steps, seen)
    results += check_loop_build(loops, path, given)
    return results


def refused(module, schedule: str, shapes: dict | None, err) -> Result:
    """The report's row for a function of which no tile kernel is built: ``err`` (a TilecError)
    says why, as an ``error`` (never a skip)."""
    name = ir.StringAttr(module.body.operations[0].attributes["sym_name"]).value
    return Result(name, "tile", "build", "the spec lowers to a tile kernel", "error", 0.0,
                  f"schedule '{schedule or 'default'}', shapes {dict(shapes or {})}",
                  detail=f"no tile kernel: {err.message}")


__all__ = ["check_builds", "check_spec", "refused", "verify_schedules"]
