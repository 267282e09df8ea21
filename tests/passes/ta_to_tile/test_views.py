"""Attention stored in einsum order ([B, S, H, D]): the tile program reads and stores each
head's rows through row-major views of the tensors' memory. It runs like the oracle at shapes
that divide no tile (grouped heads, one key head, a causal mask, an output in another order),
is proved, and kernels that read or store the wrong head, split the batch id wrongly or
declare a wrong view, or multiply P by the K tile, are refuted."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES, tile_matches_oracle

from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.build.verification import check_spec
from tilec.verify.kernels import check_build

SPECS = {
    "bshd": (EXAMPLES / "einsum_attention.ta").read_text(),
    # K and V with fewer heads, a causal mask, the output in [B, H, S, D]
    "gqa_causal": "param B = 2, H = 8, S = 100, D = 64\nconst G = 4\ninput Q[B, S, H, D] : bf16\n"
                  "input K[B, S, H / G, D] : bf16\ninput V[B, S, H / G, D] : bf16\noutput O[B, H, S, D] : bf16\n"
                  "let P[b, h, i, j] = softmax[j](sum[e](Q[b, i, h, e] * K[b, j, h / G, e]) * rsqrt(D) "
                  "where j <= i else -inf)\nO[b, h, i, d] = sum[j](P[b, h, i, j] * V[b, j, h / G, d])\n",
    # K and V read as the heads of their projections [B, T, Hkv*D] (Llama's K and V), at a column
    # offset of the projection's last dim: no copy of the heads
    "gqa_projection": "param B = 2, H = 8, S = 100, T = 90\nconst G = 4\nconst D = 64\ninput Q[B, H, S, D] : bf16\n"
                      "input K[B, T, H / G * D] : bf16\ninput V[B, T, H / G * D] : bf16\noutput O[B, H, S, D] : bf16\n"
                      "O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, j, h / G * D + e]) * rsqrt(D)) "
                      "* V[b, j, h / G * D + d])\n",
    # one key/value head for all query heads, a bias per head
    "mqa_bias": "param B = 2, H = 4, S = 100, T = 90, D = 32\ninput Q[B, S, H, D] : f16\ninput K[B, T, D] : f16\n"
                "input V[B, T, D] : f16\ninput bias[H] : f32\noutput O[B, S, H, D] : f16\n"
                "O[b, i, h, d] = sum[j](softmax[j](sum[e](Q[b, i, h, e] * K[b, j, e]) + bias[h]) * V[b, j, d])\n",
}
SHAPES = {
    "bshd": [{"B": 1, "H": 3, "S": 37, "T": 45, "D": 64}, {"B": 2, "H": 1, "S": 1, "T": 1, "D": 64}],
    "gqa_causal": [{"B": 1, "H": 8, "S": 33, "D": 64}, {"B": 1, "H": 4, "S": 1, "D": 64}],
    "mqa_bias": [{"B": 2, "H": 3, "S": 21, "T": 50, "D": 32}],
    "gqa_projection": [{"B": 1, "H": 8, "S": 33, "T": 45}, {"B": 2, "H": 4, "S": 1, "T": 1}],
}
SCHEDULE = "bm=16 bn=16 warps=1 stages=3"


@pytest.mark.parametrize("name,shapes", [(n, s) for n in SPECS for s in SHAPES[n]],
                         ids=[f"{n}-{s['S']}" for n in SPECS for s in SHAPES[n]])
def test_einsum_order_attention_matches_the_oracle(name, shapes):
    results = tile_matches_oracle(SPECS[name], SCHEDULE, shapes, seed=2)
    assert all(c.ok for c in results.values()), (name, results)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_einsum_order_attention_is_proved(name):
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SPECS[name], f"{name}.ta")
        rows = check_spec(module, "bm=64 bn=64 warps=4 stages=2", f"{name}.ta", targets=("sm_80",))
    bad = [(r.check, r.verdict, r.detail) for r in rows if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    checks = [r.check for r in rows]
    if not name.endswith("_projection"):  # its tiles are plain windows of the projections, no view
        assert any("view is the tensor's row-major memory" in c for c in checks)
    assert any("every batch element is stored by exactly one batch program id" in c for c in checks)


def _refuted(mutate) -> list:
    """The non-proved tile rows of the einsum-order example's kernel after ``mutate`` (its text)."""
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / "einsum_attention.ta")), None, "bm=64 bn=64 warps=4 stages=3")
        text = str(build.tile)
        broken = mutate(text)
        assert broken != text, "the mutation did not apply"
        build.tile = ir.Module.parse(broken)
        rows = check_build(build, "einsum_attention.ta")
    return [(r.check, r.verdict) for r in rows if r.verdict not in ("proved", "tested")]


def _param(text: str, name: str) -> str:
    return re.search(r"(%arg\d+): index \{ta\.param = \"" + name + r"\"\}", text).group(1)


def _k_of_head_zero(text: str) -> str:
    """the main loop copies K blocks of head 0's columns for every head"""
    return re.sub(r"(\"tile\.async_copy\"\(%arg1, %\d+, %\d+), %\d+(, %\d+, %\d+\) :)", r"\1, %c0\2", text, count=1)


def _store_at_head_zero(text: str) -> str:
    """every head's output stored in head 0's columns"""
    return re.sub(r"(\"tile\.store\"\(%\d+, %arg3, %\d+, %\d+), %\d+\)", r"\1, %c0)", text, count=1)


def _batch_split_by_b(text: str) -> str:
    """the head id taken as pid1 % B instead of pid1 % H"""
    h, b = _param(text, "H"), _param(text, "B")
    return re.sub(rf"arith\.remsi (%\d+), {h} : index", rf"arith.remsi \1, {b} : index", text, count=1)


def _view_of_wrong_dims(text: str) -> str:
    """Q declared as the view [B, S, S*D]"""
    return text.replace('["B", "S", "H*D"], ta.name = "Q"', '["B", "S", "S*D"], ta.name = "Q"', 1)


def _v_read_from_k(text: str) -> str:
    """P·V reads the K buffer (the copies into the V buffer are all there, and in order)"""
    allocs = re.findall(r"(%\d+) = \"tile\.alloc\"", text)
    k, v = allocs[1], allocs[2]
    return text.replace(f'"tile.smem_load"({v}, ', f'"tile.smem_load"({k}, ', 1)


MUTANTS = [
    ("k-head-zero", _k_of_head_zero, "K is read at the reference's indices"),
    ("store-head-zero", _store_at_head_zero, "every batch element is stored by exactly one batch program id"),
    ("batch-split", _batch_split_by_b, "every batch element is stored by exactly one batch program id"),
    ("wrong-view", _view_of_wrong_dims, "Q: the kernel's view is the tensor's row-major memory"),
    ("v-read-from-k", _v_read_from_k, "V is read at the reference's indices"),
]


@pytest.mark.parametrize("label,mutate,check", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_broken_einsum_order_kernels_are_refuted(label, mutate, check):
    bad = _refuted(mutate)
    assert any(c.startswith(check) and verdict == "counterexample" for c, verdict in bad), bad


@pytest.mark.parametrize("name", ["gqa_projection"])
def test_heads_of_a_projection_on_the_warp_specialised_form(name):
    """The same reads on sm_90a: the copy engine's boxes start at the heads' columns."""
    schedule = "bm=128 bn=64 warps=8 stages=2 consumers=2"
    results = tile_matches_oracle(SPECS[name], schedule, SHAPES[name][0], seed=2)
    assert all(c.ok for c in results.values()), results
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SPECS[name], f"{name}.ta")
        rows = check_spec(module, schedule, f"{name}.ta", targets=("sm_90a",))
    assert all(r.verdict in ("proved", "tested") for r in rows), [(r.check, r.verdict) for r in rows if r.verdict not in ("proved", "tested")]


def test_heads_of_a_projection_read_at_the_wrong_columns_are_refuted():
    """K and V read as heads of [B, T, Hkv*D]: a kernel that copies V's columns of K/V head 0 for
    every head (the column offset (h / G) * D dropped) is refuted."""
    with dialects.context(), ir.Location.unknown():
        build = build_tile(spec_to_ta(SPECS["gqa_projection"], "gqa_projection.ta"), None,
                           "bm=64 bn=64 warps=4 stages=3")
        text = str(build.tile)
        broken = re.sub(r"(\"tile\.async_copy\"\(%arg2, %\d+, %\d+), %\d+(, %\d+, %\d+\) :)", r"\1, %c0\2", text,
                        count=1)
        assert broken != text
        build.tile = ir.Module.parse(broken)
        rows = check_build(build, "gqa_projection.ta")
    assert any(r.check.startswith("V is read at the reference's indices") and r.verdict == "counterexample"
               for r in rows), [(r.check, r.verdict) for r in rows if r.verdict not in ("proved", "tested")]


def test_a_head_dim_not_last_is_a_located_error(tilec, tmp_path):
    spec = tmp_path / "kt.ta"
    spec.write_text("param S, T, D = 64\ninput Q[S, D] : bf16\ninput K[D, T] : bf16\n"  # T: no size to fix
                    "input V[T, D] : bf16\noutput O[S, D] : bf16\n"
                    "O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[e, j])) * V[j, d])\n")
    status, out, err = tilec("compile", spec, "--emit", "tile")
    assert status == 1 and "kt.ta:6:" in err and "K must have its head dim last" in err and "Traceback" not in err
