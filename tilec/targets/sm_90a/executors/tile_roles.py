"""The tile interpreter's warp roles: mbarriers as the hardware counts them, and the producer
and consumer regions of a ``tile.warp_specialize`` run as threads of control that take
turns, each running until an mbarrier wait it cannot pass (the producer and the consumers;
or the producer and each consumer warpgroup, when each runs the consumer region on its own).

An mbarrier stage completes its current phase once it has had its ``arrivals`` arrivals and
every transaction byte it expects has landed; the copies that completed those bytes become
visible in shared memory then, not before (a consumer that reads a stage it did not wait
for reads the old data, as on the GPU). ``wait(parity)`` passes while the current phase's
parity differs from ``parity``: a fresh stage (phase 0) lets a wait for parity 1 through.
A wait that no turn of another role can satisfy is a deadlock, reported as an error.

The producer runs first and as far as it can: a producer that does not wait for a stage's
release overwrites it before the consumers read it.
"""

from __future__ import annotations

import threading

from tilec.diagnostics import TilecError


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
    """Run ``producer()`` and the consumers (callables running a region) in turns."""

    def __init__(self):
        self.lock = threading.Condition()
        self.turn = None
        self.roles: dict = {}

    def run(self, producer, *consumers) -> None:
        """The producer first; ``consumers``: one callable (role "consumer"), or one per
        warpgroup running the region on its own ("consumer 0", "consumer 1", ...)."""
        named = [("producer", producer)] + ([("consumer", consumers[0])] if len(consumers) == 1 else
                                            [(f"consumer {g}", c) for g, c in enumerate(consumers)])
        roles = {n: _Role(n) for n, _ in named}
        self.roles = roles
        threads = [threading.Thread(target=self._body, args=(roles[n], f), daemon=True) for n, f in named]
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

    def consumer(self) -> bool:
        """Is the running role a consumer (the consumers, or one consumer warpgroup)?"""
        return self.turn.startswith("consumer")

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
        """Let the other roles run, those that can, until they block or finish; then go on."""
        me = self.roles[self.turn]
        if self._next(me) is None:
            return
        self._hand_over(me)
        with self.lock:
            self.lock.wait_for(lambda: self.turn == me.name)
        if me.error is not None:
            raise me.error

    @staticmethod
    def _stuck(r: _Role) -> bool:
        return r.done or r.blocked is not None and not r.blocked[0]()

    def _next(self, me: _Role) -> _Role | None:
        """The first role after ``me`` (in the order they were given) that can go on, if any."""
        order = list(self.roles.values())
        at = order.index(me)
        return next((r for r in order[at + 1:] + order[:at] if not self._stuck(r)), None)

    def _hand_over(self, me: _Role) -> None:
        """Give the turn to the next role that can go on; a deadlock when none can."""
        everyone = list(self.roles.values())
        with self.lock:
            nxt = self._next(me)
            if nxt is None and self._stuck(me) and not all(r.done for r in everyone):
                waits = [r.blocked[1] for r in everyone if r.blocked is not None]
                finished = [f"the {r.name} has finished" for r in everyone if r.done]
                error = TilecError("deadlock: " + "; ".join(waits + finished))
                for r in everyone:
                    r.error = r.error or error
            undone = [r for r in everyone if not r.done]
            if nxt is not None:
                self.turn = nxt.name
            elif me.done and undone:  # deadlocked: the others wake to their error in turn
                self.turn = undone[0].name
            else:
                self.turn = me.name
            self.lock.notify_all()

    def _body(self, me: _Role, run) -> None:
        with self.lock:
            self.lock.wait_for(lambda: self.turn == me.name)
        try:
            if me.error is None:
                run()
        except Exception as err:  # noqa: BLE001  (re-raised by run() in the calling thread)
            for r in self.roles.values():
                r.error = r.error or err
        me.done, me.blocked = True, None
        self._hand_over(me)
