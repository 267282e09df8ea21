"""Pointwise programs (passes/ta_to_tile/pointwise.py): maps and remaps read at any affine
index. The tile interpreter against the oracle at sizes that divide no tile and size-1 dims;
the verifier (tilec/verify/pointwise.py) proves them and refutes broken kernels; the CUDA
emitter compiles them; RoPE from PyTorch is one such kernel."""

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES, close, run_spec
from tile_runs import edit_once as _sub  # a one-line edit of the tile IR text
from tilec import dialects
from tilec.lowering.driver import build_tile, run_passes, tile_pipeline
from tilec.build.stages import run_stage
from tilec.frontend import load_spec, spec_to_ta
from tilec.signature import signature
from tilec.build.verification_spec import verify_spec
from tilec.verify.pointwise import check_pointwise

TRANSPOSE = """param B = 2, T = 37, N = 100
input X[B, N, T] : f32
input S[N] : f32
input Z[B, N, T + 1] : f32
output Y[B, T, N] : f32
Y[b, t, n] = X[b, n, t] * S[n] + Z[b, n, t + 1] + t
"""


def _run(source, shapes, schedule, file="test.ta"):
    inputs, expected, env = run_spec(source, shapes)
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(source)) if not isinstance(source, str) else spec_to_ta(source, file)
        outputs = run_stage("tile", module, signature(module.body.operations[0]), inputs, env, schedule)
    for name, value in expected.items():
        close(outputs[name], value)


@pytest.mark.parametrize("shapes,schedule", [({"B": 2, "T": 37, "N": 100}, "bm=8 bn=64 warps=4"),
                                             ({"B": 1, "T": 1, "N": 1}, "bm=4 bn=32 warps=4"),
                                             ({"B": 3, "T": 9, "N": 33}, "")])
def test_transpose_matches_the_oracle(shapes, schedule):
    _run(TRANSPOSE, shapes, schedule)


@pytest.mark.parametrize("shapes", [{"B": 2, "T": 37, "H": 3}, {"B": 1, "T": 1, "H": 1}])
def test_rope_example_matches_the_oracle(shapes):
    _run(EXAMPLES / "rope.ta", shapes, "bm=4 bn=32 warps=4")


@pytest.mark.parametrize("source,schedule", [(EXAMPLES / "rope.ta", ""), (TRANSPOSE, "bm=8 bn=64 warps=4"),
                                             (TRANSPOSE, "bm=4 bn=32 warps=2")])
def test_pointwise_programs_are_proved(source, schedule, tmp_path):
    path = source if not isinstance(source, str) else tmp_path / "transpose.ta"
    if isinstance(source, str):
        path.write_text(source)
    report = verify_spec(str(path), schedule, targets=("sm_90a",))
    bad = [(r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    tile = [r for r in report.results if r.stage == "tile"]
    assert {r.property for r in tile} == {"equivalence", "in-bounds", "coverage"}
    assert all("all shapes" in r.domain for r in tile)


def _texts(source: str, schedule: str):
    with dialects.context(), ir.Location.unknown():
        build = build_tile(spec_to_ta(source, "t.ta"), {}, schedule)
        fused = ir.Module.parse(str(build.ta))
        run_passes(fused, tile_pipeline(schedule)[:-2])
        return str(build.tile), str(fused)


def _verdicts(tile_text: str, fused_text: str) -> list:
    with dialects.context(), ir.Location.unknown():
        return check_pointwise(ir.Module.parse(tile_text), ir.Module.parse(fused_text), lambda model, prop: "replay")


MUTANTS = {  # name: (property refuted, edit of the tile IR text)
    "transpose not applied (X read at b, t, n)": ("equivalence", _sub(
        r"#map = affine_map<\(d0, d1, d2\) -> \(d0, d2, d1\)>", "#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>")),
    "shifted read off by one": ("equivalence", _sub(r"d1 \+ 1\)>", "d1)>")),
    "read past the tensor": ("in-bounds", _sub(r"d1 \+ 1\)>", "d1 + 2)>")),
    "grid rounded down (last rows never written)": ("coverage", _sub(r'tile.grid = \["\(T\+7\)/8"', 'tile.grid = ["T/8"')),
    "column loop rounded down": ("coverage", _sub(r"arith.ceildivsi (%arg\d+), %c64", r"arith.divsi \1, %c64")),
    "batch taken from the row program id": ("coverage", _sub(r"arith.remsi %1,", "arith.remsi %0,")),
    "stored at the program id, not its first row": ("equivalence", _sub(
        r'"tile.store"\((%\d+), %arg3, (%\d+), (%\d+), (%\d+)\)', r'"tile.store"(\1, %arg3, \2, %0, \4)')),
}


@pytest.mark.parametrize("name", MUTANTS)
def test_broken_pointwise_programs_are_refuted(name):
    prop, edit = MUTANTS[name]
    tile, fused = _texts(TRANSPOSE, "bm=8 bn=64 warps=4")
    results = _verdicts(edit(tile), fused)
    refuted = [r for r in results if r.verdict == "counterexample"]
    assert refuted and prop in {r.property for r in refuted}, [(r.check, r.verdict) for r in results]
    assert all(r.replay for r in refuted)


def test_the_unmutated_text_is_proved():
    results = _verdicts(*_texts(TRANSPOSE, "bm=8 bn=64 warps=4"))
    assert results and all(r.verdict in ("proved", "tested") for r in results), [(r.check, r.verdict) for r in results]


def _rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class _Rope(torch.nn.Module):
    """Llama's RoPE on a [B, T, H, D] projection, read as attention reads it ([B, H, T, D])."""

    def forward(self, q, cos, sin):
        q = q.transpose(1, 2)
        return q * cos + _rotate_half(q) * sin


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_rope_from_pytorch_is_one_pointwise_kernel(dtype):
    import tilec

    q = torch.randn(2, 37, 3, 16).to(dtype)
    cos, sin = torch.randn(37, 16).to(dtype), torch.randn(37, 16).to(dtype)
    graph = tilec.compile(_Rope(), (q, cos, sin), stage="tile", strict=True)
    assert [p.form for p in graph.kernels().pieces] == ["pointwise"]
    expected = _Rope()(q.float(), cos.float(), sin.float())
    close(graph(q, cos, sin).float(), expected, dtype)
    report = graph.verify()
    assert report.results and all(r.verdict in ("proved", "tested") for r in report.results), \
        [(r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
