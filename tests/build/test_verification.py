"""tilec verify --schedules all: the kernel checked at every legal point of its form's space."""

import json
import re

import pytest

from tilec.dialects.schedule import GRIDS, Schedule
from tilec.passes.ta_to_tile import contraction
from tilec.build.verification import verify_schedules
from tilec.build.verification_spec import verify_spec
from conftest import ROOT

EXAMPLES = ROOT / "examples"


def test_the_space_is_the_grid_and_legal_prunes_it():
    points = Schedule.space("rows")
    rows = GRIDS["check"]["rows"]
    assert len(points) == len(rows["bm"]) * len(rows["bn"]) * len(rows["warps"])
    assert Schedule(bm=3, bn=64, warps=8).legal("rows")  # 3 rows cannot be shared by 8 warps
    assert not Schedule(bm=4, bn=64, warps=8).legal("rows")  # 4 rows, two warps each
    assert all(isinstance(p, Schedule) for p in Schedule.space("online"))


def _every_third_point(monkeypatch) -> list:
    """The sweep over every third legal point (CI sweeps the whole space: .ci/run); the list
    returned holds the points left out."""
    from tilec.build import verification

    real, dropped = verification.legal_schedules, []

    def sliced(*args, **kwargs):
        form, built, illegal = real(*args, **kwargs)
        dropped.extend(p for n, (p, _) in enumerate(built) if n % 3)
        return form, built[::3], illegal
    monkeypatch.setattr(verification, "legal_schedules", sliced)
    return dropped


def test_every_legal_schedule_of_softmax_is_proved(monkeypatch):
    dropped = _every_third_point(monkeypatch)
    report = verify_schedules(str(EXAMPLES / "softmax.ta"), targets=("sm_90a",))
    bad = [(r.schedule, r.check, r.verdict, r.detail) for r in report.results if r.verdict not in ("proved", "tested")]
    assert not bad, bad
    space = report.space
    assert space["form"] == "rows" and space["checked"]
    assert len(space["checked"]) + len(dropped) + len(space["illegal"]) == len(Schedule.space("rows"))
    assert all("warps" in why for why in space["illegal"].values())  # bm=4 with 8 warps: each names its rule
    tile_rows = [r for r in report.results if r.stage == "tile"]
    assert {r.schedule for r in tile_rows} == set(space["checked"])
    assert all(not r.schedule for r in report.results if r.stage in ("loop", "ta"))  # checked once


def _wait_for_one_group(monkeypatch):
    """ta-to-tile's in-loop wait allows one pending group whatever the stages: right at
    stages=3 (the default), one group too few at stages=2 (the stage read may not have landed)."""
    original, calls = contraction.op_with_ints, [0]

    def mutated(name, **attrs):
        if name == "tile.wait_group":
            if calls[0] % 2 == 0:  # the first wait of each lowering is the main loop's
                attrs["pending"] = 1
            calls[0] += 1
        return original(name, **attrs)

    monkeypatch.setattr(contraction, "op_with_ints", mutated)


def _a_slice_of_the_space(monkeypatch) -> None:
    """The sweep over a slice of gemm's space that keeps each kind of point (sm_80's at
    64x64x32 tiles, every stage count; sm_90a's one- and three-warpgroup points at 3 stages,
    with and without the TMA store and split-K):
    the whole space, which CI sweeps unbroken, took 160 s here."""
    from tilec.build import verification

    real = verification.legal_schedules

    def sliced(*args, **kwargs):
        form, built, illegal = real(*args, **kwargs)
        keep = lambda p: ("consumers=0," in p and "bm=64,bn=64,bk=32,warps=4," in p) or \
            (("consumers=1," in p or "consumers=3," in p) and "bn=128," in p and "stages=3," in p)  # noqa: E731
        return form, [(p, b) for p, b in built if keep(p)], illegal
    monkeypatch.setattr(verification, "legal_schedules", sliced)


def test_a_bug_only_some_schedules_have_is_refuted_at_those(monkeypatch):
    _wait_for_one_group(monkeypatch)
    default = verify_spec(str(EXAMPLES / "gemm.ta"), targets=())
    assert default.counts()["counterexample"] == 0  # invisible at the schedule asked for
    _a_slice_of_the_space(monkeypatch)
    report = verify_schedules(str(EXAMPLES / "gemm.ta"), targets=())
    refuted = {r.schedule for r in report.results if r.verdict == "counterexample"}
    assert refuted and all("stages=2" in s for s in refuted)
    assert report.status() == 1
    # nothing compiled: the warp-specialised points are checked too, and proved
    hopper = [s for s in report.space["checked"] if "consumers=0" not in s]
    assert len(hopper) >= 6 and not refuted & set(hopper)


def test_warp_specialised_points_are_sm90a_alone():
    points = Schedule.space("online", "sm_90a")
    # the grid's two and three warpgroups, then the rotated loop's two, then one with two CTAs an SM
    hopper = points[len(Schedule.space("online")):]
    assert [p.consumers for p in hopper] == [2, 2, 3, 3, 2, 2, 1, 1]
    assert [p.softmax_overlap for p in hopper] == [False] * 4 + [True] * 4
    assert [p.occupancy for p in hopper] == [1] * 6 + [2] * 2
    assert all(p.bm == 64 * p.consumers and p.warps == 4 * p.consumers for p in points if p.consumers)
    from torch_mlir import ir

    from tilec import dialects
    from tilec.lowering.driver import legal_schedules
    from tilec.frontend import load_spec

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "attention.ta"))
        _, sm80, _ = legal_schedules(module, {"D": 64}, ("sm_80",))  # no target has the copy engine
        _, both, _ = legal_schedules(module, {"D": 64}, ("sm_80", "sm_90a"))
    assert all("consumers=0" in point for point, _ in sm80)
    assert all(build.target == "sm_80" for _, build in sm80)
    hopper = [(point, build) for point, build in both if "consumers=0" not in point]
    assert len(hopper) == 8 and all(build.target == "sm_90a" for _, build in hopper)
    # a point every target runs is lowered once, for the target whose kernel all of them run
    assert all(build.target == "sm_80" for point, build in both if "consumers=0" in point)


def test_the_cli_takes_schedules_all_and_refuses_a_schedule_beside_it(tilec, tmp_path, monkeypatch):
    _every_third_point(monkeypatch)  # the command's output, not the space (CI sweeps it whole)
    out = tmp_path / "r.json"
    status, stdout, stderr = tilec("verify", EXAMPLES / "rmsnorm.ta", "--schedules", "all", "--target", "sm_90a",
                                   "--json", out)
    assert status == 0, stdout[-2000:] + stderr[-2000:]
    assert "legal points of the rows space checked" in stdout
    # by default a table of verdicts per schedule (progress on stderr); every check with --full
    check_line = re.compile(r"^ +proved  \w+ @ .* \[tile\]", re.M)
    assert stdout.startswith("schedule ") and not check_line.search(stdout), stdout[:2000]
    assert re.search(r"verify \[ *(\d+)/\1\]", stderr), stderr[-2000:]  # the last point reported
    data = json.loads(out.read_text())
    assert data["space"]["form"] == "rows" and all(r["schedule"] for r in data["results"] if r["stage"] == "tile")
    status, stdout, _ = tilec("verify", EXAMPLES / "rmsnorm.ta", "--schedules", "all", "--target", "sm_90a", "--full")
    assert status == 0 and len(check_line.findall(stdout)) > 30
    status, _, stderr = tilec("verify", EXAMPLES / "rmsnorm.ta", "--schedules", "all", "--schedule", "bm=8")
    assert status in (1, 2) and "Traceback" not in stderr and "do not apply" in stderr


def test_the_cuda_is_compiled_in_a_worker_while_the_proofs_run_and_its_failure_still_reported(monkeypatch):
    """check_builds hands the emitted CUDA to a worker thread (NVRTC and the CPU build) before
    the proofs: the rows are those of compiling it here, and a compile that fails in the worker
    is compiled again by check_cuda and reported as its error row."""
    import threading

    pytest.importorskip("cuda.bindings.nvrtc")
    from tilec.build import verification, verification_cuda
    from tilec.diagnostics import TilecError

    spec = str(ROOT / "examples" / "softmax.ta")
    workers = []
    real = verification_cuda.compile_ahead
    monkeypatch.setattr(verification, "compile_ahead",
                        lambda *a: workers.append(threading.current_thread() is not threading.main_thread()) or real(*a))
    rows = verify_spec(spec, "", {}, targets=("sm_80",)).results
    assert workers == [True]
    assert [r.verdict for r in rows if r.stage == "cuda"] == ["proved", "tested", "proved"]

    def refused(*args):
        raise TilecError("NVRTC failed to compile softmax for sm_80:\nan injected failure")
    monkeypatch.setattr(verification_cuda, "compiled", refused)
    rows = verify_spec(spec, "", {}, targets=("sm_80",)).results
    (row,) = [r for r in rows if r.check.startswith("the CUDA source compiles")]
    assert row.verdict == "error" and "an injected failure" in row.detail
