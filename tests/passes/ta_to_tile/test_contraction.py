"""The tile stage: the GEMM family lowered to tile IR and run by the interpreter matches
the oracle at shapes that divide the tiles and shapes that do not; broken kernels
(wrong swizzle, missing wait, dropped remainder tile) give wrong numbers."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage as _run
from tilec import dialects
from tilec.executors.compare import compare
from tilec.diagnostics import TilecError
from tilec.lowering.driver import run_passes, to_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.executors.oracle import evaluate
from tilec.signature import bind, random_inputs, signature
from tilec.executors.tile_interpreter import run_tile

GEMMS = {
    "gemm": [{"M": 64, "N": 64, "K": 64}, {"M": 257, "N": 129, "K": 65}, {"M": 1, "N": 1, "K": 1}],
    "gemm_f32_nt": [{"M": 70, "N": 33, "K": 65}, {"M": 1, "N": 1, "K": 1}],
    "matmul_bias_gelu": [{"M": 33, "N": 70, "K": 100}, {"M": 1, "N": 17, "K": 16}],
    "batched_gemm": [{"Bt": 3, "M": 17, "N": 9, "K": 40}, {"Bt": 1, "M": 32, "N": 32, "K": 1}],
}
SCHEDULES = ["bm=32 bn=32 bk=16 stages=2", "bm=64 bn=32 bk=32 stages=3 group-m=2", "bm=32 bn=64 bk=16 stages=4 swizzle=false"]


@pytest.mark.parametrize("name", sorted(GEMMS))
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_gemm_family_at_tile_stage(name, schedule):
    for shapes in GEMMS[name]:
        with dialects.context(), ir.Location.unknown():
            results = _run(load_spec(str(EXAMPLES / f"{name}.ta")), shapes, schedule)
        assert all(r.ok for r in results), (shapes, [str(r) for r in results])


def test_transposed_operands():
    spec = ("param M, N, K\ninput A[K, M] : f16\ninput B[N, K] : f16\noutput C[M, N] : f32\n"
            "C[i, j] = sum[k](A[k, i] * B[j, k]) * 0.5\n")
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(spec, "nt.ta")
        assert "tile.operands = \"tt\"" in str(to_tile(module, "bm=32 bn=32 bk=16"))
        results = _run(module, {"M": 40, "N": 24, "K": 33}, "bm=32 bn=32 bk=16")
    assert all(r.ok for r in results), [str(r) for r in results]


# (name, text edit of the tile IR) — each must make the kernel compute wrong numbers
MUTANTS = {
    # XOR-ing the very bits it reads clears them: two elements share a shared-memory slot
    "swizzle that is not a bijection": lambda t: t.replace("[32, 1], [2, 3, 3]", "[32, 1], [2, 3, 0]", 1),
    "missing pipeline wait": lambda t: t.replace('"tile.wait_group"() {pending = 1 : i64}', '"tile.barrier"()', 1),
    "waits for too little": lambda t: t.replace("{pending = 1 : i64}", "{pending = 2 : i64}", 1),
    "dropped remainder k tile": lambda t: t.replace("arith.ceildivsi", "arith.floordivsi"),
    "swapped operands of mma": lambda t: _swap_mma(t),
}


def _swap_mma(text: str) -> str:
    import re
    return re.sub(r'"tile.mma"\((%\w+), (%\w+), ', r'"tile.mma"(\1, \1, ', text)


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_broken_tile_programs_give_wrong_numbers(name):
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta("param M, N, K\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : f32\n"
                            "C[i, j] = sum[k](A[i, k] * B[k, j])\n", "m.ta")
        original = str(to_tile(module, "bm=32 bn=32 bk=32 stages=3"))
        mutated = MUTANTS[name](original)
        assert mutated != original, "the mutation did not apply"
        try:
            results = _run(module, {"M": 64, "N": 32, "K": 80}, "bm=32 bn=32 bk=32 stages=3",
                           mutate=MUTANTS[name])
        except (ir.MLIRError, TilecError):
            return  # rejected outright is also a detection
    assert not all(r.ok for r in results)


def test_row_programs_take_their_own_default_schedule(tilec):
    status, out, err = tilec("run", EXAMPLES / "layernorm.ta", "--stage", "tile", "--shape", "N=9,C=300")
    assert status == 0 and "(ok)" in out
    status, out, err = tilec("run", EXAMPLES / "layernorm.ta", "--stage", "tile", "--schedule", "bm=64,bn=256,warps=1")
    assert status == 1 and "cannot build this rows kernel: each thread would hold 512 elements" in err


def test_bad_schedule_is_reported_against_the_flag(tilec):
    status, out, err = tilec("run", EXAMPLES / "gemm.ta", "--stage", "tile", "--schedule", "bm=60")
    # the schedule is legal or not for the kernel's form: every reason, named against that form
    assert status == 1 and err.startswith("error: schedule bm=60,") and "contraction kernel" in err
    assert "bm, bn and bk must be multiples of 16" in err and "30x64" in err


def test_run_stage_tile_command(tilec):
    status, out, err = tilec("run", EXAMPLES / "gemm.ta", "--stage", "tile", "--shape", "M=70,N=33,K=17",
                             "--schedule", "bm=32,bn=32,bk=16")
    assert status == 0, err
    assert "tile vs oracle" in out and "(ok)" in out


TWO_BATCH_DIMS = """param P = 2, Q = 3, M = 64, N = 48, K = 32
input A[P, Q, M, K] : bf16
input B[P, Q, K, N] : bf16
output C[P, Q, M, N] : f32
C[p, q, i, j] = sum[k](A[p, q, i, k] * B[p, q, k, j])
"""


def test_gemm_with_two_batch_dims_matches_and_is_proved(tmp_path):
    """One program id is split into an index per batch dim; a swapped split is refuted."""
    import re

    from tilec.build.verification_spec import verify_spec
    from tilec.verify.kernels import check_tile

    spec = tmp_path / "batch2.ta"
    spec.write_text(TWO_BATCH_DIMS)
    schedule = "bm=32 bn=32 bk=16"
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(TWO_BATCH_DIMS, "batch2.ta")
        results = _run(module, {"P": 2, "Q": 3, "M": 33, "N": 17, "K": 20}, schedule)
        assert all(r.ok for r in results), [str(r) for r in results]
    report = verify_spec(str(spec), schedule, targets=("sm_80",))
    assert report.status() == 0, report.as_text()
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(TWO_BATCH_DIMS, "batch2.ta")
        tiled = str(to_tile(module, schedule))
        # the batch index p read as pid % Q instead of pid / Q
        mutated = re.sub(r"(%\d+) = arith.divsi (%\d+), (%arg\d+) : index", r"\1 = arith.remsi \2, \3 : index",
                         tiled, count=1)
        assert mutated != tiled
        reference = ir.Module.parse(str(module))
        run_passes(reference, ["ta-canonicalize"])
        results = check_tile(ir.Module.parse(mutated), reference, "batch2.ta")
        verdicts = [r.verdict for r in results]
    assert "counterexample" in verdicts


@pytest.mark.parametrize("a,b", [("bf16", "f16"), ("bf16", "f32"), ("f32", "f16")])
def test_mixed_operand_types_multiply_in_f32(tilec, tmp_path, a, b):
    spec = tmp_path / "mixed.ta"
    spec.write_text(f"param M = 37, N = 21, K = 45\ninput A[M, K] : {a}\ninput B[K, N] : {b}\n"
                    "output C[M, N] : f32\nC[i, j] = sum[k](A[i, k] * B[k, j])\n")
    status, out, err = tilec("run", spec, "--stage", "tile", "--schedule", "bm=64,bn=64,bk=32")
    assert status == 0 and "(ok)" in out, out + err
    status, out, err = tilec("verify", spec, "--schedule", "bm=64,bn=64,bk=32", "--target", "sm_90a")
    assert status == 0 and " 0 counterexample" in out, out + err


@pytest.mark.parametrize("body,dtype", [
    ("sum[k](B[k, j] * A[i, k])", "bf16"),         # swapped factors: still A·B
    ("sum[k](A[i, k] * B[k, j] * 0.5)", "bf16"),   # a scale inside the sum: hoisted out of it
    ("sum[k](0.5 * A[i, k] * B[k, j])", "f32"),
])
def test_contraction_forms_lower_to_the_gemm_kernel(body, dtype, tmp_path):
    from tilec.build.verification_spec import verify_spec

    text = (f"param M = 64, N = 48, K = 32\ninput A[M, K] : {dtype}\ninput B[K, N] : {dtype}\n"
            f"output C[M, N] : f32\nC[i, j] = {body}\n")
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, "c.ta")
        assert '"ta.contract"' in str(module) and '"ta.reduce"' not in str(module)
        results = _run(module, {"M": 33, "N": 17, "K": 20}, "bm=32 bn=32 bk=16")
    assert all(r.ok for r in results), [str(r) for r in results]
    spec = tmp_path / "c.ta"
    spec.write_text(text)
    report = verify_spec(str(spec), "bm=32 bn=32 bk=16", targets=("sm_80",))
    assert report.status() == 0, report.as_text()


@pytest.mark.parametrize("body,inputs", [
    ("sum[k](X[b, i, k] * W[k, j])", "input X[B, M, K] : bf16\ninput W[K, N] : bf16\n"),   # a shared weight
    ("sum[k](W[i, k] * X[b, k, j])", "input W[M, K] : bf16\ninput X[B, K, N] : bf16\n"),   # shared on the left
    ("sum[k](X[b, i, k] * W[j, k])", "input X[B, M, K] : bf16\ninput W[N, K] : bf16\n"),   # a Linear: x·Wᵀ
])
def test_broadcast_batch_operands_lower_and_are_proved(body, inputs, tmp_path):
    """An operand without the batch dims (a weight) is read at every batch element."""
    from tilec.build.verification_spec import verify_spec

    text = f"param B = 2, M = 64, N = 48, K = 32\n{inputs}output Y[B, M, N] : f32\nY[b, i, j] = {body}\n"
    with dialects.context(), ir.Location.unknown():
        results = _run(spec_to_ta(text, "bcast.ta"), {"B": 3, "M": 33, "N": 17, "K": 20}, "bm=32 bn=32 bk=16")
    assert all(r.ok for r in results), [str(r) for r in results]
    spec = tmp_path / "bcast.ta"
    spec.write_text(text)
    report = verify_spec(str(spec), "bm=32 bn=32 bk=16", targets=("sm_80",))
    assert report.status() == 0, report.as_text()


def test_contractions_sharing_an_input_lower_into_one_kernel_and_are_proved():
    """SwiGLU: silu(x·Wg) * (x·Wu) is one kernel, one A tile feeding two accumulators."""
    import re

    from tilec.build.verification_spec import verify_spec
    from tilec.verify.kernels import check_tile

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "swiglu.ta"))
        results = _run(module, {"M": 70, "N": 33, "K": 40}, "bm=32 bn=32 bk=16 warps=2")
        assert all(r.ok for r in results), [str(r) for r in results]
        tiled = str(to_tile(module, "bm=64 bn=64 bk=32"))
        assert tiled.count('"tile.mma"') == 2 and tiled.count('"tile.alloc"') == 3
        reference = ir.Module.parse(str(module))
        run_passes(reference, ["ta-canonicalize"])
        mutants = {  # the epilogue's two accumulators swapped; the second mma reading the first's B
            "swapped accumulators": re.sub(r"scf.yield (%\d+), (%\d+) :", r"scf.yield \2, \1 :", tiled, count=1),
        }
        (_, b0, _), (head, b1, tail) = re.findall(r'("tile.mma"\(%\d+, )(%\d+)(, %arg\d+\))', tiled)
        mutants["B of the wrong weight"] = tiled.replace(head + b1 + tail, head + b0 + tail, 1)
        for name, text in mutants.items():
            assert text != tiled, name
            verdicts = [r.verdict for r in check_tile(ir.Module.parse(text), reference, "swiglu.ta")]
            assert "counterexample" in verdicts, name
    report = verify_spec(str(EXAMPLES / "swiglu.ta"), "", targets=("sm_90a",))
    assert report.status() == 0, report.as_text()
    assert sum("accumulates" in r.check for r in report.results) == 4  # A and B of each contraction


def test_several_accumulators_count_against_the_registers():
    from tilec.dialects.schedule import Schedule

    assert Schedule().legal("contraction", {"b_operands": 1}) == []
    reasons = Schedule().legal("contraction", {"b_operands": 2})
    assert reasons and "256 accumulator values" in reasons[0]
