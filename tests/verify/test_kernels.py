"""A tile function's checks come from what it holds (verify/kernels.py): the reader of its
values from its ops and marks, and each check of a staged program from the op it is attached
to, whatever form the matcher that built it had in mind."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.dialects.tile import body_ops, holds_mma, is_mma, mma_accumulator
from tilec.frontend import load_spec
from tilec.lowering.driver import build_tile
from tilec.verify import kernels
from tilec.verify.replay import Replay
from tilec.verify.symbolic import execute

WGMMA = "bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2"


def _build(spec: str, fixed: dict, schedule: str = "", target: str = "sm_90a"):
    return build_tile(load_spec(str(EXAMPLES / f"{spec}.ta")), fixed, schedule, target)


def _reader(fn) -> str:
    return next(what for what, holds, _ in kernels.READERS if holds(fn))


def _attached(build) -> list[str]:
    fn = build.tile.body.operations[0]
    staged = kernels.Staged(build.tile, fn, frozenset(op.name for op in body_ops(fn)), execute(fn),
                            build.fused, Replay.of("x.ta", fn))
    return [a.op for a in kernels.attached_to(staged)]


CASES = [  # (spec, sizes, schedule, target, reader, the checks attached to its ops)
    ("gemm", {}, "", "sm_80", "an mma",
     ["a target's own op", "tile.mma", "tile.async_copy", "a copy or a store", "an mma of a loop computing no group",
      "a store"]),
    ("gemm", {}, WGMMA, "sm_90a", "an mma",
     ["a target's own op", "a copy or a store", "an mma of a loop computing no group", "a store"]),
    ("attention", {"D": 64}, "", "sm_80", "an mma",
     ["a target's own op", "tile.mma", "tile.async_copy", "a copy or a store",
      "scf.for computing a ta.online group", "a store"]),
    ("layernorm", {}, "", "sm_80", "maps and reductions", None),
    ("rope", {}, "", "sm_80", "the mark tile.pointwise", None),
]


@pytest.mark.parametrize("spec, fixed, schedule, target, reader, attached", CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_checks_follow_what_the_function_holds(spec, fixed, schedule, target, reader, attached):
    with dialects.context(), ir.Location.unknown():
        build = _build(spec, fixed, schedule, target)
        fn = build.tile.body.operations[0]
        assert _reader(fn) == reader
        if attached is not None:
            assert _attached(build) == attached


def test_an_mma_is_found_inside_warp_roles():
    """tile.wgmma (a target's op, found through its "mma-depth" rule) inside tile.warp_specialize's
    regions (walked through its "roles" rule); its accumulator is its last operand."""
    with dialects.context(), ir.Location.unknown():
        build = _build("gemm", {}, WGMMA)
        fn = build.tile.body.operations[0]
        ops = body_ops(fn)
        assert "tile.warp_specialize" in [op.name for op in ops]
        wgmma = [op for op in ops if op.name == "tile.wgmma"]
        assert wgmma and all(is_mma(op) for op in wgmma) and holds_mma(fn)
        assert mma_accumulator(wgmma[0]) == list(wgmma[0].operands)[-1]
        assert not any(is_mma(op) for op in ops if op.name in ("tile.tma_copy", "tile.store", "scf.for"))
        rows = _build("layernorm", {})
        assert not holds_mma(rows.tile.body.operations[0])


def test_each_staged_check_runs_where_its_op_is():
    """A cp.async program's staging rows (its groups and stages) and its operands' layout rows
    come from its tile.async_copy and tile.mma; a warp-specialised one, which has neither,
    gets its ring's rows from tile.warp_specialize instead."""
    with dialects.context(), ir.Location.unknown():
        cp = _build("gemm", {}, "", "sm_80")
        plain = kernels.check_tile(cp.tile, cp.fused, "g.ta")
        fn = cp.tile.body.operations[0]
        staging = {row[1] for row in kernels.check_staging(execute(fn))}
        layouts = {row[1] for row in kernels.check_operand_layouts(execute(fn), 128)}
        ring = _build("gemm", {}, WGMMA)
        ws = kernels.check_tile(ring.tile, ring.fused, "g.ta")
    checks = lambda rows: {r.check for r in rows}  # noqa: E731
    assert staging and layouts and staging | layouts <= checks(plain)
    assert not (staging | layouts) & checks(ws)
    assert any("both roles" in c for c in checks(ws))  # the ring's
    assert all(r.verdict == "proved" for r in plain + ws), [(r.check, r.detail) for r in plain + ws
                                                           if r.verdict != "proved"]
