"""Attention with its key loop rotated (softmax-overlap=true, FlashAttention-3's intra-warpgroup
overlap): block 0's scores and softmax before the loop, iteration t's Q·Kᵀ issued with block
t - 1's P·V, the softmax under P·V, the last P·V after the loop. The interpreter matches the
oracle at lengths that divide no block and size-1 dims; the verifier proves the ring with its
late reads and peeled block, the rotated step lemma and V's block, and refutes each mutant."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import check_tile_stage as _check
from test_tile_warp_specialize_contraction import _verdicts as hopper_verdicts
from test_tile_warp_specialize_attention import _attention, move_release_before
from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec, spec_to_ta

ONE = "bm=64 bn=64 warps=4 stages=2 consumers=1 softmax-overlap=true"
TWO = "bm=128 bn=64 warps=8 stages=3 consumers=2 softmax-overlap=true"
PINGPONG = TWO + " pingpong=true"


@pytest.mark.parametrize("schedule", [ONE, TWO, PINGPONG], ids=["one-consumer", "two", "pingpong"])
@pytest.mark.parametrize("example,shapes", [
    ("attention", {"B": 1, "H": 2, "S": 130, "T": 200, "D": 64}),
    ("attention", {"B": 2, "H": 1, "S": 1, "T": 1, "D": 64}),
    ("causal_attention", {"B": 1, "H": 2, "S": 150, "D": 64}),
    ("gqa_attention", {"B": 1, "H": 4, "S": 20, "T": 37, "D": 64}),
    ("attention_bias", {"B": 1, "H": 2, "S": 19, "T": 135, "D": 64}),
    ("einsum_attention", {"B": 1, "H": 2, "S": 70, "T": 129, "D": 64}),
], ids=["attention", "size-1", "causal", "gqa", "bias", "einsum"])
def test_rotated_attention_matches_the_oracle(example, shapes, schedule):
    with dialects.context(), ir.Location.unknown():
        results = _check(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, schedule)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_the_loop_is_rotated_around_one_block_before_it():
    with dialects.context(), ir.Location.unknown():
        text = str(build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, TWO).tile)
    consumers = text[text.index('"tile.mbarrier_wait"(%10, %c0, %c0)'):]
    loop = re.search(r"scf.for %arg\d+ = %c1 to %\d+ step %c1 iter_args\(", consumers)
    assert loop, "the consumers' loop starts at block 1"
    before, inside = consumers[:loop.start()], consumers[loop.start():]
    assert before.count('"tile.wgmma"') == 1 and "{transpose_b}" in before  # block 0's scores
    body = inside[:inside.index("scf.yield")]
    assert re.search(r'"tile.wgmma"\(%\d+, %\d+, %\d+, %\d+\) \{async, transpose_b\}', body)
    assert re.search(r'"tile.wgmma"\(%arg\d+, %\d+, %\d+, %arg\d+\) \{async\}', body)  # carried P onto acc
    assert body.index("{pending = 1 : i64}") < body.index("{pending = 0 : i64}") < body.index("mbarrier_arrive")
    after = inside[inside.index("scf.yield"):]
    assert re.search(r'"tile.wgmma"\(%\d+#3, %\d+, %\d+, %\d+#2\) :', after)  # the last block's P·V


def test_an_output_of_another_type_is_refused_with_the_reason():
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="softmax_overlap carries P in V's type"):
            build_tile(spec_to_ta(_attention("f32"), "a.ta"), {"S": 70, "T": 200, "D": 64, "E": 64}, TWO)


@pytest.mark.parametrize("schedule,reason", [
    ("bm=192 bn=64 warps=12 stages=2 consumers=3 softmax-overlap=true", "consumers 1 or 2"),
    ("bm=128 bn=64 warps=8 stages=3 softmax-overlap=true", "consumers 1 or 2"),
])
def test_schedules_it_cannot_rotate_are_refused(schedule, reason):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=reason):
            build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, schedule)


# -- the verifier ----------------------------------------------------------------------------------
def _verdicts(schedule: str, mutate=None, example: str = "attention") -> list:
    return hopper_verdicts(schedule, mutate, path=str(EXAMPLES / f"{example}.ta"), shapes={"D": 64})


@pytest.mark.parametrize("example", ["attention", "causal_attention", "attention_bias"])
@pytest.mark.parametrize("schedule", [ONE, TWO, PINGPONG], ids=["one-consumer", "two", "pingpong"])
def test_the_rotated_ring_step_and_reads_are_proved(schedule, example):
    rows = _verdicts(schedule, example=example)
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    for claim in ("before the loop are blocks 0..0", "is of block t - r, r <= 1", "a read after the loop",
                  "block 0 before the loop is the loop body at kt = 0", "the P·V after the loop is the loop's",
                  "the consumers' first 1 before their loop", "the accumulator takes the carried P·V",
                  "the loop starts from block 0's step", "V is read at the reference's indices",
                  "stored element is the fused ta's"):
        assert claim in checks, claim


def _scores_in_flight(text):
    """the softmax reads the scores with two groups left in flight (P·V's and its own)"""
    return text.replace("{pending = 1 : i64}", "{pending = 2 : i64}", 1)


def _v_of_this_block(text):
    """P·V multiplies the block before's P by this block's V"""
    m = re.search(r'"tile.wgmma"\((%arg\d+), (%\d+), (%\d+), (%arg\d+)\) \{async\}', text)
    scores = re.search(r'"tile.wgmma"\(%\d+, %\d+, (%\d+), %\d+\) \{async, transpose_b\}', text)
    return text.replace(m.group(0), f'"tile.wgmma"({m.group(1)}, {m.group(2)}, {scores.group(1)}, {m.group(4)}) {{async}}')


def _release_before_pv_retires(text):
    """the block before's stage is released before the wait that retires its P·V"""
    return move_release_before(text, r'\n\s*"tile.wgmma_wait"\(\) \{pending = 0 : i64\}')


def _carried_pv_dropped(text):
    """the rescale reads the carried acc, not the acc the carried P·V added to"""
    pv = re.search(r'(%\d+) = "tile.wgmma"\(%arg\d+, %\d+, %\d+, (%arg\d+)\) \{async\}', text)
    return re.sub(rf'"tile.elem"\({pv.group(1)}\) \{{map = #map\}}', f'"tile.elem"({pv.group(2)}) {{map = #map}}', text)


def _peeled_parity(text):
    """the consumers wait for block 0 at phase 1 of full"""
    full = re.findall(r'(%\d+) = "tile.mbarrier_alloc"', text)[1]
    return text.replace(f'"tile.mbarrier_wait"({full}, %c0, %c0)', f'"tile.mbarrier_wait"({full}, %c0, %c1)', 1)


def _first_block_scaled_wrong(text):
    """block 0's stabiliser, before the loop, adds the scale instead of multiplying by it"""
    return re.sub(r"arith.mulf (%\d+), (%cst_\d+) : f32", r"arith.addf \1, \2 : f32", text, count=1)


def _last_pv_of_block_before(text):
    """the P·V after the loop reads the V of block n - 2"""
    return re.sub(r"(%\d+) = arith.subi (%\d+), %c1 : index(\n\s*%\d+ = arith.remsi \1, %c3 : index\n\s*%\d+ = "
                  r'"tile.wgmma"\(%\d+#3)', r"\1 = arith.subi \2, %c2 : index\3", text, count=1)


def _first_scores_in_flight(text):
    """block 0's Q·Kᵀ is issued asynchronously and never waited for before the loop"""
    return re.sub(r'("tile.wgmma"\(%\d+, %\d+, %c0, %\d+\)) \{transpose_b\}', r"\1 {async, transpose_b}", text, count=1)


def _wait_after_scores(text):
    """the loop waits for its block's K and V only after issuing its Q·Kᵀ"""
    full = re.findall(r'(%\d+) = "tile.mbarrier_alloc"', text)[1]
    loop = re.search(r"scf.for %arg\d+ = %c1", text).start()
    wait = re.search(rf'\n\s*"tile.mbarrier_wait"\({full}, %\d+, %\d+\)[^\n]*', text[loop:])
    body = text[loop:].replace(wait.group(0), "", 1)
    scores = re.search(r'\n\s*%\d+ = "tile.wgmma"\([^)]*\) \{async, transpose_b\}[^\n]*', body)
    return text[:loop] + body[:scores.end()] + wait.group(0) + body[scores.end():]


MUTANTS = [_scores_in_flight, _v_of_this_block, _release_before_pv_retires, _carried_pv_dropped, _peeled_parity,
           _first_block_scaled_wrong, _last_pv_of_block_before, _first_scores_in_flight, _wait_after_scores]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.__name__.strip("_") for m in MUTANTS])
def test_each_rotated_mutant_is_refuted(mutant):
    rows = _verdicts(TWO, mutant)
    assert any(v == "counterexample" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]


def test_ping_pong_turns_cover_the_issued_multiplies_and_a_missing_pass_is_refuted():
    rows = _verdicts(PINGPONG)
    assert any("one warpgroup holds the turn at a time" in c and v == "proved" for c, v, _ in rows)
    # the loop's pass dropped: the other warpgroup's wait is never matched
    broken = _verdicts(PINGPONG, lambda text: re.sub(r'\n\s*"tile.turn_pass"\(\) \{who = "all"\}[^\n]*(?=(?:.*\n)*?\s*"tile.wgmma_wait"\(\) \{pending = 1)',
                                                      "", text, count=1))
    assert any(v == "counterexample" and "turn" in c for c, v, _ in broken), [r for r in broken if r[1] != "proved"]
