"""Measured tuning without a GPU: how measuring spends a budget (rounds.py, on a fake clock),
compiling candidates side by side in local processes and on a local Ray cluster (the same
tile modules as one process), the progress line, and the errors a user meets first (no GPU
to measure on, a cluster that does not answer, a budget that is not one). The timing itself
runs on the GPU in tests/gpu/test_gpu_measure.py."""

import io
import json

import pytest

from conftest import EXAMPLES
from tilec.diagnostics import TilecError
from tilec.runtime.progress import Progress, parse_budget
from tilec.runtime.rounds import time_in_rounds
from tilec.tune.jobs import Job, compile_candidate, compile_here

GEMM = EXAMPLES / "gemm.ta"
SHAPES = {"M": 300, "N": 520, "K": 200}
SCHEDULES = ["bm=128,bn=128,bk=64,warps=8,stages=3,consumers=2", "bm=64,bn=64,bk=64,warps=4,stages=4,consumers=1"]


@pytest.fixture(autouse=True)
def _database(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEC_TUNING_DB", str(tmp_path / "tuning.sqlite"))


class FakeGPU:
    """A candidate takes one second of the clock to time and measures its given milliseconds."""

    def __init__(self, ms: dict):
        self.ms, self.now, self.timed = ms, 0.0, []

    def clock(self) -> float:
        return self.now

    def time_one(self, name: str) -> float:
        self.now += 1.0
        self.timed.append(name)
        return self.ms[name]


def test_the_contenders_take_more_rounds_and_the_rest_one():
    """Contenders: within 25% of the first pass's best (b, c), and the model's first three
    whatever their first round said (a); the rest keep their one round."""
    ms = {"a": 1.0, "b": 0.5, "c": 0.54, "d": 2.0, "e": 3.0, "f": 0.9}
    gpu = FakeGPU(ms)
    times = time_in_rounds(list("abcdef"), gpu.time_one, None, None, 3, clock=gpu.clock)
    assert times == {"a": [1.0] * 3, "b": [0.5] * 3, "c": [0.54] * 3, "d": [2.0], "e": [3.0], "f": [0.9]}
    assert gpu.timed == list("abcdef") + ["b", "c", "a"] * 2  # the contenders take turns
    gpu = FakeGPU(ms)
    times = time_in_rounds(list("defabc"), gpu.time_one, None, None, 3, contenders=1, clock=gpu.clock)
    assert [n for n, t in times.items() if len(t) == 3] == ["d", "e", "f", "b"]


def test_a_budget_of_candidates_or_seconds_is_kept():
    gpu = FakeGPU({"a": 1.0, "b": 0.5, "c": 0.54, "d": 2.0})
    assert list(time_in_rounds(list("abcd"), gpu.time_one, 2, None, 3, clock=gpu.clock)) == ["a", "b"]
    for seconds in (4.0, 6.5, 9.0, 30.0):
        gpu = FakeGPU({"a": 1.0, "b": 0.5, "c": 0.54, "d": 2.0})
        times = time_in_rounds(list("abcd"), gpu.time_one, None, seconds, 3, clock=gpu.clock)
        assert gpu.now <= max(seconds, 1.0), (seconds, gpu.timed)
        assert "b" in times or seconds < 2
    gpu = FakeGPU({"a": 1.0, "b": 0.5, "c": 0.54, "d": 2.0})
    times = time_in_rounds(list("abcd"), gpu.time_one, None, 4.0, 3, clock=gpu.clock)
    assert times == {"a": [1.0], "b": [0.5], "c": [0.54]}  # 70% for the first pass; a round no longer fits


def test_budgets_parse_or_say_why_not():
    assert parse_budget(None) == (None, None)
    assert parse_budget("30") == (30, None) and parse_budget("60s") == (None, 60.0)
    assert parse_budget("2.5s") == (None, 2.5)
    for bad in ("0", "-3", "s", "ten", "1.5", "0s"):
        with pytest.raises(ValueError, match="number of candidates"):
            parse_budget(bad)


def test_the_progress_line_redraws_on_a_terminal_and_prints_lines_elsewhere():
    log = io.StringIO()
    bar = Progress("measure", 12, log)
    bar.update(3, "0.2031 ms  bm=128", 9.0)
    bar.close()
    assert log.getvalue().startswith("measure [ 3/12]") and "~9 s left; best 0.2031 ms  bm=128\n" in log.getvalue()

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty = Terminal()
    bar = Progress("compile", 2, tty)
    bar.update(1)
    bar.update(2)
    bar.close()
    assert tty.getvalue().count("\r") == 2 and tty.getvalue().endswith("\n")


def test_candidates_compile_alike_in_one_process_and_in_several():
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    jobs = [Job(GEMM.read_text(), "gemm.ta", SHAPES, s, "sm_90a") for s in SCHEDULES]
    jobs.append(Job(GEMM.read_text(), "gemm.ta", SHAPES, "bm=48,bn=64", "sm_90a"))
    done = []
    here = compile_here(jobs, 1, lambda n, r: done.append(n))
    apart = compile_here(jobs, 2)
    assert done == [1, 2, 3]
    assert [r.get("tile_sha256") for r in here] == [r.get("tile_sha256") for r in apart]
    assert all(r["package_bytes"][:2] == b"PK" and r["spill_bytes"] == 0 for r in here[:2])
    assert "bm" in here[2]["error"] and "package_bytes" not in here[2]


def test_tune_needs_something_to_measure_on_before_it_compiles(tilec, tmp_path, monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    status, out, err = tilec("tune", GEMM, "--shape", "M=300,N=520,K=200", "--top", "2")
    # before ranking (which takes a while) and before compiling
    assert status == 1 and "no CUDA GPU on this machine to measure on" in err and "legal schedules" not in out
    assert "compile [" not in err
    status, out, err = tilec("tune", GEMM, "--shape", "M=300,N=520,K=200", "--top", "2", "--rank-only")
    assert status == 0 and "2." in out and not (tmp_path / "tuning.sqlite").exists()
    status, out, err = tilec("tune", GEMM, "--budget", "soon")
    assert status == 1 and "--budget takes a number of candidates" in err and "Traceback" not in err
    status, out, err = tilec("tune", GEMM, "--shape", "M=300,N=520,K=200", "--top", "1", "--ray", "127.0.0.1:1")
    assert status == 1 and "--ray 127.0.0.1:1: cannot reach the Ray cluster" in err


@pytest.fixture(scope="module")
def ray_cluster():
    """A local Ray cluster of two CPUs and one GPU in name only (this machine has none): tasks
    and the GPU actor are placed by Ray as on a real cluster."""
    ray = pytest.importorskip("ray", reason="Ray comes with the 'dev' and 'ray' extras")
    ray.init(num_cpus=2, num_gpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
             object_store_memory=200 * 1024 * 1024)
    yield ray
    ray.shutdown()


def test_tune_compiles_on_a_ray_cluster_what_it_compiles_here(tilec, tmp_path, ray_cluster):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    common = ("tune", GEMM, "--shape", "M=300,N=520,K=200", "--top", "3", "--emit-candidates")
    status, out, err = tilec(*common, tmp_path / "ray", "--ray", "auto")
    assert status == 0, err
    assert "compile [3/3]" in err and "3 candidates ->" in out
    status, out, err = tilec(*common, tmp_path / "here", "--jobs", "1")
    assert status == 0, err
    on_ray, here = (json.loads((tmp_path / d / "candidates.json").read_text())["candidates"] for d in ("ray", "here"))
    assert [c["tile_sha256"] for c in on_ray] == [c["tile_sha256"] for c in here]
    assert [c["schedule"] for c in on_ray] == [c["schedule"] for c in here]


def test_measuring_on_ray_runs_on_the_gpu_actor_and_says_what_went_wrong(tmp_path, ray_cluster):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    from tilec.tune.command import write_candidates
    from tilec.tune.fanout import measure_on_ray

    result = compile_candidate(Job(GEMM.read_text(), "gemm.ta", SHAPES, SCHEDULES[0], "sm_90a"))
    entry = type("Candidate", (), {"schedule": SCHEDULES[0], "estimate": type("E", (), {"seconds": 1e-5})})
    write_candidates(tmp_path, {"spec_text": "", "shapes": SHAPES, "target": "sm_90a"}, SHAPES, [entry], [result])
    with pytest.raises(TilecError, match="measuring on the Ray cluster failed: .*torch sees no CUDA device"):
        measure_on_ray(ray_cluster, tmp_path, 5, 2, None, 8)
