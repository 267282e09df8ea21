"""Gathers of a pointwise tile read as 16-byte vectors (tilec/codegen/cuda_gather.py): which
maps are contiguous along a thread's vector, and the kernels that read them so. That the
vectors hold the right elements is checked on the GPU (tests/gpu cases ``rope*``)."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.cuda_gather import _COL, _INDEP, _form
from tilec.dialects.layout import BlockedLayout, pointwise_blocked

ROTATE_HALF = """param B, T, H
input Q[B, T, H, 64] : bf16
input Cos[T, 64] : bf16
input Sin[T, 64] : bf16
output Y[B, H, T, 64] : bf16
Y[b, h, t, d] = Q[b, t, h, d] * Cos[t, d] + select(d < 32, -Q[b, t, h, d + 32], Q[b, t, h, d - 32]) * Sin[t, d]
"""

COL, ROW = ("x", _COL, 8), ("r", _INDEP, 1)  # the column operand (vec 8), a row not known to divide


@pytest.mark.parametrize("text,expected", [
    ("(d0, d1) -> (d1)", (_COL,)),
    ("(d0, d1) -> (d1 mod 32 + 32)", (_COL,)),          # rotate_half's other half (Llama's D = 64)
    ("(d0, d1) -> (d1 + 32)", (_COL,)),
    ("(d0, d1) -> (d0 * 64 + d1)", (_COL,)),            # a head h * 64 + d of a [B, T, C] projection
    ("(d0, d1) -> (d1 mod 4)", None),                   # wraps inside a vector of 8
    ("(d0, d1) -> (d1 + 4)", None),                     # a vector that starts off the 16-byte grid
    ("(d0, d1) -> (d0 + d1)", None),                    # the row's offset is not known to divide 8
    ("(d0, d1) -> (d1 * 2)", None),                     # every other element
    ("(d0, d1) -> (d1 floordiv 16)", (_INDEP, 1)),      # one value along the whole vector
    ("(d0, d1) -> (d1 ceildiv 16)", None),
    ("(d0, d1) -> (d0 * 3)", (_INDEP, 3)),
])
def test_contiguous_forms(text, expected):
    with dialects.context():
        expr = ir.AffineMapAttr.parse(f"affine_map<{text}>").value.results[0]
        assert _form(expr, [ROW, COL], 8) == expected


def test_pointwise_layout_spans_rows_for_16_byte_vectors():
    assert pointwise_blocked(32, 64, 2, 4) == BlockedLayout(4, 8, 8)       # bf16: 8 lanes a row, 4 rows a warp
    assert pointwise_blocked(8, 64, 4, 4) == BlockedLayout(4, 4, 16)       # f32: 16 lanes a row
    assert pointwise_blocked(4, 64, 2, 4) == BlockedLayout(4, 2, 32)       # too few rows for more: as before
    layout = BlockedLayout(4, 8, 8)
    cells = {layout.position(w, lane, i, 0, e) for w in range(4) for lane in range(32) for i in range(2) for e in range(8)}
    assert cells == {(r, c) for r in range(32) for c in range(64)}        # every element of the tile once
    assert layout.per_thread(32, 64) == (2, 1, 8)


def _kernel(tilec, tmp_path, spec: str, *args) -> tuple[str, str]:
    path = tmp_path / "k.ta"
    path.write_text(spec)
    status, out, err = tilec("compile", path, "--emit", "cuda", "--target", "sm_90a", *args)
    assert status == 0, err
    aligned, unaligned = out.split("_unaligned(")
    return aligned, unaligned


def test_rotate_half_reads_vectors(tilec, tmp_path):
    aligned, unaligned = _kernel(tilec, tmp_path, ROTATE_HALF)
    assert aligned.count("reinterpret_cast<const uint4*>(g_") == 5        # Q, Cos, both halves of Q, Sin
    assert "const __nv_bfloat16 g" not in aligned
    assert "reinterpret_cast<const uint4*>(g_" not in unaligned           # any row length: element reads
    # the d - 32 half lies before the row where d < 32: read element by element, padded
    assert "? g_Q[" in aligned


def test_a_transposed_read_stays_elementwise(tilec, tmp_path):
    spec = ("param B, T, N\ninput X[B, N, T] : f32\ninput S[N] : f32\noutput Y[B, T, N] : f32\n"
            "Y[b, t, n] = X[b, n, t] * S[n]\n")
    aligned, _ = _kernel(tilec, tmp_path, spec, "--schedule", "bm=8,bn=64,warps=4")
    assert aligned.count("reinterpret_cast<const uint4*>(g_S") == 1      # S[n] along the vector
    assert "const float g" in aligned and "g_X[" in aligned               # X[b, n, t] steps by T


def test_rope_example_reads_vectors(tilec):
    status, out, err = tilec("compile", EXAMPLES / "rope.ta", "--emit", "cuda", "--target", "sm_90a")
    assert status == 0, err
    assert out.split("_unaligned(")[0].count("reinterpret_cast<const uint4*>(g_") == 8


RANK0_IN_SPLIT = """param N = 8, W = 16, U = 4
input s[] : f32
input A[U, W] : f32
output Y[N, W] : f32
Y[n, w] = sum[u](s * A[u, w])
"""

RANK0_SELECT = """param V = 8, I = 16
input s[] : f32
input B[I] : f32
output Y[V, I] : f32
Y[v, i] = select(v > i, B[i], s)
"""


@pytest.mark.parametrize("spec", [RANK0_IN_SPLIT, RANK0_SELECT], ids=["split", "select"])
def test_a_rank0_input_is_read_as_its_one_element(tilec, tmp_path, spec):
    """A rank-0 input in a pointwise kernel: no vector (its map has no result), and its one
    element read at offset 0. The kernels compile (NVRTC), run right on the tile stage and
    are proved."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.build.verification_spec import verify_spec

    path = tmp_path / "rank0.ta"
    path.write_text(spec)
    status, out, err = tilec("compile", path, "-o", tmp_path / "rank0.tkg", "--target", "sm_80")
    assert status == 0, out + err
    status, out, err = tilec("run", path, "--stage", "tile")
    assert status == 0 and "MISMATCH" not in out, out + err
    report = verify_spec(str(path), targets=("sm_80",))
    assert [r.detail for r in report.results if r.verdict not in ("proved", "tested")] == []
    if spec is RANK0_SELECT:  # one kernel: its source reads s at 0
        status, out, err = tilec("compile", path, "--emit", "cuda", "--target", "sm_80")
        assert "g_s[0]" in out and "g_s[]" not in out
