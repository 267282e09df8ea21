"""Make a failing case small while it keeps failing the same way.

Greedy: try simpler variants in order (drop a statement, replace a subexpression by one of its
children or by a number, drop a mask, shrink a size towards 1, make a tensor f32), keep the
first that still gives a finding of the same stage and kind, and start over from it; stop at a
fixed point or when the budget is spent.

    small = shrink(case, finding, lambda c, stages: dog.run(c, stages))
"""

from __future__ import annotations

import time
from dataclasses import replace

from .known import features
from .model import Case, Spec, Tensor, children, nodes, prune, render, replace_at, walk
from .reference import ReferenceError, conditioning, make_inputs

# the stages a finding needs to show again: verify's judgements need the tile and loop runs
# (the oracle runs too: a replay with `tilec run` shows the failure only if the oracle is right)
NEEDS = {"ta": ("ta",), "loop": ("ta", "loop"), "tile": ("ta", "tile"), "verify": ("ta", "loop", "tile", "verify"),
         "fuzzer": ("ta",)}


def size(case: Case) -> int:
    """How big a case is: characters of spec text, plus its sizes, plus one per bf16/f16 tensor.

        size(shrink(case, finding, run)[0]) <= size(case)
    """
    narrow = sum(t.dtype != "f32" for t in (*case.spec.inputs, *case.spec.outputs))
    return len(render(case.spec)) + sum(case.env().values()) + narrow


def _statement_drops(spec: Spec):
    for k, stmt in enumerate(spec.stmts):
        later = {n[1] for s in spec.stmts[k + 1:] for n in walk(s.expr) if n[0] in ("read", "bare")}
        outputs = [t for t in spec.outputs if t.name != stmt.name]
        if stmt.name in later or not outputs:
            continue
        yield replace(spec, stmts=spec.stmts[:k] + spec.stmts[k + 1:], outputs=tuple(outputs))


def _simpler(e) -> list:
    """Replacements for one node, simplest first."""
    kind = e[0]
    if kind in ("cmp", "logic"):
        return list(children(e)) if kind == "logic" else []
    out = []
    if kind == "where":
        out += [e[1]] + ([("where", e[1], e[2], None)] if e[3] is not None else [])
    elif kind == "call" and e[1] == "select":
        out += [e[2][1], e[2][2]]
    elif kind in ("bin", "neg", "call") or (kind == "red" and e[1] == "softmax"):
        out += [c for c in children(e) if c[0] not in ("cmp", "logic")]
    if kind not in ("num", "read", "bare"):
        out.append(("num", 0.5))   # not an integer: it must not turn into index arithmetic
    return out


def _expression_edits(spec: Spec):
    for k, stmt in enumerate(spec.stmts):
        for path, node in nodes(stmt.expr):
            for new in _simpler(node):
                stmts = list(spec.stmts)
                stmts[k] = replace(stmt, expr=replace_at(stmt.expr, path, new))
                yield replace(spec, stmts=tuple(stmts))


def _size_edits(case: Case):
    shapes = dict(case.shapes)
    for name, value in sorted(case.env().items()):
        for smaller in dict.fromkeys((1, 2, value // 2)):
            if not 1 <= smaller < value:
                continue
            if name in shapes:
                yield replace(case, shapes=tuple((n, smaller if n == name else v) for n, v in case.shapes))
            else:
                params = tuple((n, smaller if n == name else d) for n, d in case.spec.params)
                yield replace(case, spec=replace(case.spec, params=params))


def _dtype_edits(spec: Spec):
    for field in ("inputs", "outputs"):
        tensors = getattr(spec, field)
        for k, t in enumerate(tensors):
            if t.dtype != "f32":
                changed = tensors[:k] + (Tensor(t.name, t.dims, "f32"),) + tensors[k + 1:]
                yield replace(spec, **{field: changed})


def candidates(case: Case):
    """Simpler variants of ``case``, the biggest cuts first.

        next(candidates(case))   # e.g. the case without its first statement
    """
    for spec in _statement_drops(case.spec):
        yield replace(case, spec=spec)
    for spec in _expression_edits(case.spec):
        yield replace(case, spec=spec)
    yield from _size_edits(case)
    for spec in _dtype_edits(case.spec):
        yield replace(case, spec=spec)


def _tidy(case: Case) -> Case:
    spec = prune(case.spec)
    kept = {n for n, _ in spec.params}
    return replace(case, spec=spec, shapes=tuple((n, v) for n, v in case.shapes if n in kept))


def _usable(case: Case) -> bool:
    """A candidate the reference can evaluate and that is well-conditioned (see reference)."""
    try:
        env = case.env()
        return not conditioning(case.spec, env, make_inputs(case.spec, env, case.data_seed))
    except (ReferenceError, KeyError, IndexError, RuntimeError, ValueError, ZeroDivisionError):
        return False


def shrink(case: Case, finding: dict, run, budget_s: float = 120.0, max_tries: int = 300):
    """(smallest case found that still gives ``finding``'s stage and kind, candidates tried, its
    result or None if nothing smaller failed). ``run(case, stages)`` is Watchdog.run or run_case;
    only the stages the finding needs run."""
    key = (finding["stage"], finding["kind"])
    stages = NEEDS.get(finding["stage"], ("ta",))
    allowed = features(case)   # no slipping into a known bug the case did not have
    start, tries, best, best_result = time.monotonic(), 0, case, None
    improved = True
    while improved:
        improved = False
        seen = {render(best.spec) + repr(best.shapes)}
        for candidate in candidates(best):
            if tries >= max_tries or time.monotonic() - start > budget_s:
                return best, tries, best_result
            candidate = _tidy(candidate)
            text = render(candidate.spec) + repr(candidate.shapes)
            if text in seen or size(candidate) >= size(best) or not features(candidate) <= allowed \
                    or not _usable(candidate):
                continue
            seen.add(text)
            tries += 1
            result = run(candidate, stages)
            if any((f["stage"], f["kind"]) == key for f in result["findings"]):
                best, best_result, improved = candidate, result, True
                break
    return best, tries, best_result
