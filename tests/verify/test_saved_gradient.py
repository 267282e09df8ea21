"""The saved backward proved against the plain gradient (tilec/verify/saved_gradient.py): for
every differentiable example in f32, for all shapes; a bf16 output's rounding (which D reads)
is not proved away (the command-line test); broken saved pairs come back as counterexamples."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects, passes
from tilec.frontend import spec_to_ta
from tilec.verify.saved_gradient import check_saved_gradient

PROVED = ["softmax", "logsumexp", "rmsnorm", "layernorm", "attention", "causal_attention", "attention_bias",
          "einsum_attention", "gqa_attention", "swiglu", "rope", "matmul_bias_gelu"]


def _f32(name: str) -> str:
    return (EXAMPLES / f"{name}.ta").read_text().replace("bf16", "f32").replace("f16", "f32")


def _verdicts(text: str) -> list[str]:
    with dialects.context(), ir.Location.unknown():
        plain, pair = spec_to_ta(text, "t.ta"), spec_to_ta(text, "t.ta")
        info = passes.get("ta-grad")
        info.run(plain.operation, info.options())
        info.run(pair.operation, info.options(saved=True))
        grad = list(plain.body.operations)[1]
        _, fwd, bwd = list(pair.body.operations)
        return [r.verdict for r in check_saved_gradient(grad, fwd, bwd)]


@pytest.mark.parametrize("example", PROVED)
def test_the_saved_pair_is_proved_equal_to_the_gradient(example):
    verdicts = _verdicts(_f32(example))
    assert verdicts and set(verdicts) == {"proved"}, verdicts


def _zero_row(op):
    from tilec.dialects import ta_builders as tb
    from tilec.dialects.ta import tensor_dims

    x, dim = op.operation.operands[0], ir.IntegerAttr(op.attributes["dim"]).value
    dims = [d for k, d in enumerate(tensor_dims(x.type)) if k != dim]
    return ir.Operation.create("ta.fill", results=[tb.tensor_type(dims, ir.F32Type.get())],
                               attributes={"value": ir.FloatAttr.get(ir.F32Type.get(), 0.0)}).result


def _max_instead_of_lse(fn, name):
    """The forward saves the row max, not the log-sum-exp (P = exp(x - max): unnormalised)."""
    from tilec.dialects import ta_builders as tb
    from tilec.passes.ta_grad import saved

    fwd, names = _REAL_FORWARD(fn, name)
    for op in list(fwd.regions[0].blocks[0].operations):
        if op.operation.name == "ta.logsumexp":
            with ir.InsertionPoint(op), op.location:
                m = tb.reduce(op.operation.operands[0], "max", [ir.IntegerAttr(op.attributes["dim"]).value])
            op.result.replace_all_uses_with(m)
            op.operation.erase()
    assert saved
    return fwd, names


def _d_from_the_cotangent(self, c):
    """D reads the cotangent where the saved output belongs (Σ_d dO·dO)."""
    found = _REAL_SAVED_VALUE(self, c)
    return None if found is None else list(found.owner.arguments)[-1]


from tilec.passes.ta_grad import saved as _saved  # noqa: E402

_REAL_FORWARD, _REAL_SAVED_VALUE = _saved.forward, _saved.Saved.saved_value
MUTANTS = {
    "no_row_term": (_saved.Saved, "_row_term", lambda self, op: _zero_row(op)),
    "max_for_lse": (_saved, "forward", _max_instead_of_lse),
    "d_from_the_cotangent": (_saved.Saved, "saved_value", _d_from_the_cotangent),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_broken_saved_pair_is_a_counterexample(mutant, monkeypatch):
    owner, name, value = MUTANTS[mutant]
    monkeypatch.setattr(owner, name, value)
    verdicts = _verdicts(_f32("attention"))
    assert "counterexample" in verdicts and "proved" not in verdicts[:2], verdicts


def test_a_wrong_exponent_sign_is_a_counterexample(monkeypatch):
    """P = exp(x + lse): the split of -log(s) must not apply to +log(s)."""
    from torch_mlir.dialects import arith

    real = arith.SubFOp

    def read_statistics(self):
        arith.SubFOp = lambda a, b: arith.AddFOp(a, b)
        try:
            _REAL_READ(self)
        finally:
            arith.SubFOp = real

    monkeypatch.setattr(_saved.Saved, "read_statistics", read_statistics)
    verdicts = _verdicts(_f32("softmax"))
    assert verdicts == ["counterexample"], verdicts


_REAL_READ = _saved.Saved.read_statistics


def _backward_loops():
    """(the fused ta, the loop IR) of attention's saved backward (f32), as text."""
    from tilec.lowering.driver import LOOP_PIPELINE, run_passes

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(_f32("attention"), "attention.ta")
        run_passes(module, ["ta-grad{saved=true replace=true}"])
        list(module.body.operations)[0].operation.erase()
        run_passes(module, LOOP_PIPELINE[:-1])
        loops = ir.Module.parse(str(module))
        run_passes(loops, LOOP_PIPELINE[-1:])
        return str(module), str(loops)


INNER = r"(%1 = scf.for %arg19 = %c0 to )%arg10( step %c1 iter_args\(%arg20 = )%cst_3(\) -> \(f32\) \{\n\s+%12 = memref.load %arg0\[%arg14, %arg15, %arg17, %arg19\] : memref<\?x\?x\?x\?xf32>\n\s+%13 = memref.load %arg1\[%arg14, %arg15, )%arg16"
LOOP_MUTANTS = {  # the scores contraction computed inside dV's sum, broken
    "inner_bound": lambda m: m.group(1) + "%arg12" + m.group(2) + "%cst_3" + m.group(3) + "%arg16",
    "inner_start": lambda m: m.group(1) + "%arg10" + m.group(2) + "%0" + m.group(3) + "%arg16",
    "inner_index": lambda m: m.group(1) + "%arg10" + m.group(2) + "%cst_3" + m.group(3) + "%arg17",
}


def test_the_backwards_recomputed_sums_are_proved_at_the_loop_stage():
    from tilec.verify.loop_sums import check_loop_sums

    ta, loops = _backward_loops()
    with dialects.context(), ir.Location.unknown():
        ta_module, loop_module = ir.Module.parse(ta), ir.Module.parse(loops)
        rows = check_loop_sums(ta_module.body.operations[0], loop_module.body.operations[0], "x.ta")
    # dV, dK (dS = P * (dP - D) kept whole) and dQ: one online sum each
    assert len(rows) == 3 and {r.verdict for r in rows} == {"proved"}, [(r.check, r.verdict, r.detail) for r in rows]


@pytest.mark.parametrize("mutant", sorted(LOOP_MUTANTS))
def test_a_broken_recomputed_sum_is_refuted(mutant):
    import re

    from tilec.verify.loop_sums import check_loop_sums

    ta, loops = _backward_loops()
    mutated = re.sub(INNER, LOOP_MUTANTS[mutant], loops, count=1)
    assert mutated != loops
    with dialects.context(), ir.Location.unknown():
        ta_module, loop_module = ir.Module.parse(ta), ir.Module.parse(mutated)
        rows = check_loop_sums(ta_module.body.operations[0], loop_module.body.operations[0], "x.ta")
    assert "counterexample" in {r.verdict for r in rows}, [(r.check, r.verdict) for r in rows]


def test_verify_stage_grad_from_the_command_line(tilec, tmp_path):
    """`tilec verify SPEC --stage grad`: the pair proved and the backward's kernels, their CUDA
    run included (softmax); `--stage grad-loop`: the pair and the backward's loop IR alone
    (attention in bf16, whose D reads the stored (rounded) O: dQ and dK unknown, never proved
    (the oracle finds no difference beyond bf16's tolerance), dV proved, and --strict exits 1 on
    that); a backward no kernel takes is an error row under grad; what ta-grad refuses is an
    error row; schedules do not apply."""
    status, out, err = tilec("verify", EXAMPLES / "softmax.ta", "--stage", "grad", "--target", "sm_80")
    assert status == 0 and "0 counterexample / 0 unknown" in out.strip().splitlines()[-1], out + err
    assert "ta-grad{saved=true} keeps result #0" in out and "[tile sm_80]" in out and "[loop]" in out, out
    status, out, err = tilec("verify", EXAMPLES / "layernorm.ta", "--stage", "grad-loop")
    assert status == 0 and "[loop]" in out and "[tile" not in out, out + err
    status, out, err = tilec("verify", EXAMPLES / "layernorm.ta", "--stage", "grad", "--target", "sm_80")
    assert status == 1 and "no tile lowering takes" in out and "[loop]" in out and "Traceback" not in err, out + err
    status, out, _ = tilec("verify", EXAMPLES / "attention.ta", "--stage", "grad-loop", "--strict")
    pair = [line.split()[0] for line in out.splitlines() if "ta-grad{saved=true} keeps result" in line]
    assert status == 1 and pair == ["unknown", "unknown", "proved"], out
    shifted = tmp_path / "shifted.ta"
    shifted.write_text("param N = 4\ninput X[N + 1] : f32\noutput Y[N] : f32\nY[i] = X[i + 1] * 2\n")
    status, out, err = tilec("verify", shifted, "--stage", "grad")
    assert status == 1 and "error" in out and "shifts" in out and "Traceback" not in err, out + err
    status, out, err = tilec("verify", shifted, "--stage", "grad", "--schedule", "bm=64")
    assert status != 0 and "do not apply" in err and "Traceback" not in err, err
