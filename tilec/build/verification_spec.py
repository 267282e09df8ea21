"""``tilec verify SPEC``: the report of a spec's kernels, built as ``tilec compile`` builds them
(one kernel, or the kernels of a graph package where no one kernel takes the spec).

    report = verify_spec("examples/attention.ta", "bm=128 bn=64", {"D": 128})
"""

from __future__ import annotations

import hashlib

from torch_mlir import ir

from .. import dialects
from ..diagnostics import TilecError
from ..frontend import load_spec
from .plan import Kernels, per_target, schedule_text
from .verification import check_spec, refused
from ..verify.report import Report


def verify_spec(path: str, schedule: str | dict = "", shapes: dict | None = None, stage: str = "tile",
                targets: tuple = ()) -> Report:
    """The report of every kernel of the spec at ``path``, built as ``tilec compile`` builds it:
    for each of ``targets`` (every target that runs the schedule when none are named) by its own
    pipeline, at ``schedule`` (one for every target, or target -> schedule) and ``shapes``;
    ``stage="loop"`` checks the loop IR alone."""
    text = open(path).read()
    schedules = per_target(schedule)
    schedule = schedules.get("*", "")
    report = Report(path, hashlib.sha256(text.encode()).hexdigest(), schedule_text(schedules))
    with dialects.context(), ir.Location.unknown():
        module = load_spec(path)
        kernels = None
        if stage == "tile":  # the spec's kernels, as tilec compile builds them (tilec.build.plan)
            try:
                kernels = Kernels.of(module, schedules, shapes=shapes)
            except TilecError as err:  # no kernel takes it, whole or split: an error row; the
                report.results.append(refused(module, schedule, shapes, err))  # loop IR is still checked
        if kernels is not None:  # each kernel as its package holds it: one build per target
            report.results += kernels.verify(path, targets, shapes=shapes)
        else:
            report.results += check_spec(module, schedule, path, shapes, "loop")
    return report
