"""``tilec verify``: Z3 proofs (or counterexamples) for every kernel tilec emits.

verify_module(ta_module, schedule) lowers the spec the way ``tilec compile`` does and
checks the tile program against the ta it came from; see docs/verification.md.
"""

from __future__ import annotations

import hashlib

from torch_mlir import ir

from .report import Report, Result


def verify_package(path: str) -> Report:
    """Verify a kernel package: re-lower its spec with its schedule, check that this gives the
    package's very CUDA source (so the proofs are about the shipped cubins), then verify."""
    import os
    import tempfile

    from tilec.runtime import read_package

    from ..diagnostics import TilecError

    try:
        package = read_package(path)
    except ValueError as err:
        raise TilecError(str(err)) from None
    m = package.manifest
    schedule = " ".join(m["schedule"].split(","))
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, m["spec"]["file"])
        with open(spec, "w") as handle:
            handle.write(m["spec"]["text"])
        report = verify_spec(spec, schedule)
        report.spec = f"{path} ({m['spec']['file']})"
        from tilec import dialects
        from tilec.codegen.cuda import emit_cuda
        from tilec.driver import to_tile
        from tilec.frontend import load_spec
        with dialects.context(), ir.Location.unknown():
            source = emit_cuda(to_tile(load_spec(spec), schedule)).source
    shipped = package.files[f"{m['kernel']}.cu"].decode()
    same = source == shipped
    report.results.insert(0, Result(m["kernel"], "cuda", "equivalence",
                                    "the package's CUDA source is what this spec and schedule lower to",
                                    "proved" if same else "error", 0.0, "the whole source text", {},
                                    "" if same else "the package was not built from its spec by this tilec"))
    return report


def verify_spec(path: str, schedule: str = "") -> Report:
    from tilec import dialects
    from tilec.frontend import load_spec

    text = open(path).read()
    report = Report(path, hashlib.sha256(text.encode()).hexdigest(), schedule or "default")
    with dialects.context(), ir.Location.unknown():
        module = load_spec(path)
        from .kernels import check_spec
        report.results += check_spec(module, schedule, path)
    return report


__all__ = ["Report", "Result", "verify_package", "verify_spec"]
