"""``tilec verify SPEC --stage grad``: the training pair of a spec, checked.

ta-grad builds the plain gradient ``@f_grad`` and, with ``saved=true``, the pair a training
step runs (``@f_fwd`` saving each softmax's log-sum-exp, ``@f_bwd`` reading it:
passes/ta_grad/saved.py). The report proves the pair equal to the plain gradient
(tilec/verify/saved_gradient.py) and checks the backward's own lowering as ``--stage loop``
checks a spec's: its ta rewrites as they ran and its loop IR.

    report = verify_gradient("examples/attention.ta")
"""

from __future__ import annotations

import hashlib

from torch_mlir import ir

from .. import dialects
from ..frontend import load_spec
from ..lowering.driver import copy_module, run_passes
from ..verify.report import Result, Report
from ..verify.saved_gradient import check_saved_gradient
from ..diagnostics import TilecError
from .verification import check_spec


def verify_gradient(path: str, shapes: dict | None = None) -> Report:
    """The report of the spec's training pair at ``path`` (sizes ``shapes`` bound first)."""
    text = open(path).read()
    report = Report(path, hashlib.sha256(text.encode()).hexdigest(), "ta-grad{saved=true}")
    with dialects.context(), ir.Location.unknown():
        module = load_spec(path)
        if shapes:
            given = ",".join(f"{k}={v}" for k, v in shapes.items())
            run_passes(module, [f"ta-specialize-shapes{{shapes={given}}}"])
        plain, pair = copy_module(module), copy_module(module)
        try:
            run_passes(plain, ["ta-grad"])
            run_passes(pair, ["ta-grad{saved=true replace=true}"])
        except TilecError as err:
            name = ir.StringAttr(module.body.operations[0].attributes["sym_name"]).value
            report.results.append(Result(name, "ta", "gradient", "ta-grad builds the spec's gradient", "error", 0.0,
                                         "", detail=err.message))
            return report
        grad = list(plain.body.operations)[1]
        fwd, bwd = list(pair.body.operations)
        report.results += check_saved_gradient(grad, fwd, bwd)
        fwd.operation.erase()  # the backward alone, as the lowering takes it
        report.results += check_spec(pair, "", path, shapes, "loop")
    return report
