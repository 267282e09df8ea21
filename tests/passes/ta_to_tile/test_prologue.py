"""Contraction prologues: an operand computed by a ta.map of one input runs on the tile
interpreter like the oracle at shapes that divide no tile, compiles, is proved, and broken
prologues (mask past K dropped, vector read one off, wrong function) are refuted."""

import re

import pytest
from torch_mlir import ir

from conftest import tile_matches_oracle

from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import spec_to_ta
from tilec.build.verification import check_spec
from tilec.verify.kernels import check_tile

HEAD = "param M = 37, N = 21, K = 45\n"
SPECS = {
    # an activation on A, a per-k scale on B (dequantisation)
    "relu_scale": HEAD + "input A[M, K] : bf16\ninput s[K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : f32\n"
                         "C[i, j] = sum[k](max(A[i, k], 0.0) * s[k] * B[k, j])\n",
    # f(0) != 0 on both operands: the remainder k tile must be masked
    "shifted": HEAD + "input A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : f32\n"
                      "C[i, j] = sum[k]((A[i, k] + 1.0) * (B[k, j] + 1.0))\n",
    # a per-row scale on A and a transposed weight with its own scale
    "rows_nt": HEAD + "input A[M, K] : f16\ninput r[M] : f16\ninput W[N, K] : f16\ninput s[K] : f16\n"
                      "output C[M, N] : f16\nC[i, j] = sum[k](A[i, k] * r[i] * exp(W[j, k] * s[k]))\n",
    # batched, the prologue on a broadcast weight
    "batched": "param P = 2, M = 19, N = 33, K = 40\ninput A[P, M, K] : bf16\ninput W[K, N] : bf16\n"
               "output C[P, M, N] : bf16\nC[p, i, j] = sum[k](A[p, i, k] * tanh(W[k, j]))\n",
}
SHAPES = [{}, {"M": 1, "N": 1, "K": 1}, {"M": 65, "N": 70, "K": 33}]
SCHEDULE = "bm=64 bn=64 bk=32 stages=3"


def _build(text: str, shapes: dict, schedule: str = SCHEDULE):
    module = spec_to_ta(text, "prologue.ta")
    return module, build_tile(module, None, schedule, "sm_90a")


@pytest.mark.parametrize("shapes", SHAPES, ids=["default", "ones", "odd"])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_prologues_match_the_oracle(name, shapes):
    results = tile_matches_oracle(SPECS[name], SCHEDULE, shapes, seed=1)
    assert all(c.ok for c in results.values()), (name, results)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_prologues_are_proved_and_compile(name):
    with dialects.context(), ir.Location.unknown():
        module, build = _build(SPECS[name], {})
        rows = check_spec(module, SCHEDULE, f"{name}.ta", build=build)  # the sm_90a kernel
    bad = [(r.check, r.verdict, r.detail) for r in rows if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    assert sum("prologue map equals" in r.check for r in rows) >= 1
    assert any(r.stage == "cuda" and "sm_90a" in r.check for r in rows)


def _mutated(name: str, mutate) -> list:
    with dialects.context(), ir.Location.unknown():
        _, build = _build(SPECS[name], {})
        text = str(build.tile)
        broken = mutate(text)
        assert broken != text, "the mutation did not apply"
        rows = check_tile(ir.Module.parse(broken), build.fused, f"{name}.ta")
    return [(r.check, r.verdict) for r in rows if r.verdict not in ("proved", "tested")]


def _drop_first_mask(text: str) -> str:
    """the first prologue yields its value unmasked (the select's value instead of the select)"""
    m = re.search(r"(%\d+) = arith\.select %\d+, (%\d+), %\S+ : f32\n(\s*)\"tile\.yield\"\(\1\)", text)
    return text[:m.start()] + f"\"tile.yield\"({m.group(2)})" + text[m.end():] if m else text


def _vector_one_off(text: str) -> str:
    """s read at k0 + 1: the tile.load of the scale vector one element off"""
    m = re.search(r"\"tile\.load\"\(%arg1, (%\d+)\)", text)
    if not m:
        return text
    bump = f"%bump = arith.addi {m.group(1)}, %c1 : index\n      "
    line_start = text.rfind("\n", 0, m.start()) + 1
    indent = text[line_start:m.start()]
    return text[:line_start] + indent[:len(indent) - len(indent.lstrip())] + bump + \
        text[line_start:].replace(f"\"tile.load\"(%arg1, {m.group(1)})", "\"tile.load\"(%arg1, %bump)", 1)


MUTANTS = [
    ("mask-dropped", "shifted", _drop_first_mask),
    ("vector-one-off", "relu_scale", _vector_one_off),
    ("relu-as-min", "relu_scale", lambda t: t.replace("arith.maximumf", "arith.minimumf", 1)),
    ("exp-dropped", "rows_nt", lambda t: re.sub(r"(%\d+) = math\.exp (%\d+) : f32", r"\1 = math.log \2 : f32", t,
                                                count=1)),
]


@pytest.mark.parametrize("label,name,mutate", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_broken_prologues_are_refuted(label, name, mutate):
    bad = _mutated(name, mutate)
    assert any(verdict == "counterexample" and "prologue" in check for check, verdict in bad), bad
