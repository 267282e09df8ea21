"""Building kernel packages (.tkp): spec -> tile IR -> CUDA -> cubin per target -> zip.

Packages are cached (tilec/cache.py: ``kernels/``) by a hash of everything that affects them
(spec text, schedule, targets, compiler, tilec version and source: build_id.py); an entry is
shipped only when its seal holds and it reads as the package of the spec asked for.
"""

from __future__ import annotations

import hashlib
import io
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from torch_mlir import ir

from .. import cache, dialects
from ..build_id import build_id
from ..codegen.compile import check_limits, compile_cuda, registered
from ..dialects.dims import parse_dim
from ..dialects.tile_hopper import features_used
from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError
from ..fileio import replace_atomically
from ..lowering.driver import build_tile, lowering_target, schedule_targets
from ..frontend import load_spec
from ..runtime.package import PackageError, read_package, write_package
from ..signature import signature
from .proofs import load_report, proof_key, store_report
from .verification import check_spec
from ..verify.report import Report

_DTYPE_NAMES = {"torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16"}


def dim_tree(expr):
    """A DimExpr as JSON data for the runtime: int, parameter name, or [op, a, b]."""
    if expr.op == "const":
        return expr.value
    if expr.op == "sym":
        return expr.value
    return [expr.op, dim_tree(expr.args[0]), dim_tree(expr.args[1])]


def cache_key(spec_text: str, schedule: str, targets: tuple, compiler: str) -> str:
    text = "\0".join([spec_text, schedule, ",".join(targets), compiler, build_id()])
    return hashlib.sha256(text.encode()).hexdigest()


def _is_package_of(data: bytes, name: str, text: str, shapes: dict, targets: tuple, compiler: str,
                   verify: bool) -> bool:
    """Whether the sealed kernel-cache entry ``name`` (bytes ``data``) reads as the package of
    spec ``text`` at ``shapes`` for ``targets`` by ``compiler`` and this tilec (verified when
    ``verify``); one that does not is discarded. The seal binds the key; this catches a key
    that was computed wrong, or a package sealed by hand."""
    try:
        manifest = read_package(io.BytesIO(data)).manifest
    except PackageError as err:
        cache.discard("kernels", name, f"is not a readable package ({str(err).split(': ', 1)[-1]})",
                      "building it again")
        return False
    claims = [manifest["spec"]["text"] == text, set(manifest["targets"]) == set(targets),
              manifest.get("compiler") == compiler, manifest.get("tilec_version") == build_id(),
              all(manifest.get("fixed", {}).get(k) == v for k, v in shapes.items()),
              ("verify.json" in manifest["files"]) == verify]
    if not all(claims):
        cache.discard("kernels", name, "is the package of another spec, sizes, targets or build", "building it again")
    return all(claims)


def build(spec: str, output: str, schedule: str = "", targets: tuple = (),
          compiler: str = "nvrtc", use_cache: bool = True, verify: bool = True,
          shapes: dict | None = None, on_report=None) -> dict:
    """Compile ``spec`` into the package ``output``; returns its manifest (without hashes).

    With ``verify`` (the default) the tile kernel that is packaged is the one verified (one
    TileBuild): ``on_report(report)`` sees the report, a failing one stops the build, a passing
    one is shipped inside the package. Reports are kept by what they prove (tilec/build/proofs.py),
    so a rebuild of the same kernel does not prove again."""
    text = Path(spec).read_text()
    targets = tuple(targets) or schedule_targets(schedule)
    shapes = dict(shapes or {})
    fixed = ",".join(f"{k}={v}" for k, v in sorted(shapes.items()))
    key = cache_key(text + "\0" + fixed + ("\0verified" if verify else ""), schedule, targets, compiler)
    name = f"{key}.tkp"
    data = cache.read("kernels", name, key, "building it again") if use_cache else None
    if data is not None and _is_package_of(data, name, text, shapes, targets, compiler, verify):
        replace_atomically(Path(output), lambda tmp: Path(tmp).write_bytes(data))
        return {"cached": str(cache.where("kernels") / name)}
    with dialects.context(), ir.Location.unknown():
        module = load_spec(spec)
        tiled = build_tile(module, shapes, schedule, lowering_target(schedule, targets))
        kernel = emit_cuda(tiled.tile)
        check_targets(tiled, targets)  # before proving: a kernel some target cannot take is not verified
        report = None
        if verify:
            report = verify_build(module, tiled, spec, text, schedule, targets, use_cache)
            if on_report is not None:
                on_report(report)
            if report.status():
                raise TilecError(f"{spec}: verification failed ({report.summary()}); no package written "
                                 f"(--no-verify builds it unverified)")
        manifest, files = package_build(tiled, os.path.basename(spec), text, targets, compiler, kernel)
    if report is not None:  # the verification report; its hash in the manifest ties it to the cubins
        files["verify.json"] = report.as_json().encode()
    write_atomically(Path(output), manifest, files)
    if use_cache:
        cache.write("kernels", name, key, Path(output).read_bytes())
    return manifest


def verify_build(module, tiled, name: str, text: str, schedule: str, targets: tuple, use_cache: bool = False):
    """The verification report of the TileBuild ``tiled`` of ``module`` (what will be packaged);
    with ``use_cache`` one kept for the very same tile module is taken (tilec/build/proofs.py)."""
    key = proof_key(text, name, tiled.fixed, str(tiled.tile), tuple(targets))
    cached = load_report(key) if use_cache else None
    if cached is not None:
        return cached
    report = Report(name, hashlib.sha256(text.encode()).hexdigest(), schedule or "default")
    report.results += check_spec(module, schedule, name, tiled.fixed, build=tiled, targets=targets)
    if use_cache:
        store_report(key, report)
    return report


def _view(args, sig, name: str) -> dict:
    """{"view": dims} when the kernel reads input ``name`` through a row-major view of other
    dims than its own (views.py: [B, S, H, D] as [B, S, H*D]); the runtime builds the tensor
    map on that view."""
    for role, arg, dims in args:
        if arg == name and role != "param":
            view = [parse_dim(d) for d in dims]
            own = [str(d) for d in _spec_of(sig, role, name).dims]
            return {} if [str(d) for d in view] == own else {"view": [dim_tree(d) for d in view]}
    return {}


def check_targets(tiled, targets: tuple) -> None:
    """Refuse a kernel that some of ``targets`` cannot run: one whose ops need features (the copy
    engine, wgmma) such a target does not have."""
    used = features_used(tiled.tile.body.operations[0])
    lacking = [t for t in targets if registered(t).lacks(*used)]
    if lacking:
        runs = [t for t in targets if t not in lacking]
        raise TilecError(f"schedule {tiled.schedule.replace(' ', ',') or 'default'} builds a kernel that uses "
                         f"{', '.join(used)}, which {', '.join(lacking)} {'does' if len(lacking) == 1 else 'do'} "
                         f"not have: build it with --target {' --target '.join(runs or ['sm_90a'])} alone, or "
                         f"use consumers=0 for every target")


def package_build(tiled, source_name: str, text: str, targets: tuple,
                  compiler: str = "nvrtc", kernel=None) -> tuple[dict, dict]:
    """(manifest, files) of the package of a TileBuild (in its context); ``text`` is the
    source it came from (a spec, or the ta IR of a PyTorch graph), kept in the manifest;
    ``kernel``: its emitted CUDA, when the caller has it."""
    kernel = kernel or emit_cuda(tiled.tile)
    manifest = launch_manifest(tiled, source_name, text, targets, compiler, kernel)
    files = {f"{kernel.name}.cu": kernel.source.encode()}
    # one NVRTC (or nvcc) run per target; each releases the GIL, so they run side by side
    with ThreadPoolExecutor(max_workers=max(len(targets), 1)) as pool:
        built = list(pool.map(lambda target: compile_cuda(kernel.source, kernel.name, target, compiler), targets))
    for target, (cubin, facts) in zip(targets, built):
        name = f"{kernel.name}.{target}.cubin"
        files[name] = cubin
        manifest["targets"][target] = name
        manifest["ptxas"][target] = facts.as_dict()
    return manifest, files


def launch_manifest(tiled, source_name: str, text: str, targets: tuple, compiler: str, kernel) -> dict:
    """The manifest of the package of ``tiled`` (emitted as ``kernel``) before its cubins are
    compiled: every field the runtime reads to launch it (``targets`` and ``ptxas`` still empty).
    ``tilec verify PKG.tkp`` compares a package's fields with these."""
    sig = signature(tiled.ta.body.operations[0])
    check_targets(tiled, targets)
    manifest = {
        "kernel": kernel.name, "variants": kernel.variants, "tilec_version": build_id(), "compiler": compiler,
        "spec": {"file": source_name, "text": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
        "schedule": kernel.schedule, "threads": kernel.threads, "smem_bytes": kernel.smem_bytes,
        "grid": [dim_tree(parse_dim(g)) for g in kernel.grid],
        "params": list(sig.params), "fixed": dict(tiled.fixed),
        # the sizes the kernel is defined (and proved) for, where the function states them: checked at launch
        "ranges": {name: list(r) for name, r in sig.ranges},
        "args": [{"role": role, "name": name,
                  "dtype": _DTYPE_NAMES[str(_spec_of(sig, role, name).dtype)] if role != "param" else "index",
                  "dims": [dim_tree(d) for d in _spec_of(sig, role, name).dims] if role != "param" else []}
                 for role, name, _ in kernel.args],
        "tensor_maps": [{"arg": arg, "box": list(box), "swizzle": swizzle, **_view(kernel.args, sig, arg)}
                        for arg, box, swizzle in kernel.tensor_maps],
        "targets": {}, "ptxas": {},
        # every kernel waits for the grid before it at entry (codegen.cuda.GRID_DEPENDENCY): the runtime
        # may launch it before that grid ends
        "grid_dependency": "wait at entry",
    }
    if kernel.persistent:  # grid x counts tiles; the launch runs as many CTAs as fit at once
        manifest["persistent"] = True
    for target in targets:
        check_limits(target, kernel.threads, kernel.smem_bytes)
    return manifest


def _spec_of(sig, role: str, name: str):
    for spec in (sig.inputs if role == "input" else sig.outputs):
        if spec.name == name:
            return spec
    raise TilecError(f"no {role} named {name}")


def write_atomically(path: Path, manifest: dict, files: dict) -> None:
    replace_atomically(path, lambda tmp: write_package(tmp, manifest, files))

