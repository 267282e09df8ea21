"""``tilec compile SPEC -o NAME.tkp``: spec -> tile IR -> CUDA -> cubin per target -> zip, verified.

Packages are cached (tilec/cache.py: ``kernels/``) by a hash of everything that affects them
(spec text, schedule, targets, compiler, tilec version and source: build_id.py); an entry is
shipped only when its seal holds and it reads as the package of the spec asked for.
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from torch_mlir import ir

from .. import cache, dialects
from ..build_id import build_id
from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError
from ..fileio import replace_atomically
from ..lowering.driver import schedule_targets
from ..frontend import load_spec
from ..runtime.package import PackageError, read_package
from .packaging import check_targets
from .plan import Kernels, per_target, schedule_text
from .proofs import load_report, proof_key, store_report
from ..verify.report import Report


def cache_key(spec_text: str, schedules: str | dict, targets: tuple, compiler: str) -> str:
    """The kernel cache's key of a package: everything that changes what it holds."""
    schedule = ";".join(f"{k}={v}" for k, v in sorted(per_target(schedules).items()))
    text = "\0".join([spec_text, schedule, ",".join(targets), compiler, build_id()])
    return hashlib.sha256(text.encode()).hexdigest()


def _is_package_of(data: bytes, name: str, text: str, shapes: dict, targets: tuple, compiler: str,
                   verify: bool) -> bool:
    """Whether the sealed kernel-cache entry ``name`` (bytes ``data``) reads as the package of
    spec ``text`` at ``shapes`` for ``targets`` by ``compiler`` and this tilec (verified when
    ``verify``); one that does not is discarded. The seal binds the key; this catches a key
    that was computed wrong, or a package sealed by hand."""
    try:
        package = read_package(io.BytesIO(data))
    except PackageError as err:
        cache.discard("kernels", name, f"is not a readable package ({str(err).split(': ', 1)[-1]})",
                      "building it again")
        return False
    manifest = package.manifest
    claims = [manifest["spec"]["text"] == text, set(package.targets) == set(targets),
              manifest.get("compiler") == compiler, manifest.get("tilec_version") == build_id(),
              all(package.kernel(t).get("fixed", {}).get(k) == v for t in package.targets for k, v in shapes.items()),
              ("verify.json" in manifest["files"]) == verify]
    if not all(claims):
        cache.discard("kernels", name, "is the package of another spec, sizes, targets or build", "building it again")
    return all(claims)


def build(spec: str, output: str, schedule: str | dict = "", targets: tuple = (),
          compiler: str = "nvrtc", use_cache: bool = True, verify: bool = True,
          shapes: dict | None = None, on_report=None) -> dict:
    """Compile ``spec`` into the package ``output``: a kernel for each of ``targets`` (every
    target that runs the schedule when none are named), each by its target's pipeline at its
    schedule (``schedule``: one for every target, or target -> schedule, "*" for the rest);
    returns the manifest (without hashes).

    With ``verify`` (the default) each kernel that is packaged is the one verified (one
    TileBuild per target): ``on_report(report)`` sees the report, a failing one stops the build,
    a passing one is shipped inside the package. Reports are kept by what they prove
    (tilec/build/proofs.py), so a rebuild of the same kernels does not prove again."""
    text = Path(spec).read_text()
    schedules = per_target(schedule)
    targets = tuple(targets) or schedule_targets(schedules.get("*", ""))
    shapes = dict(shapes or {})
    fixed = ",".join(f"{k}={v}" for k, v in sorted(shapes.items()))
    key = cache_key(text + "\0" + fixed + ("\0verified" if verify else ""), schedules, targets, compiler)
    name = f"{key}.tkp"
    data = cache.read("kernels", name, key, "building it again") if use_cache else None
    if data is not None and _is_package_of(data, name, text, shapes, targets, compiler, verify):
        replace_atomically(Path(output), lambda tmp: Path(tmp).write_bytes(data))
        return {"cached": str(cache.where("kernels") / name), **read_package(io.BytesIO(data)).manifest}
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        kernels = Kernels.of(module, schedules, shapes=shapes)
        if kernels.count > 1:  # the plan says: several kernels, which a graph package holds
            stem = Path(spec).stem
            raise TilecError(f"{spec}: '{stem}' is {kernels.count} kernels, and a kernel package (.tkp) holds one: "
                             f"write a graph package instead (tilec compile {spec} -o {stem}.tkg)")
        builds = kernels.lower_each(module, None, targets=targets)  # the builds that are proved and packaged
        emitted = {t: emit_cuda(tiled.tile) for t, tiled in builds.items()}
        for t, tiled in builds.items():  # before proving: a kernel its target cannot take is not verified
            check_targets(tiled, (t,))
        report = None
        if verify:
            report = verify_build(module, builds, spec, text, schedule_text(schedules), use_cache)
            if on_report is not None:
                on_report(report)
            if report.status():
                raise TilecError(f"{spec}: verification failed ({report.summary()}); no package written "
                                 f"(--no-verify builds it unverified)")
        # the verification report ships inside; its hash in the manifest ties it to the cubins
        manifest = kernels.package(output, Path(spec).stem, targets, compiler, report,
                                   source=(os.path.basename(spec), text), kernels=emitted)
    if use_cache:
        cache.write("kernels", name, key, Path(output).read_bytes())
    return manifest


def verify_build(module, builds: dict, name: str, text: str, schedule: str, use_cache: bool = False):
    """The verification report of the TileBuilds ``builds`` (target -> its build) of ``module``
    (what will be packaged); with ``use_cache`` one kept for the very same tile modules is
    taken (tilec/build/proofs.py)."""
    fixed = next(iter(builds.values())).fixed
    key = proof_key(text, name, fixed, "\0".join(f"{t}\0{b.tile}" for t, b in builds.items()), tuple(builds))
    cached = load_report(key) if use_cache else None
    if cached is not None:
        return cached
    from .verification import check_builds  # the checks import torch (the oracle): here, when they run

    report = Report(name, hashlib.sha256(text.encode()).hexdigest(), schedule)
    report.results += check_builds(module, builds, name)
    if use_cache:
        store_report(key, report)
    return report
