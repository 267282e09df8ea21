"""Every index division of a tile kernel divides a value >= 0 by one > 0 (verify/index_divisions.py):
proved for every kernel form, refuted for kernels whose index arithmetic divides a negative
value or by zero, and the interpreter refuses such a division at run time."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import edit_once
from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.executors.tile_interpreter import run_tile
from tilec.frontend import load_spec
from tilec.lowering.driver import build_tile
from tilec.signature import bind, random_inputs, signature
from tilec.verify.index_divisions import check_index_divisions

WGMMA = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2"
PINGPONG = "bm=64 bn=64 bk=64 warps=8 stages=2 consumers=2 pingpong=true persistent=true"
KERNELS = [("gemm", {}, ""), ("gemm", {}, WGMMA), ("gemm", {}, PINGPONG), ("attention", {"D": 64}, ""),
           ("causal_attention", {"D": 64}, "bm=128 bn=64 warps=8 stages=2 consumers=2 softmax-overlap=true"),
           ("layernorm", {}, ""), ("rope", {}, "")]


def _tile(spec: str, fixed: dict, schedule: str, target: str = "sm_90a"):
    module = load_spec(str(EXAMPLES / f"{spec}.ta"))
    return build_tile(module, fixed, schedule, target)


@pytest.mark.parametrize("spec, fixed, schedule", KERNELS, ids=[f"{k[0]}-{k[2] or 'default'}" for k in KERNELS])
def test_each_form_divides_only_indices_at_least_zero(spec, fixed, schedule):
    with dialects.context(), ir.Location.unknown():
        build = _tile(spec, fixed, schedule)  # held: the function lives in its module
        prop, check, outcome, domain = check_index_divisions(build.tile.body.operations[0])
    assert (prop, outcome.verdict) == ("in-bounds", "proved"), outcome.detail
    assert "divisions)" in domain


# the consumers' release of iteration kt - 1's stage, guarded by kt >= 1: from kt >= 0 it takes
# (0 - 1) % stages; a k-tile count divided by zero
MUTANTS = [("the release's guard from kt >= 0", r"(arith\.cmpi sge, %arg\d+, )%c1\b", r"\g<1>%c0", "dividend"),
           ("the k tiles counted by a division by zero", r"(arith\.ceildivsi %arg\d+, )%c64\b", r"\g<1>%c0", "K")]


@pytest.mark.parametrize("what, pattern, repl, named", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_division_outside_its_meaning_is_a_counterexample(what, pattern, repl, named):
    with dialects.context(), ir.Location.unknown():
        text = str(_tile("gemm", {}, WGMMA).tile)
        mutant = ir.Module.parse(edit_once(pattern, repl)(text))
        _, _, outcome, _ = check_index_divisions(mutant.body.operations[0])
    assert outcome.verdict == "counterexample"
    assert any(key.startswith(named) for key in outcome.model), outcome.model


def test_the_interpreter_refuses_a_negative_dividend():
    """The mma.sync GEMM's ring slot of the copy ahead, (kt + stages - 1) % stages, taken as (kt - 1) % stages."""
    with dialects.context(), ir.Location.unknown():
        build = _tile("gemm", {"M": 40, "N": 40, "K": 100}, "bm=16 bn=16 bk=16 warps=1 stages=2", "sm_80")
        text = str(build.tile)
        before = text.count("arith.remsi")
        mutant = edit_once(r"arith\.addi (%arg\d+), %c1 : index\n(\s+%\d+ = arith\.remsi)",
                           r"arith.subi \1, %c1 : index\n\2")(text)
        assert mutant.count("arith.remsi") == before
        tiled = ir.Module.parse(mutant)
        fn = build.fused.body.operations[0]
        sig = signature(fn)
        env = bind(sig, {"M": 40, "N": 40, "K": 100})
        with pytest.raises(TilecError, match=r"arith\.remsi of -1 by 2: an index division of tile IR divides a "
                                             r"value >= 0 by one > 0"):
            run_tile(tiled, sig, random_inputs(sig, env, 0), env)
        _, _, outcome, _ = check_index_divisions(tiled.body.operations[0])
    assert outcome.verdict == "counterexample"
