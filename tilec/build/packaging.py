"""The package of one kernel, built per target: for each, its launch manifest (every field the
runtime reads to launch it), its CUDA source and its cubin, as files of a .tkp.

    manifest, files = package_build({"sm_80": tiled_80, "sm_90a": tiled_90a}, "gemm.ta", text)
    write_atomically(Path("gemm.tkp"), manifest, files)

What builds a kernel and decides what is packaged (one kernel or a graph's) is tilec.build.plan;
``tilec compile -o NAME.tkp`` and its cache are tilec.build.package.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..build_id import build_id
from ..codegen.compile import check_limits, compile_cuda, registered
from ..codegen.cuda import emit_cuda
from ..diagnostics import TilecError
from ..dialects.dims import parse_dim
from ..dialects.op_rules import features_used
from ..fileio import replace_atomically
from ..runtime.package import write_package
from ..signature import signature

PACKAGED_ELEMENTS = ("f32", "f16", "bf16")  # what a launch manifest's tensors hold (runtime/dims.py)


def _element(spec) -> str:
    if spec.element not in PACKAGED_ELEMENTS:
        raise TilecError(f"'{spec.name}' holds {spec.element}; a package's tensors hold {', '.join(PACKAGED_ELEMENTS)}",
                         spec.loc)
    return spec.element


def dim_tree(expr):
    """A DimExpr as JSON data for the runtime: int, parameter name, or [op, a, b]."""
    if expr.op == "const":
        return expr.value
    if expr.op == "sym":
        return expr.value
    return [expr.op, dim_tree(expr.args[0]), dim_tree(expr.args[1])]


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


def package_build(builds: dict, source_name: str, text: str, compiler: str = "nvrtc",
                  kernels: dict | None = None) -> tuple[dict, dict]:
    """(manifest, files) of the package of ``builds`` (target -> the TileBuild lowered for it,
    in their context): one kernel per target, each its CUDA source, its cubin and its launch
    manifest. ``text`` is the source they came from (a spec, or the ta IR of a PyTorch graph),
    kept in the manifest; ``kernels``: target -> its emitted CUDA, where the caller has it."""
    kernels = dict(kernels or {})
    for target, tiled in builds.items():
        kernels.setdefault(target, None)
        kernels[target] = kernels[target] or emit_cuda(tiled.tile)
    manifest = {"tilec_version": build_id(), "compiler": compiler,
                "spec": {"file": source_name, "text": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
                "kernels": {t: launch_manifest(builds[t], t, kernels[t]) for t in builds}}
    files = {}
    # one NVRTC (or nvcc) run per target; each releases the GIL, so they run side by side
    with ThreadPoolExecutor(max_workers=max(len(builds), 1)) as pool:
        built = list(pool.map(lambda t: compile_cuda(kernels[t].source, kernels[t].name, t, compiler), builds))
    for target, (cubin, facts) in zip(builds, built):
        entry = manifest["kernels"][target]
        files[entry["source"]] = kernels[target].source.encode()
        files[entry["cubin"]] = cubin
        entry["ptxas"] = facts.as_dict()
    return manifest, files


def launch_manifest(tiled, target: str, kernel) -> dict:
    """The launch manifest of ``target``'s kernel in a package: ``tiled`` (lowered for it),
    emitted as ``kernel``, before its cubin is compiled (``ptxas`` not yet there): every field
    the runtime reads to launch it. ``tilec verify PKG.tkp`` compares a package's fields with these."""
    sig = signature(tiled.ta.body.operations[0])
    check_targets(tiled, (target,))
    manifest = {
        "kernel": kernel.name, "variants": kernel.variants,
        "source": f"{kernel.name}.{target}.cu", "cubin": f"{kernel.name}.{target}.cubin",
        "schedule": kernel.schedule, "threads": kernel.threads, "smem_bytes": kernel.smem_bytes,
        "grid": [dim_tree(parse_dim(g)) for g in kernel.grid],
        "params": list(sig.params), "fixed": dict(tiled.fixed),
        # the sizes the kernel is defined (and proved) for, where the function states them: checked at launch
        "ranges": {name: list(r) for name, r in sig.ranges},
        "args": [{"role": role, "name": name,
                  "dtype": _element(_spec_of(sig, role, name)) if role != "param" else "index",
                  "dims": [dim_tree(d) for d in _spec_of(sig, role, name).dims] if role != "param" else []}
                 for role, name, _ in kernel.args],
        "tensor_maps": [{"arg": arg, "box": list(box), "swizzle": swizzle, **_view(kernel.args, sig, arg)}
                        for arg, box, swizzle in kernel.tensor_maps],
        # every kernel waits for the grid before it at entry (codegen.cuda.GRID_DEPENDENCY): the runtime
        # may launch it before that grid ends
        "grid_dependency": "wait at entry",
    }
    if kernel.persistent:  # grid x counts tiles; the launch runs as many CTAs as fit at once
        manifest["persistent"] = True
    if kernel.workspace:  # split-K: the launch passes its tiles and counts (runtime/workspace.py)
        manifest["workspace"] = dict(kernel.workspace)
    check_limits(target, kernel.threads, kernel.smem_bytes)
    return manifest


def _spec_of(sig, role: str, name: str):
    for spec in (sig.inputs if role == "input" else sig.outputs):
        if spec.name == name:
            return spec
    raise TilecError(f"no {role} named {name}")


def write_atomically(path: Path, manifest: dict, files: dict) -> None:
    replace_atomically(path, lambda tmp: write_package(tmp, manifest, files))
