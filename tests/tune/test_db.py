"""The tuning database as a thing others write: an older database opened by several processes
at once, files that are not what --import and --db expect, and results files whose rows
claim a proof that is not theirs."""

import json
import random
import sqlite3
import threading

import pytest

from conftest import EXAMPLES
from tilec.tune.db import TuningDB

# the measurement table as it was before proofs were kept
OLD_MEASUREMENT = ("CREATE TABLE measurement (spec_sha256 TEXT, shapes TEXT, target TEXT, gpu TEXT, version TEXT, "
                   "schedule TEXT, median_ms REAL, spread REAL, predicted_ms REAL, measured_at TEXT)")


OLD_PROOF = "CREATE TABLE proof (tile_sha256 TEXT PRIMARY KEY, passed INTEGER, summary TEXT, checked_at TEXT)"


def _old_database(path, with_proofs: bool = False):
    """A database from before proofs were kept, or (``with_proofs``) before their hash was recomputed."""
    with sqlite3.connect(path) as db:
        db.execute(OLD_MEASUREMENT)
        db.execute("INSERT INTO measurement VALUES ('s', 'M=64', 'sm_90a', 'G', 'v', 'a', 1.0, 0.0, NULL, 'd')")
        if with_proofs:
            db.execute("ALTER TABLE measurement ADD COLUMN tile_sha256 TEXT")
            db.execute(OLD_PROOF)
    return path


def test_an_older_database_opened_by_several_at_once_is_brought_up_to_date_once(tmp_path):
    """Eight connections open each of 60 older databases (of two earlier forms) at the same
    moment; checked and altered apart, about one database in six had two of them add the same
    column."""
    failures = []

    def open_it(path, gate):
        gate.wait()
        try:
            TuningDB(path)
        except Exception as err:  # noqa: BLE001 (any failure is the finding)
            failures.append(f"{path.name}: {err!r}")

    for n in range(60):
        path, gate = _old_database(tmp_path / f"old{n}.sqlite", with_proofs=n % 2), threading.Barrier(8)
        threads = [threading.Thread(target=open_it, args=(path, gate)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not failures, failures[:3]
    for name in ("old0.sqlite", "old1.sqlite"):
        with sqlite3.connect(tmp_path / name) as db:
            columns = [r[1] for r in db.execute("PRAGMA table_info(measurement)")]
            assert columns.count("tile_sha256") == 1 and db.execute("SELECT count(*) FROM measurement").fetchone() == (1,)


def _results(**row) -> dict:
    """A results file of one measured GEMM candidate, ``row`` changing its fields."""
    key = {"spec_text": (EXAMPLES / "gemm.ta").read_text(), "shapes": {"M": 128, "N": 128, "K": 64},
           "target": "sm_80", "spec_name": "gemm.ta"}
    return {"gpu": "NVIDIA A100", "date": "2026-12-05", "key": key,
            "results": [dict({"schedule": "bm=64,bn=64,bk=32,warps=4,stages=2", "median_ms": 1.0, "spread": 0.0,
                              "tile_sha256": "0" * 64}, **row)]}


def _without(data: dict, *path) -> dict:
    *outer, last = path
    place = data
    for step in outer:
        place = place[step]
    del place[last]
    return data


def _with(data: dict, value, *path) -> dict:
    *outer, last = path
    place = data
    for step in outer:
        place = place[step]
    place[last] = value
    return data


MALFORMED_RESULTS = {
    "not JSON": (b"{not json", ":1:2: error: not JSON"),
    "not UTF-8": (b"\x80{}", "is not JSON"),
    "a list": (b"[1, 2]", "it is a list, not a results file"),
    "a string": (b'"results"', "it is a string"),
    "a number": (b"3", "it is a number 3"),
    "3000 deep": (b"[" * 3000 + b"]" * 3000, "nested too deeply"),
    "3000 deep objects": (b'{"a": ' * 3000 + b"1" + b"}" * 3000, "nested too deeply"),
    "no key": (_without(_results(), "key"), "key is missing"),
    "no results": (_without(_results(), "results"), "results is missing"),
    "no schedule": (_without(_results(), "results", 0, "schedule"), "results[0].schedule is missing"),
    "key a list": (_with(_results(), [], "key"), "key is a list"),
    "results an object": (_with(_results(), {"a": 1}, "results"), "results is an object"),
    "a row a string": (_with(_results(), "row", "results", 0), "results[0] is a string"),
    "median a string": (_results(median_ms="1.0"), "results[0].median_ms is a string"),
    "median negative": (_results(median_ms=-1.0), "results[0].median_ms is a number -1.0"),
    "median NaN": (_results(median_ms=float("nan")), "results[0].median_ms is a number nan"),
    "median infinite": (_results(median_ms=float("inf")), "results[0].median_ms is a number inf"),
    "median true": (_results(median_ms=True), "results[0].median_ms is true/false"),
    "spread a list": (_results(spread=[1]), "results[0].spread is a list"),
    "hash not hex": (_results(tile_sha256="zz"), "results[0].tile_sha256 is a string \"zz\""),
    "size a string": (_with(_results(), {"M": "128"}, "key", "shapes"), "key.shapes: 'M': a string"),
    "size zero": (_with(_results(), {"M": 0}, "key", "shapes"), "key.shapes: 'M': a number 0"),
    "no such target": (_with(_results(), "sm_99", "key", "target"), "key.target is a string \"sm_99\""),
    "a path for a name": (_with(_results(), "../x.ta", "key", "spec_name"), "key.spec_name '../x.ta'"),
    "a digit too many": (b'{"gpu": ' + b"9" * 5000 + b"}", "is not JSON"),
    "a spec that does not parse": (_with(_results(), "C[i] = ", "key", "spec_text"),
                                   "key.spec_text (line 1, column 8) is not a source tilec reads"),
    "IR nested too deep": (_with(_with(_results(), "g.mlir", "key", "spec_name"), "[" * 20000, "key", "spec_text"),
                           "brackets are open here; IR nested this deep is refused"),
}


@pytest.mark.parametrize("case", MALFORMED_RESULTS)
def test_a_results_file_that_is_not_one_is_one_error(tilec, tmp_path, case):
    content, message = MALFORMED_RESULTS[case]
    path = tmp_path / "results.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    status, out, err = tilec("tune", "--import", path, "--db", tmp_path / "t.sqlite")
    assert status == 1 and message in err and str(path) in err, err
    assert "Traceback" not in err and "internal error" not in err and "imported" not in out


def test_a_huge_results_file_is_refused_before_it_is_read(tilec, tmp_path):
    path = tmp_path / "results.json"
    with open(path, "wb") as f:
        f.truncate(4 << 30)  # sparse: 4 GiB that take no disk
    status, out, err = tilec("tune", "--import", path, "--db", tmp_path / "t.sqlite")
    assert status == 1 and f"'{path}' is 4294967296 bytes; this input is limited to 16 MiB" in err, err


def _sqlite(path, *statements):
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)
    return path


NOT_A_DATABASE = {
    "random bytes": (lambda p: p.write_bytes(random.Random(0).randbytes(50_000)), "is not a tuning database"),
    "a text file": (lambda p: p.write_text("measurement\n" * 100), "is not a tuning database"),
    "SQLite, other tables": (lambda p: _sqlite(p, "CREATE TABLE notes (a TEXT)"),
                             "is not a tuning database: it holds other tables (notes)"),
    "a measurement of another shape": (lambda p: _sqlite(p, "CREATE TABLE measurement (kernel TEXT, ms REAL)"),
                                       "its table measurement has the columns kernel, ms, not spec_sha256"),
    "a verdict of another shape": (lambda p: _sqlite(p, OLD_MEASUREMENT, "CREATE TABLE verdict (x)"),
                                   "its table verdict has the columns x, not"),
    "a proof table of another shape": (lambda p: _sqlite(p, OLD_MEASUREMENT, "CREATE TABLE proof (x)"),
                                       "it holds other tables (proof)"),
    "a directory": (lambda p: p.mkdir(), "is not a regular file"),
    "a file for a folder": (lambda p: p.write_text("x"), "is not a directory"),
}


@pytest.mark.parametrize("case", NOT_A_DATABASE)
def test_a_db_file_that_is_not_a_tuning_database_is_one_error(tilec, tmp_path, case):
    make, message = NOT_A_DATABASE[case]
    path, given = tmp_path / "t.sqlite", tmp_path / "t.sqlite"
    make(path)
    if case == "a file for a folder":
        given = path / "t.sqlite"
    before = path.read_bytes() if path.is_file() else None
    results = tmp_path / "results.json"
    results.write_text(json.dumps(_results()))
    status, out, err = tilec("tune", "--import", results, "--db", given)
    assert status == 1 and message in err and str(path) in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert before is None or path.read_bytes() == before  # someone else's file is left as it was


def test_a_compile_reading_a_damaged_default_database_notes_it_and_goes_on(tmp_path, monkeypatch, capsys):
    from tilec.tune.db import tuned

    path = tmp_path / "tuning.sqlite"
    monkeypatch.setenv("TILEC_TUNING_DB", str(path))
    path.write_bytes(b"SQLite format 3\0" + bytes(200))  # a header and nothing else
    assert tuned("spec", {"M": 64}, "sm_80") is None
    err = capsys.readouterr().err
    assert err.startswith(f"note: '{path}' is not a tuning database") and "using the default schedule" in err, err


# at sm_80 tilec verify refutes the unswizzled tile (its ldmatrix phases conflict on banks)
PROVED = "bm=64,bn=64,bk=32,warps=4,stages=2,swizzle=true"
REFUTED = "bm=64,bn=64,bk=32,warps=4,stages=2,swizzle=false"
GEMM = {"M": 128, "N": 128, "K": 64}


def _tile_hash(schedule: str) -> str:
    from torch_mlir import ir

    from tilec import dialects
    from tilec.lowering.driver import build_tile
    from tilec.frontend import load_spec
    from tilec.tune.jobs import tile_hash

    with dialects.context(), ir.Location.unknown():
        return tile_hash(build_tile(load_spec(str(EXAMPLES / "gemm.ta")), GEMM, schedule))


def test_a_row_that_claims_another_candidates_proof_never_wins(tilec, tmp_path, monkeypatch):
    """A results file gives the refuted schedule, measured fastest, the tile hash of a proved
    one: the hash is recomputed from the schedule, the row is refused (said on stderr), and the
    proved one stays the best, for tune and for compile; again once the proof is cached, and
    when the forged row comes alone in a second file."""
    proved = _tile_hash(PROVED)
    db, results = tmp_path / "t.sqlite", tmp_path / "results.json"
    monkeypatch.setenv("TILEC_TUNING_DB", str(db))
    forged = _results(schedule=REFUTED, median_ms=1.0, tile_sha256=proved)
    forged["key"]["shapes"] = GEMM
    honest = dict(forged["results"][0], schedule=PROVED, median_ms=2.0)
    for rows in ([forged["results"][0], honest], [forged["results"][0]]):
        results.write_text(json.dumps(dict(forged, results=rows)))
        status, out, err = tilec("tune", "--import", results)
        assert status == 0 and f"fastest proved: {PROVED}" in out, out + err
        assert f"{REFUTED}: not recorded: the results give its tile module the sha256 {proved[:16]}" in err, err
        assert TuningDB(db).best(forged["key"]["spec_text"], GEMM, "sm_80")["schedule"] == PROVED
    status, out, err = tilec("compile", EXAMPLES / "gemm.ta", "--shape", "M=128,N=128,K=64", "--target", "sm_80",
                             "--emit", "tile")
    assert status == 0 and f"schedule {PROVED}: from the tuning database" in err, err


def test_a_verdict_counts_only_for_what_it_proves(tmp_path, monkeypatch):
    """A verdict is on a tile module as the kernel of one spec at some shapes for one target,
    reached by one build of tilec (another may build a schedule into another module, or judge
    one differently): a candidate of another spec, shapes or target whose module hashes the
    same, or another build, does not have it."""
    import tilec.tune.db

    db, shapes = TuningDB(tmp_path / "t.sqlite"), {"M": 64}
    for spec, at, target in (("spec", shapes, "sm_80"), ("other", shapes, "sm_80"), ("spec", {"M": 65}, "sm_80"),
                             ("spec", shapes, "sm_90a")):
        db.add(spec, at, target, "G", [{"schedule": "a", "median_ms": 1.0}], "d")
        db.record_built(spec, at, target, "G", "a", "ha")
    db.add_proof("spec", shapes, "sm_80", "ha", True, "proved", "d")
    assert db.best("spec", shapes, "sm_80")["schedule"] == "a" and db.proof("spec", shapes, "sm_80", "ha")["passed"]
    assert db.best("other", shapes, "sm_80") is None and db.best("spec", {"M": 65}, "sm_80") is None
    assert db.best("spec", shapes, "sm_90a") is None and db.proof("spec", shapes, "sm_90a", "ha") is None
    monkeypatch.setattr(tilec.tune.db, "build_id", lambda: "0.1.0+another")  # as another tilec build reads it
    assert db.best("spec", shapes, "sm_80") is None and db.proof("spec", shapes, "sm_80", "ha") is None
    assert db.rows("spec", shapes, "sm_80")[0]["tile_sha256"] is None


def test_an_older_database_keeps_its_measurements_and_drops_the_hashes_results_files_gave(tmp_path):
    """A database written before the hash was recomputed holds the hashes results files gave,
    and verdicts by them: the measurements stay, the hashes go, and none of it wins."""
    from tilec import __version__
    from tilec.tune.db import shapes_key, spec_key

    path = _sqlite(tmp_path / "old.sqlite", OLD_MEASUREMENT, "ALTER TABLE measurement ADD COLUMN tile_sha256 TEXT",
                   OLD_PROOF,
                   f"INSERT INTO measurement VALUES ('{spec_key('spec')}', '{shapes_key({'M': 64})}', 'sm_80', 'G', "
                   f"'{__version__}', 'a', 1.0, 0.0, NULL, 'd', 'h')",
                   "INSERT INTO proof VALUES ('h', 1, 'proved', 'd')")
    db = TuningDB(path)
    assert db.best("spec", {"M": 64}, "sm_80") is None and db.proof("spec", {"M": 64}, "sm_80", "h") is None
    with sqlite3.connect(path) as raw:  # its verdicts, by the tile hash alone and of no known build, are gone
        assert {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == \
            {"measurement", "verdict"}
    assert [(r["schedule"], r["tile_sha256"]) for r in db.rows("spec", {"M": 64}, "sm_80")] == [("a", None)]
