"""Attention on sm_90a's warp-specialised form (Q once and K/V blocks by the copy engine on
mbarriers, Q·Kᵀ and P·V on wgmma with P in registers): the tile interpreter matches the oracle
at lengths that divide no block and size-1 dims, for 1-3 consumer warpgroups, causal masks,
grouped heads, a bias and other output types; the verifier proves the ring, the resident Q
tile, the descriptors, the register fragments and the online step, and refutes each mutant."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import check_tile_stage as _check  # spec -> oracle and tile interpreter, compared
from test_tile_warp_specialize_contraction import (_arrivals, descriptors_in_the_64_byte_mode, _no_drain, _no_release, _no_tail_release, _verdicts as hopper_verdicts,
                              _wrong_bytes)
from tilec import dialects
from tilec.dialects import layout
from tilec.diagnostics import TilecError
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec, spec_to_ta
from tilec.signature import bind, random_inputs, signature
from tilec.executors.compare import compare
from tilec.executors.oracle import evaluate
from tilec.lowering.driver import run_passes
from tilec.executors.tile_interpreter import run_tile
from tilec.verify.kernels import check_build

ONE = "bm=64 bn=64 warps=4 stages=3 consumers=1"
TWO = "bm=128 bn=64 warps=8 stages=2 consumers=2"
THREE = "bm=192 bn=48 warps=12 stages=2 consumers=3"
ATTENTION = ("param B = 1, H = 2, S, T, D = 64, E = {e}\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
             "input V[B, H, T, E] : bf16\noutput O[B, H, S, E] : {out}\n"
             "O[b, h, i, e] = sum[j](softmax[j](sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])\n")


def _attention(out: str = "bf16", e: int = 64) -> str:
    return ATTENTION.replace("{out}", out).replace("{e}", str(e))


PINGPONG = "bm=192 bn=64 warps=12 stages=2 consumers=3 pingpong=true"


@pytest.mark.parametrize("schedule", [ONE, TWO, THREE, PINGPONG], ids=["one-consumer", "two", "three", "pingpong"])
@pytest.mark.parametrize("example,shapes", [
    ("attention", {"B": 1, "H": 2, "S": 130, "T": 70, "D": 64}),
    ("attention", {"B": 2, "H": 1, "S": 1, "T": 1, "D": 64}),
    ("causal_attention", {"B": 1, "H": 2, "S": 150, "D": 64}),
    ("gqa_attention", {"B": 1, "H": 4, "S": 20, "T": 37, "D": 64}),
    ("attention_bias", {"B": 1, "H": 2, "S": 19, "T": 135, "D": 64}),
], ids=["attention", "size-1", "causal", "gqa", "bias"])
def test_warp_specialised_attention_matches_the_oracle(example, shapes, schedule):
    with dialects.context(), ir.Location.unknown():
        results = _check(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, schedule)
    assert all(r.ok for r in results), [str(r) for r in results]


@pytest.mark.parametrize("out,e", [("f32", 64), ("f16", 128)], ids=["f32-out (P's residual)", "value-dim-128"])
def test_other_output_types_and_value_widths_match_the_oracle(out, e):
    with dialects.context(), ir.Location.unknown():
        results = _check(spec_to_ta(_attention(out, e), "a.ta"), {"S": 70, "T": 200, "D": 64, "E": e}, TWO)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_the_form_is_two_roles_around_one_online_loop():
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "causal_attention.ta"))
        text = str(build_tile(module, {"D": 128}, TWO).tile)
    assert text.count('"tile.warp_specialize"') == 1 and text.count("tile.stages = 2") == 1
    assert text.count('"tile.tma_copy"') == 3  # Q once, K and V per key block
    assert len(re.findall(r'"tile.wgmma"\(%\d+, %\d+, %\d+, %\d+\) \{transpose_b\}', text)) == 1  # Q·Kᵀ
    # P·V, P in registers, left in flight: the next block's Q·Kᵀ waits for it, then releases its stage
    assert re.search(r'"tile.wgmma"\(%\d+, %\d+, %\d+, %\d+\) \{async\} : \(tensor<128x64xbf16', text)
    assert text.count('"tile.wgmma_wait"() {pending = 0 : i64}') == 1 and text.count('"tile.mbarrier_arrive"') == 2
    assert "arith.minsi" in text  # causal: the key blocks above the diagonal are skipped


# -- the verifier ----------------------------------------------------------------------------------
def _verdicts(schedule: str, mutate=None, example: str = "attention") -> list:
    return hopper_verdicts(schedule, mutate, path=str(EXAMPLES / f"{example}.ta"), shapes={"D": 64})


@pytest.mark.parametrize("example", ["attention", "causal_attention"])
@pytest.mark.parametrize("schedule", [ONE, TWO], ids=["one-consumer", "two"])
def test_the_ring_q_tiles_fragments_and_online_step_are_proved(schedule, example):
    rows = _verdicts(schedule, example=example)
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    for claim in ("ring of", "bytes expected on full", "one-stage barrier of its own", "phase 0 of the one-stage tile",
                  "operand A (Q) tile", "operand B (K) tile", "operand B (V) tile", "wgmma A fragments packed",
                  "the accumulator is rescaled", "V is read at the reference's indices",
                  "stored element is the fused ta's"):
        assert claim in checks, claim


def _q_parity(text):
    """the consumers wait for phase 1 of Q's barrier (passes at once: Q not yet landed)"""
    return re.sub(r'"tile.mbarrier_wait"\((%\d+), %c0, %c0\)', r'"tile.mbarrier_wait"(\1, %c0, %c1)', text, count=1)


def _q_bytes(text):
    """the producer expects half of Q's bytes"""
    return re.sub(r'"tile.mbarrier_expect"\((%\d+), %c0\) \{bytes = (\d+) : i64\}',
                  lambda m: f'"tile.mbarrier_expect"({m.group(1)}, %c0) {{bytes = {int(m.group(2)) // 2} : i64}}',
                  text, count=1)


def _release_before_pv(text):
    """the consumers release this block's K and V right after Q·Kᵀ, before P·V reads V"""
    m = re.search(r"arith.cmpi sge, (%arg\d+), %c1 : index\n(\s*scf.if %\d+ \{\n\s*%\d+ = arith.subi \1), %c1", text)
    return text.replace(m.group(0), f"arith.cmpi sge, {m.group(1)}, %c0 : index\n{m.group(2)}, %c0", 1)


def move_release_before(text: str, anchor: str) -> str:
    """``text`` with the loop's guarded release of the block before's stage moved to just before
    the first match of the regex ``anchor``."""
    release = re.search(r"\n\s*%\d+ = arith.cmpi sge, %arg\d+, %c1 : index\n\s*scf.if %\d+ \{\n(?:.*\n)*?\s*\}", text)
    text = text.replace(release.group(0), "", 1)
    at = re.search(anchor, text)
    return text[:at.start()] + release.group(0) + text[at.start():]


def _release_before_qk(text):
    """the consumers release the block before's stage before Q·Kᵀ, whose wait retires its P·V"""
    return move_release_before(text, r'\n\s*%\d+ = "tile.wgmma"\([^)]*\) \{transpose_b\}')


def _no_q_wait(text):
    """the consumers read Q without waiting for its barrier"""
    return re.sub(r'\s*"tile.mbarrier_wait"\(%\d+, %c0, %c0\).*\n', "\n", text, count=1)


def _wrong_kv_stage(text):
    """the consumers wait on full at the stage named by the phase parity, not the iteration's"""
    full = re.findall(r'(%\d+) = "tile.mbarrier_alloc"', text)[1]
    m = re.search(rf'"tile.mbarrier_wait"\({full}, (%\d+), (%\d+)\)', text)
    return text.replace(m.group(0), f'"tile.mbarrier_wait"({full}, {m.group(2)}, {m.group(2)})')


MUTANTS = [_q_parity, _q_bytes, _release_before_pv, _no_q_wait, _wrong_kv_stage, _no_release, _wrong_bytes, _arrivals,
           _release_before_qk, _no_drain, _no_tail_release]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.__name__.strip("_") for m in MUTANTS])
def test_each_attention_ring_mutant_is_refuted(mutant):
    rows = _verdicts(TWO, mutant)
    assert any(v == "counterexample" for _, v, _ in rows), rows


def test_a_descriptor_in_the_wrong_swizzle_mode_is_refuted(monkeypatch):
    """every descriptor (Q, K and V) says the 64-byte mode; the tiles are in the 128-byte one"""
    descriptors_in_the_64_byte_mode(monkeypatch)
    refuted = [c for c, v, _ in _verdicts(TWO) if v == "counterexample"]
    assert len(refuted) == 3 and all("wgmma reads through its descriptor" in c for c in refuted), refuted


def test_k_steps_that_ignore_the_second_copy_box_are_refuted(monkeypatch):
    """at a head dim of 128, Q and K are two 64-column boxes: stepping k16 linearly (32 bytes
    a step) runs off the first box's rows instead of into the second box"""
    right = layout.wgmma_k_offset
    monkeypatch.setattr(layout, "wgmma_k_offset", lambda lay, k_major, kk: 16 * kk if k_major else right(
        lay, k_major, kk))
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 128}, TWO)
        rows = [(r.check, r.verdict) for r in check_build(build, "attention.ta")]
    refuted = [c for c, v in rows if v == "counterexample"]
    assert {c.split(":")[0] for c in refuted} == {"operand A (Q) tile 128x128", "operand B (K) tile 64x128"}, rows


def test_the_turns_of_a_pingpong_kernel_are_proved():
    rows = _verdicts(TWO + " pingpong=true", example="causal_attention")
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    for claim in ("turns balance", "one warpgroup holds the turn at a time", "cannot stall the ring"):
        assert claim in checks, claim


def _no_first_token(text):
    """the last warpgroup never hands warpgroup 0 its first turn (every warpgroup waits forever)"""
    return text.replace('"tile.turn_pass"() {who = "last"} : () -> ()', "", 1)


def _extra_wait(text):
    """a second wait for the turn before P·V (a bar.sync that no pass completes)"""
    wait = '"tile.turn_wait"() {who = "all"} : () -> ()'
    at = text.rindex(wait)
    return text[:at] + wait + "\n" + text[at:]


def _no_take_back(text):
    """warpgroup 0 does not take back the last turn (the last pass is left over)"""
    return text.replace('"tile.turn_wait"() {who = "first"} : () -> ()', "", 1)


@pytest.mark.parametrize("mutant", [_no_first_token, _extra_wait, _no_take_back],
                         ids=["no-first-token", "extra-wait", "no-take-back"])
def test_each_turn_mutant_is_refuted(mutant):
    rows = _verdicts(TWO + " pingpong=true", mutant)
    refuted = [c for c, v, _ in rows if v == "counterexample"]
    assert any("turn" in c for c in refuted) and all("turn" in c or "no wait is left unsatisfied" in c
                                                     for c in refuted), rows


@pytest.mark.parametrize("schedule,form,why", [
    (ONE + " pingpong=true", "attention", "pingpong takes turns between consumer warpgroups"),
    ("bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true", "gemm", "it needs persistent=true")])
def test_pingpong_needs_two_consumer_warpgroups_and_a_persistent_contraction(schedule, form, why):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=why):
            build_tile(load_spec(str(EXAMPLES / f"{form}.ta")), {"D": 64} if form == "attention" else None, schedule)


def test_a_broken_ring_stalls_the_interpreter():
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "attention.ta"))
        with pytest.raises(TilecError, match="deadlock"):
            build = build_tile(module, {"D": 64}, TWO)
            tiled = ir.Module.parse(_no_release(str(build.tile)))
            sig = signature(build.fused.body.operations[0])
            env = bind(sig, {"B": 1, "H": 1, "S": 64, "T": 400})
            run_tile(tiled, sig, random_inputs(sig, env, 0), env)


def test_a_stage_released_before_pv_reads_v_gives_wrong_numbers_in_the_interpreter():
    """released right after Q·Kᵀ, the stage is refilled with a later block's K and V at once (the
    interpreter lets the producer run at each release) before P·V, left in flight, reads V"""
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "attention.ta"))
        run_passes(module, ["ta-specialize-shapes{shapes=D=64}"])
        build = build_tile(module, None, TWO)
        sig = signature(build.fused.body.operations[0])
        env = bind(sig, {"B": 1, "H": 1, "S": 64, "T": 400})
        inputs = random_inputs(sig, env, 0)
        expected = evaluate(build.fused.body.operations[0], inputs, env)
        for tile, ok in ((build.tile, True), (ir.Module.parse(_release_before_pv(str(build.tile))), False)):
            actual = run_tile(tile, sig, inputs, env)
            assert all(compare(actual[k], expected[k]).ok for k in expected) == ok


@pytest.mark.parametrize("schedule,shapes,reason", [
    ("bm=128 bn=64 warps=8 stages=2 consumers=2", {"D": 96}, "head dim 96 must be 64, 128, 192 or 256"),
    ("bm=128 bn=40 warps=8 stages=2 consumers=2", {"D": 64}, "bn=40 .* multiple of 16"),
    ("bm=64 bn=64 warps=8 stages=2 consumers=2", {"D": 64}, "each of the 2 consumer warpgroups owns 64 rows"),
    ("bm=128 bn=256 warps=8 stages=3 consumers=2", {"D": 256}, "bytes of shared memory"),
])
def test_illegal_warp_specialised_attention_schedules_are_refused(schedule, shapes, reason):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=reason):
            build_tile(load_spec(str(EXAMPLES / "attention.ta")), shapes, schedule)


EINSUM_GQA_CAUSAL = ("param B, H, S, D = 64\nconst G = 2\ninput Q[B, S, H, D] : bf16\ninput K[B, S, H / G, D] : bf16\n"
                     "input V[B, S, H / G, D] : bf16\noutput O[B, S, H, D] : bf16\nlet P[b, h, i, j] = softmax[j](sum[e]("
                     "Q[b, i, h, e] * K[b, j, h / G, e]) * rsqrt(D) where j <= i else -inf)\n"
                     "O[b, i, h, d] = sum[j](P[b, h, i, j] * V[b, j, h / G, d])\n")


@pytest.mark.parametrize("schedule", [ONE, TWO], ids=["one-consumer", "two"])
@pytest.mark.parametrize("spec,shapes", [
    (None, {"B": 2, "S": 70, "H": 3, "D": 64}),
    (EINSUM_GQA_CAUSAL, {"B": 1, "S": 131, "H": 4, "D": 64}),
], ids=["einsum", "einsum-gqa-causal"])
def test_einsum_order_is_copied_through_its_row_view(spec, shapes, schedule):
    """Q, K, V and O stored [B, S, H, D]: the copy engine reads boxes of the [B, S, H*D] views
    at columns h*D.. (the heads side by side in a row), rows past S zero-filled; grouped heads
    read their K/V head's columns."""
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "einsum_attention.ta")) if spec is None else spec_to_ta(spec, "einsum.ta")
        results = _check(module, shapes, schedule)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_einsum_order_is_proved():
    rows = hopper_verdicts(TWO, path=str(EXAMPLES / "einsum_attention.ta"), shapes={"D": 64})
    assert all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]
    checks = " ".join(c for c, _, _ in rows)
    assert "view" in checks and "ring of" in checks


