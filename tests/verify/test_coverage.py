"""Where the batch program id stores (tilec/verify/coverage.py), one check for every form:
proved for GEMMs with one and two batch dims and for attention, refuted for a batch id split
by the wrong extent and for a store that forgets its batch offset."""

import re

import pytest
from torch_mlir import ir

from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import spec_to_ta
from tilec.verify.kernels import check_build

TWO_BATCH = ("param P = 2, Q = 3, M = 40, N = 24, K = 32\ninput A[P, Q, M, K] : bf16\ninput B[Q, K, N] : bf16\n"
             "output C[P, Q, M, N] : f32\nC[p, q, i, j] = sum[k](A[p, q, i, k] * B[q, k, j])\n")
ONE_BATCH = ("param P = 2, M = 40, N = 24, K = 32\ninput A[P, M, K] : bf16\ninput B[P, K, N] : bf16\n"
             "output C[P, M, N] : f32\nC[p, i, j] = sum[k](A[p, i, k] * B[p, k, j])\n")
ATTENTION = ("param B = 2, H = 3, S = 40, D = 64\ninput Q[B, H, S, D] : bf16\ninput K[B, H, S, D] : bf16\n"
             "input V[B, H, S, D] : bf16\noutput O[B, H, S, D] : bf16\n"
             "O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e])) * V[b, h, j, d])\n")
GEMM_SCHEDULE = "bm=64 bn=64 bk=32 stages=2"


def _rows(spec: str, schedule: str, mutate=None) -> list:
    with dialects.context(), ir.Location.unknown():
        build = build_tile(spec_to_ta(spec, "coverage.ta"), None, schedule)
        if mutate is not None:
            text = str(build.tile)
            broken = mutate(text)
            assert broken != text, "the mutation did not apply"
            build.tile = ir.Module.parse(broken)
        return [(r.check, r.verdict, r.domain) for r in check_build(build, "coverage.ta")]


def _param(text: str, name: str) -> str:
    return re.search(r"(%arg\d+): index \{ta\.param = \"" + name + r"\"\}", text).group(1)


@pytest.mark.parametrize("spec,schedule", [(TWO_BATCH, GEMM_SCHEDULE), (ONE_BATCH, GEMM_SCHEDULE),
                                           (ATTENTION, "bm=64 bn=64 warps=4 stages=2")],
                         ids=["gemm-two-batch-dims", "gemm-one-batch-dim", "attention"])
def test_batch_coverage_is_proved_for_every_form(spec, schedule):
    rows = _rows(spec, schedule)
    covered = [(c, v, d) for c, v, d in rows if c == "every batch element is stored by exactly one batch program id"]
    inside = [(c, v) for c, v, d in rows if c.startswith("the stored tile lies inside the output's")]
    assert [v for _, v, _ in covered] == ["proved"] and [v for _, v in inside] == ["proved"], rows
    # several batch dims split the id by div/rem by symbolic extents: a bounded domain, said so
    assert ("<= 64" in covered[0][2]) == (spec != ONE_BATCH)


def _split_by_p(text: str) -> str:
    """q taken as pid1 % P instead of pid1 % Q"""
    q, p = _param(text, "Q"), _param(text, "P")
    return re.sub(rf"arith\.remsi (%\d+), {q} : index", rf"arith.remsi \1, {p} : index", text, count=1)


def _store_batch_zero(text: str) -> str:
    """every batch element stored at batch 0"""
    return re.sub(r"(\"tile\.store\"\(%\d+, %arg2), %\d+,", r"\1, %c0,", text, count=1)


@pytest.mark.parametrize("spec,mutate", [(TWO_BATCH, _split_by_p), (ONE_BATCH, _store_batch_zero)],
                         ids=["batch-split-by-wrong-extent", "store-forgets-batch"])
def test_a_wrong_batch_split_is_refuted(spec, mutate):
    rows = _rows(spec, GEMM_SCHEDULE, mutate)
    assert ("every batch element is stored by exactly one batch program id", "counterexample") in \
        [(c, v) for c, v, _ in rows], rows
