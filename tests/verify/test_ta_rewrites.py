"""The ta rewrites are checked as they run: correct rewrites are proved, and bugs put into
ta-decompose-softmax, ta-canonicalize and ta-fuse-reductions are refuted on the very pass."""

from pathlib import Path

import pytest
from torch_mlir import ir
from torch_mlir.dialects import arith, math

from tilec.dialects import ta_builders as tb
from tilec.build.verification_spec import verify_spec
from tilec.verify.ta_rewrites import check_rewrite

from tilec.passes import _fusion_build, ta_canonicalize, ta_decompose_softmax
from tilec.passes._fusion_algebra import Term
from conftest import ROOT

EXAMPLES = ROOT / "examples"
# X's deviation from the mean of another row, weighted: mean X - mu is no zero there
OTHER_MEAN = """param N = 6, C = 9
input X[N, C] : f32
input Y[N, C] : f32
output V[N] : f32
let mu[n] = sum[c](Y[n, c]) / C
V[n] = sum[c]((X[n, c] - mu[n]) * Y[n, c])
"""
SCALED = """param M = 5, N = 7, K = 9
input A[M, K] : f32
input B[K, N] : f32
output C[M, N] : f32
let As[i, k] = A[i, k] * 2.0
C[i, j] = sum[k](As[i, k] * B[k, j])
"""
CONSTANT = """module {
  func.func @k(%arg0: tensor<?x?xf32, ["M", "N"]> {ta.name = "A"}) -> (tensor<?x?xf32, ["M", "N"]> {ta.name = "C"})
      attributes {ta.params = {M = 5 : i64, N = 7 : i64}} {
    %0 = "ta.map"() ({
      %c = arith.constant 3.0 : f32
      "ta.yield"(%c) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["M", "N"]>
    %1 = "ta.map"() ({
      %a = "ta.at"(%arg0) {map = affine_map<(d0, d1) -> (d0, d1)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %b = "ta.at"(%0) {map = affine_map<(d0, d1) -> (d0, d1)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %s = arith.addf %a, %b : f32
      "ta.yield"(%s) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["M", "N"]>
    return %1 : tensor<?x?xf32, ["M", "N"]>
  }
}
"""


def _ta_rows(spec: Path) -> list:
    """The ta rows of verifying a spec, or of the rewrites of a ta module's text."""
    if not spec.read_text().startswith("module"):
        return [r for r in verify_spec(str(spec), stage="loop").results if r.stage == "ta"]
    from tilec import dialects
    from tilec.lowering.driver import rewrite
    from tilec.verify.kernels import check_rewrites

    with dialects.context(), ir.Location.unknown():
        return check_rewrites(rewrite(ir.Module.parse(spec.read_text()))[1])


@pytest.mark.parametrize("example", ["attention", "causal_attention", "gqa_attention", "attention_bias", "softmax",
                                     "logsumexp", "layernorm", "rmsnorm", "matmul_bias_gelu", "swiglu"])
def test_the_rewrites_of_every_example_are_proved(example):
    rows = _ta_rows(EXAMPLES / f"{example}.ta")
    assert all(r.verdict in ("proved", "tested") for r in rows), [(r.check, r.verdict, r.detail) for r in rows]


def test_a_rewrite_check_past_its_budget_is_unknown_not_a_hang(monkeypatch):
    """Building a result's terms compares each reduction's summand with the others of its kind;
    past the budget (a whole Llama block at static sizes took over 12 minutes) the row is
    'unknown' with the reason, never proved and never unbounded. The budget counts comparisons,
    not seconds: the same rows on an idle and a loaded machine."""
    from tilec.verify import ta_rewrites

    monkeypatch.setattr(ta_rewrites, "TERMS_BUDGET", 0)  # spent before the second reduction
    rows = _ta_rows(EXAMPLES / "layernorm.ta")
    assert any(r.verdict == "unknown" and "more than 0 fold comparisons" in r.detail for r in rows), \
        [(r.check, r.verdict) for r in rows]
    monkeypatch.setattr(ta_rewrites, "TERMS_BUDGET", 41)  # what the examples need at most
    assert all(r.verdict in ("proved", "tested") for r in _ta_rows(EXAMPLES / "layernorm.ta"))


def test_a_folded_constant_map_is_proved(tmp_path):
    spec = tmp_path / "constant.mlir"
    spec.write_text(CONSTANT)
    rows = _ta_rows(spec)
    assert [r.verdict for r in rows if r.check.startswith("ta-canonicalize")] == ["proved"]


def test_a_scale_hoisted_out_of_a_contraction_is_proved(tmp_path):
    spec = tmp_path / "scaled.ta"
    spec.write_text(SCALED)
    rows = _ta_rows(spec)
    assert any(r.check.startswith("ta-canonicalize") for r in rows)
    assert all(r.verdict in ("proved", "tested") for r in rows), [(r.check, r.verdict, r.detail) for r in rows]


# -- mutants: each a bug in one rewrite; the row of that pass must be a counterexample ----------

def _softmax_over_max(op, rewriter):
    """softmax(x) --> exp(x - m) / m (divides by the max, not the sum)"""
    x, dim = op.src, ir.IntegerAttr(op.attributes["dim"]).value
    with rewriter.ip, op.location:
        m, e, full, row = ta_decompose_softmax._shifted_exp(x, dim)
        y = tb.build_map(x.type, lambda: arith.DivFOp(tb.at(e, full), tb.at(m, row)).result)
    rewriter.replace_op(op, [y])


def _logsumexp_without_max(op, rewriter):
    """logsumexp(x) --> log(sum exp(x - m)) (the max is not added back)"""
    x, dim = op.src, ir.IntegerAttr(op.attributes["dim"]).value
    with rewriter.ip, op.location:
        m, e, _, _ = ta_decompose_softmax._shifted_exp(x, dim)
        s = tb.reduce(e, "sum", [dim])
        rank = ir.RankedTensorType(m.type).rank
        same = tb.projection(rank, list(range(rank)))
        y = tb.build_map(m.type, lambda: math.LogOp(tb.at(s, same)).result)
    rewriter.replace_op(op, [y])


def _shift_reversed(x, dim):
    """exp(m - x) for exp(x - m)"""
    rank = ir.RankedTensorType(x.type).rank
    full = tb.projection(rank, list(range(rank)))
    row = tb.projection(rank, [d for d in range(rank) if d != dim])
    m = tb.reduce(x, "max", [dim])
    e = tb.build_map(x.type, lambda: math.ExpOp(arith.SubFOp(tb.at(m, row), tb.at(x, full)).result).result)
    return m, e, full, row


def _scale_dropped(value):
    """the hoisted scale re-emitted as 1.0"""
    return lambda: arith.ConstantOp(ir.F32Type.get(), 1.0).result


def _fill_off_by_one(op, rewriter):
    """map{yield c} --> fill(c + 1)"""
    constant = ta_canonicalize._body(op)[-1].operation.operands[0].owner
    if isinstance(constant, ir.Block) or constant.operation.name != "arith.constant":
        return True
    value = ir.FloatAttr(constant.attributes["value"])
    with rewriter.ip, op.location:
        fill = ir.Operation.create("ta.fill", results=[op.result.type],
                                   attributes={"value": ir.FloatAttr.get(value.type, value.value + 1.0)})
    rewriter.replace_op(op, [fill.result])


def _outside_dropped(reconstruct):
    """each member rebuilt without its factors outside the sum (attention without / l)"""
    return lambda r, kept, terms, online, replaced: reconstruct(r, kept, [(s, [], g, k) for s, _, g, k in terms],
                                                                online, replaced)


def _sign_flipped(reconstruct):
    """the sign of the first term flipped (the variance as n (mean x - mu)^2 - sum (x - mean x)^2)"""
    return lambda r, kept, terms, online, replaced: reconstruct(
        r, kept, [(-s, o, g, k) for s, o, g, k in terms[:1]] + terms[1:], online, replaced)


def _guard_dropped(reconstruct):
    """every term rebuilt without its guard (SDPA's fully masked rows: NaN instead of 0)"""
    return lambda r, kept, terms, online, replaced: reconstruct(r, kept, [(s, o, (), k) for s, o, _, k in terms],
                                                                online, replaced)


class _Miscorrected(_fusion_build.Normaliser):
    """x - mu centred as (x - mean x) - (mean x - mu): the correction outside the sum subtracted"""

    def _centred(self, name, result_type, a, b):
        terms = super()._centred(name, result_type, a, b)
        return terms and terms[:1] + [t.negated() for t in terms[1:]]


class _Unstabilised(_fusion_build.Normaliser):
    """every summand's exp(x - max x) factor dropped"""

    def terms(self, expr):
        return [Term(t.sign, t.outside, t.inner, None) for t in super().terms(expr)]


MUTANTS = [
    ("softmax-over-max", "softmax", ta_decompose_softmax, "decompose_softmax", _softmax_over_max,
     "ta-decompose-softmax"),
    ("logsumexp-without-max", "logsumexp", ta_decompose_softmax, "decompose_logsumexp", _logsumexp_without_max,
     "ta-decompose-softmax"),
    ("shift-reversed", "attention", ta_decompose_softmax, "_shifted_exp", _shift_reversed, "ta-decompose-softmax"),
    ("scale-dropped", SCALED, ta_canonicalize, "_clone_invariant", _scale_dropped, "ta-canonicalize"),
    ("fill-off-by-one", CONSTANT, ta_canonicalize, "fold_constant_map", _fill_off_by_one, "ta-canonicalize"),
    ("no-division-by-row-sum", "attention", _fusion_build, "_reconstruct", _outside_dropped(_fusion_build._reconstruct),
     "ta-fuse-reductions"),
    ("stabiliser-dropped", "logsumexp", _fusion_build, "Normaliser", _Unstabilised, "ta-fuse-reductions"),
    ("variance-sign", "layernorm", _fusion_build, "_reconstruct", _sign_flipped(_fusion_build._reconstruct),
     "ta-fuse-reductions"),
    ("centring-miscorrected", OTHER_MEAN, _fusion_build, "Normaliser", _Miscorrected, "ta-fuse-reductions"),
]


@pytest.mark.parametrize("name,spec,module,attr,mutant,pass_name", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_broken_rewrite_is_refuted_on_its_pass(name, spec, module, attr, mutant, pass_name, tmp_path, monkeypatch):
    if spec in ("softmax", "logsumexp", "attention", "layernorm"):
        path = EXAMPLES / f"{spec}.ta"
    else:
        path = tmp_path / "spec.ta"
        path.write_text(spec)
    monkeypatch.setattr(module, attr, mutant)
    rows = _ta_rows(path)
    refuted = [r for r in rows if r.check.startswith(pass_name) and r.verdict == "counterexample"]
    assert refuted, [(r.check, r.verdict, r.detail) for r in rows]
    assert "random inputs" in refuted[0].detail and refuted[0].counterexample


def test_a_fusion_that_drops_the_masked_row_guard_is_not_proved(monkeypatch):
    """Without its guard the fused attention gives NaN where a row is fully masked: Z3 finds the
    two sides different; random masks have no fully masked row, so the oracle cannot show it,
    and the row is unknown, never proved."""
    monkeypatch.setattr(_fusion_build, "_reconstruct", _guard_dropped(_fusion_build._reconstruct))
    rows = [r for r in _ta_rows(EXAMPLES / "masked_attention.ta") if r.check.startswith("ta-fuse-reductions")]
    assert rows and all(r.verdict in ("unknown", "counterexample") for r in rows), rows


def test_a_rewrite_that_changes_the_results_count_is_refuted():
    from tilec import dialects
    from tilec.frontend import load_spec

    with dialects.context(), ir.Location.unknown():
        one = load_spec(str(EXAMPLES / "softmax.ta"))
        three = load_spec(str(EXAMPLES / "layernorm.ta"))
        rows = check_rewrite("a-pass", three.body.operations[0], one.body.operations[0])
    assert [r.verdict for r in rows] == ["counterexample"]


def test_the_verifier_builds_nothing():
    """tilec.verify checks the modules it is given: no module of it imports the driver, a pass,
    the emitter or the frontend (tilec.build.verification builds and hands them over)."""
    import ast

    root = ROOT / "tilec" / "verify"
    banned = ("driver", "codegen", "passes", "frontend", "verification", "pipeline")
    found = []
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [f"{node.module or ''}"] + [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.name}: {n}" for n in names if any(part in banned for part in n.split("."))]
    assert not found, found
