"""The tuning database: measured schedules of a kernel, kept in SQLite.

A record is keyed by what makes a measurement valid elsewhere: the spec's hash, the shapes
it was compiled for, the target, the GPU it ran on and the tilec version. It holds every
measured candidate (schedule, median milliseconds, the spread of the repeats), so the best one
and how sure it is can be read back; and the verdicts of `tilec verify`, each keyed by what it
proves (the tile module's sha256, the spec, the shapes, the target, the tilec build), so a
module is proved once. Only a proved candidate is ever returned as the best, and what links a
candidate to a verdict is never taken from a results file: it is the hash of the tile module
this tilec built from the candidate's schedule (``record_built``, by prove.py); a hash or a
verdict counts only for the tilec build that computed it (its build id: a changed compiler
may build or judge a schedule differently). Writers from several processes are safe: SQLite's
own locking, each import one transaction, with a busy timeout; a database of an earlier tilec
is brought up to date in one transaction that takes the write lock before it looks. A file
that is not a tuning database (not SQLite, another program's tables, a table of another shape)
is one error that names it, and is left as it was.

Default file: ``$TILEC_TUNING_DB``, else ``~/.cache/tilec/tuning.sqlite``.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

from tilec import __version__
from tilec.diagnostics import TilecError
from tilec.build_id import build_id
from .results import read_results

# each table's columns in order; a database of an earlier tilec has a prefix of them (at least
# the ``FIRST``) and gains the rest when it is opened
TABLES = {
    "measurement": ["spec_sha256", "shapes", "target", "gpu", "version", "schedule", "median_ms", "spread",
                    "predicted_ms", "measured_at", "tile_sha256", "built_by"],
    "verdict": ["tile_sha256", "spec_sha256", "shapes", "target", "built_by", "passed", "summary", "checked_at"],
}
FIRST = {"measurement": 10, "verdict": 8}
# an earlier tilec's verdicts, by the tile module's hash alone and by no known build: dropped
OBSOLETE = {"proof": ["tile_sha256", "passed", "summary", "checked_at"]}
CREATE = {"measurement": """
CREATE TABLE measurement (
    spec_sha256 TEXT NOT NULL, shapes TEXT NOT NULL, target TEXT NOT NULL, gpu TEXT NOT NULL,
    version TEXT NOT NULL, schedule TEXT NOT NULL, median_ms REAL NOT NULL, spread REAL NOT NULL,
    predicted_ms REAL, measured_at TEXT NOT NULL, tile_sha256 TEXT, built_by TEXT,
    PRIMARY KEY (spec_sha256, shapes, target, gpu, version, schedule)
)""", "verdict": """
CREATE TABLE verdict (
    tile_sha256 TEXT NOT NULL, spec_sha256 TEXT NOT NULL, shapes TEXT NOT NULL, target TEXT NOT NULL,
    built_by TEXT NOT NULL, passed INTEGER NOT NULL, summary TEXT NOT NULL, checked_at TEXT NOT NULL,
    PRIMARY KEY (tile_sha256, spec_sha256, shapes, target, built_by)
)"""}


def _tables(db) -> dict:
    """{table: [its columns, in order]} of the database, SQLite's own tables left out."""
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                      "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {n: [r[0] for r in db.execute("SELECT name FROM pragma_table_info(?)", (n,))] for n in names}


def _bring_up_to_date(db, path: Path) -> None:
    """Create the tables that are missing and add the columns an earlier tilec's tables lack,
    inside the caller's write transaction: of several processes opening one database at once,
    the first does it and the others find it done (checked and altered apart, two would add
    the same column). A database with tables of its own is someone else's: refused, unchanged."""
    tables = _tables(db)
    for name, columns in OBSOLETE.items():
        if tables.get(name) == columns:
            db.execute(f"DROP TABLE {name}")
            del tables[name]
    foreign = sorted(set(tables) - set(TABLES))
    if foreign:
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise TilecError(f"'{path}' is not a tuning database: it holds other tables ({shown})")
    for name, columns in TABLES.items():
        have = tables.get(name)
        if have is None:
            db.execute(CREATE[name])
            continue
        if len(have) < FIRST[name] or have != columns[:len(have)]:
            raise TilecError(f"'{path}' is not a tuning database this tilec reads: its table {name} has the columns "
                             f"{', '.join(have)[:200]}, not {', '.join(columns)}")
        for column in columns[len(have):]:
            db.execute(f"ALTER TABLE {name} ADD COLUMN {column} TEXT")
        if name == "measurement" and "built_by" not in have:  # its hashes are results files' word: dropped
            db.execute("UPDATE measurement SET tile_sha256 = NULL")


def _check_path(path: Path) -> None:
    """Refuse a database path that is not a regular file (SQLite would wait on a FIFO), and
    create the folder of a new one."""
    if path.exists() and not path.is_file():
        raise TilecError(f"the tuning database '{path}' is not a regular file")
    existing = next((p for p in path.parents if p.exists()), Path("."))
    if not existing.is_dir():
        raise TilecError(f"cannot create the tuning database '{path}': '{existing}' is not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise TilecError(f"cannot create the tuning database '{path}': {err.strerror or err}") from None


def default_path() -> Path:
    return Path(os.environ.get("TILEC_TUNING_DB", Path.home() / ".cache" / "tilec" / "tuning.sqlite"))


def spec_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def shapes_key(shapes: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(shapes.items()))


class TuningDB:
    """The tuning database at ``path`` (default_path()), created or brought up to date on opening.

        db = TuningDB("t.sqlite")
        db.best(spec_text, {"M": 4096}, "sm_90a")    # {"schedule": ..., "median_ms": ...} or None
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path else default_path()
        _check_path(self.path)
        with self._session() as db:
            current = _tables(db) == TABLES
        if not current:
            with self._session(write=True) as db:  # the check again, under the write lock
                _bring_up_to_date(db, self.path)

    @classmethod
    def existing(cls, path: str | Path | None = None) -> "TuningDB | None":
        """The database at ``path`` (default_path()) if there is one; None, creating nothing, if not."""
        path = Path(path) if path else default_path()
        return cls(path) if path.is_file() else None

    @contextmanager
    def _session(self, write: bool = False):
        """A connection, closed after use; ``write``: one transaction that takes the write lock
        first (BEGIN IMMEDIATE), committed at the end, rolled back on an error."""
        try:
            db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as err:
            raise TilecError(f"cannot open the tuning database '{self.path}': {err}") from None
        try:
            if write:
                db.execute("BEGIN IMMEDIATE")
            yield db
            if write:
                db.execute("COMMIT")
        except sqlite3.DatabaseError as err:  # a file that is not SQLite, or a damaged one
            raise TilecError(f"'{self.path}' is not a tuning database that can be read: {err}") from None
        except sqlite3.Error as err:
            raise TilecError(f"the tuning database '{self.path}': {err}") from None
        finally:
            db.close()  # an open transaction is rolled back

    def add(self, spec_text: str, shapes: dict, target: str, gpu: str, rows: list[dict], when: str) -> int:
        """Record measured candidates (dicts: schedule, median_ms, spread, predicted_ms); one
        transaction. A candidate measured again replaces its earlier record, and has no tile
        hash until record_built gives it one (a row's own tile_sha256 is not taken)."""
        key = (spec_key(spec_text), shapes_key(shapes), target, gpu, __version__)
        with self._session(write=True) as db:
            db.executemany("INSERT OR REPLACE INTO measurement (spec_sha256, shapes, target, gpu, version, schedule, "
                           "median_ms, spread, predicted_ms, measured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [key + (r["schedule"], float(r["median_ms"]), float(r.get("spread") or 0.0),
                                   r.get("predicted_ms"), when) for r in rows])
        return len(rows)

    def record_built(self, spec_text: str, shapes: dict, target: str, gpu: str, schedule: str, digest: str) -> None:
        """Give a measured candidate the sha256 of the tile module this tilec built from its
        schedule (jobs.tile_hash): the hash its proof is looked up by."""
        with self._session(write=True) as db:
            db.execute("UPDATE measurement SET tile_sha256 = ?, built_by = ? WHERE spec_sha256 = ? AND shapes = ? "
                       "AND target = ? AND gpu = ? AND version = ? AND schedule = ?",
                       (digest, build_id(), spec_key(spec_text), shapes_key(shapes), target, gpu, __version__,
                        schedule))

    def best(self, spec_text: str, shapes: dict, target: str, gpu: str | None = None) -> dict | None:
        """The fastest measured schedule for this spec, shapes and target (on ``gpu``, or any),
        at this tilec version, whose tile module, as this tilec build builds it, this build
        proved (tilec tune --import proves the winner); None without one."""
        query = ("SELECT m.schedule, m.median_ms, m.spread, m.gpu FROM measurement m JOIN verdict v "
                 "USING (tile_sha256, spec_sha256, shapes, target, built_by) "
                 "WHERE m.spec_sha256 = ? AND m.shapes = ? AND m.target = ? AND m.version = ? AND m.built_by = ? "
                 "AND v.passed = 1" + (" AND m.gpu = ?" if gpu else "") + " ORDER BY m.median_ms LIMIT 1")
        args = [spec_key(spec_text), shapes_key(shapes), target, __version__, build_id()] + ([gpu] if gpu else [])
        with self._session() as db:
            row = db.execute(query, args).fetchone()
        return None if row is None else {"schedule": row[0], "median_ms": row[1], "spread": row[2], "gpu": row[3]}

    def rows(self, spec_text: str, shapes: dict, target: str) -> list[dict]:
        """Every measured candidate of this spec, shapes and target, fastest first; its
        tile_sha256 the one this tilec build recorded (record_built), else None."""
        with self._session() as db:
            found = db.execute("SELECT schedule, median_ms, spread, predicted_ms, gpu, "
                               "CASE WHEN built_by = ? THEN tile_sha256 END FROM measurement "
                               "WHERE spec_sha256 = ? AND shapes = ? AND target = ? AND version = ? ORDER BY median_ms",
                               (build_id(), spec_key(spec_text), shapes_key(shapes), target, __version__)).fetchall()
        return [dict(zip(("schedule", "median_ms", "spread", "predicted_ms", "gpu", "tile_sha256"), r)) for r in found]

    def proof(self, spec_text: str, shapes: dict, target: str, tile_sha256: str) -> dict | None:
        """This tilec build's verdict on the tile module of this hash as the kernel of this spec
        at these shapes for this target (proved, and its summary), or None."""
        with self._session() as db:
            row = db.execute("SELECT passed, summary FROM verdict WHERE tile_sha256 = ? AND spec_sha256 = ? "
                             "AND shapes = ? AND target = ? AND built_by = ?",
                             (tile_sha256, spec_key(spec_text), shapes_key(shapes), target, build_id())).fetchone()
        return None if row is None else {"passed": bool(row[0]), "summary": row[1]}

    def add_proof(self, spec_text: str, shapes: dict, target: str, tile_sha256: str, passed: bool, summary: str,
                  when: str) -> None:
        """Keep this tilec build's verdict on the tile module of this hash, verified as the
        kernel of this spec at these shapes for this target: what it proves."""
        with self._session(write=True) as db:
            db.execute("INSERT OR REPLACE INTO verdict VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (tile_sha256, spec_key(spec_text), shapes_key(shapes), target, build_id(), int(passed),
                        summary, when))


def tuned(text: str, shapes: dict, target: str) -> dict | None:
    """The fastest proved record for this source text (a spec, or a graph's ta IR), shapes and
    target in the default database, or None: none recorded, no database (none is created),
    or one that cannot be read (a note on stderr says so; the caller keeps its default)."""
    try:
        db = TuningDB.existing()
        return db.best(text, shapes, target) if db else None
    except TilecError as err:
        print(f"note: {err.message}; using the default schedule", file=sys.stderr)
        return None
    except OSError as err:
        print(f"note: the tuning database could not be read ({err}); using the default schedule", file=sys.stderr)
        return None


def import_results(path: str, db: TuningDB) -> tuple[int, dict, dict]:
    """Fill ``db`` from a results file of ``tilec.runtime.measure`` (its candidates.json's key
    carried through), checked first (results.read_results); returns add_results's."""
    return add_results(read_results(path), db)


def add_results(data: dict, db: TuningDB) -> tuple[int, dict, dict]:
    """Fill ``db`` from what ``tilec.runtime.measure`` returned; returns (rows added, the key,
    {(gpu, schedule): the tile hash the results give it}): what was measured, by its word,
    for prove.prove_winner to hold the hash it builds against; the database keeps none of it."""
    key = data["key"]
    rows = [r for r in data["results"] if r.get("median_ms") is not None]
    claimed = {(data["gpu"], r["schedule"]): r.get("tile_sha256") for r in rows}
    return db.add(key["spec_text"], key["shapes"], key["target"], data["gpu"], rows, data["date"]), key, claimed
