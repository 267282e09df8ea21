"""The tuning database as a thing others write: an older database opened by several processes
at once, files that are not what --import and --db expect, and results files whose rows
claim a proof that is not theirs."""

import sqlite3
import threading

from tilec.tune.db import TuningDB

# the measurement table as it was before proofs were kept
OLD_MEASUREMENT = ("CREATE TABLE measurement (spec_sha256 TEXT, shapes TEXT, target TEXT, gpu TEXT, version TEXT, "
                   "schedule TEXT, median_ms REAL, spread REAL, predicted_ms REAL, measured_at TEXT)")


def _old_database(path):
    with sqlite3.connect(path) as db:
        db.execute(OLD_MEASUREMENT)
        db.execute("INSERT INTO measurement VALUES ('s', 'M=64', 'sm_90a', 'G', 'v', 'a', 1.0, 0.0, NULL, 'd')")
    return path


def test_an_older_database_opened_by_several_at_once_is_brought_up_to_date_once(tmp_path):
    """Eight connections open each of 40 older databases at the same moment; checked and
    altered apart, about one database in six had two of them add the same column."""
    failures = []

    def open_it(path, gate):
        gate.wait()
        try:
            TuningDB(path)
        except Exception as err:  # noqa: BLE001 (any failure is the finding)
            failures.append(f"{path.name}: {err!r}")

    for n in range(40):
        path, gate = _old_database(tmp_path / f"old{n}.sqlite"), threading.Barrier(8)
        threads = [threading.Thread(target=open_it, args=(path, gate)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not failures, failures[:3]
    with sqlite3.connect(tmp_path / "old0.sqlite") as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(measurement)")]
        assert columns.count("tile_sha256") == 1 and db.execute("SELECT count(*) FROM measurement").fetchone() == (1,)
