"""Known compiler bugs (each with the spec feature it hinges on) and expected verifier verdicts.

A finding is marked known when the spec has the feature of a bug in KNOWN and the finding is at
one of that bug's stages; the mark is a note for the reader, the finding still counts.
``tilec fuzz --skip-known`` draws again when a spec has a known bug's feature. A bug leaves the
table when it is fixed, so that a regression is a plain finding.

A verifier counterexample for a kernel that computes the right result is a finding, unless it
refutes a property the run cannot see and the verifier is right about (``expected``): bank
conflicts of a shared-memory tile whose rows are not a power-of-two number of elements (an
attention head dim of 17 or 24) are real, and cost bandwidth, not correctness.

    features(spec)                                     # e.g. {"head-dim-96"} for a bug needing one
    known_bug(spec, "tile")                            # what the first known bug says, or ""
    expected("swizzle", "Q tile 128x24: ldmatrix phases are free of bank conflicts")   # "bank conflicts: ..."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .model import Spec


@dataclass(frozen=True)
class Known:
    """A known bug: its feature (and how to see it in a spec), the stages it shows at, what goes wrong.

        Known("rank0-bare", lambda spec: any(n[0] == "bare" for s in spec.stmts for n in walk(s.expr)),
              frozenset({"ta"}), "a rank-0 tensor read by its bare name crashes")
    """

    feature: str
    has: Callable[[Spec], bool]
    stages: frozenset
    what: str


# Open known bugs. Fixed and removed: `1.0 / N` as floor division, a rank-0 tensor read by its
# bare name, integer constants and and/or in masks (verify), GEMMs with two batch dims and mixed
# operand types (tile), the f32-output attention tolerance, rank-0 results in verify, f32
# attention in the CUDA emitter, fully masked softmax rows.
KNOWN: list[Known] = []
KNOWN_FEATURES = frozenset(k.feature for k in KNOWN)   # what --skip-known keeps out of the specs


def features(spec: Spec) -> set:
    """The features of known bugs present in ``spec`` (empty while no bug is open).

        features(spec) <= {k.feature for k in KNOWN}
    """
    return {k.feature for k in KNOWN if k.has(spec)}


def known_bug(spec: Spec, stage: str) -> str:
    """What known bug explains a finding at ``stage`` for this spec ("" if none).

        known_bug(spec, "ta") == ""   # no open bug has a ta stage
    """
    have = features(spec)
    for bug in KNOWN:
        if bug.feature in have and stage in bug.stages:
            return bug.what
    return ""


_CONFLICT = re.compile(r"tile (\d+)x(\d+): (?:ldmatrix|cp\.async) phases are free of bank conflicts")


def expected(prop: str, check: str) -> str:
    """Why a counterexample to ``check`` is expected of a kernel that runs right ("" if it is not):
    bank conflicts of a tile whose rows are not a power-of-two number of elements.

        expected("swizzle", "K tile 64x17: cp.async phases are free of bank conflicts")
        == "bank conflicts: tile rows of 17 elements (not a power of two)"
        expected("swizzle", "A tile 128x32: ldmatrix phases are free of bank conflicts") == ""
    """
    match = _CONFLICT.search(check)
    if prop != "swizzle" or not match:
        return ""
    cols = int(match.group(2))
    if cols & (cols - 1) == 0:
        return ""   # a power of two swizzles conflict-free: a counterexample there is a finding
    return f"bank conflicts: tile rows of {cols} elements (not a power of two)"
