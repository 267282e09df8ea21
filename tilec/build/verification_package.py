"""``tilec verify PKG.tkp``: a package's proofs hold for the bytes and fields that run.

Each target's kernel is rebuilt from the manifest's source and that kernel's schedule and fixed
sizes by the target's pipeline, with the package's compiler (as ``tilec compile`` built it), and
everything the runtime reads is compared with the rebuilt one: each launch field (arguments and
their dtypes and dims, grid, threads, shared memory, variants, tensor maps, ...), the CUDA
source and the cubin's bytes. Only when every kernel agrees are the proofs run, on the very
tile modules that give them; otherwise each kernel that differs is an ``error`` row naming what
differs, and nothing in the report is ``proved`` but those comparisons:

    report = verify_package("gemm.tkp")     # rows: "package" per target (the comparison), then the proofs
"""

from __future__ import annotations

import hashlib
import json

from torch_mlir import ir

from ..verify.report import Report, Result
from tilec import dialects
from tilec.runtime import read_package
from .packaging import launch_manifest
from .verification import check_builds
from .verification_cuda import compiled
from ..codegen.cuda import emit_cuda
from ..diagnostics import check_nesting, from_mlir_error, TilecError
from ..frontend import spec_to_ta
from ..lowering.driver import build_tile, lowering_target

# what the manifest holds that no launch reads, or that the comparison treats on its own
_NOT_COMPARED = {"ptxas"}


def verify_package(path: str) -> Report:
    """The report of the package at ``path``: for each target's kernel, the comparison of every
    field and file with a rebuild by that target's pipeline, then (when every kernel agrees) the
    proofs of the rebuilt kernels. TilecError for a file that is no readable package."""
    try:
        package = read_package(path)
    except ValueError as err:
        raise TilecError(str(err)) from None
    m = package.manifest
    compiler = m.get("compiler", "nvrtc")
    if compiler not in ("nvrtc", "nvcc"):
        raise TilecError(f"{path}: manifest.json 'compiler' is {compiler!r}; tilec builds with nvrtc or nvcc")
    text = m["spec"]["text"]
    schedules = {t: package.kernel(t)["schedule"] for t in package.targets}
    named = next(iter(schedules.values())) if len(set(schedules.values())) == 1 else \
        "; ".join(f"{t}: {s}" for t, s in schedules.items())
    report = Report(f"{path} ({m['spec']['file']})", hashlib.sha256(text.encode()).hexdigest(), named)
    with dialects.context(), ir.Location.unknown():
        module = _ta_of(text, m["spec"]["file"], spec_to_ta, TilecError)
        builds, agree = {}, True
        for target in package.targets:
            entry = package.kernel(target)
            fixed = {k: int(v) for k, v in entry.get("fixed", {}).items()}
            build = build_tile(module, fixed, " ".join(entry["schedule"].split(",")), lowering_target(
                " ".join(entry["schedule"].split(",")), (target,)))
            kernel = emit_cuda(build.tile)
            expected = json.loads(json.dumps(launch_manifest(build, target, kernel)))
            differs = _fields(entry, expected) + _files(package, entry, kernel, target, compiler)
            report.results.append(Result(
                entry["kernel"], "package", "equivalence",
                "the package's launch fields, CUDA source and cubin are what its source, schedule and sizes build",
                "error" if differs else "proved", 0.0,
                f"every manifest field the runtime reads, the source and the cubin of {target}", {},
                _detail(differs), target=target))
            builds[target], agree = build, agree and not differs
        if agree:
            report.results += check_builds(module, builds, m["spec"]["file"], compiler=compiler)
    return report


def _ta_of(text: str, name: str, spec_to_ta, error):
    """The ta module of a package's source: a spec, or the ta IR of a PyTorch graph (one
    func.func; the IR is data, parsed with bounded nesting)."""
    if not name.endswith(".mlir"):
        return spec_to_ta(text, name)

    check_nesting(text, name)  # no IR deep enough to overflow MLIR's parser
    try:
        module = ir.Module.parse(text)
    except ir.MLIRError as err:
        raise from_mlir_error(err, name, text) from None
    ops = list(module.body.operations)
    if len(ops) != 1 or ops[0].operation.name != "func.func":
        raise error(f"{name}: holds no ta function (a package's source is one func.func of ta ops, found "
                    f"{len(ops)} top-level operation(s))")
    return module


def _fields(manifest: dict, expected: dict) -> list[str]:
    """The launch fields of ``manifest`` that are not the rebuilt ones, each with both values."""
    names = sorted((set(manifest) | set(expected)) - _NOT_COMPARED)
    return [f"'{k}' is {_short(manifest.get(k))}, the rebuild gives {_short(expected.get(k))}"
            for k in names if manifest.get(k) != expected.get(k)]


def _files(package, entry: dict, kernel, target: str, compiler: str) -> list[str]:
    """What differs between the CUDA source and cubin (and its ptxas facts) of ``target``'s
    kernel in the package and the rebuilt ones; the cubin comes from the compile the proofs'
    CUDA rows use."""
    if package.files.get(entry["source"]) != kernel.source.encode():
        return [f"the CUDA source {entry['source']} is not what the tile module emits (the package was not built "
                f"from its source by this tilec)"]
    try:
        digest, facts = compiled(kernel.source, kernel.name, target, compiler)
    except TilecError as err:
        return [f"the source does not compile for {target} here ({err.message.splitlines()[0]})"]
    differs = []
    if hashlib.sha256(package.files[entry["cubin"]]).hexdigest() != digest:
        differs.append(f"the cubin {entry['cubin']} is not the one {compiler} compiles for {target} from this source "
                       f"(another compiler version, or changed bytes)")
    if entry.get("ptxas") != facts.as_dict():
        differs.append(f"'ptxas' of {target} is {_short(entry.get('ptxas'))}, the compile gives "
                       f"{_short(facts.as_dict())}")
    return differs


def _detail(differs: list[str]) -> str:
    if not differs:
        return ""
    more = f" (and {len(differs) - 4} more)" if len(differs) > 4 else ""
    return ("; ".join(differs[:4]) + more + ". The proofs are not run: they would be about another kernel than "
            "the one this package launches")


def _short(value) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."
