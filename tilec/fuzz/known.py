"""Features of a spec that known compiler bugs hinge on, and the table of those bugs.

A finding is marked known when the spec has the feature of a bug in KNOWN and the finding
is at one of that bug's stages; the mark is a note for the reader, the finding still counts.

    features(spec)          # e.g. {"mask-logic", "int-over-index"}
    known_bug(spec, "tile") # the description of the first known bug that explains it, or ""
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Spec, children, free, walk
from .reference import is_index


@dataclass(frozen=True)
class Known:
    """A known bug: the spec feature it needs, the stages it shows at, what goes wrong.

        Known("rank0-bare", frozenset({"ta"}), "a rank-0 tensor read by its bare name crashes")
    """

    feature: str
    stages: frozenset
    what: str


KNOWN = [
    Known("int-over-index", frozenset({"ta", "loop", "tile"}),
          "a number over an index or parameter (`1.0 / N`) becomes floor division"),
    Known("rank0-bare", frozenset({"ta", "loop", "tile", "verify"}),
          "a rank-0 tensor read by its bare name crashes the frontend"),
    Known("mask-int-const", frozenset({"verify"}), "integer constants in masks crash verify"),
    Known("mask-logic", frozenset({"verify"}), "`and` / `or` in masks crash verify"),
    Known("two-batch-dims", frozenset({"tile", "verify"}), "ta-to-tile emits invalid tile IR for two batch dims"),
    Known("mixed-dtypes", frozenset({"tile", "verify"}), "ta-to-tile emits invalid tile IR for mixed operand dtypes"),
]


def _integral(e, consts: dict) -> bool:
    if e[0] == "num":
        return float(e[1]).is_integer()
    return e[0] == "const" and float(consts.get(e[1], 0.5)).is_integer()


def _has_int(ix) -> bool:
    return ix[0] == "int" or (ix[0] in "+-*/" and (_has_int(ix[1]) or _has_int(ix[2])))


def features(spec: Spec) -> set:
    """The known-bug features present in ``spec``.

        features(spec_with("Y[i] = X[i] * (1.0 / N)")) == {"int-over-index"}
    """
    consts = {name: (value[1] if value[0] == "num" else 0.5) for name, value in spec.consts}
    dtypes = {t.name: t.dtype for t in spec.inputs}
    found = set()
    for stmt in spec.stmts:
        for e in _outer_contractions(stmt.expr):
            left, right = e[3][2], e[3][3]
            if left[0] != "read" or right[0] != "read" or left[1] not in dtypes or right[1] not in dtypes:
                continue   # the GEMM lowering takes kernel inputs as operands, nothing computed
            if len(free(e)) >= 4:   # rows, columns and two batch dims
                found.add("two-batch-dims")
            if dtypes[left[1]] != dtypes[right[1]]:
                found.add("mixed-dtypes")
        for e in walk(stmt.expr):
            kind = e[0]
            if kind == "bare":
                found.add("rank0-bare")
            elif kind == "bin" and e[1] == "/" and (_integral(e[2], consts) and is_index(e[3])
                                                    or is_index(e[2]) and _integral(e[3], consts)):
                found.add("int-over-index")
            elif kind == "where" or (kind == "call" and e[1] == "select"):
                condition = e[2] if kind == "where" else e[2][0]
                found |= _mask_features(condition, consts)
    return found


def _outer_contractions(e) -> list:
    """sum[k](a * b) nodes whose two factors depend on indices and reduce nothing, and that no
    other reduction encloses: the GEMM family's contraction (attention's Q·K sits inside its
    softmax, and its P·V has a softmax for a factor)."""
    if e[0] == "red":
        body = e[3]
        factors = body[2:] if body[0] == "bin" and body[1] == "*" else ()
        if e[1] == "sum" and factors and all(free(f) and not _reduces(f) for f in factors):
            return [e]
        return []
    return [c for child in children(e) for c in _outer_contractions(child)]


def _mask_features(condition, consts) -> set:
    found = set()
    for node in walk(condition):
        if node[0] == "logic":
            found.add("mask-logic")
        if (node[0] == "num" and _integral(node, consts)) or (node[0] == "ix" and _has_int(node[1])):
            found.add("mask-int-const")
    return found


def known_bug(spec: Spec, stage: str) -> str:
    """What known bug explains a finding at ``stage`` for this spec ("" if none).

        known_bug(spec_with("Y = sc"), "ta") == "a rank-0 tensor read by its bare name crashes the frontend"
    """
    have = features(spec)
    for bug in KNOWN:
        if bug.feature in have and stage in bug.stages:
            return bug.what
    return ""


def _reduces(e) -> bool:
    return any(node[0] == "red" for node in walk(e))
