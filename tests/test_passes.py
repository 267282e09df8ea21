"""The pass registry, and each pass checked against the oracle on the examples."""

from pathlib import Path

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects, passes, targets
from tilec.dialects.target import get, names
from tilec.frontend import load_spec
from tilec.executors.oracle import evaluate
from tilec.lowering.pipeline import build
from tilec.signature import bind, random_inputs, signature

PASS_DIR = Path(passes.__file__).parent
TARGET_DIR = Path(targets.__file__).parent


def test_every_pass_module_is_registered_under_its_file_name():
    # a pass is a module, or a subpackage (named like the pass) when it needs several files;
    # a target's own passes are modules of its folder (tilec/targets/<target>/), named the same way
    modules = sorted([p.stem for p in PASS_DIR.glob("*.py") if not p.stem.startswith("_")] +
                     [p.parent.name for p in PASS_DIR.glob("*/__init__.py")] +
                     [p.stem for t in names() for p in (TARGET_DIR / t).glob("tile_*.py")] +
                     [p.parent.name for t in names() for p in (TARGET_DIR / t).glob("tile_*/__init__.py")])
    assert sorted(n.replace("-", "_") for n in passes.names()) == modules
    for name in passes.names():
        info = passes.get(name)
        assert info.name == name and info.summary and info.description


def test_each_target_runs_registered_passes_of_its_own_folder():
    for target in names():
        for name in get(target).passes:
            module = passes.get(name).run.__module__
            assert module == f"tilec.targets.{target}.{name.replace('-', '_')}"  # the module, or the package's face
    assert get("sm_90a").passes == ("tile-warp-specialize", "tile-persistent", "tile-pingpong", "tile-softmax-overlap",
                                    "tile-tma-store")


def test_unknown_pass():
    with pytest.raises(passes.UnknownPass):
        passes.get("no-such-pass")


def _run(example: str, pipeline: str, shapes: dict | None = None):
    """Oracle outputs before and after ``pipeline`` on the same inputs."""
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, shapes or {})
        inputs = random_inputs(sig, env, seed=1)
        before = evaluate(fn, inputs, env)
        pm, failures = build(pipeline)
        pm.run(module.operation)
        assert not failures
        module.operation.verify()
        text = str(module)
        after = evaluate(module.body.operations[0], inputs, env)
    return before, after, text


@pytest.mark.parametrize("example", ["softmax", "logsumexp", "attention", "causal_attention", "gqa_attention"])
def test_decompose_softmax_preserves_meaning(example):
    before, after, text = _run(example, "builtin.module(ta-decompose-softmax, canonicalize, cse)",
                               {"S": 17} if "attention" in example else {"C": 33})
    assert "ta.softmax" not in text and "ta.logsumexp" not in text
    for name in before:
        torch.testing.assert_close(after[name].double(), before[name].double(), rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("example", ["gemm", "matmul_bias_gelu", "layernorm", "gqa_attention", "attention_bias"])
def test_canonicalize_and_fusion_preserve_meaning(example):
    shapes = {k: 9 for k in ("S", "T", "C", "M") if k in _params(example)}
    before, after, text = _run(example, "builtin.module(ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, "
                               "ta-canonicalize)", shapes)
    for name in before:
        torch.testing.assert_close(after[name].double(), before[name].double(), rtol=2e-2, atol=2e-2)


def _params(example: str) -> str:
    return (EXAMPLES / f"{example}.ta").read_text().splitlines()[1]


def test_specialize_shapes_preserves_meaning_and_makes_types_static():
    before, after, text = _run("gemm", "builtin.module(ta-specialize-shapes{shapes=M=16,N=8,K=4})",
                               {"M": 16, "N": 8, "K": 4})
    assert 'tensor<16x4xbf16, ["M", "K"]>' in text and "?" not in text
    torch.testing.assert_close(after["C"], before["C"])


def test_decomposition_check_would_catch_a_wrong_rewrite(monkeypatch):
    """A broken decomposition (missing normalisation) is caught by the same comparison."""
    from tilec.passes import ta_decompose_softmax as mod

    def no_division(op, rewriter):
        x, dim = op.src, ir.IntegerAttr(op.attributes["dim"]).value
        with rewriter.ip, op.location:
            _, e, _, _ = mod._shifted_exp(x, dim)
        rewriter.replace_op(op, [e])

    monkeypatch.setattr(mod, "decompose_softmax", no_division)
    before, after, _ = _run("softmax", "builtin.module(ta-decompose-softmax)", {"C": 9})
    with pytest.raises(AssertionError):
        torch.testing.assert_close(after["Y"], before["Y"])


def test_uses_dim_reads_every_dim_an_affine_expression_names():
    """ta_builders.uses_dim: the dims an index expression reads (a column offset's heads, a
    reshape's digits); merge_rows asks it of reads that are not projections."""
    from torch_mlir import ir

    from tilec.dialects import ta_builders as tb
    from tilec.graph.merge_rows import _reads_lead

    with ir.Context():
        d = [ir.AffineDimExpr.get(k) for k in range(4)]
        expr = ir.AffineExpr.get_floor_div(d[1], 4) * 64 + d[3]
        assert [tb.uses_dim(expr, k) for k in range(4)] == [False, True, False, True]
        assert not tb.uses_dim(ir.AffineConstantExpr.get(3), 0)
        rolled = ir.AffineMap.get(3, 0, [ir.AffineExpr.get_mod(d[2] + 8, 16)])  # a bias read shifted
        assert _reads_lead(rolled, src_has=False, k=2)  # it reads none of the two leading dims
        across = ir.AffineMap.get(3, 0, [ir.AffineExpr.get_mod(d[1] + 8, 16)])
        assert not _reads_lead(across, src_has=False, k=2)


def test_a_centred_sum_whose_mean_is_not_rebuilt_leaves_its_group_unfused(monkeypatch):
    """A centred sum's step reads its group's sums of 1 and of x: where no member is rebuilt from
    them (here a normaliser that drops the correction mean x - mu), canonicalize would drop them
    and ta-to-loops could not lower the sum; the group stays as it was, and its meaning."""
    from tilec.passes import _fusion_algebra

    class Uncorrected(_fusion_algebra.Normaliser):
        def _centred(self, name, result_type, a, b):
            terms = super()._centred(name, result_type, a, b)
            return terms and terms[:1]

    monkeypatch.setattr("tilec.passes._fusion_build.Normaliser", Uncorrected)
    before, after, text = _run("layernorm", "builtin.module(ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, "
                               "canonicalize, cse)", {"C": 9})
    assert "moment" not in text
    for name in before:
        torch.testing.assert_close(after[name].double(), before[name].double(), rtol=2e-2, atol=2e-2)
    with dialects.context(), ir.Location.unknown():
        pm, failures = build("builtin.module(ta-to-loops)")
        module = ir.Module.parse(text)
        pm.run(module.operation)
    assert not failures and "scf.for" in str(module)


def test_a_size_outside_a_stated_range_is_not_bound(tilec, tmp_path):
    """ta.ranges states the sizes a function is defined for (a slice of a 64-row buffer): binding
    another is one located error, from tilec opt and from a spec's --shape alike."""
    ir_file = tmp_path / "r.mlir"
    ir_file.write_text('func.func @f(%x: tensor<?xf32, ["T"]>) -> tensor<?xf32, ["T"]> attributes '
                       '{ta.params = {T}, ta.ranges = {T = [1, 64]}} {\n  return %x : tensor<?xf32, ["T"]>\n}\n')
    status, out, err = tilec("opt", ir_file, "--pass-pipeline=builtin.module(ta-specialize-shapes{shapes=T=65})")
    assert status == 1 and "'T' = 65 is outside [1, 64]" in err and "Traceback" not in err, err
    status, out, err = tilec("opt", ir_file, "--pass-pipeline=builtin.module(ta-specialize-shapes{shapes=T=64})")
    assert status == 0 and "ta.ranges" not in out and "tensor<64xf32" in out, out + err
    ir_file.write_text(ir_file.read_text().replace("[1, 64]", "[9, 2]"))
    status, out, err = tilec("opt", ir_file, "--pass-pipeline=builtin.module(ta-specialize-shapes{shapes=T=4})")
    assert status == 1 and "ta.ranges maps each shape parameter to [low, high]" in err and "Traceback" not in err


def test_a_map_that_yields_a_hoisted_constant_is_fused_as_one(tilec, tmp_path):
    """softmax[i](i - i): the map folds to a constant hoisted out of its body, which it yields;
    the fusion read only values of the body (KeyError: an internal error at the tile stage)."""
    spec = tmp_path / "c.ta"
    spec.write_text("output Y[1] : f32\nY[i] = softmax[i](i - i)\n")
    status, out, err = tilec("run", spec, "--stage", "loop")
    assert status == 0 and "Y: shape [1] float32  sum 1.000000e+00" in out and "(ok)" in out, err
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert status == 1 and err.count("error:") == 1 and "no tile lowering takes" in err, err


def test_a_pipeline_verified_once_at_its_end_still_refuses_invalid_ir():
    """A schedule search runs its candidates' passes unverified between them (verify_each=False):
    the module is verified after the last, so broken IR is still one located error."""
    from tilec.diagnostics import TilecError
    from tilec.lowering.driver import run_passes

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "gemm.ta"))
        contract = next(op for op in module.body.operations[0].entry_block.operations
                        if op.operation.name == "ta.contract")
        run_passes(module, ["cse"], verify_each=False)  # valid: no error
        del contract.operation.attributes["maps"]
        with pytest.raises(TilecError, match="'ta.contract' op requires attribute 'maps'"):
            run_passes(module, ["cse"], verify_each=False)
