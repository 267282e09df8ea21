"""Attention tile programs derived from the fused loop IR: the tile interpreter matches the
oracle for every variant, at lengths that do not divide the blocks."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import check_tile_stage as _check
from tilec import dialects
from tilec.codegen.cuda import emit_cuda
from tilec.executors.compare import compare
from tilec.dialects.raster import ATTR as RASTER_ATTR, HeavyFirst, raster_of
from tilec.dialects.dims import parse_dim
from tilec.lowering.driver import run_passes, to_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.executors.oracle import evaluate
from tilec.signature import bind, random_inputs, signature
from tilec.passes.ta_to_tile.online import L2_BUDGET
from tilec.executors.tile_interpreter import run_tile

CASES = [
    ("attention", {"B": 1, "H": 2, "S": 40, "T": 50, "D": 64}),
    ("attention", {"B": 1, "H": 1, "S": 1, "T": 1, "D": 32}),
    ("attention", {"B": 2, "H": 1, "S": 17, "T": 33, "D": 96}),
    ("causal_attention", {"B": 1, "H": 2, "S": 45, "D": 64}),
    ("gqa_attention", {"B": 1, "H": 4, "S": 20, "T": 37, "D": 32}),
    ("attention_bias", {"B": 1, "H": 2, "S": 19, "T": 35, "D": 64}),
]


@pytest.mark.parametrize("example,shapes", CASES, ids=[f"{c[0]}-{c[1]['S']}x{c[1].get('T', c[1]['S'])}x{c[1]['D']}"
                                                        for c in CASES])
def test_attention_tile_program_matches_the_oracle(example, shapes):
    with dialects.context(), ir.Location.unknown():
        results = _check(load_spec(str(EXAMPLES / f"{example}.ta")), shapes)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_f16_and_sq_different_from_sk():
    spec = ("param S, T, D = 64\ninput Q[S, D] : f16\ninput K[T, D] : f16\ninput V[T, D] : f16\noutput O[S, D] : f16\n"
            "O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) * 0.125) * V[j, d])\n")
    with dialects.context(), ir.Location.unknown():
        results = _check(spec_to_ta(spec, "f16.ta"), {"S": 9, "T": 70, "D": 64}, "bm=16 bn=32 warps=1 stages=3")
    assert all(r.ok for r in results), [str(r) for r in results]


def test_the_program_is_an_online_recurrence():
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "causal_attention.ta"))
        run_passes(module, ["ta-specialize-shapes{shapes=D=64}"])
        text = str(to_tile(module, "bm=32 bn=32 warps=2 stages=3"))
    # one pipelined loop over key blocks carrying (row max, row sum, accumulator), two mmas in it
    assert text.count("tile.stages = 3") == 1 and text.count('"tile.mma"') == 2
    assert 'kind = "max"' in text and 'kind = "sum"' in text and "math.exp" in text
    rows, acc = 'tensor<32xf32, #tile.slice<"mma", [2, 1], 1 : i64>>', "tensor<32x64xf32, #tile.mma<[2, 1]>>"
    assert f"{rows}, {rows}, {acc}" in text  # the loop carries (m, l, acc), each warp owning whole rows


def test_the_head_dim_must_be_fixed():
    from tilec.diagnostics import TilecError

    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="fix it at compile time"):
            to_tile(load_spec(str(EXAMPLES / "attention.ta")), "bm=32 bn=32 warps=2")


def test_compile_uses_the_specs_own_head_dim_default(tilec):
    status, out, err = tilec("compile", EXAMPLES / "attention.ta", "--emit", "cuda")
    assert status == 0, err
    assert "__global__" in out


NARROW_VALUES = """param S, T, E = 64, D = 32
input Q[S, E] : bf16
input K[T, E] : bf16
input V[T, D] : bf16
output O[S, D] : f32
O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) * rsqrt(E)) * V[j, d])
"""


@pytest.mark.parametrize("value_dim", [32, 128])
def test_value_head_dim_unlike_query_head_dim_lowers_and_is_proved(tilec, tmp_path, value_dim):
    """Q and K tiles are as wide as their own head dim, V and the output as wide as V's: a narrower
    V once lowered to a wrong kernel that was proved; now each width is read from its tensor."""
    spec = tmp_path / "narrow.ta"
    spec.write_text(NARROW_VALUES.replace("D = 32", f"D = {value_dim}"))
    status, out, err = tilec("run", spec, "--stage", "tile", "--shape", "S=37,T=70", "--schedule", "bm=32,bn=32,warps=2")
    assert status == 0 and "(ok)" in out, out + err
    status, out, err = tilec("verify", spec, "--target", "sm_90a", "--schedule", "bm=64,bn=64,warps=4")
    assert status == 0 and " 0 counterexample" in out, out
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert f"memref<3x128x{value_dim}xbf16, 3>" in out and "memref<1x128x64xbf16, 3>" in out


@pytest.mark.parametrize("value_dim", [8, 24])
def test_a_value_head_dim_of_an_odd_number_of_n_tiles_lowers_and_is_proved(tilec, tmp_path, value_dim):
    """P·V's n is the value head dim, in mma n tiles of 8: at 8 and 24 the last tile is loaded alone
    (ldmatrix.x2). The interpreter matches the oracle, every check is proved (the B fragments and
    the bank rows of the odd tile included) and the CUDA compiles for both targets."""
    spec = tmp_path / "narrow.ta"
    spec.write_text(NARROW_VALUES.replace("D = 32", f"D = {value_dim}"))
    status, out, err = tilec("run", spec, "--stage", "tile", "--shape", "S=37,T=70", "--schedule", "bm=32,bn=32,warps=2")
    assert status == 0 and "(ok)" in out, out + err
    status, out, err = tilec("verify", spec, "--schedule", "bm=64,bn=64,warps=4")
    assert status == 0 and " 0 counterexample" in out, out
    assert re.search(r"proved +narrow \[tile sm_80\] equivalence: ldmatrix.trans B fragments are the PTX", out), out
    assert re.search(rf"proved +narrow \[tile sm_80\] swizzle: V tile 64x{value_dim}: ldmatrix phases", out), out
    for target in ("sm_80", "sm_90a"):
        assert re.search(rf"proved +narrow \[cuda {target}\] build: the CUDA source compiles for {target}", out), out
    status, out, err = tilec("compile", spec, "--emit", "cuda", "--schedule", "bm=64,bn=64,warps=4")
    assert status == 0 and "ldmatrix_x2_trans(bf[kk % 2][" in out, err


def test_a_value_head_dim_the_mma_cannot_tile_is_refused_at_the_value_tensor(tilec, tmp_path):
    """A value head dim that is no multiple of 8 (12): refused, naming the value head dim and the
    rule, at V's declaration (a plain read has no op of its own) or at a grouped-head read of it."""
    spec = tmp_path / "twelve.ta"
    spec.write_text(NARROW_VALUES.replace("D = 32", "D = 12"))
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert status == 1 and "Traceback" not in err, err
    assert f"{spec}:4:7: error: the value head dim 'D' = 12 must be a multiple of 8: it is P·V's n" in err, err
    grouped = tmp_path / "grouped.ta"
    grouped.write_text("param H = 4, S = 64, T = 64, E = 16, D = 12\nconst G = 2\ninput Q[H, S, E] : bf16\n"
                       "input K[H / G, T, E] : bf16\ninput V[H / G, T, D] : bf16\noutput O[H, S, D] : bf16\n"
                       "O[h, i, d] = sum[j](softmax[j](sum[e](Q[h, i, e] * K[h / G, j, e])) * V[h / G, j, d])\n")
    status, out, err = tilec("compile", grouped, "--emit", "tile")
    assert status == 1 and f"{grouped}:7:71: error: the value head dim 'D' = 12" in err, err


FULLY_MASKED_FIRST_ROW = """param S, T, D = 16
input Q[S, D] : f32
input K[T, D] : f32
input V[T, D] : f32
output O[S, D] : f32
O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) where j < i else -inf) * V[j, d])
"""


def test_fully_masked_rows_are_nan_in_every_stage():
    """One documented semantics: softmax of a row with every score -inf is 0 / 0 = NaN (as
    torch.softmax), in the oracle, the loop IR and the tile program; other rows are unaffected."""
    import torch

    from tilec.lowering.driver import specialize
    from tilec.build.stages import run_stage

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(FULLY_MASKED_FIRST_ROW, "masked.ta")
        specialize(module, {"S": 20, "T": 37})
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, {})
        inputs = random_inputs(sig, env, 0)
        expected = evaluate(fn, inputs, env)["O"]
        staged = {stage: run_stage(stage, module, sig, inputs, env, "bm=16 bn=16 warps=1 stages=2")["O"]
                  for stage in ("loop", "tile")}
    assert bool(expected[0].isnan().all()) and not bool(expected[1:].isnan().any())
    for stage, actual in staged.items():
        assert bool(actual[0].isnan().all()), stage
        assert compare(actual, expected).ok, stage


def test_fully_masked_softmax_and_logsumexp_agree(tmp_path):
    import torch

    from tilec.build.stages import run_stage

    text = ("param S, T\ninput X[S, T] : f32\noutput P[S, T] : f32\noutput L[S] : f32\n"
            "P[i, j] = softmax[j](X[i, j] where j < i else -inf)\nL[i] = logsumexp[j](X[i, j] where j < i else -inf)\n")
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, "m.ta")
        sig = signature(module.body.operations[0])
        env = bind(sig, {"S": 5, "T": 7})
        inputs = random_inputs(sig, env, 0)
        expected = evaluate(module.body.operations[0], inputs, env)
        actual = run_stage("loop", module, sig, inputs, env)
    assert bool(expected["P"][0].isnan().all()) and expected["L"][0] == -torch.inf
    for name in ("P", "L"):
        assert compare(actual[name], expected[name]).ok, name


@pytest.mark.parametrize("head_dim,rule", [(8, "query head dim 'D' = 8 must be a multiple of 16"),
                                           (17, "value head dim 'D' = 17 must be a multiple of 8"),
                                           (24, "query head dim 'D' = 24 must be a multiple of 16")])
def test_head_dims_the_mma_cannot_step_are_declined(tilec, head_dim, rule):
    """The scores mma steps k by 16 and P·V multiplies n tiles of 8: a head dim that is neither (the
    same D for Q, K and V) once compiled to CUDA that dropped the last columns (or did not compile)."""
    status, out, err = tilec("compile", EXAMPLES / "attention.ta", "--shape", f"D={head_dim}", "--emit", "cuda")
    assert status == 1 and rule in err, err


def test_attention_with_another_output_is_declined(tilec, tmp_path):
    """The attention kernel stores one output; a second one would have been left unwritten."""
    spec = tmp_path / "two.ta"
    spec.write_text("param S = 64, T = 64, D = 64\ninput Q[S, D] : bf16\ninput K[T, D] : bf16\n"
                    "input V[T, D] : bf16\noutput O[S, D] : bf16\noutput R[S] : f32\n"
                    "O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e])) * V[j, d])\nR[i] = sum[e](Q[i, e])\n")
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert status == 1 and "writes one output" in err
    status, out, err = tilec("run", spec, "--stage", "loop")
    assert status == 0, out + err


def test_a_limit_of_the_attention_form_is_located_at_its_statement(tilec):
    status, out, err = tilec("compile", EXAMPLES / "attention.ta", "--emit", "tile", "--shape", "D=8")
    assert status == 1 and "attention.ta:9:" in err and "must be a multiple of 16" in err and "Traceback" not in err
    # a schedule the form cannot take is the option's error, not the spec's
    status, out, err = tilec("compile", EXAMPLES / "attention.ta", "--emit", "tile", "--schedule", "bn=24")
    assert status in (1, 2) and err.startswith("error: ") and "bn=24" in err, err


def _causal_tile(shapes, schedule="bm=16 bn=16 warps=1 stages=2"):
    module = load_spec(str(EXAMPLES / "causal_attention.ta"))
    run_passes(module, [f"ta-specialize-shapes{{shapes={','.join(f'{k}={v}' for k, v in shapes.items())}}}"])
    return module, to_tile(module, schedule)


HEAVY_FIRST = "bm=16 bn=16 warps=1 stages=2 heavy-first=true"


def test_heavy_first_launches_a_causal_kernels_longest_query_blocks_first():
    with dialects.context(), ir.Location.unknown():
        _, tiled = _causal_tile({"B": 2, "H": 3, "S": 45, "D": 64}, HEAVY_FIRST)
        fixed = raster_of(tiled.body.operations[0])
        module = load_spec(str(EXAMPLES / "causal_attention.ta"))
        run_passes(module, ["ta-specialize-shapes{shapes=D=64}"])
        held = to_tile(module, HEAVY_FIRST)  # held: a function does not keep its module alive
        dynamic = raster_of(held.body.operations[0])
        _, tiled = _causal_tile({"B": 2, "H": 3, "S": 45, "D": 64})
        plain = raster_of(tiled.body.operations[0])
    # keys and values of S x 128 bf16 a batch element: as many as the L2 budget holds, at every S
    assert fixed == HeavyFirst(f"{L2_BUDGET}/(S*256)") and dynamic == fixed
    assert plain is None  # without the option, the plain grid
    order = [fixed.program_ids(k, 3, 6, 100, lambda a, b: a // b, lambda c, a, b: a if c else b) for k in range(18)]
    assert order[:7] == [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (1, 0)]


def test_heavy_first_needs_a_causal_attention(tilec):
    status, _, err = tilec("compile", EXAMPLES / "attention.ta", "--emit", "tile", "--schedule", "bm=64,bn=64,heavy-first=true")
    assert status != 0 and "heavy_first" in err and "causal" in err and "Traceback" not in err


@pytest.mark.parametrize("group", [1, 4, 6, 50])
def test_the_interpreter_runs_each_program_id_once_under_any_raster_group(group):
    """B * H = 6 batch elements: groups of 4 leave a last group of 2, 50 is one partial group."""
    shapes = {"B": 2, "H": 3, "S": 45, "D": 64}
    with dialects.context(), ir.Location.unknown():
        module, tiled = _causal_tile(shapes)
        tiled.body.operations[0].attributes[RASTER_ATTR] = HeavyFirst(str(group)).attribute()
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, shapes)
        inputs = random_inputs(sig, env, 5)
        expected = evaluate(fn, inputs, env)
        actual = run_tile(tiled, sig, inputs, env)
    assert all(compare(actual[k], expected[k]).ok for k in expected)


@pytest.mark.parametrize("blocks,batch,group", [(1, 1, 1), (3, 6, 4), (5, 7, 2), (4, 3, 8), (2, 9, 3), (3, 2, 0)])
def test_the_heavy_first_raster_is_a_bijection_onto_the_grid(blocks, batch, group):
    ids = [HeavyFirst.program_ids(k, blocks, batch, group, lambda a, b: a // b, lambda c, a, b: a if c else b)
           for k in range(blocks * batch)]
    group = max(group, 1)
    assert sorted(ids) == [(q, b) for q in range(blocks) for b in range(batch)]
    # within a group, no batch element's lighter block starts before another's heavier one
    firsts = {}
    for k, (q, b) in enumerate(ids):
        firsts.setdefault((b // group, q), k)
    assert all(firsts[(g, q)] < firsts[(g, q - 1)] for g, q in firsts if q > 0)


def test_a_rastered_kernel_is_launched_as_one_dimension():
    shapes = {"B": 2, "H": 3, "S": 45, "D": 64}
    with dialects.context(), ir.Location.unknown():
        _, tiled = _causal_tile(shapes, HEAVY_FIRST)
        kernel = emit_cuda(tiled)
    assert len(kernel.grid) == 1 and parse_dim(kernel.grid[0]).evaluate(shapes) == 3 * 6  # 45 / bm=16 -> 3 blocks
    assert kernel.source.count("raster_pid0 = ") == 2 and "blockIdx.y" not in kernel.source  # both variants
