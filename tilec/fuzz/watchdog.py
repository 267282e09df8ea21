"""Run cases in a worker process under a time limit: a hang or a dead worker is a finding.

    with Watchdog(timeout=60) as dog:
        result = dog.run(case, ("ta", "loop"))   # as run_case, or a "hang" / "died" finding

The worker is started once (spawned: no state shared with the caller) and reused; it reports
each stage as it starts, so a case that runs past its limit is charged to the stage it was in,
and the worker is killed and started afresh. ``timeout=0`` runs in this process, unguarded
(what tests that patch a stage need).

The limit is the worker's CPU time, not the wall clock: on a loaded machine a case gets less
of a core, and a slow case is not a hang (three cases replayed correctly in 42 s of a 60 s wall
limit while other jobs shared the cores). A worker that stops using the CPU without finishing
(a deadlock, a sleep) is caught by a wall-clock guard ``WALL_FACTOR`` times the limit.
"""

from __future__ import annotations

import multiprocessing
import os
import time

from .known import known_bug
from .runner import run_case, warm

STARTUP_S = 300   # how long a fresh worker may take to import torch and MLIR
WALL_FACTOR = 10  # the wall-clock guard against a worker that waits without computing, in limits
POLL_S = 0.5      # how often the worker's CPU time is read


def _serve(conn, execute) -> None:
    """The worker's loop: (case, stages) in, progress and the result out (after a "ready" once
    the compiler is imported, so that no case is charged for the imports)."""
    warm()
    conn.send(("ready",))
    while True:
        try:
            case, stages = conn.recv()
        except EOFError:
            return
        try:
            result = execute(case, stages, lambda stage, done: conn.send(("stage", stage, done)))
        except Exception as err:  # a bug of the fuzzer itself, reported as such
            result = {"outcomes": {}, "findings": [{"stage": "fuzzer", "kind": "fuzzer-error", "known": "",
                                                    "message": f"{type(err).__name__}: {err}"}]}
        conn.send(("done", result))


class Watchdog:
    """A worker process that runs ``execute`` (default run_case; a picklable function) on cases.

        with Watchdog(timeout=30) as dog: dog.run(case, ("ta", "loop"))
    """

    def __init__(self, timeout: float = 60.0, execute=run_case, wall: float | None = None):
        self.timeout, self.execute = timeout, execute
        self.wall = WALL_FACTOR * timeout if wall is None else wall
        self.process = None
        self.conn = None
        self.restarts = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, self.execute), daemon=True,
                                   name="tilec-fuzz-worker")
        self.process.start()
        child.close()
        if not self.conn.poll(STARTUP_S) or self.conn.recv() != ("ready",):
            raise RuntimeError(f"the fuzzing worker did not start within {STARTUP_S} s")

    def close(self) -> None:
        """Stop the worker (it exits when its pipe closes; killed if it does not): dog.close()."""
        if self.process is None:
            return
        self.conn.close()
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.process = None

    def _kill(self) -> None:
        self.process.kill()
        self.process.join()
        self.conn.close()
        self.process = None
        self.restarts += 1

    def run(self, case, stages) -> dict:
        """The result of ``execute(case, stages)``, or a finding if it hangs or the worker dies.

            dog.run(case, ("loop",))["findings"]   # [{"kind": "loop-hang", ...}] after timeout seconds
        """
        if not self.timeout:
            return self.execute(case, stages)
        if self.process is None:
            self._start()
        self.conn.send((case, stages))
        stage, done = "reference", {}
        cpu0, start = _cpu_seconds(self.process.pid), time.monotonic()
        while True:
            try:
                message = self.conn.recv() if self.conn.poll(POLL_S) else None
            except (EOFError, OSError):
                code = self.process.exitcode if self.process else None
                self._kill()
                return _lost(case, stages, stage, done, "crash",
                             f"the worker died (exit code {code}) in stage {stage}", f"{stage}-died")
            if message is None:
                cpu, wall = _cpu_seconds(self.process.pid) - cpu0, time.monotonic() - start
                if cpu <= self.timeout and wall <= self.wall:
                    continue
                self._kill()
                why = (f"no result after {cpu:.0f} s of CPU time (the limit is {self.timeout:g} s)" if cpu > self.timeout
                       else f"no result after {wall:.0f} s with {cpu:.1f} s of CPU time (waiting, not computing)")
                return _lost(case, stages, stage, done, "timeout", f"{why} in stage {stage}", f"{stage}-hang")
            if message[0] == "stage":
                stage, done = message[1], message[2]
                continue
            return message[1]


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system, every thread) process ``pid`` has used, from /proc/PID/stat."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _lost(case, stages, stage: str, done: dict, status: str, message: str, kind: str) -> dict:
    """The result of a case whose worker hung or died in ``stage`` (``done``: the outcomes before)."""
    if stage == "reference":
        stage, kind = "fuzzer", kind.replace("reference", "fuzzer")
    outcomes = {s: done.get(s, {"status": "skipped", "message": f"after the {status} in {stage}"}) for s in stages}
    outcomes[stage] = {"status": status, "message": message}
    return {"outcomes": outcomes, "findings": [{"stage": stage, "kind": kind, "message": message,
                                                "known": known_bug(case, stage)}]}
