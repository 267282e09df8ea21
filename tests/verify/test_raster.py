"""The launch raster's check (tilec/verify/raster.py): a causal kernel's heavy-first raster is
proved to run each program id pair once, a broken raster is refuted, a malformed one is an error."""

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.codegen.cuda import emit_cuda
from tilec.diagnostics import TilecError
from tilec.dialects.raster import ATTR, HeavyFirst
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec
from tilec.signature import bind, random_inputs, signature
from tilec.executors.tile_interpreter import run_tile
from tilec.build.verification_spec import verify_spec
from tilec.verify.raster import check_raster

SHAPES = {"B": 2, "H": 3, "S": 200, "D": 64}


def _raster_rows(report):
    return [r for r in report.results if "launch raster" in r.check]


def test_a_causal_kernels_raster_is_proved_for_every_grid():
    report = verify_spec(str(EXAMPLES / "causal_attention.ta"), "bm=64 bn=64 stages=2 consumers=1 heavy-first=true",
                         shapes=SHAPES, targets=("sm_90a",))
    bad = [(r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    rows = _raster_rows(report)
    assert [(r.property, r.verdict, r.domain) for r in rows] == [("coverage", "proved", "all grid sizes")]


def _fn_with(attr_text=None, group=None):
    build = build_tile(load_spec(str(EXAMPLES / "causal_attention.ta")), SHAPES, "bm=64 bn=64")
    fn = build.tile.body.operations[0]
    if group is not None:
        fn.attributes[ATTR] = HeavyFirst(group).attribute()
    if attr_text is not None:
        fn.attributes[ATTR] = ir.Attribute.parse(attr_text)
    return build, fn


class _LastGroupIgnored(HeavyFirst):
    """Every group taken as full: the last, partial group's CTAs run batch elements past the grid."""

    @staticmethod
    def program_ids(linear, blocks, batch, group, div, select, bind=lambda name, value: value):
        group = select(group < 1, 1, group)
        span = blocks * group
        w = linear - div(linear, span) * span
        return blocks - 1 - div(w, group), div(linear, span) * group + w % group


class _TwiceTheFirstBlock(HeavyFirst):
    """The reversal off by one at the bottom: block 0 is never run, block blocks - 1 twice."""

    @staticmethod
    def program_ids(linear, blocks, batch, group, div, select, bind=lambda name, value: value):
        q, b = HeavyFirst.program_ids(linear, blocks, batch, group, div, select, bind)
        return select(q == 0, blocks - 1, q), b


@pytest.mark.parametrize("broken", [_LastGroupIgnored, _TwiceTheFirstBlock])
def test_a_broken_raster_is_refuted(broken, monkeypatch):
    monkeypatch.setattr("tilec.verify.raster.raster_of", lambda fn: broken("3"))
    with dialects.context(), ir.Location.unknown():
        _, fn = _fn_with(group="3")
        (prop, _, outcome, _), = check_raster(fn)
    assert (prop, outcome.verdict) == ("coverage", "counterexample")
    assert {"blocks", "batch", "cta"} <= set(outcome.model)


@pytest.mark.parametrize("text", ['{kind = "heavy-first", group = 4 : i64}', '{kind = "light-first", group = "4"}',
                                  '{kind = "heavy-first", group = "4 +"}', '{group = "4"}', '"heavy-first"'])
def test_a_malformed_raster_is_an_error_everywhere(text):
    with dialects.context(), ir.Location.unknown():
        build, fn = _fn_with(attr_text=text)
        (_, _, outcome, _), = check_raster(fn)
        assert outcome.verdict == "error" and "tile.raster" in outcome.detail
        with pytest.raises(TilecError, match="tile.raster"):
            emit_cuda(build.tile)
        sig = signature(build.fused.body.operations[0])
        env = bind(sig, SHAPES)
        with pytest.raises(TilecError, match="tile.raster"):
            run_tile(build.tile, sig, random_inputs(sig, env, 0), env)
