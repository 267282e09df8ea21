"""The consumers' release of a ring stage, and their reads of asynchronous wgmma results.

A consumer iteration t may release the stage of an earlier iteration t - d (a release d
iterations late, under the guard t >= d), so that its multiply can still be in flight
when the iteration ends. For every iteration and trip count:

lag        the release at iteration t is the stage s(t - d) exactly when t >= d (counted from
           the loop's first iteration), for one
           d < S (a later one would wait for itself: the producer's t needs the release of
           t - S, which would come at the consumers' t - S + d >= t)
retired    every wgmma that read that stage has finished when it is released: a synchronous
           one when it returns; an asynchronous one when a wgmma_wait {pending = P} of the
           releasing iteration, before the release, has at least P groups issued after it
           (wgmma groups retire in order, so at most the P latest are then in flight)
tail       the last d iterations' stages are released after the loop, each where the loop
           ran that iteration, after every group retired: each use of a stage is released once
results    an asynchronous wgmma's result (also carried round a loop, and past it) is taken
           only as the accumulator of another asynchronous wgmma until a wait that retires
           its group in the same block: a wgmma_wait {pending = P} with at least P groups
           issued after it there (groups retire in order), or a synchronous wgmma

These are the facts the ring's order and deadlock rows of hopper.py rest on when the
multiply is asynchronous.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.tile import walk_ops

from tilec.verify.solver import prove, structural

TRUE = z3.BoolVal(True)


def release_lag(release, at, stage_of, stages: int, t, first=0) -> int | None:
    """The d < stages for which ``release`` (an event of the consumers' loop, whose iterations
    start at ``first``) releases the stage of iteration t - d exactly when t >= first + d;
    None when there is none."""
    guard = at(release, release.data.get("guard", TRUE), t)
    for d in range(stages):
        due = t >= first + d
        claim = z3.And(guard == due, z3.Implies(due, at(release, release.data["stage"], t) == stage_of(t - d)))
        if prove(claim, [t >= 0, t >= first]).verdict == "proved":
            return d
    return None


def retired(loop_events: list, release, lag: int, read_lags: dict | None = None) -> tuple[bool, str]:
    """Has every wgmma that read the released block's stage finished at ``release``? A read
    of lag r (``read_lags``: id of a read event -> r; 0 where absent) reads block t - r at iteration t,
    so the released block t - lag was read lag - r iterations before the release's."""
    read_lags = read_lags or {}
    reads = [i for i, e in enumerate(loop_events) if e.kind == "read" and ir.MemRefType(e.data["buffer"].type).shape[0] > 1]
    mmas = {e.op: i for i, e in enumerate(loop_events) if e.kind == "mma"}
    at = loop_events.index(release)
    groups = [i for i, e in enumerate(loop_events) if e.kind == "mma" and e.data.get("async")]
    waits = [i for i, e in enumerate(loop_events[:at]) if e.kind == "mma_wait"]
    for i in reads:
        distance = lag - read_lags.get(id(loop_events[i]), 0)  # iterations from the read to the release
        if distance < 0:
            return False, "a stage is read after the iteration that releases it"
        if distance == 0 and i > at:
            return False, "the stage is released before the iteration's last read of it"
        reader = mmas[loop_events[i].op]
        if reader not in groups:
            continue  # a synchronous wgmma has finished when it returns
        if not waits:
            return False, "no wgmma_wait before the release: the asynchronous wgmma may still read the stage"
        wait = waits[-1]
        if distance == 0:
            after = sum(1 for g in groups if reader < g < wait) if reader < wait else -1
        else:
            after = sum(1 for g in groups if g > reader) + (distance - 1) * len(groups) + \
                sum(1 for g in groups if g < wait)
        pending = loop_events[wait].data["pending"]
        if after < pending:
            return False, (f"wgmma_wait {{pending = {pending}}} leaves the group that read the stage in flight "
                           f"({max(after, 0)} group(s) issued after it)")
    return True, ""


def tail_rows(tail: list, lag: int, stage_of, first, nk, assumptions) -> list:
    """(check, Outcome) rows: the releases after the loop (iterations ``first`` to ``nk`` - 1)
    are the last ``lag`` iterations' (a release after the loop that no iteration leaves is a
    counterexample)."""
    check = f"the last {lag} iteration(s)' stages are released after the loop, once every group retired"
    if len(tail) != lag:
        return [(check, structural(False, f"{len(tail)} releases after the loop; the loop leaves {lag} unreleased"))]
    rows = []
    for j, (release, ok) in enumerate(tail):
        u = nk - lag + j
        guard = release.data.get("guard", TRUE)
        claim = z3.And(guard == (u >= first), z3.Implies(u >= first, release.data["stage"] == stage_of(u)))
        outcome = prove(claim, assumptions) if ok else structural(False, "a release after the loop comes before a "
                                                                         "wgmma_wait {pending = 0}")
        rows.append((check, outcome))
    return rows  # a release in its own iteration (lag 0) leaves none for after the loop: no row


def tail_releases(events: list, loop_end: int, empty) -> list:
    """(release, after a wgmma_wait {pending = 0}) for the consumers' releases after their loop."""
    out, drained = [], False
    for e in events[loop_end:]:
        if e.data.get("role") != "consumer":
            continue
        if e.kind == "mma_wait":
            drained = e.data["pending"] == 0
        elif e.kind == "mma":
            drained = drained and not e.data.get("async")
        elif e.kind == "arrive" and e.data["bar"] == empty:
            out.append((e, drained))
    return out


def result_reads(region_block) -> tuple[bool, str]:
    """Is every asynchronous wgmma result of the consumers' region read only as the section says?"""
    for op in walk_ops(region_block):
        if op.operation.name == "tile.wgmma" and "async" in op.attributes:
            ok, why = _read_after_drain(op.result, op.operation)
            if not ok:
                return False, why
    return True, ""


def _drains(op, issued: int) -> bool:
    """Does ``op`` retire a group with ``issued`` groups issued after it (a wgmma_wait
    {pending = P <= issued}, a synchronous wgmma)?"""
    if op.name == "tile.wgmma_wait":
        return ir.IntegerAttr(op.attributes["pending"]).value <= issued
    return op.name == "tile.wgmma" and "async" not in op.attributes


def _read_after_drain(value, after) -> tuple[bool, str]:
    """Walk the ops of ``value``'s block after ``after`` (None: from the start): each read of it
    is the accumulator of an asynchronous wgmma, a yield carrying it round a loop (followed
    into the next iteration and past the loop), or comes after a wait that retires its group
    (groups issued earlier, in an iteration before, are not counted: that only asks more)."""
    block = after.block if after is not None else value.owner
    ops = [o.operation for o in block.operations]
    drained, issued = False, 0
    for op in ops[ops.index(after) + 1 if after is not None else 0:]:
        inside = [op, *_nested(op)]
        uses = [u for u in value.uses if u.owner.operation in inside]
        for use in uses:
            user = use.owner.operation
            if user.name == "tile.wgmma" and "async" in user.attributes and use.operand_number == 3 and user == op:
                continue
            if user.name == "scf.yield" and user.parent.name == "scf.for" and user == op:
                loop = user.parent.operation
                carried = list(loop.regions[0].blocks[0].arguments)[1 + use.operand_number]
                for v, start in ((carried, None), (loop.results[use.operand_number], loop)):
                    ok, why = _read_after_drain(v, start)
                    if not ok:
                        return ok, why
                continue
            if not drained:
                return False, f"'{user.name}' reads an asynchronous wgmma's result before a wgmma_wait retires it"
        issued += any(o.name == "tile.wgmma" and "async" in o.attributes for o in inside)
        drained = drained or _drains(op, issued)
    return True, ""


def _nested(op):
    """The operations nested in ``op``'s regions."""
    for region in op.operation.regions:
        for block in region.blocks:
            for inner in walk_ops(block):
                yield inner.operation
