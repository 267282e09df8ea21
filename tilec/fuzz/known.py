"""Known compiler bugs, each with the feature of a case it hinges on.

A finding is marked known when the case has the feature of a bug in KNOWN and the finding is at
one of that bug's stages; the mark is a note for the reader, the finding still counts.
``tilec fuzz --skip-known`` draws again when a case has a known bug's feature. A bug leaves the
table when it is fixed, so that a regression is a plain finding.

A verifier counterexample for a kernel that computes the right result is a finding. (Bank
conflicts of tiles whose rows are not a power-of-two number of elements, an attention head dim
of 48 or 96, were once expected; such rows are swizzled now, and their conflicts are findings.)

    features(case)            # the features of open bugs in the case, e.g. {"attention-bf16-to-f16"}
    known_bug(case, "tile")   # what the first known bug says, or ""
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .model import Case, Spec, walk


@dataclass(frozen=True)
class Known:
    """A known bug: its feature (and how to see it in a case), the stages it shows at, what goes wrong.

        Known("rank0-bare", lambda case: any(n[0] == "bare" for s in case.spec.stmts for n in walk(s.expr)),
              frozenset({"ta"}), "a rank-0 tensor read by its bare name crashes")
    """

    feature: str
    has: Callable[[Case], bool]
    stages: frozenset
    what: str


def attentions(spec: Spec) -> list:
    """(result, V) of each attention P·V in ``spec``: sum[j](softmax[j](...) * V[..., j, d]), the
    softmax inline or a let (either factor first).

        attentions(spec)   # e.g. [("O", "V")]
    """
    lets = {s.name for s in spec.stmts if s.let and s.expr[0] == "red" and s.expr[1] == "softmax"}
    found = []
    for stmt in spec.stmts:
        for e in walk(stmt.expr):
            if e[0] != "red" or e[1] != "sum" or e[3][0] != "bin" or e[3][1] != "*":
                continue
            for p, v in ((e[3][2], e[3][3]), (e[3][3], e[3][2])):
                softmax = (p[0] == "red" and p[1] == "softmax" and p[2] == e[2]) or (p[0] == "read" and p[1] in lets)
                if softmax and v[0] == "read":
                    found.append((stmt.name, v[1]))
    return found


def _bf16_attention_to_f16(case: Case) -> bool:
    dtypes = {t.name: t.dtype for t in (*case.spec.inputs, *case.spec.outputs)}
    return any(dtypes.get(v) == "bf16" and dtypes.get(out) == "f16" for out, v in attentions(case.spec))


# Open known bugs. Fixed and removed: `1.0 / N` as floor division, a rank-0 tensor read by its
# bare name, integer constants and and/or in masks (verify), GEMMs with two batch dims and mixed
# operand types (tile), the f32-output attention tolerance, rank-0 results in verify, f32
# attention in the CUDA emitter, fully masked softmax rows, attention's tile kernel leaving a
# second output unwritten, attention CUDA for head dims below 16 (both now declined), bf16
# attention into an f16 output (the residual mma now serves every output type unlike P's).
KNOWN: list = []  # no open known bug
KNOWN_FEATURES = frozenset(k.feature for k in KNOWN)   # what --skip-known keeps out of the cases


def features(case: Case) -> set:
    """The features of known bugs present in ``case``.

        features(case) <= KNOWN_FEATURES
    """
    return {k.feature for k in KNOWN if k.has(case)}


def known_bug(case: Case, stage: str) -> str:
    """What known bug explains a finding at ``stage`` for this case ("" if none).

        known_bug(case, "ta") == ""   # no open bug shows at the ta stage
    """
    have = features(case)
    for bug in KNOWN:
        if bug.feature in have and stage in bug.stages:
            return bug.what
    return ""
