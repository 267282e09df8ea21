"""``tilec verify SPEC --stage grad``: the training pair of a spec, checked.

ta-grad builds the plain gradient ``@f_grad`` and, with ``saved=true``, the pair a training
step runs (``@f_fwd`` saving each softmax's log-sum-exp, ``@f_bwd`` reading it:
passes/ta_grad/saved.py). The report proves the pair equal to the plain gradient
(tilec/verify/saved_gradient.py) and checks the backward's own lowering as ``tilec verify``
checks a spec's: its kernels as ``tilec compile`` builds them (tile, CUDA and loop rows; a
backward no kernel takes is an ``error`` row, its loop IR still checked), or with
``stage="grad-loop"`` its ta rewrites and loop IR alone, as ``--stage loop`` does.

    report = verify_gradient("examples/attention.ta", targets=("sm_90a",))
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
from .plan import Kernels
from .verification import check_spec, refused


def verify_gradient(path: str, shapes: dict | None = None, stage: str = "grad", targets: tuple = ()) -> Report:
    """The report of the spec's training pair at ``path`` (sizes ``shapes`` bound first): the
    backward's kernels for each of ``targets`` (every target that runs them when none are
    named), or its loop IR alone with ``stage="grad-loop"``."""
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
        report.results += _backward_rows(pair, path, shapes, stage, targets)
    return report


def _backward_rows(backward, path: str, shapes: dict | None, stage: str, targets: tuple) -> list:
    """The rows of the backward's own lowering: its kernels (as verify_spec checks a spec's), or
    its loop IR alone (``grad-loop``)."""
    if stage == "grad-loop":
        return check_spec(backward, "", path, shapes, "loop")
    try:
        kernels = Kernels.of(backward, {}, shapes=shapes)
    except TilecError as err:  # no kernel takes it, whole or split: an error row; the loop IR is still checked
        return [refused(backward, "", shapes, err)] + check_spec(backward, "", path, shapes, "loop")
    return kernels.verify(path, targets, shapes=shapes)
