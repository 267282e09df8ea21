"""The ping-pong contraction (schedule pingpong=true persistent=true, bm=64): each consumer
warpgroup runs the consumer region on its own and owns whole tiles, taking the CTA's tiles in
turn, with a token (an mbarrier per warpgroup) putting their waits on the ring in order. The
interpreter (3 CTAs; K = 384 makes a warpgroup's first ring iteration two rounds of the ring
after the other's) matches the oracle; the verifier proves the shares, the turns and the
ring, and refutes each mutant; the CUDA kernel compiles without spills or serialised wgmmas."""

import re

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import run_tile_stage as _run
from test_tile_warp_specialize_contraction import _verdicts, assert_examples_match, assert_gemms_match, assert_proved, gemm
from tilec import dialects
from tilec.diagnostics import TilecError
from tilec.lowering.driver import to_tile
from tilec.frontend import spec_to_ta

PP = "bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true persistent=true"
SHAPES = [{"M": 300, "N": 200, "K": 200}, {"M": 300, "N": 200, "K": 384}, {"M": 1, "N": 1, "K": 1},
          {"M": 130, "N": 129, "K": 64}]


@pytest.mark.parametrize("storage", ["mk kn", "km nk"])
def test_pingpong_kernels_match_the_oracle(storage):
    assert_gemms_match(PP, [storage], SHAPES)


def test_a_pingpong_epilogue_batch_and_shared_a_match_the_oracle():
    assert_examples_match(PP, (("matmul_bias_gelu", {"M": 200, "N": 140, "K": 400}),
                               ("batched_gemm", {"Bt": 3, "M": 130, "N": 9, "K": 130}),
                               ("swiglu", {"M": 200, "N": 72, "K": 400})))


def test_the_shares_turns_and_ring_are_proved():
    assert_proved(PP, ("loops over its share of the producer's tiles", "by one of its 2 consumer warpgroups",
                       "waits for its turn before its first wait on full", "arrives on turn[(g + 1) mod 2]",
                       "phase (n - 1) div 2 of turn[n mod 2]", "empty counts the arrivals one iteration brings (4)",
                       "no wait is left unsatisfied", "stored element is the fused ta's"))


# -- mutants: each a change of the emitted tile IR --------------------------------------------
def _bars(text):
    """(full, empty, turn): the mbarrier arrays, in the order they are allocated."""
    return re.findall(r'(%\d+) = "tile.mbarrier_alloc"', text)


def _no_turn_wait(text):
    """the warpgroups do not wait for their turn: one may wait on full two phases behind"""
    return re.sub(rf'\n\s*"tile.mbarrier_wait"\({_bars(text)[2]}, [^\n]*', "", text)


def _turn_to_self(text):
    """a warpgroup passes the turn to itself"""
    turn = _bars(text)[2]
    arrive = re.search(rf'"tile.mbarrier_arrive"\({turn}, (%\d+)\)', text)
    wg = re.search(r'(%\d+) = "tile.warpgroup_id"', text).group(1)
    return text.replace(arrive.group(0), f'"tile.mbarrier_arrive"({turn}, {wg})')


def _turn_parity_off(text):
    """the turn wait asks for the phase after the one the arrive completes"""
    turn = _bars(text)[2]
    parity = re.search(rf'"tile.mbarrier_wait"\({turn}, %\d+, (%\d+)\)', text).group(1)
    line = re.search(rf"{parity} = arith.remsi (%\d+), %c2 : index", text)
    inner = re.search(rf"{line.group(1)} = arith.addi (%\d+), %c1 : index", text)
    return text.replace(line.group(0), f"{parity} = arith.remsi {inner.group(1)}, %c2 : index")


def _empty_counts_every_warp(text):
    """empty counts the arrivals of both warpgroups, where one releases each stage"""
    empty = _bars(text)[1]
    return re.sub(rf'{empty} = "tile.mbarrier_alloc"\(\) \{{arrivals = 4', f'{empty} = "tile.mbarrier_alloc"() '
                  "{arrivals = 8", text)


def _first_tile_at_pid(text):
    """every warpgroup starts at the CTA's first tile: tiles stored twice, others never"""
    wg = re.search(r'(%\d+) = "tile.warpgroup_id"', text).group(1)
    scaled = re.search(rf"(%\d+) = arith.muli {wg}, (%\d+) : index", text)
    return text.replace(scaled.group(0), f"{scaled.group(1)} = arith.muli {scaled.group(2)}, %c0 : index") \
        .replace("%c1 = arith.constant 1 : index", "%c1 = arith.constant 1 : index\n    %c0 = arith.constant 0 : index")


def _step_of_one_share(text):
    """each warpgroup steps over the CTA's tiles one by one: both store every tile"""
    return re.sub(r"(%\d+) = arith.muli (%\d+), %c2 : index", r"\1 = arith.muli \2, %c1 : index", text, count=1)


MUTANTS = [_no_turn_wait, _turn_to_self, _turn_parity_off, _empty_counts_every_warp, _first_tile_at_pid,
           _step_of_one_share]


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.__name__.strip("_") for m in MUTANTS])
def test_each_pingpong_mutant_is_refuted(mutant):
    rows = _verdicts(PP, mutant)
    assert any(v == "counterexample" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]


def test_without_turns_the_interpreter_reads_a_stage_two_phases_early():
    """K = 384: warpgroup 1's first iteration (6) waits on stage 0 for parity 0, which the
    stage's first phase (iteration 0) already gives: it runs ahead and the ring stalls"""
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match="deadlock"):
            _run(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), {"M": 300, "N": 200, "K": 384}, PP, _no_turn_wait)


@pytest.mark.parametrize("schedule, reason", [
    ("bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true", "needs persistent=true"),
    ("bm=192 bn=128 bk=64 warps=12 stages=3 consumers=3 pingpong=true persistent=true", "owns a tile of its own"),
    ("bm=64 bn=128 bk=64 warps=4 stages=3 consumers=1 pingpong=true persistent=true", "consumers >= 2"),
])
def test_pingpong_schedules_say_what_they_need(schedule, reason):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=re.escape(reason)):
            to_tile(spec_to_ta(gemm("mk", "kn"), "hopper.ta"), schedule)


def test_the_cuda_kernel_numbers_threads_within_each_warpgroup(tmp_path):
    import zipfile

    from tilec.build.package import build

    manifest = build(str(EXAMPLES / "gemm.ta"), str(tmp_path / "g.tkp"), PP.replace("bn=128", "bn=256"),
                     ("sm_90a",), use_cache=False)
    manifest = manifest["kernels"]["sm_90a"]
    facts = manifest["ptxas"]
    assert facts["spill_stores"] == 0 and not facts["wgmma_serialized"], facts
    source = zipfile.ZipFile(tmp_path / "g.tkp").read("gemm.sm_90a.cu").decode()
    assert "const int warp = wg_warp, tid = wg_tid" in source
    assert "(warp / 4) *" not in source  # each warpgroup reads all 64 rows of its own A tile


def test_the_contraction_space_has_pingpong_points_on_sm90a_alone():
    """tilec verify --schedules all and tilec tune reach them: two warpgroups, bm = 64 or 128
    (two wgmma slabs), persistent"""
    from tilec.dialects.schedule import Schedule
    from tilec.tune.space import points

    ours = [p for p in Schedule.space("contraction", "sm_90a") if p.pingpong]
    assert len(ours) == 16 and all(p.persistent and p.bm in (64, 128) and p.consumers == 2 for p in ours)
    assert sum(p.bm == 128 for p in ours) == 8
    assert sum(p.tma_store for p in ours) == 8  # each also with its tiles stored by the copy engine
    assert not [p for p in Schedule.space("contraction") if p.pingpong]
    assert [p for p in points("contraction", "sm_90a") if p.pingpong]
    assert not [p for p in points("contraction", "sm_80") if p.pingpong]
