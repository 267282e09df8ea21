"""Row programs (softmax, logsumexp, layernorm, RMSNorm): ta-to-tile's row matcher, the tile
interpreter against the oracle at sizes that divide no tile, the blocked register layout, and
the typed schedule's legality for each form."""

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES, close, run_spec
from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.dialects.schedule import Schedule
from tilec.lowering.driver import build_tile
from tilec.build.stages import run_stage
from tilec.frontend import load_spec, spec_to_ta
from tilec.signature import signature

ROW_EXAMPLES = ("softmax", "logsumexp", "layernorm", "rmsnorm")


@pytest.mark.parametrize("example", ROW_EXAMPLES)
@pytest.mark.parametrize("shapes,schedule", [({"N": 7, "C": 150}, "bm=8 bn=64 warps=4"),
                                             ({"N": 1, "C": 1}, "bm=1 bn=32 warps=1"),
                                             ({"N": 9, "C": 97}, "bm=4 bn=32 warps=2")])
def test_row_program_matches_the_oracle(example, shapes, schedule):
    inputs, expected, env = run_spec(EXAMPLES / f"{example}.ta", shapes)
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        sig = signature(module.body.operations[0])
        outputs = run_stage("tile", module, sig, inputs, env, schedule)
    for name, value in expected.items():
        close(outputs[name], value)


@pytest.mark.parametrize("example", ROW_EXAMPLES)
@pytest.mark.parametrize("cols,rows,schedule", [(37, 9, "bm=8 bn=64 warps=4"), (1, 1, "bm=4 bn=32 warps=4"),
                                                (768, 3, "bm=8 bn=768 warps=4"), (200, 5, "")])
def test_one_block_row_program_matches_the_oracle(example, cols, rows, schedule):
    """A row one column block holds (its width fixed in the types): no column loop, the row
    loaded once, on the interpreter against the oracle; size-1 rows and columns included."""
    from tilec.lowering.driver import specialize

    inputs, expected, env = run_spec(EXAMPLES / f"{example}.ta", {"N": rows, "C": cols})
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        specialize(module, {"C": cols})
        text = str(build_tile(ir.Module.parse(str(module)), {}, schedule).tile)
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, schedule)
    if schedule:
        assert "scf.for" not in text and "tile.state" in text
    for name, value in expected.items():
        close(outputs[name], value)


@pytest.mark.parametrize("example, one_block", [("rmsnorm", True), ("layernorm", True), ("softmax", False),
                                                ("logsumexp", False)])
def test_the_default_reads_a_fixed_row_once_unless_a_sum_is_stabilised(example, one_block):
    """Without a schedule a fixed row of 768 columns is one block (bn = 768, two rows a warp),
    except under a stabilised sum, whose exponentials would stay live beside the row."""
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), {"C": 768}, "")
        text = str(build.tile)
    assert ("bm = 8 : i64, bn = 768 : i64" in text and "scf.for" not in text) == one_block
    assert ("bn = 256 : i64" in text and "scf.for" in text) == (not one_block)


@pytest.mark.parametrize("example, cols, schedule, threads", [
    ("layernorm", 4096, "bm = 1 : i64, bn = 4096 : i64", "warps = 4"),
    ("rmsnorm", 8192, "bm = 1 : i64, bn = 8192 : i64", "warps = 8"),
    ("layernorm", 3000, "bm = 1 : i64, bn = 3072 : i64", "warps = 4"),
    ("softmax", 2048, "bm = 1 : i64, bn = 2048 : i64", "warps = 4"),   # a stabilised sum over 1024 columns
    ("logsumexp", 4096, "bm = 8 : i64, bn = 256 : i64", "warps = 4"),  # row values alone: read once in blocks
    ("layernorm", 9000, "bm = 8 : i64, bn = 256 : i64", "warps = 4"),  # wider than a block holds
])
def test_the_default_shares_a_wide_row_among_warps(example, cols, schedule, threads):
    """A fixed row wider than a warp holds is one a CTA, its warps sharing it (the layout's
    split), a lane holding 32 of its elements; a program without element outputs, and a row
    wider than MAX_ROW_BLOCK, keep the column blocks."""
    with dialects.context(), ir.Location.unknown():
        text = str(build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), {"C": cols}, "").tile)
    assert schedule in text and threads in text
    split = "scf.for" not in text
    assert split == (schedule.startswith("bm = 1 ")), text[:400]
    if split:
        assert "#tile.blocked<" in text and ", 32 : i64, 1 : i64>" not in text  # split > 1


@pytest.mark.parametrize("example", ROW_EXAMPLES)
@pytest.mark.parametrize("cols,rows,schedule", [(3001, 3, "bm=1 bn=4096 warps=8"), (1000, 5, "bm=2 bn=1024 warps=8"),
                                                (37, 2, "bm=1 bn=128 warps=4")])
def test_rows_shared_by_warps_match_the_oracle(example, cols, rows, schedule):
    """Fewer rows than warps: the tile program is the one-block form, which the interpreter
    runs against the oracle (the warps' shares of a row are the emitter's: tests/runtime
    runs that CUDA)."""
    from tilec.lowering.driver import specialize

    inputs, expected, env = run_spec(EXAMPLES / f"{example}.ta", {"N": rows, "C": cols})
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        specialize(module, {"C": cols})
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, schedule)
    for name, value in expected.items():
        close(outputs[name], value)


def test_masked_rows_softmax_is_nan_like_the_oracle():
    spec = """param N = 4, C = 40
input X[N, C] : f32
output Y[N, C] : f32
Y[n, c] = softmax[c](X[n, c] where n != 1 else -inf)
"""
    inputs, expected, env = run_spec(spec)
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(spec, "masked.ta")
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, "bm=2 bn=32 warps=2")
    assert torch.equal(outputs["Y"].isnan(), expected["Y"].isnan()) and outputs["Y"][1].isnan().all()
    close(outputs["Y"][[0, 2, 3]], expected["Y"][[0, 2, 3]])


def test_pointwise_function_is_a_row_program():
    spec = "param N = 5, C = 33\ninput X[N, C] : bf16\noutput Y[N, C] : bf16\nY[n, c] = tanh(X[n, c]) * 2.0\n"
    inputs, expected, env = run_spec(spec)
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(spec, "pointwise.ta")
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, "bm=4 bn=32 warps=4")
    close(outputs["Y"], expected["Y"])


def test_register_tiles_carry_the_blocked_layout():
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / "layernorm.ta")), {}, "bm=8 bn=256 warps=4")
        text = str(build.tile)
    assert "tensor<8x256xbf16, #tile.blocked<4 : i64, 8 : i64, 32 : i64, 1 : i64>>" in text   # 16-byte vectors of bf16
    assert 'tensor<8xf32, #tile.slice<"blocked", [4, 8, 32, 1], 1 : i64>>' in text  # one value per row
    assert 'tensor<256xbf16, #tile.slice<"blocked", [4, 8, 32, 1], 0 : i64>>' in text  # gamma: one per column
    assert "tile.kind" not in text and "#tile.schedule<" in text


@pytest.mark.parametrize("example", ROW_EXAMPLES)
def test_row_program_cuda_compiles(example):
    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.codegen.compile import compile_cuda
    from tilec.codegen.cuda import emit_cuda

    with dialects.context(), ir.Location.unknown():
        kernel = emit_cuda(build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), {}, "bm=8 bn=256 warps=4").tile)
    for name in kernel.variants.values():
        _, facts = compile_cuda(kernel.source, name, "sm_90a")
        assert facts.spill_stores == 0


def test_a_function_no_matcher_takes_is_told_what_each_form_lacks():
    spec = "param B = 2, N = 5, C = 33\ninput X[B, N, C] : f32\noutput Y[B, N] : f32\nY[b, n] = sum[c](X[b, n, c])\n"
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError) as err:
            build_tile(spec_to_ta(spec, "three.ta"), {}, "")
    message = err.value.message
    assert "no tile lowering takes 'three'" in message
    assert "online:" in message and "contraction:" in message and "rows:" in message


def test_legality_is_per_form_and_names_every_reason():
    s = Schedule(bm=8, bn=48, warps=4, stages=1)
    assert s.legal("rows") == ["bn=48 (the column block) must be a multiple of 32 (one warp spans a row block)"]
    reasons = s.legal("contraction")
    assert any("multiples of 16" in r for r in reasons) and any("stages must be at least 2" in r for r in reasons)
    assert Schedule(bm=64, bn=64, warps=8).legal("online", {"head_dim": 128}) == [
        "bm=64 gives each of the 8 warps 8 query rows; the mma needs whole 16-row slices (bm % (16 * warps) == 0)"]
    big = Schedule(bm=128, bn=128, bk=64, stages=6)
    assert big.legal("contraction", target="sm_90a") == []
    assert "sm_80 allows 166912" in big.legal("contraction", target="sm_80")[0]
    assert Schedule(bm=64, bn=256, warps=1).legal("rows")[0].startswith("each thread would hold 512 elements")
    # a row block may be a whole row of up to 8192 columns; a tensor-core tile stays at 256
    wide = Schedule(bm=4, bn=2048, warps=4)
    assert wide.legal("rows") == []
    assert wide.legal("contraction")[0] == "bn=2048 is larger than 256 (wider blocks are for row programs)"
    assert "bn=512 is larger than 256" in Schedule(bm=64, bn=512, warps=4).legal("online", {"head_dim": 64})[0]
    with pytest.raises(ValueError, match="bn=16384 is larger than 8192"):
        Schedule(bn=16384)
    # fewer rows than warps: warps / bm warps share each row (a row program's, not a pointwise one's)
    shared = Schedule(bm=1, bn=8192, warps=8)
    assert shared.legal("rows") == []
    assert shared.legal("pointwise")[0].startswith("bm=1 rows cannot be shared by 8 warps")
    assert Schedule(bm=1, bn=8192, warps=4).legal("rows") == []  # 64 elements a lane
    assert Schedule(bm=1, bn=16 * 1024 // 2, warps=2).legal("rows")[0].startswith("each thread would hold 128")
    assert Schedule(bm=2, bn=96, warps=4).legal("rows") == [
        "bn=96 (the column block) must be a multiple of 64 (2 warps span a row block)"]
    assert Schedule(bm=3, bn=256, warps=4).legal("rows")[0].startswith("bm=3 rows cannot be shared by 4 warps")


def test_a_softmax_over_the_outputs_first_index_is_not_lowered_over_its_last():
    """`Y[v, w] = softmax[v](...)` reads the row softmax transposed; a row program holds a value
    per element at its own [row, column] only, so it declines (once it stored the rows as they
    were, off by the transpose) and the lowering that is taken runs right on the interpreter."""
    spec = ("param M = 8\ninput A[M] : f32\ninput B[M] : f32\noutput Y[M, M] : f32\n"
            "Y[v, w] = softmax[v](B[v] + A[w])\n")
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError) as err:
            build_tile(spec_to_ta(spec, "first.ta"), {}, "")
    assert "read at [1, 0]" in err.value.message and err.value.loc is not None
    same = spec.replace("Y[v, w] = softmax[v]", "Y[w, v] = softmax[v]")
    inputs, expected, env = run_spec(same)
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(same, "last.ta")
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, "")
    close(outputs["Y"], expected["Y"])
