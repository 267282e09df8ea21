"""The tuning database: measured schedules of a kernel, kept in SQLite.

A record is keyed by what makes a measurement valid elsewhere: the spec's hash, the shapes
it was compiled for, the target, the GPU it ran on and the tilec version. It holds every
measured candidate (schedule, median milliseconds, the spread of the repeats), so the best
one and how sure it is can be read back. Writers from several processes are safe: SQLite's
own locking, each import one transaction, with a busy timeout.

Default file: ``$TILEC_TUNING_DB``, else ``~/.cache/tilec/tuning.sqlite``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from tilec import __version__

SCHEMA = """
CREATE TABLE IF NOT EXISTS measurement (
    spec_sha256 TEXT NOT NULL, shapes TEXT NOT NULL, target TEXT NOT NULL, gpu TEXT NOT NULL,
    version TEXT NOT NULL, schedule TEXT NOT NULL, median_ms REAL NOT NULL, spread REAL NOT NULL,
    predicted_ms REAL, measured_at TEXT NOT NULL,
    PRIMARY KEY (spec_sha256, shapes, target, gpu, version, schedule)
)
"""


def default_path() -> Path:
    return Path(os.environ.get("TILEC_TUNING_DB", Path.home() / ".cache" / "tilec" / "tuning.sqlite"))


def spec_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def shapes_key(shapes: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(shapes.items()))


class TuningDB:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute(SCHEMA)

    def _connect(self):
        return sqlite3.connect(self.path, timeout=30.0, isolation_level="IMMEDIATE")

    def add(self, spec_text: str, shapes: dict, target: str, gpu: str, rows: list[dict], when: str) -> int:
        """Record measured candidates (dicts: schedule, median_ms, spread, predicted_ms); one
        transaction. A candidate measured again replaces its earlier record."""
        key = (spec_key(spec_text), shapes_key(shapes), target, gpu, __version__)
        with self._connect() as db:
            db.executemany("INSERT OR REPLACE INTO measurement VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [key + (r["schedule"], float(r["median_ms"]), float(r.get("spread", 0.0)),
                                   r.get("predicted_ms"), when) for r in rows])
        return len(rows)

    def best(self, spec_text: str, shapes: dict, target: str, gpu: str | None = None) -> dict | None:
        """The fastest measured schedule for this spec, shapes and target (on ``gpu``, or any),
        at this tilec version; None without a record."""
        query = ("SELECT schedule, median_ms, spread, gpu FROM measurement WHERE spec_sha256 = ? AND shapes = ? "
                 "AND target = ? AND version = ?" + (" AND gpu = ?" if gpu else "") + " ORDER BY median_ms LIMIT 1")
        args = [spec_key(spec_text), shapes_key(shapes), target, __version__] + ([gpu] if gpu else [])
        with self._connect() as db:
            row = db.execute(query, args).fetchone()
        return None if row is None else {"schedule": row[0], "median_ms": row[1], "spread": row[2], "gpu": row[3]}

    def rows(self, spec_text: str, shapes: dict, target: str) -> list[dict]:
        with self._connect() as db:
            found = db.execute("SELECT schedule, median_ms, spread, predicted_ms, gpu FROM measurement WHERE "
                               "spec_sha256 = ? AND shapes = ? AND target = ? AND version = ? ORDER BY median_ms",
                               (spec_key(spec_text), shapes_key(shapes), target, __version__)).fetchall()
        return [dict(zip(("schedule", "median_ms", "spread", "predicted_ms", "gpu"), r)) for r in found]


def import_results(path: str, db: TuningDB) -> tuple[int, dict]:
    """Fill ``db`` from a results file of ``tilec.runtime.measure`` (its candidates.json's key
    carried through); returns (rows added, the key)."""
    data = json.loads(Path(path).read_text())
    key = data["key"]
    rows = [r for r in data["results"] if r.get("median_ms") is not None]
    return db.add(key["spec_text"], key["shapes"], key["target"], data["gpu"], rows, data["date"]), key
