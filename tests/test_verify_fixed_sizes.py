"""Kernels built for sizes given with --shape (all of them, or some) are proved as they are at
symbolic sizes: a size the build fixed is a fact of every check (the element ranges, the loop
bounds, a view's dims), never a false counterexample; and a counterexample's replay names the
spec file and the sizes given."""

import pytest

from tilec.build.verification_spec import verify_spec

# a one-block fold stored as it is (f32: no cast map after it)
ROW_MAX = """param M = 4, N = 8
input X[N, M] : f32
output Mx[N] : f32
Mx[n] = max[c](X[n, c])
"""

GQA = """const G = 2
param H = 4, S = 64, D = 16
input Q[H, S, D] : bf16
input K[H / G, S, D] : bf16
input V[H / G, S, D] : bf16
output O[H, S, D] : bf16
O[h, i, d] = sum[j](softmax[j](sum[e](Q[h, i, e] * K[h / G, j, e])) * V[h / G, j, d])
"""

# split into a kernel (no one kernel form takes it whole); N given, M left symbolic
BROADCAST = """param N, M
input X[N, N] : f32
output Y[N, M, N] : f32
Y[q, u, n] = X[q, n]
"""

# at L = 2, canonicalisation reads X1 at row i / 2 = 0 (the extents bound i below 2)
REMAP_FOLDED = """param L, D
input X1[(L + 1) / 2, D] : f32
output Y[L, D] : f32
Y[i, j] = X1[i / 2, j] * 2.0
"""


def _report(tmp_path, text: str, shapes: dict):
    path = tmp_path / "spec.ta"
    path.write_text(text)
    return path, verify_spec(str(path), shapes=shapes, targets=())


def _wrong(report) -> list:
    return [(r.kernel, r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]


@pytest.mark.parametrize("text,shapes", [
    (ROW_MAX, {"M": 4}), (ROW_MAX, {"N": 8, "M": 4}),
    (GQA, {"H": 4, "S": 64, "D": 16}),
    (BROADCAST, {"N": 1}), (BROADCAST, {"N": 2}),
    (REMAP_FOLDED, {"L": 2, "D": 2}),
], ids=["row-max-M", "row-max-all", "gqa-all", "split-N1", "split-N2", "rewrite-L2"])
def test_kernels_at_given_sizes_are_proved(tmp_path, text, shapes):
    _, report = _report(tmp_path, text, shapes)
    assert _wrong(report) == []
    assert sum(r.verdict == "proved" for r in report.results) >= 3


def test_the_one_block_fold_is_the_stored_value(tmp_path):
    _, report = _report(tmp_path, ROW_MAX, {"M": 4})
    checks = [r.check for r in report.results if r.stage == "tile"]
    assert "Mx: element (r, c) of the tile is stored at the element it computes" in checks


def test_a_split_kernels_replay_names_the_spec_and_its_sizes(tmp_path, monkeypatch):
    """A loop nest that truly misses its domain (here: the loop check told nothing of the fixed
    size, so any N refutes it) replays on the spec file at the size given, N=1."""
    from tilec.verify import loops

    monkeypatch.setattr(loops, "static_dims", lambda fn: {})
    path, report = _report(tmp_path, BROADCAST, {"N": 1})
    refuted = [r for r in report.results if r.verdict == "counterexample" and r.stage == "loop"]
    assert refuted and all(r.replay.startswith(f"tilec run {path} --stage loop --shape N=1") for r in refuted)


def test_a_rewrite_is_run_by_the_oracle_at_the_sizes_it_was_built_at():
    """Z3 unable to prove a rewrite of a function built at L = 2 (stood in by a model at L = 3):
    the oracle runs both sides at L = 2, where they agree, never at sizes the types exclude."""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.lowering.driver import rewrite, specialize
    from tilec.frontend import spec_to_ta
    from tilec.verify.solver import Outcome
    from tilec.verify.ta_rewrites import _witness

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(REMAP_FOLDED, "remap.ta")
        specialize(module, {"L": 2, "D": 2})
        _, steps = rewrite(module)
        before, after = next((ir.Module.parse(b), ir.Module.parse(a)) for n, b, a in steps if n == "ta-canonicalize")
        outcome = _witness(before.body.operations[0], after.body.operations[0], 0,
                           Outcome("counterexample", 0.0, {"L": 3, "D": 2}))
    assert outcome.verdict == "unknown", outcome
