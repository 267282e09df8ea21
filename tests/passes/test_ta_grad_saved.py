"""ta-grad{saved=true}: the forward that saves each softmax's log-sum-exp and the backward that
reads it (and the saved output) rather than computing the softmax again. Run on the oracle,
backward(x, forward(x), dy) equals torch's autograd through the oracle's forward, for every
differentiable example; attention's backward has FlashAttention-2's form (P from the saved
statistic, D = rowsum(dO ∘ O)); fused, its loop stage stores nothing of the scores' size."""

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES
from test_ta_grad import DIFFERENTIABLE, SIZES, _agrees, _f32
from tilec import dialects
from tilec import passes
from tilec.dialects.ta import tensor_dims
from tilec.executors.oracle import evaluate
from tilec.frontend import spec_to_ta
from tilec.lowering.driver import run_passes
from tilec.signature import bind, random_inputs, signature

ATTENTIONS = ["attention", "causal_attention", "masked_attention", "attention_bias", "einsum_attention",
              "gqa_attention"]


def _saved(text: str, name: str):
    """(module, forward, @f_fwd, @f_bwd) after ta-grad{saved=true} (the forward kept)."""
    module = spec_to_ta(text, f"{name}.ta")
    info = passes.get("ta-grad")
    info.run(module.operation, info.options(saved=True))
    module.operation.verify()
    forward, fwd, bwd = list(module.body.operations)
    return module, forward, fwd, bwd


def _run_saved(text: str, sizes: dict, name: str):
    """(backward(x, forward_saving(x), dy) on the oracle, autograd's gradients), by input."""
    with dialects.context(), ir.Location.unknown():
        _, forward, fwd, bwd = _saved(text, name)
        sig = signature(forward)
        env = bind(sig, {k: v for k, v in sizes.items() if k in sig.params})
        inputs = random_inputs(sig, env, 0)
        leaves = {k: v.detach().clone().requires_grad_(True) for k, v in inputs.items()}
        outputs = evaluate(forward, leaves, env)
        torch.manual_seed(1)
        cotangents = {f"d{k}": torch.randn_like(v) for k, v in outputs.items()}
        sum((v * cotangents[f"d{k}"]).sum() for k, v in outputs.items()).backward()
        saved = evaluate(fwd, inputs, env)
        got = evaluate(bwd, {**inputs, **saved, **cotangents}, env)
        for k, v in outputs.items():  # the saving forward computes the same outputs
            assert torch.equal(saved[k], v.detach()), k
    want = {f"d{k}": v.grad if v.grad is not None else torch.zeros_like(v) for k, v in leaves.items()}
    return got, want


@pytest.mark.parametrize("sizes", SIZES, ids=["defaults", "size-1"])
@pytest.mark.parametrize("example", DIFFERENTIABLE)
def test_the_saved_backward_equals_autograd_through_the_oracle(example, sizes):
    got, want = _run_saved(_f32(example), sizes, example)
    assert set(got) == set(want)
    for name, value in want.items():
        assert _agrees(got[name], value), (name, float((got[name] - value).abs().max()))


_HEAD = """param B = 2, H = 3, S = 7, T = 5, D = 4, E = 6
input Q[B, H, S, D] : f32
input K[B, H, T, D] : f32
input V[B, H, T, E] : f32
{extra}output O[B, H, S, E] : f32
O[b, h, i, d] = sum[j](softmax[j]({scores}) * V[b, h, j, d])
"""
_QK = "sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)"
# the score functions FlexAttention's users differentiate: each a spec, no lowering of its own
VARIANTS = {
    "alibi": ("input slopes[H] : f32\n", f"{_QK} + slopes[h] * (j - i)"),
    "soft_cap": ("", f"tanh({_QK} * 0.125) * 8"),
    "window": ("", f"{_QK} where j <= i + 1 and j + 3 > i else -inf"),
    "learned_bias": ("input bias[H, S, T] : f32\n", f"{_QK} + bias[h, i, j]"),
    "value_dim": ("", _QK),  # a value head dim (E = 6) unlike the query's (D = 4)
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_score_variants_get_their_saved_backward(variant):
    """ALiBi, a soft-cap, a sliding window, a learned bias (its own gradient too) and a value
    head dim unlike the query's: the saved backward equals autograd, reads the saved statistic,
    and runs at the loop stage without storing anything of the scores' size (ALiBi's slopes
    get their gradient as a sum over the scores, fused like dV's)."""
    extra, scores = VARIANTS[variant]
    text = _HEAD.format(extra=extra, scores=scores)
    got, want = _run_saved(text, {}, variant)
    for name, value in want.items():
        assert _agrees(got[name], value), (name, float((got[name] - value).abs().max()))
    with dialects.context(), ir.Location.unknown():
        module = _backward_alone(text, variant)
        fn = module.body.operations[0]
        assert "ta.softmax" not in _ops(fn) and "ta.recompute" in fn.attributes
        _at_the_loop_stage(module)


def _at_the_loop_stage(module) -> dict:
    """Run the backward of ``module`` at the loop stage against the oracle (within f32's
    rounding) and check its loop IR stores nothing of the scores' size; returns the sizes."""
    from tilec.build.stages import run_stage
    from tilec.lowering.driver import to_loops

    fn = module.body.operations[0]
    sig = signature(fn)
    env = bind(sig, {})
    inputs = random_inputs(sig, env, 0)
    want = evaluate(fn, inputs, env)
    got = run_stage("loop", module, sig, inputs, env, "")
    assert _score_sized(to_loops(module), env) == []
    for name, value in want.items():
        assert float((got[name] - value).abs().max()) <= 1e-4 * max(float(value.abs().max()), 1.0), name
    return env


def _reduced_dims(fn) -> set[str]:
    """The names of the dims the function's ta.reduce ops sum or take the max over."""
    found = set()
    for op in fn.entry_block.operations:
        if op.operation.name == "ta.reduce":
            dims = tensor_dims(op.operation.operands[0].type)
            found |= {str(dims[ir.IntegerAttr(d).value]) for d in ir.ArrayAttr(op.attributes["dims"])}
    return found


def _ops(fn) -> list[str]:
    return [op.operation.name for op in fn.entry_block.operations]


@pytest.mark.parametrize("example", [a for a in ATTENTIONS if a != "masked_attention"])
def test_attention_backward_has_flashattentions_form(example):
    """No softmax is computed again and no row of the scores is summed: P is exp(s - lse) with
    lse an argument, D a contraction of dO with the saved O over the head dim (the reductions
    left sum a bias's or a shared key head's gradient over other dims)."""
    with dialects.context(), ir.Location.unknown():
        module, _, fwd, bwd = _saved(_f32(example), example)
        run_passes(module, ["canonicalize", "cse"])
        fwd, bwd = list(module.body.operations)[-2:]
        names = [ir.StringAttr(ir.DictAttr(a)["ta.name"]).value for a in ir.ArrayAttr(bwd.attributes["arg_attrs"])]
        out = names[-1][1:]  # the one output, after its cotangent's "d"
        assert names[-3:] == [out, "lse", f"d{out}"], names
        lse = next(op for op in fwd.entry_block.operations if op.operation.name == "ta.logsumexp")
        key = str(tensor_dims(lse.operation.operands[0].type)[ir.IntegerAttr(lse.attributes["dim"]).value])
        assert "ta.softmax" not in _ops(bwd) and "ta.logsumexp" not in _ops(bwd)
        assert key not in _reduced_dims(bwd)
        assert list(bwd.arguments[names.index(out)].uses), "D reads the saved output"
        assert "ta.recompute" in bwd.attributes


def test_a_guarded_softmax_keeps_its_row_sum():
    """masked_attention's softmax reaches V through a guard (a fully masked row gives 0): D is
    not rewritten there (Σ_j dP·P stays; correct, as the oracle test above shows)."""
    with dialects.context(), ir.Location.unknown():
        module, _, fwd, bwd = _saved(_f32("masked_attention"), "masked_attention")
        assert "ta.softmax" not in _ops(bwd) and "ta.reduce" in _ops(bwd)


def test_a_softmax_returned_keeps_its_row_sum():
    """Where the softmax feeds no contraction (it is the output) D stays Σ_j dy·y, y read
    from the saved statistic."""
    text = (EXAMPLES / "softmax.ta").read_text()
    with dialects.context(), ir.Location.unknown():
        module, _, _, bwd = _saved(text, "softmax")
        assert "ta.softmax" not in _ops(bwd) and "ta.reduce" in _ops(bwd)


def test_a_saved_statistic_name_the_function_uses_is_refused(tilec, tmp_path):
    source = tmp_path / "s.mlir"
    source.write_text('''func.func @f(%x: tensor<?x?xf32, ["N", "C"]> {ta.name = "lse"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) {
  %y = "ta.softmax"(%x) {dim = 1 : i64} : (tensor<?x?xf32, ["N", "C"]>) -> tensor<?x?xf32, ["N", "C"]>
  return %y : tensor<?x?xf32, ["N", "C"]>
}
''')
    status, out, err = tilec("opt", source, "--pass-pipeline", "builtin.module(ta-grad{saved=true})")
    assert status == 1 and "ta-grad:" in err and "lse" in err and "Traceback" not in err, err


def _backward_alone(text: str, name: str, shapes: str = ""):
    """A module of f_bwd alone (what the lowering takes), its shapes bound where given."""
    module = spec_to_ta(text, f"{name}.ta")
    steps = ["ta-grad{saved=true replace=true}"] + ([f"ta-specialize-shapes{{shapes={shapes}}}"] if shapes else [])
    run_passes(module, steps)
    list(module.body.operations)[0].operation.erase()  # f_fwd
    return module


LOOP_CASES = [("attention", "B=2,H=1,S=5,T=7,D=3"), ("causal_attention", "B=1,H=2,S=7,T=7,D=3"),
              ("attention_bias", "B=2,H=1,S=5,T=7,D=3"), ("gqa_attention", "B=1,H=4,S=5,T=7,D=3")]


def _score_sized(loops: ir.Module, env: dict) -> list[str]:
    """The buffers the loop IR allocates of the scores' size [B, H, S, T] (static sizes, or
    the parameters' arguments; S and T are sizes nothing else has)."""
    s, t = env["S"], env.get("T", env["S"])
    fn = loops.body.operations[0]
    attrs = ir.ArrayAttr(fn.attributes["arg_attrs"])
    params = {fn.arguments[k]: ir.StringAttr(ir.DictAttr(a)["ta.param"]).value
              for k, a in enumerate(attrs) if "ta.param" in ir.DictAttr(a)}
    found = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    if inner.operation.name == "memref.alloc":
                        shape = list(ir.MemRefType(inner.result.type).shape)
                        named = [params.get(v) for v in inner.operation.operands]
                        sizes = [x for x in shape if x >= 0] + [env[n] for n in named if n is not None]
                        if len(shape) == 4 and sorted(x for x in sizes if x in (s, t))[-2:] == sorted([s, t]):
                            found.append(str(inner.result.type))
                    visit(inner.operation)
    visit(fn.operation)
    return found


@pytest.mark.parametrize("example, shapes", LOOP_CASES)
def test_the_fused_backward_runs_at_the_loop_stage_without_the_scores(example, shapes):
    """Fused (dV and dK in one loop over the query rows, dQ in one over the keys) and lowered
    to loops, the backward equals the oracle's run of it, and allocates no buffer of the
    scores' size (the same function without ``ta.recompute`` allocates several; a bias's
    gradient [H, S, T] is an output's size)."""
    from tilec.lowering.driver import to_loops

    with dialects.context(), ir.Location.unknown():
        module = _backward_alone(_f32(example), example, shapes)
        env = _at_the_loop_stage(module)
        del module.body.operations[0].attributes["ta.recompute"]
        assert len(_score_sized(to_loops(module), env)) >= 3  # the check can fail
