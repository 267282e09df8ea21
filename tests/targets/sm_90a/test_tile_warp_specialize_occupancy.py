"""Two CTAs an SM (occupancy=2): a warp-specialised kernel with one consumer warpgroup keeps half
the registers and shared memory, so two run on an SM and one's prologue, epilogue and waits
overlap the other's multiplies. The kernel is the same tile program; what changes is the
launch bound and the register split, and what legal() lets through."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tile_runs import check_tile_stage as _check
from test_tile_warp_specialize_softmax_overlap import _verdicts
from tilec import dialects
from tilec.codegen.cuda import emit_cuda
from tilec.diagnostics import TilecError
from tilec.dialects.schedule import Schedule
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec

SHARED = "bm=64 bn=128 warps=4 stages=3 consumers=1 softmax-overlap=true occupancy=2"


@pytest.mark.parametrize("example,shapes", [
    ("attention", {"B": 1, "H": 2, "S": 130, "T": 200, "D": 64}),
    ("causal_attention", {"B": 1, "H": 2, "S": 150, "D": 64}),
    ("attention", {"B": 2, "H": 1, "S": 1, "T": 1, "D": 64}),
], ids=["attention", "causal", "size-1"])
def test_two_ctas_an_sm_match_the_oracle(example, shapes):
    with dialects.context(), ir.Location.unknown():
        results = _check(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, SHARED)
    assert all(r.ok for r in results), [str(r) for r in results]


def test_the_kernel_asks_for_two_ctas_and_splits_half_the_registers():
    with dialects.context(), ir.Location.unknown():
        source = emit_cuda(build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, SHARED,
                                      "sm_90a").tile).source
    # 64K registers over 2 x 256 threads: 128 at launch; the producer gives 88 x 128 to the consumers
    for text in ("__launch_bounds__(256, 2)", "setmaxnreg.dec.sync.aligned.u32 40;",
                 "setmaxnreg.inc.sync.aligned.u32 216;"):
        assert text in source, text


def test_two_ctas_an_sm_are_proved_as_one():
    rows = _verdicts(SHARED)
    assert rows and all(v == "proved" for _, v, _ in rows), [r for r in rows if r[1] != "proved"]


@pytest.mark.parametrize("schedule,reason", [
    ("bm=128 bn=128 warps=8 stages=2 consumers=2 occupancy=2", "it needs consumers=1"),
    ("bm=64 bn=128 warps=4 stages=2 occupancy=2", "it needs consumers=1"),
    ("bm=64 bn=176 warps=4 stages=3 consumers=1 occupancy=2", "do not fit the 233472 bytes of an SM"),
])
def test_what_two_ctas_cannot_share_is_refused(schedule, reason):
    with dialects.context(), ir.Location.unknown():
        with pytest.raises(TilecError, match=reason):
            build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, schedule)


def test_occupancy_is_one_or_two():
    with pytest.raises(ValueError, match="one or two CTAs per SM"):
        Schedule(occupancy=3)


@pytest.mark.parametrize("schedule,consumer_registers", [
    (SHARED, 224),                                                    # 40 x 128 + 224 x 128 > 128 x 256
    ("bm=128 bn=128 warps=8 stages=2 consumers=2", 240),              # 40 x 128 + 240 x 256 > 168 x 384
], ids=["two-ctas", "two-warpgroups"])
def test_a_register_split_beyond_the_launch_allocation_is_refused(schedule, consumer_registers):
    """setmaxnreg.inc waits until the CTA has the registers it asks for: more than the CTA was
    launched with never come, and the kernel hangs (a two-warpgroup attention at two CTAs an SM
    with 104 a consumer thread, against 80 x 384 at launch, did so on the H200)"""
    with dialects.context(), ir.Location.unknown():
        tile = build_tile(load_spec(str(EXAMPLES / "attention.ta")), {"D": 64}, schedule).tile
        emit_cuda(tile)  # the split lowering chose fits
        text = str(tile)
        broken = text.replace(f"consumer_registers = {216 if 'occupancy=2' in schedule else 232} : i64",
                              f"consumer_registers = {consumer_registers} : i64")
        assert broken != text
        with pytest.raises(TilecError, match="setmaxnreg.inc would wait forever"):
            emit_cuda(ir.Module.parse(broken))
