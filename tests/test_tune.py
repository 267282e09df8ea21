"""Schedule search without a GPU: the space is pruned with reasons, the cost model ranks what
the IR says (wave quantisation, a causal grid's imbalance, the instruction family), the
tuning database keeps measurements safely under concurrent writers, and ``tilec compile``
builds the measured best; the GPU side (tilec.runtime.measure) is exercised in tests/gpu."""

import json
import multiprocessing

import pytest
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.lowering.driver import build_tile
from tilec.frontend import load_spec
from tilec.tune.db import TuningDB, import_results
from tilec.tune.gpus import gpu_named
from tilec.tune.model import estimate
from tilec.tune.space import rank

H200 = gpu_named("h200")


@pytest.fixture(autouse=True)
def _database(tmp_path, monkeypatch):
    """Every test here has a tuning database of its own (never the user's)."""
    monkeypatch.setenv("TILEC_TUNING_DB", str(tmp_path / "tuning.sqlite"))
WS = "bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2"


def _estimate(example: str, shapes: dict, schedule: str):
    with dialects.context(), ir.Location.unknown():
        build = build_tile(load_spec(str(EXAMPLES / f"{example}.ta")), shapes, schedule)
        return estimate(build.tile, dict(shapes, **build.fixed), H200)


def test_one_tile_more_than_the_sms_costs_a_whole_wave():
    """132 tiles of 128x256 fill the H200's 132 SMs once; 133 need a second wave."""
    one = _estimate("gemm", {"M": 128 * 12, "N": 256 * 11, "K": 4096}, WS)
    two = _estimate("gemm", {"M": 128 * 19, "N": 256 * 7, "K": 4096}, WS)  # 133 tiles
    assert (one.ctas, two.ctas) == (132, 133)
    assert 1.9 < two.seconds / one.seconds < 2.1


def test_wgmma_outranks_mma_sync_and_the_causal_grid_does_half_the_work():
    gemm = {"M": 4096, "N": 4096, "K": 4096}
    assert _estimate("gemm", gemm, WS).seconds < _estimate("gemm", gemm, "bm=128 bn=128 bk=32 warps=8 stages=4").seconds
    shapes, flash = {"B": 8, "H": 16, "S": 4096, "D": 128}, "bm=128 bn=128 warps=8 stages=2 consumers=2"
    causal = _estimate("causal_attention", shapes, flash)
    full = _estimate("attention", dict(shapes, T=4096), flash)
    assert 0.45 < causal.seconds / full.seconds < 0.6 and 0.45 < causal.flops / full.flops < 0.55


def test_the_space_is_pruned_with_reasons_and_ranked():
    with dialects.context(), ir.Location.unknown():
        legal, illegal = rank(load_spec(str(EXAMPLES / "gemm.ta")), {"M": 4096, "N": 4096, "K": 4096}, "sm_90a", H200)
    assert len(legal) > 30 and illegal
    assert all("cannot build" in why for why in illegal.values())
    times = [c.estimate.seconds for c in legal]
    assert times == sorted(times) and "consumers=2" in legal[0].schedule


def test_the_database_keeps_the_fastest_and_takes_concurrent_writers(tmp_path):
    path = tmp_path / "tuning.sqlite"
    db = TuningDB(path)
    shapes = {"M": 64}
    db.add("spec", shapes, "sm_90a", "H200", [{"schedule": "a", "median_ms": 2.0},
                                              {"schedule": "b", "median_ms": 1.0, "spread": 0.02}], "2026-12-01")
    db.record_built("spec", shapes, "sm_90a", "H200", "a", "ha")  # the hashes of the modules built
    db.record_built("spec", shapes, "sm_90a", "H200", "b", "hb")
    assert db.best("spec", shapes, "sm_90a") is None  # nothing proved yet
    db.add_proof("spec", shapes, "sm_90a", "ha", True, "9 proved", "today")
    db.add_proof("spec", shapes, "sm_90a", "hb", False, "1 counterexample", "today")
    assert db.best("spec", shapes, "sm_90a")["schedule"] == "a"  # b is faster, but not proved
    db.add_proof("spec", shapes, "sm_90a", "hb", True, "9 proved", "today")
    assert db.best("spec", shapes, "sm_90a")["schedule"] == "b"
    assert db.best("spec", {"M": 65}, "sm_90a") is None and db.best("other", shapes, "sm_90a") is None
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.starmap(_write, [(str(path), w) for w in range(4)])
    assert len(db.rows("spec", shapes, "sm_90a")) == 2 + 4 * 50


def _write(path: str, writer: int) -> None:
    db = TuningDB(path)
    for n in range(50):
        db.add("spec", {"M": 64}, "sm_90a", "H200", [{"schedule": f"w{writer}-{n}", "median_ms": 3.0 + n}], "today")


def test_tune_ranks_emits_and_compile_builds_the_imported_best(tilec, tmp_path, monkeypatch):
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    spec, shapes = EXAMPLES / "gemm.ta", "M=300,N=520,K=200"
    status, out, err = tilec("tune", spec, "--shape", shapes, "--top", "2", "--emit-candidates", tmp_path / "c")
    assert status == 0, err
    assert "pruned before compiling" in out and "c001.tkp" in out
    candidates = json.loads((tmp_path / "c" / "candidates.json").read_text())
    assert candidates["key"]["shapes"] == {"M": 300, "N": 520, "K": 200} and len(candidates["candidates"]) == 2
    # what the GPU host would write: the second candidate measured faster
    results = {"gpu": "NVIDIA H200", "date": "2026-12-01", "key": candidates["key"],
               "results": [dict(c, median_ms=1.0 + n * -0.5, spread=0.01) for n, c in enumerate(candidates["candidates"])]}
    (tmp_path / "results.json").write_text(json.dumps(results))
    status, out, err = tilec("tune", "--import", tmp_path / "results.json")
    assert status == 0 and "2 measured candidates imported" in out, err
    chosen = candidates["candidates"][1]["schedule"]
    assert f"verified {chosen}: " in out and " 0 counterexample" in out and f"fastest proved: {chosen}" in out
    status, out, err = tilec("tune", "--import", tmp_path / "results.json")  # proofs are cached
    assert status == 0 and "verified" not in out, out
    status, out, err = tilec("compile", spec, "--shape", shapes, "--target", "sm_90a", "-o", tmp_path / "g.tkp")
    assert status == 0, err
    assert f"schedule {chosen}: from the tuning database" in out
    manifest = json.loads(__import__("zipfile").ZipFile(tmp_path / "g.tkp").read("manifest.json"))
    assert manifest["kernels"]["sm_90a"]["schedule"] == chosen


def test_tune_errors_are_one_line(tilec):
    status, out, err = tilec("tune")
    assert status != 0 and "needs SPEC.ta" in err and "Traceback" not in err
    status, out, err = tilec("tune", EXAMPLES / "gemm.ta", "--gpu", "tpu")
    assert status != 0 and "no cost model for GPU 'tpu'" in err
    status, out, err = tilec("tune", EXAMPLES / "gemm.ta", "--shape", "M=64,N=64,K=64", "--top", "0")
    assert status != 0 and "--top must be at least 1" in err


def test_a_size_with_no_default_must_be_given(tilec, tmp_path):
    spec = tmp_path / "gemm.ta"
    spec.write_text("param M, N, K\ninput A[M, K] : bf16\ninput B[K, N] : bf16\noutput C[M, N] : bf16\n"
                    "C[i, j] = sum[k](A[i, k] * B[k, j])\n")
    status, out, err = tilec("tune", spec, "--shape", "M=64")
    assert status != 0 and "sizes K, N of the kernel are not given: give every size with --shape" in err
    status, out, err = tilec("tune", spec, "--shape", "M=64,N=64,K=64", "--top", "1", "--rank-only")
    assert status == 0 and "1." in out, err


def test_import_reads_a_measure_results_file_and_keeps_no_hash_it_gives(tmp_path):
    """A row's tile_sha256 is what the results file says; the database links a measurement to
    a proof only by the hash tilec computes (prove.py), so a proof of that hash does not make
    the row the best."""
    db, text = TuningDB(tmp_path / "t.sqlite"), (EXAMPLES / "gemm.ta").read_text()
    data = {"gpu": "G", "date": "d", "key": {"spec_text": text, "shapes": {"N": 8}, "target": "sm_90a"},
            "results": [{"schedule": "x", "median_ms": None},
                        {"schedule": "y", "median_ms": 0.5, "spread": 0.1, "tile_sha256": "e" * 64}]}
    (tmp_path / "r.json").write_text(json.dumps(data))
    added, key, claimed = import_results(str(tmp_path / "r.json"), db)
    assert added == 1 and claimed == {("G", "y"): "e" * 64} and key["shapes"] == {"N": 8}
    db.add_proof(text, {"N": 8}, "sm_90a", "e" * 64, True, "proved", "d")
    assert db.best(text, {"N": 8}, "sm_90a") is None
    assert [(r["schedule"], r["tile_sha256"]) for r in db.rows(text, {"N": 8}, "sm_90a")] == [("y", None)]


def test_a_winner_that_is_not_proved_gives_way_to_the_next(tmp_path, monkeypatch):
    """The fastest candidate's proof fails (here: a verifier made to refute it): the second
    fastest, proved, is the one tilec compile gets."""
    from types import SimpleNamespace

    import tilec.tune.prove
    from tilec.tune import jobs, prove

    db = TuningDB(tmp_path / "t.sqlite")
    text, shapes = (EXAMPLES / "gemm.ta").read_text(), {"M": 300, "N": 520, "K": 200}
    schedules = ["bm=64,bn=64,bk=32,warps=4,stages=2,swizzle=true,group-m=8,consumers=0,pingpong=false",
                 "bm=64,bn=64,bk=32,warps=4,stages=3,swizzle=true,group-m=8,consumers=0,pingpong=false"]
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "gemm.ta"))
        hashes = [jobs.tile_hash(build_tile(module, shapes, s, "sm_90a")) for s in schedules]
    db.add(text, shapes, "sm_90a", "G", [{"schedule": s, "median_ms": 1.0 + n} for n, s in enumerate(schedules)], "d")
    calls = []

    def fake(module, builds, name, spec_text, schedule):
        calls.append(schedule)
        failed = schedule == schedules[0]
        return SimpleNamespace(status=lambda: int(failed),
                               summary=lambda: "1 counterexample" if failed else "30 proved / 0 counterexample")

    monkeypatch.setattr(tilec.tune.prove, "verify_build", fake)
    prove.prove_winner(db, {"spec_text": text, "shapes": shapes, "target": "sm_90a", "spec_name": "gemm.ta"},
                       {("G", s): h for s, h in zip(schedules, hashes)})
    assert calls == schedules and db.best(text, shapes, "sm_90a")["schedule"] == schedules[1]


def test_compile_creates_no_database_and_an_older_one_is_brought_up_to_date(tmp_path):
    import sqlite3

    assert TuningDB.existing(tmp_path / "none.sqlite") is None and not (tmp_path / "none.sqlite").exists()
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:  # the measurement table as it was before proofs were kept
        db.execute("CREATE TABLE measurement (spec_sha256 TEXT, shapes TEXT, target TEXT, gpu TEXT, version TEXT, "
                   "schedule TEXT, median_ms REAL, spread REAL, predicted_ms REAL, measured_at TEXT)")
    assert TuningDB.existing(old).best("s", {}, "sm_90a") is None


def test_an_untuned_compile_takes_the_models_best_that_does_not_spill(tilec, tmp_path, monkeypatch):
    """attention.ta's default schedule spills (200 bytes on sm_80) and at D = 128 does not fit
    sm_80's shared memory; without --schedule the package is built at the model's best
    candidate that ptxas compiles with no spill, for both targets. A row program takes its own
    default instead (tests/tune/test_pick.py)."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    monkeypatch.setenv("TILEC_CACHE_DIR", str(tmp_path / "cache"))
    for shape in ([], ["--shape", "D=128"]):
        out = tmp_path / "a.tkp"
        status, stdout, err = tilec("compile", EXAMPLES / "attention.ta", "-o", out, *shape)
        assert status == 0 and "the cost model's best that compiles without spilling" in stdout, err
        manifest = json.loads(__import__("zipfile").ZipFile(out).read("manifest.json"))
        assert set(manifest["kernels"]) == {"sm_80", "sm_90a"}  # each target's kernel at its own pick
        assert all(k["ptxas"]["spill_stores"] == 0 for k in manifest["kernels"].values()), manifest["kernels"]
    assert any((tmp_path / "cache" / "picks").iterdir())  # the choice is cached
    status, stdout, err = tilec("compile", EXAMPLES / "rmsnorm.ta", "-o", tmp_path / "r.tkp")
    assert status == 0 and "a row program's default" in stdout, err


def test_a_pytorch_graph_is_tuned_from_its_ta_ir_and_takes_the_winner(tilec, tmp_path):
    """CompiledGraph.ta written to a file is what tilec tune takes; the graph's kernel is then
    built at the fastest proved schedule recorded for that IR."""
    pytest.importorskip("cuda.bindings.nvrtc", reason="NVRTC comes with the 'cuda' extra")
    import torch

    import tilec as tc

    graph = tc.compile(lambda a, b: a @ b, (torch.randn(300, 200).bfloat16(), torch.randn(200, 520).bfloat16()))
    source = tmp_path / "mm.ta.mlir"
    source.write_text(graph.ta)
    assert graph._tuned(graph.ta, "sm_90a") == ""
    status, out, err = tilec("tune", source, "--top", "2", "--emit-candidates", tmp_path / "c")
    assert status == 0, err
    candidates = json.loads((tmp_path / "c" / "candidates.json").read_text())
    results = {"gpu": "NVIDIA H200", "date": "2026-12-01", "key": candidates["key"],
               "results": [dict(c, median_ms=2.0 - n, spread=0.0) for n, c in enumerate(candidates["candidates"])]}
    (tmp_path / "results.json").write_text(json.dumps(results))
    status, out, err = tilec("tune", "--import", tmp_path / "results.json")
    chosen = candidates["candidates"][1]["schedule"]
    assert status == 0 and f"fastest proved: {chosen}" in out, out + err
    assert graph._tuned(graph.ta, "sm_90a") == chosen and graph._tuned(graph.ta, "sm_80") == ""


def test_tune_reads_ta_ir_files_and_refuses_other_ir(tilec, tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  return\n}\n")
    status, out, err = tilec("tune", bad, "--rank-only")
    assert status == 1 and "holds no ta function" in err and "Traceback" not in err
    bad.write_text("func.func @f( {\n")
    status, out, err = tilec("tune", bad, "--rank-only")
    assert status == 1 and err.startswith(f"{bad}:1:") and "Traceback" not in err
    bad.write_text("func.func @f() {\n  \"ta.x\"() {a = " + "[" * 20000 + "]" * 20000 + "} : () -> ()\n}\n")
    status, out, err = tilec("tune", bad, "--rank-only")  # MLIR's parser would overflow its stack
    assert status == 1 and err.startswith(f"{bad}:2:") and "IR nested this deep is refused" in err


def test_once_compiled_candidates_that_spill_much_are_measured_last():
    from tilec.tune.space import SPILL_TOLERATED, with_ptxas_facts

    entries = [{"schedule": "a", "predicted_ms": 1.0, "spill_bytes": 1320},
               {"schedule": "b", "predicted_ms": 1.1, "spill_bytes": 8},
               {"schedule": "c", "predicted_ms": 1.2, "spill_bytes": 0},
               {"schedule": "d", "predicted_ms": 0.9, "spill_bytes": SPILL_TOLERATED + 4}]
    assert [e["schedule"] for e in with_ptxas_facts(entries)] == ["b", "c", "d", "a"]


def test_row_programs_are_searched_with_a_memory_model():
    """A row program's space is ranked by rows_model: DRAM moves each tensor once, and a CTA's
    plain loads wait out their latency unless enough CTAs share the SM."""
    from tilec.tune.rows_model import estimate_rows

    shapes = {"N": 16384, "C": 4096}
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "rmsnorm.ta"))
        legal, illegal = rank(module, shapes, "sm_90a", H200)
        assert len(legal) > 30 and all("cannot build" in why for why in illegal.values())
        assert all(c.estimate.bytes == 2 * 16384 * 4096 * 2 + 4096 * 2 for c in legal)  # X, Y and w once
        floor = legal[0].estimate.bytes / 4.8e12
        assert floor < legal[0].estimate.seconds < 1.2 * floor and legal[0].estimate.bound == "memory"
        narrow = build_tile(module, shapes, "bm=2 bn=32 warps=2")  # 64-byte loads: latency-bound
        with narrow.tile.context:
            slow = estimate_rows(narrow.tile, dict(shapes), H200)
        assert slow.bound == "latency" and slow.seconds > 2 * legal[0].estimate.seconds
        assert "GB/s" in legal[0].estimate.rate()
