"""A consumer loop that reads a stage some iterations after waiting for it, with its first
key blocks peeled off before the loop (attention's rotated loop, softmax_overlap).

Block u is the ring's iteration u: the producer copies it into stage s(u), phase u div S. A
consumer loop over blocks [k, n) may be preceded by the first k blocks' waits and reads
(``peeled``), and an iteration t may read block t - r (a read r iterations late). For every
iteration and trip count:

read lag    each read of the loop at iteration t is of stage s(t - r), for one r <= k: a block
            the consumers waited for at iteration t - r (or before the loop, when t - r < k);
            and r <= d, the release lag, so the block is not yet released (the release of the
            same iteration, r = d, comes after the read retired: releases.retired)
peeled      the waits before the loop are blocks 0..k-1 in order: full[s(u)] at phase u div S;
            each read before the loop is of a block waited for before it, by a multiply that
            has finished when the loop starts; nothing before the loop releases a stage (the
            loop's first d iterations release them)
after       each read after the loop is of a block n - j, 1 <= j <= d: not yet released (the
            tail releases come after it)

The ring's other rows (hopper.check_ring) then hold of the blocks as they hold of iterations.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.verify.solver import Outcome, prove, structural

TRUE = z3.BoolVal(True)


def read_lag(read, at, stage_of, stages: int, t, first) -> int | None:
    """The r < stages for which the loop's ``read`` (an event of iteration t) is of the stage of
    block t - r for every t >= ``first`` (the loop's first iteration); None when there is none."""
    for r in range(stages):
        if prove(at(read, read.data["stage"], t) == stage_of(t - r), [t >= first]).verdict == "proved":
            return r
    return None


def resident(event) -> bool:
    """A read of a one-stage shared tile: copied once before the loops, not part of the ring."""
    return event.kind == "read" and ir.MemRefType(event.data["buffer"].type).shape[0] == 1


def peeled_events(p, full) -> list:
    """The consumers' events of the ring before their loop: waits on ``full``, reads of ring
    stages, releases, and the multiplies and wgmma waits (every event of the consumer role
    before the loop's first that is not the resident tile's)."""
    start = next(i for i, e in enumerate(p.events) if e.loop == "main")
    # an mma event names no role: only the consumers multiply
    return [e for e in p.events[:start] if e.data.get("role", "consumer") == "consumer" and e.loop == ""
            and not resident(e)
            and (e.kind in ("read", "arrive", "mma", "mma_wait") or (e.kind == "wait" and e.data["bar"] == full))]


def check_peeled(peeled: list, stage_of, stages: int, assumptions) -> tuple[int, list[tuple[str, Outcome]]]:
    """(k, rows): the blocks waited for before the loop, and the peeled rows (module docstring)."""
    waits = [e for e in peeled if e.kind == "wait"]
    if not peeled:
        return 0, []
    k = len(waits)
    rows = []
    claims = []
    for u, wait in enumerate(waits):
        claims += [wait.data["stage"] == stage_of(z3.IntVal(u)), wait.data["parity"] == (u // stages) % 2]
    rows.append((f"the {k} wait(s) before the loop are blocks 0..{k - 1} in order: full[s(u)] at phase u div {stages}",
                 prove(z3.And(*claims), assumptions)))
    ok, why = True, ""
    for e in peeled:
        if e.kind == "arrive":
            ok, why = False, "a stage is released before the loop"
            break
        if e.kind == "mma" and e.data.get("async") and not any(
                w.kind == "mma_wait" and w.data["pending"] == 0 for w in peeled[peeled.index(e):]):
            ok, why = False, "a multiply before the loop is still in flight when the loop starts"
            break
        if e.kind != "read":
            continue
        waited = peeled[:peeled.index(e)]
        blocks = [u for u, w in enumerate(waits) if w in waited]
        match = z3.Or(*[e.data["stage"] == stage_of(z3.IntVal(u)) for u in blocks]) if blocks else z3.BoolVal(False)
        if prove(match, assumptions).verdict != "proved":
            ok, why = False, "a read before the loop is of a stage it did not wait for"
            break
    rows.append(("each read before the loop is of a block waited for before it, and done before the loop; none "
                 "releases a stage", structural(ok, why)))
    return k, rows


def check_after(after_reads: list, lag: int, stage_of, n_blocks, tail: list, events: list,
                assumptions) -> list[tuple[str, Outcome]]:
    """Each read after the loop is of block n - j, 1 <= j <= lag (and there are lag blocks),
    before the tail releases."""
    if not after_reads:
        return []
    rows = []
    releases = [events.index(release) for release, _ in tail]
    for read in after_reads:
        blocks = z3.Or(*[read.data["stage"] == stage_of(n_blocks - j) for j in range(1, lag + 1)]) \
            if lag else z3.BoolVal(False)
        before = all(events.index(read) < i for i in releases)
        outcome = prove(z3.And(blocks, z3.BoolVal(before), n_blocks >= lag), assumptions)
        if not before:
            outcome.detail = "a read after the loop comes after a tail release"
        rows.append((f"a read after the loop is of one of the last {lag} block(s), before their release", outcome))
    return rows
