"""The tile interpreter's warp roles: mbarriers as the hardware counts them, and the producer
and consumer regions of a ``tile.warp_specialize`` run as two threads of control that take
turns, each running until an mbarrier wait it cannot pass.

An mbarrier stage completes its current phase once it has had its ``arrivals`` arrivals and
every transaction byte it expects has landed; the copies that completed those bytes become
visible in shared memory then, not before (a consumer that reads a stage it did not wait
for reads the old data, as on the GPU). ``wait(parity)`` passes while the current phase's
parity differs from ``parity``: a fresh stage (phase 0) lets a wait for parity 1 through.
A wait that no turn of the other role can satisfy is a deadlock, reported as an error.

The producer runs first and as far as it can: a producer that does not wait for a stage's
release overwrites it before the consumers read it.
"""

from __future__ import annotations

import threading

from .diagnostics import TilecError


class Barriers:
    """``stages`` mbarriers of ``arrivals`` arrivals each."""

    def __init__(self, stages: int, arrivals: int):
        self.arrivals = arrivals
        self.phase = [0] * stages         # completed phases
        self.arrived = [0] * stages
        self.expected = [0] * stages      # transaction bytes still to land in the current phase
        self.landing = [[] for _ in range(stages)]

    def passes(self, stage: int, parity: int) -> bool:
        return self.phase[stage] % 2 != parity

    def arrive(self, stage: int, count: int = 1, expect: int = 0) -> None:
        self.arrived[stage] += count
        self.expected[stage] += expect
        if self.arrived[stage] > self.arrivals:
            raise TilecError(f"mbarrier stage {stage} got {self.arrived[stage]} arrivals in one phase; "
                             f"it counts {self.arrivals}")
        self._complete(stage)

    def copy(self, stage: int, nbytes: int, write) -> None:
        """A copy of ``nbytes`` onto ``stage``; ``write()`` puts its data in place at completion."""
        self.expected[stage] -= nbytes
        if self.expected[stage] < 0:
            raise TilecError(f"copies onto mbarrier stage {stage} bring {-self.expected[stage]} bytes more "
                             f"than its phase expects")
        self.landing[stage].append(write)
        self._complete(stage)

    def _complete(self, stage: int) -> None:
        if self.arrived[stage] < self.arrivals or self.expected[stage]:
            return
        for write in self.landing[stage]:
            write()
        self.landing[stage], self.arrived[stage] = [], 0
        self.phase[stage] += 1


class _Role:
    def __init__(self, name: str):
        self.name, self.blocked, self.done, self.error = name, None, False, None


class Roles:
    """Run ``producer()`` and ``consumer()`` (callables running a region) in turns."""

    def __init__(self):
        self.lock = threading.Condition()
        self.turn = None
        self.roles: dict = {}

    def run(self, producer, consumer) -> None:
        roles = {"producer": _Role("producer"), "consumer": _Role("consumer")}
        self.roles = roles
        threads = [threading.Thread(target=self._body, args=(roles[n], f), daemon=True)
                   for n, f in (("producer", producer), ("consumer", consumer))]
        self.turn = "producer"
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        errors = [r.error for r in roles.values() if r.error is not None]
        if errors:
            raise errors[0]

    def current(self) -> str:
        """The role running now."""
        return self.turn

    def wait(self, barriers: Barriers, stage: int, parity: int) -> None:
        """Block the running role until the phase of parity ``parity`` of ``stage`` has completed."""
        me = self.roles[self.turn]
        ready = lambda: barriers.passes(stage, parity)
        while not ready():
            me.blocked = (ready, f"the {me.name} waits for parity {parity} of mbarrier stage {stage}")
            self._hand_over(me)
            with self.lock:
                self.lock.wait_for(lambda: self.turn == me.name)
            if me.error is not None:
                raise me.error
        me.blocked = None

    def let_other_run(self) -> None:
        """Let the other role run, if it can, until it blocks or finishes; then go on."""
        me = self.roles[self.turn]
        other = self._other(me)
        if other.done or other.blocked is not None and not other.blocked[0]():
            return
        self._hand_over(me)
        with self.lock:
            self.lock.wait_for(lambda: self.turn == me.name)
        if me.error is not None:
            raise me.error

    def _other(self, me: _Role) -> _Role:
        return next(r for r in self.roles.values() if r is not me)

    def _hand_over(self, me: _Role) -> None:
        """Give the turn to the other role; a deadlock when neither can go on."""
        other = self._other(me)
        stuck = lambda r: r.done or r.blocked is not None and not r.blocked[0]()
        with self.lock:
            if stuck(me) and stuck(other) and not (me.done and other.done):
                waits = [r.blocked[1] for r in (me, other) if r.blocked is not None]
                finished = [f"the {r.name} has finished" for r in (me, other) if r.done]
                error = TilecError("deadlock: " + "; ".join(waits + finished))
                for r in (me, other):
                    r.error = r.error or error
            self.turn = other.name if not other.done else me.name
            self.lock.notify_all()

    def _body(self, me: _Role, run) -> None:
        with self.lock:
            self.lock.wait_for(lambda: self.turn == me.name)
        try:
            if me.error is None:
                run()
        except Exception as err:  # noqa: BLE001  (re-raised by run() in the calling thread)
            me.error = me.error or err
            other = self._other(me)
            other.error = other.error or err
        me.done, me.blocked = True, None
        self._hand_over(me)
