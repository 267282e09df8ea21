"""``tilec verify``: Z3 proofs (or counterexamples) for every kernel tilec emits.

verify_module(ta_module, schedule) lowers the spec the way ``tilec compile`` does and
checks the tile program against the ta it came from; see docs/verification.md.
"""

from __future__ import annotations

import hashlib

from torch_mlir import ir

from .report import Report, Result


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


__all__ = ["Report", "Result", "verify_spec"]
