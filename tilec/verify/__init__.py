"""``tilec verify``: Z3 proofs (or counterexamples) for every kernel tilec emits.

verify_spec(path, schedule, shapes) builds the tile kernel the way ``tilec compile`` does
(driver.build_tile), checks it against the ta it came from, emits and compiles its CUDA,
and checks the loop IR; verify_package rebuilds a package's kernel from its manifest and
checks it is the one shipped. See docs/verification.md.
"""

from __future__ import annotations

import hashlib

from torch_mlir import ir

from .report import Report, Result


def verify_package(path: str) -> Report:
    """Verify a kernel package: rebuild its tile kernel from the spec, schedule, fixed sizes and
    targets in its manifest, check that this gives the package's very CUDA source (so the proofs
    are about the shipped cubins), then verify that kernel."""
    from tilec import dialects
    from tilec.runtime import read_package

    from ..diagnostics import TilecError
    from ..driver import build_tile
    from ..frontend import spec_to_ta
    from .kernels import check_spec

    try:
        package = read_package(path)
    except ValueError as err:
        raise TilecError(str(err)) from None
    m = package.manifest
    schedule = " ".join(m["schedule"].split(","))
    fixed = {k: int(v) for k, v in m.get("fixed", {}).items()}
    targets = tuple(m.get("targets", {})) or ("sm_80", "sm_90a")
    text = m["spec"]["text"]
    report = Report(f"{path} ({m['spec']['file']})", hashlib.sha256(text.encode()).hexdigest(), m["schedule"])
    with dialects.context(), ir.Location.unknown():
        module = _ta_of(text, m["spec"]["file"], spec_to_ta)
        build = build_tile(module, fixed, schedule)
        from tilec.codegen.cuda import emit_cuda
        source = emit_cuda(build.tile).source
        report.results += check_spec(module, schedule, m["spec"]["file"], fixed, build=build, targets=targets)
    shipped = package.files[f"{m['kernel']}.cu"].decode()
    same = source == shipped
    report.results.insert(0, Result(m["kernel"], "cuda", "equivalence",
                                    "the package's CUDA source is what this spec, schedule and sizes lower to",
                                    "proved" if same else "error", 0.0, "the whole source text", {},
                                    "" if same else "the package was not built from its spec by this tilec"))
    return report


def _ta_of(text: str, name: str, spec_to_ta):
    """The ta module of a package's source: a spec, or the ta IR of a PyTorch graph."""
    if name.endswith(".mlir"):
        from ..diagnostics import check_nesting, from_mlir_error

        check_nesting(text, name)  # a package is data: no IR deep enough to overflow MLIR's parser
        try:
            return ir.Module.parse(text)
        except ir.MLIRError as err:
            raise from_mlir_error(err, name, text) from None
    return spec_to_ta(text, name)


def verify_spec(path: str, schedule: str = "", shapes: dict | None = None, stage: str = "tile",
                targets: tuple = ("sm_80", "sm_90a")) -> Report:
    """The report of every kernel of the spec at ``path``, built as ``tilec compile`` builds it
    (``schedule``, ``shapes``); ``stage="loop"`` checks the loop IR alone."""
    from tilec import dialects
    from tilec.frontend import load_spec

    text = open(path).read()
    report = Report(path, hashlib.sha256(text.encode()).hexdigest(), schedule or "default")
    with dialects.context(), ir.Location.unknown():
        module = load_spec(path)
        from .kernels import check_spec
        report.results += check_spec(module, schedule, path, shapes, stage, targets=targets)
    return report


__all__ = ["Report", "Result", "verify_package", "verify_spec"]
