"""The pipelined main loop of any tile program (GEMM's K tiles, attention's key blocks, a
resident tile copied once before the loop), read from its events (symbolic.py):

pipeline   iteration kt waits until the commit group holding what it reads has completed,
           and reads the stage that tile was copied to
races      a barrier separates the wait from the shared-memory reads; no copy issued after
           tile kt's overwrites its stage before it is read; no thread copies into a stage
           another thread may still be reading

The prologue (``tile.prologue``) and the loop's ``tile.stages`` say where the copies go;
proved for every iteration kt and every shape.
"""

from __future__ import annotations

import z3

from .solver import Outcome, prove
from .symbolic import Program


def _loop_events(p: Program, loop: str) -> list:
    return [e for e in p.events if e.loop == loop]


def _groups_before(p: Program, index: int, P, commits_per_pro: int):
    """How many commit groups were issued before straight-line event ``index``: the straight-line
    commits before it, and the prologue's P * commits_per_pro when the prologue comes before it."""
    before = p.events[:index]
    straight = sum(1 for e in before if e.loop == "" and e.kind == "commit")
    return straight + (P * commits_per_pro if any(e.loop == "prologue" for e in before) else 0)


def check_staging(p: Program) -> list[tuple[str, str, Outcome]]:
    """Stage/group/barrier discipline of the main loop; see the module docstring."""
    kt, lb, nk, _ = p.loops["main"]
    s_iv, _, P, _ = p.loops["prologue"]
    body = _loop_events(p, "main")
    kinds = [e.kind for e in body]
    out = []
    reads = [e for e in body if e.kind == "read"]
    copies_main = [e for e in body if e.kind == "copy"]
    copies_pro = [e for e in _loop_events(p, "prologue") if e.kind == "copy"]
    waits = [i for i, e in enumerate(body) if e.kind == "wait"]
    first_read = kinds.index("read") if reads else len(kinds)
    first_copy = kinds.index("copy") if copies_main else len(kinds)
    commits_before_read = kinds[:first_read].count("commit")
    commits_per_iter = kinds.count("commit")
    pro_kinds = [e.kind for e in _loop_events(p, "prologue")]
    commits_per_pro = pro_kinds.count("commit")
    first_main = next((k for k, e in enumerate(p.events) if e.loop == "main"), len(p.events))
    first_pro = next((k for k, e in enumerate(p.events) if e.loop == "prologue"), first_main)
    pre = sum(1 for e in p.events[:first_main] if e.loop == "" and e.kind == "commit")
    base = p.assumptions + [kt >= lb, kt < nk]
    # 1. the group holding tile kt has completed when iteration kt reads it; groups are counted as
    # they are issued: a straight-line commit after the prologue comes after its P groups
    wait_before = [i for i in waits if i < first_read]
    pending = body[wait_before[-1]].data["pending"] if wait_before else None
    # iteration kt is the loop's (kt - lb)-th (a loop may start past its first tile: a causal
    # block skip); tile n is the prologue's s = n - lb while n - lb < P, else iteration n - P's copy
    n = kt - lb
    committed = pre + P * commits_per_pro + n * commits_per_iter + commits_before_read
    group_of_tile = z3.If(n < P, _groups_before(p, first_pro, P, commits_per_pro) + n * commits_per_pro,
                          pre + P * commits_per_pro + (n - P) * commits_per_iter)
    if pending is None:
        outcome = prove(z3.BoolVal(False), base, watch={"kt": kt, **p.params})
        outcome.detail = "no tile.wait_group before the shared-memory reads of the loop"
    else:
        outcome = prove(group_of_tile < committed - pending, base, watch={"kt": kt, "P": P, **p.params})
    out.append(("pipeline", "iteration kt waits until the copy of tile kt has landed", outcome))
    # 2. a barrier lies between the wait and the reads (other threads' copies become visible)
    has_barrier = any(body[i].kind == "barrier" for i in range(wait_before[-1] if wait_before else 0, first_read))
    outcome = prove(z3.BoolVal(has_barrier), base, watch={"kt": kt})
    if not has_barrier:
        outcome.detail = "no tile.barrier between the wait and the reads: other threads' copies may not be visible"
    out.append(("races", "a barrier separates the wait from the shared-memory reads", outcome))
    # 3. reads see tile kt's stage, and no newer copy has been issued into it
    for read in reads:
        buf = read.data["buffer"]
        pro = [e for e in copies_pro if e.data["dst"] == buf]
        main = [e for e in copies_main if e.data["dst"] == buf]
        once = [k for k, e in enumerate(p.events[:first_main]) if e.kind == "copy" and e.data["dst"] == buf]
        if once and not pro and not main:  # filled once before the loop (a resident tile)
            group = _groups_before(p, once[-1], P, commits_per_pro)
            ok = pending is not None and prove(group < committed - pending, base).verdict == "proved"
            out.append(("pipeline", f"{p.events[once[-1]].data['src']} tile: its copy has landed before it is read",
                        Outcome("proved" if ok else "counterexample", 0.0, {} if ok else {"kt": 0},
                                "" if ok else "the copy's group may still be pending at the first read")))
            continue
        if not pro or not main:
            out.append(("pipeline", "every stage read was filled by a copy",
                        Outcome("counterexample", 0.0, {}, "a shared buffer is read but never copied into")))
            continue
        stage_of = lambda n: z3.If(n - lb < P, z3.substitute(pro[0].data["stage"], (s_iv, n - lb)),
                                   z3.substitute(main[0].data["stage"], (kt, n - P)))
        tag = f"{pro[0].data['src']} tile"
        outcome = prove(stage_of(kt) == read.data["stage"], base, watch={"kt": kt, "read stage": read.data["stage"]})
        out.append(("pipeline", f"{tag}: iteration kt reads the stage tile kt was copied to", outcome))
        n2 = z3.Int("n''")
        issued = P + kt + (1 if first_copy < first_read else 0)
        outcome = prove(stage_of(n2) != read.data["stage"], base + [n2 > kt, n2 < issued],
                        watch={"kt": kt, "newer copy": n2})
        out.append(("races", f"{tag}: no copy issued after tile kt's overwrites its stage before it is read",
                    outcome))
        # the copy of this iteration writes while other threads may still read: it must target another
        # stage than this iteration's read, and than the previous iteration's unless a barrier separates them
        write_stage = main[0].data["stage"]
        barrier_between = any(e.kind == "barrier" for e in body[first_read:first_copy]) if first_copy > first_read \
            else False
        wrap_barrier = any(e.kind == "barrier" for e in body[:first_copy]) or \
            any(e.kind == "barrier" for e in body[first_read:])
        claims = []
        if not barrier_between:
            claims.append(write_stage != read.data["stage"])
        if not wrap_barrier:
            claims.append(z3.Implies(kt >= lb + 1, write_stage != z3.substitute(read.data["stage"], (kt, kt - 1))))
        outcome = prove(z3.And(*claims) if claims else z3.BoolVal(True), base,
                        watch={"kt": kt, "written stage": write_stage, "read stage": read.data["stage"]})
        out.append(("races", f"{tag}: no thread copies into a stage another thread may still be reading", outcome))
    return out
