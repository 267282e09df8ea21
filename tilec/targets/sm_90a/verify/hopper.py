"""The checks of a warp-specialised kernel (tile.warp_specialize): its mbarrier ring and its
shared-memory tiles as the copy engine writes them and wgmma reads them.

The ring, for every iteration t of both roles and any trip count (t symbolic, S stages):

stages     each role uses one stage per iteration, s(t), the same in both roles; s(t) < S,
           s(t + S) = s(t) and s(t + d) != s(t) for 0 < d < S, so iteration t is use
           n = t div S of its stage
order      the producer waits for the stage's release before it expects bytes and copies; the
           consumers wait for the stage before they read it and release it once every wgmma
           that read it has finished, in the same iteration or d < S iterations later
           (releases.py: lag, retired, tail, results); a read r <= d iterations after the wait
           and the first blocks' waits and reads before the loop are peeled.py's
arrivals   each barrier counts the arrivals one iteration brings (the producer thread's once,
           every consumer warp's once)
bytes      the bytes the producer expects on full[s] are the bytes its copies bring there
parity     the consumers wait for phase n of full[s] (parity n mod 2), the producer for phase
           n - 1 of empty[s] (parity (n + 1) mod 2, which a fresh barrier passes)
trips      both roles run the same iterations from 0; or, with consumer warpgroups on their
           own (ping-pong), each warpgroup its share of the tiles, each iteration consumed
           by the one warpgroup owning its tile, the waits on full put in ring order by a
           token (turns.check_ring_turns: a parity names its phase only then)
Then, by induction on t: the consumers' iteration t reads exactly what the producer's
iteration t copied (the copy completes phase n, which the wait names), the producer's
iteration t + S overwrites the stage only after every consumer warp released iteration t,
and no wait is left unsatisfied (iteration t of the consumers needs the producer's t, the
producer's t needs the consumers' t - S).

The tiles, on bit-vectors, with the descriptor fields the emitter prints (layout.wgmma_operand):
the layout is a bijection; box b of the copy engine's mode lands where the layout places its
elements; every element wgmma reads through the descriptor (each warpgroup or 64-row slab,
k16 step, row and k) is the one the layout placed there; 8 rows of one 16-byte column fall in
8 bank groups. The accumulator's register layout puts each register where the PTX D table of
its slab's wgmma does (fragments.wgmma_accumulator_matches_ptx). A wgmma whose A is in
registers (attention's P) gets the PTX fragment tables instead of A's.

A tile copied once before the loops (attention's Q, one stage) is outside the ring: its own
one-stage barrier, its bytes, one wait of the consumers before their first read
(check_resident). The consumer warpgroups' turns, when the schedule has them, are turns.py's.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects import layout as layout_fns
from tilec.dialects.layout import byte_swizzle, tma_boxes, tma_swizzle, wgmma_address
from tilec.dialects.tile import layout_of, register_layout, schedule_of
from tilec.targets.sm_90a.dialects.tile_hopper import wgmma_depth

from tilec.verify import layouts
from tilec.verify.fragments import (accumulator_as_a_matches_ptx, accumulator_matches_ptx, DOMAIN, DOMAIN as FRAGMENTS,
                        wgmma_accumulator_matches_ptx)
from .peeled import check_after, check_peeled, peeled_events, read_lag, resident
from .releases import release_lag, result_reads, retired, tail_releases, tail_rows
from tilec.verify.solver import BV, Outcome, prove, structural as _structural
from tilec.verify.symbolic import Program
from .turns import check_ring_turns, check_turns

RING = "every iteration of both roles, every trip count and shape"
TILES = "every element of the tile, stage, warpgroup and k16 step"


def _arrivals(bar) -> int:
    return ir.IntegerAttr(bar.owner.attributes["arrivals"]).value


def check_ring(p: Program) -> list[tuple[str, str, Outcome, str]]:
    """(property, check, Outcome, domain) rows of the mbarrier ring; see the module docstring."""
    pt, p_lb, p_ub, _ = p.loops["producer"]
    kt, c_lb, c_ub, _ = p.loops["main"]
    prod = [e for e in p.events if e.loop == "producer"]
    cons = [e for e in p.events if e.loop == "main"]
    copies = [e for e in prod if e.kind == "copy"]
    warps = schedule_of(p.fn).warps // p.warpgroups  # the warps of one consumer role arrive on its stages
    rows = []
    add = lambda prop, check, outcome: rows.append((prop, check, outcome, RING))
    full = {e.data["bar"] for e in copies}
    waits_p = [e for e in prod if e.kind == "wait"]
    empty = {e.data["bar"] for e in waits_p}
    if len(full) != 1 or len(empty) != 1 or full == empty:
        add("pipeline", "the copies complete on one barrier array and the producer waits on another",
            _structural(False, f"copies complete on {len(full)} barrier arrays, the producer waits on {len(empty)}"))
        return rows
    full, empty = next(iter(full)), next(iter(empty))
    stages = ir.MemRefType(full.type).shape[0]
    # -- stages: one per iteration, shared by both roles, a ring of S -------------------------
    t = z3.Int("t")
    at_expr = lambda e, expr, x: z3.substitute(expr, (pt if e.loop == "producer" else kt, x))
    at = lambda e, x: at_expr(e, e.data["stage"], x)
    releases = [e for e in cons if e.kind == "arrive" and e.data["bar"] == empty]
    # a consumer read may be of a block waited for iterations before (peeled.py): its own rows
    ring_ops = [e for e in prod + cons if "stage" in e.data and e.kind not in ("mma", "read") and not resident(e)
                and e not in releases]
    stage_of = lambda x: at(ring_ops[0], x)  # s(x): the ring's stage of iteration x
    s0 = stage_of(t)
    same = z3.And(*[at(e, t) == s0 for e in ring_ops])
    ring = z3.And(s0 >= 0, s0 < stages, stage_of(t + stages) == s0,
                  *[stage_of(t + d) != s0 for d in range(1, stages)])
    # iteration t counts on from 0 over the CTA's tiles (persistent: check_tile_loops)
    from_lb = [t >= 0, t >= c_lb]
    add("pipeline", f"every op of iteration t of both roles uses stage s(t), and s is a ring of {stages}",
        prove(z3.And(same, ring), from_lb, watch={"t": t, "s(t)": s0}))
    # the first k blocks' waits and reads before the consumers' loop (a rotated loop)
    peeled, peeled_rows = check_peeled(peeled_events(p, full), stage_of, stages, p.assumptions)
    for check, outcome in peeled_rows:
        add("pipeline", check, outcome)
    first = c_lb - peeled  # the consumers' first block
    reads_c = [e for e in cons if e.kind == "read" and not resident(e)]
    lags = {id(e): read_lag(e, at_expr, stage_of, stages, t, c_lb) for e in reads_c}
    # -- order within each role ----------------------------------------------------------------
    kinds_p = [(e.kind, e.data.get("bar")) for e in prod]
    first_fill = min(i for i, (k, b) in enumerate(kinds_p) if k == "copy" or (k == "expect" and b == full))
    ok = kinds_p and kinds_p[0] == ("wait", empty) and all(k != "wait" for k, _ in kinds_p[1:]) and first_fill > 0
    add("races", "the producer waits for the stage's release (empty) before it expects bytes or copies",
        _structural(bool(ok), "the producer fills a stage it did not wait for"))
    current = [cons.index(e) for e in reads_c if lags[id(e)] == 0]  # reads of the iteration's own block
    waits_c = [i for i, e in enumerate(cons) if e.kind == "wait" and e.data.get("bar") == full]
    add("races", "the consumers wait for the stage (full) before they read it",
        _structural(bool(current and waits_c and waits_c[0] < min(current)), "a consumer reads a stage before its wait"))
    lag = release_lag(releases[0], at_expr, stage_of, stages, t, first) if releases else None
    late = [lags[id(e)] for e in reads_c]
    add("races", f"each read at iteration t is of block t - r, r <= {peeled} (waited for in iteration t - r, or "
        f"before the loop) and r <= the release lag",
        _structural(all(r is not None and r <= peeled and (lag is None or r <= lag) for r in late),
                    f"read lags {late}; {peeled} block(s) waited for before the loop; release lag {lag}"))
    add("pipeline", f"the consumers release, at iteration t >= d, the stage of iteration t - d, for one d < {stages}",
        _structural(lag is not None, "no release, or one of a stage no iteration t - d (d < stages) used"
                    if not releases else "the release's stage or guard is not s(t - d) from t = d, for any d < stages"))
    if lag is not None:
        ok, why = retired(cons, releases[0], lag, lags)
        add("races", "every wgmma that read a stage has finished when the stage is released", _structural(ok, why))
        loop_end = max(p.events.index(e) for e in cons) + 1
        tail = tail_releases(p.events, loop_end, empty)
        for check, outcome in tail_rows(tail, lag, stage_of, first, c_ub, p.assumptions):
            add("pipeline", check, outcome)
        after = [e for e in p.events[loop_end:] if e.kind == "read" and e.data.get("role") == "consumer"
                 and not resident(e)]
        for check, outcome in check_after(after, lag, stage_of, c_ub, tail, p.events, p.assumptions):
            add("races", check, outcome)
    consumer_region = next(op for op in p.fn.entry_block.operations if op.operation.name == "tile.warp_specialize")
    ok, why = result_reads(consumer_region.regions[1].blocks[0])
    add("races", "an asynchronous wgmma's result is read only by wgmmas until a wgmma_wait retires its group",
        _structural(ok, why))
    filled = {e.data["dst"] for e in copies}
    read_bufs = {e.data["buffer"] for e in cons if e.kind == "read" and not resident(e)}
    add("pipeline", "every tile the consumers read is one the producer copies onto full",
        _structural(read_bufs <= filled, "a consumer reads a shared tile no copy fills"))
    # -- arrivals and bytes --------------------------------------------------------------------
    for bar, name in ((full, "full"), (empty, "empty")):
        brought = sum(1 for e in prod if e.kind in ("expect", "arrive") and e.data["bar"] == bar) + \
            warps * sum(1 for e in cons if e.kind in ("expect", "arrive") and e.data["bar"] == bar)
        add("pipeline", f"{name} counts the arrivals one iteration brings ({_arrivals(bar)})",
            _structural(brought == _arrivals(bar), f"one iteration brings {brought} arrivals to {name}; it counts "
                                                   f"{_arrivals(bar)}", {"arrivals per iteration": brought}))
    expected = sum(e.data["bytes"] for e in prod + cons if e.kind == "expect" and e.data["bar"] == full)
    landed = sum(_tile_bytes(e.data["dst"]) for e in copies)
    wrong_bar = [e for e in prod + cons if e.kind == "expect" and e.data["bar"] != full]
    add("pipeline", f"the bytes expected on full are the bytes the copies bring ({landed})",
        _structural(expected == landed and not wrong_bar, f"{expected} bytes expected, {landed} copied",
                    {"expected bytes": expected, "copied bytes": landed}))
    # -- parity ---------------------------------------------------------------------------------
    n = t / stages
    for e, want, who in [(e, n % 2, "consumers") for e in cons if e.kind == "wait"] + \
                        [(e, (n + 1) % 2, "producer") for e in waits_p]:
        parity = z3.substitute(e.data["parity"], (pt if e.loop == "producer" else kt, t))
        phase = "n of full[s]" if who == "consumers" else "n - 1 of empty[s] (a fresh barrier's passes)"
        add("pipeline", f"the {who} wait at iteration t for phase {phase}, n = t div {stages}",
            prove(parity == want, from_lb, watch={"t": t, "parity": parity}))
    # -- trips -----------------------------------------------------------------------------------
    if "tiles" in p.loops:
        for check, outcome in check_tile_loops(p):
            add("pipeline", check, outcome)
    else:
        before = f" (the consumers' first {peeled} before their loop; there are that many)" if peeled else ""
        add("pipeline", f"both roles run the same iterations from 0{before}",
            prove(z3.And(p_lb == 0, c_lb == peeled, p_ub == c_ub, p_ub >= peeled), p.assumptions, watch={**p.params}))
    for prop, check, outcome in checkresident(p) + check_turns(p, stages) + check_ring_turns(p, full, empty):
        add(prop, check, outcome)
    failed = [f"{prop}: {check}" for prop, check, outcome, _ in rows if outcome.verdict != "proved"]
    add("pipeline", "no wait is left unsatisfied (consumers' t needs the producer's t, the producer's t the "
        "consumers' t - S)", _structural(not failed, "the ring facts it rests on do not hold: " + "; ".join(failed)))
    return rows


def check_tile_loops(p: Program) -> list[tuple[str, Outcome]]:
    """A persistent kernel's tile loops: both roles loop over the same tiles, and the ring's
    iteration counts on across them. With C CTAs, the n-th tile of a CTA, t = pid + n C, runs
    ring iterations [n nk, (n + 1) nk), nk the same for every tile: so each role's iterations
    over the CTA's life are 0, 1, 2, ... once each, in order, and the ring's facts (proved for
    any iteration t >= 0) hold across tiles. (coverage.tile_partition proves that the loops
    visit every tile once over all CTAs.)

    With W consumer warpgroups on their own (ping-pong), warpgroup g's loop is its share of the
    producer's: from pid + g C in steps of W C, so its m-th tile is the CTA's n-th, n = g + W m,
    and runs the ring iterations of the CTA's n-th tile; every iteration is consumed by the one
    warpgroup owning its tile, each warpgroup's in increasing order."""
    tile, lb, ub, _, step = p.loops["tiles"]
    _, lb2, ub2, _, step2 = p.loops["tiles'"]
    _, p_lb, p_ub, _ = p.loops["producer"]
    _, c_lb, c_ub, _ = p.loops["main"]
    n, other = z3.Int("n"), z3.Int("tile'")
    watch = {"tile": tile, **p.params, "ctas": p.ctas}
    if p.warpgroups > 1:
        same = z3.And(lb2 == lb + p.wg * step, ub == ub2, step2 == p.warpgroups * step)
        what = (f"each of the {p.warpgroups} consumer warpgroups loops over its share of the producer's tiles "
                f"(first tile + g step, the same bound, {p.warpgroups} x the step)")
        watch["wg"] = p.wg
    else:
        same = z3.And(lb == lb2, ub == ub2, step == step2)
        what = "both roles loop over the same tiles (first tile, step and bound)"
    rows = [(what, prove(same, p.assumptions, watch=watch)),
            ("both roles run the same iterations for each tile", prove(z3.And(p_lb == c_lb, p_ub == c_ub),
                                                                        p.assumptions, watch=watch))]
    nth = lambda x: z3.substitute(x, (tile, lb + n * step))
    trips = c_ub - c_lb
    claim = z3.And(nth(c_lb) == n * nth(trips), trips == z3.substitute(trips, (tile, other)), trips >= 0, c_lb >= 0)
    rows.append(("the n-th tile of a CTA runs ring iterations [n nk, (n + 1) nk), nk the same for every tile",
                 prove(claim, p.assumptions + [n >= 0, step >= 1, other >= lb, other < ub],
                       watch={**watch, "n": n})))
    return rows


def checkresident(p: Program) -> list[tuple[str, str, Outcome]]:
    """The tiles copied once, before the ring (attention's Q): each on a one-stage barrier of
    its own that counts the producer's one arrival and expects the copy's bytes; the
    consumers wait for its phase 0 before the main loop, and nothing else copies into the
    tile or completes on the barrier. So every read sees the whole copy, and the tile is
    never overwritten."""
    rows = []
    once = [e for e in p.events if e.kind == "copy" and e.loop == "" and e.data.get("role") == "producer"]
    reads = [e for e in p.events if resident(e)]
    for buf in {e.data["buffer"] for e in reads}:
        name = f"the one-stage tile {'x'.join(map(str, ir.MemRefType(buf.type).shape[1:]))}"
        fills = [e for e in p.events if e.kind == "copy" and e.data["dst"] == buf]
        if len(fills) != 1 or fills[0] not in once:
            rows.append(("pipeline", f"{name} is filled by one copy of the producer before its loop",
                         _structural(False, f"{len(fills)} copies fill it, {sum(f in once for f in fills)} of them "
                                            f"before the producer's loop")))
            continue
        copy, bar = fills[0], fills[0].data["bar"]
        on_bar = [e for e in p.events if "bar" in e.data and e.data["bar"] == bar and e is not copy]
        expects = [e for e in on_bar if e.kind == "expect"]
        waits = [e for e in on_bar if e.kind == "wait"]
        ok_bar = ir.MemRefType(bar.type).shape[0] == 1 and _arrivals(bar) == 1 and \
            [e.kind for e in on_bar if e.kind != "wait"] == ["expect"] and expects[0].loop == "" and \
            expects[0].data["role"] == "producer" and p.events.index(expects[0]) < p.events.index(copy) and \
            not any(e.kind == "copy" for e in on_bar)
        rows.append(("pipeline", f"{name} completes on a one-stage barrier of its own, counting one arrival, "
                     f"expected before the copy", _structural(ok_bar, "the barrier is shared, counts other arrivals, "
                                                                      "or its bytes are expected after the copy")))
        rows.append(("pipeline", f"the bytes expected on {name}'s barrier are its copy's ({_tile_bytes(buf)})",
                     _structural(len(expects) == 1 and expects[0].data["bytes"] == _tile_bytes(buf),
                                 f"{[e.data['bytes'] for e in expects]} bytes expected, {_tile_bytes(buf)} copied")))
        first_read = min(p.events.index(e) for e in reads if e.data["buffer"] == buf)
        ok_wait = len(waits) == 1 and waits[0].loop == "" and waits[0].data["role"] == "consumer" and \
            p.events.index(waits[0]) < first_read
        parity = prove(z3.And(waits[0].data["parity"] == 0, waits[0].data["stage"] == 0), p.assumptions) \
            if ok_wait else _structural(False, "no single consumer wait before the first read")
        rows.append(("races", f"the consumers wait for phase 0 of {name}'s barrier once, before their first read of it",
                     parity))
    return rows


def _tile_bytes(buf) -> int:
    t = ir.MemRefType(buf.type)
    return layout_of(buf.owner.attributes["layout"]).size * (4 if str(t.element_type) == "f32" else 2)


def check_tiles(p: Program) -> list[tuple[str, str, Outcome, str]]:
    """(property, check, Outcome, domain) rows of each tile wgmma reads, and of the register
    fragments of a wgmma whose A is in registers; see the module docstring."""
    rows, seen, accumulators = [], set(), set()
    # the warpgroups that share A's rows, warpgroup g from row 64 g (one, when each runs on its own)
    sharing = schedule_of(p.fn).consumers if p.warpgroups == 1 else 1
    for event in (e for e in p.events if e.kind == "mma"):
        m, n = ir.RankedTensorType(event.op.result.type).shape
        a_value = event.op.operation.operands[0]
        registers = isinstance(a_value.type, ir.RankedTensorType)
        k = wgmma_depth(event.op)
        # the 64-row slabs of A one wgmma op reads: one per warpgroup sharing the tile, times the
        # slabs a warpgroup owning several issues one after the other (slab s from row 64 s)
        slabs = sharing * getattr(register_layout(event.op.result.type), "slabs", 1)
        if registers:
            rows += _register_fragments(event, m, n, k)
        elif str(event.op.result.type) not in accumulators:
            accumulators.add(str(event.op.result.type))
            rows.append(("equivalence", f"wgmma accumulator {m}x{n}: registers sit where the PTX D fragment table "
                         f"puts them (warp w of a warpgroup: rows 16 w.. of each 64-row slab)",
                         wgmma_accumulator_matches_ptx(register_layout(event.op.result.type).tiling(m, n)),
                         FRAGMENTS))
        for which, operand in (("A", event.data["a"]), ("B", event.data["b"])):
            if which == "A" and registers or (operand[1], operand[3]) in seen:
                continue
            _, buf, _, transposed = operand
            seen.add((buf, transposed))
            layout = layout_of(buf.owner.attributes["layout"])
            eb = 2
            source = next((e.data["src"] for e in p.events if e.kind == "copy" and e.data["dst"] == buf), "?")
            name = f"operand {which} ({source}) tile {layout.shape[0]}x{layout.shape[1]}"
            rows.append(("swizzle", f"{name}: the layout is a bijection onto the tile", layouts.bijection(layout),
                         TILES))
            boxes = tma_boxes(layout, eb)
            if boxes is None:
                rows.append(("swizzle", f"{name}: the copy engine writes the layout",
                             Outcome("counterexample", 0.0, {}, "no tensor map writes this layout"), TILES))
                continue
            rows.append(("swizzle", f"{name}: each copy box lands where the layout places its elements, "
                         f"1024-byte aligned", _boxes(layout, boxes, eb), TILES))
            k_major = transposed if which == "B" else not transposed
            fields, _ = layout_fns.wgmma_operand(layout, k_major, eb)
            extent = 64 if which == "A" else n
            start = layout_fns.warpgroup_rows(layout, transposed) if which == "A" else 0
            rows.append(("swizzle", f"{name}: wgmma reads through its descriptor ({fields:#x}, each k16 step from the "
                         f"layout's place of its first element) the element the layout placed", _descriptor_reads(
                             layout, fields, start, which, transposed, extent, k, slabs if which == "A" else 1,
                             eb), TILES))
            rows.append(("banks", f"{name}: 8 rows of one 16-byte column fall in 8 bank groups",
                         _conflict_free(layout, eb), TILES))
    return rows


def _register_fragments(event, m: int, n: int, k: int) -> list[tuple[str, str, Outcome, str]]:
    """A wgmma with A in registers (attention's P): per warp, wgmma's D and A register
    fragments are mma.m16n8k16's C/D and A tables (PTX ISA, wgmma register fragments, for the
    warp's 16 of the warpgroup's 64 rows); the accumulator registers the emitter packs into
    a0..a3 are the A table's elements, proved as for the sm_80 kernels (fragments.py)."""
    tiling = register_layout(event.op.result.type).tiling(m, n)
    source = register_layout(event.op.operation.operands[0].type).tiling(m, k)
    return [("equivalence", "wgmma accumulator registers sit where the PTX D fragment table (per warp: "
             "m16n8k16's C/D) puts them", accumulator_matches_ptx(tiling), DOMAIN),
            ("equivalence", "wgmma A fragments packed from accumulator registers are the PTX A table (per warp: "
             "m16n8k16's A)", accumulator_as_a_matches_ptx(tiling, source, k), DOMAIN)]


def _boxes(layout, boxes, eb) -> Outcome:
    mode, box_cols = boxes
    rows_, cols = layout.shape
    r, c, b = BV.var("row"), BV.var("col"), BV.var("box")
    swz = tma_swizzle(mode, eb)
    base = layout.offset(0, b * box_cols)
    claim = z3.And((layout.offset(r, b * box_cols + c) == base + swz(r * box_cols + c)),
                   ((base * eb) & 1023) == 0)
    return prove(claim, [r < rows_, c < box_cols, b < cols // box_cols],
                 watch={"row": r.term, "col": c.term, "box": b.term})


def _descriptor_reads(layout, fields, start, which, transposed, extent, depth, warpgroups, eb) -> Outcome:
    """byte_swizzle(start + k16 step kk's start + wgmma_address(mn, k)) = the layout's offset of
    the element, for kk < depth / 16 (the step starts as the emitter computes them:
    layout.wgmma_k_offset, which crosses from one copy box to the next)."""
    mode = {0: 0, 1: 128, 2: 64, 3: 32}[fields >> 62]
    lbo, sbo = ((fields >> 16) & 0x3FFF) << 4, ((fields >> 32) & 0x3FFF) << 4
    mn, k, kk, wg = (BV.var(x) for x in ("mn", "k", "k16_step", "warpgroup"))
    k_major = (which == "A") != transposed  # stored [mn, k]: A as written, B transposed ([n, k])
    step_start = layout_fns.wgmma_k_offset(layout, k_major, kk) * eb
    read = byte_swizzle(mode)(wg * (start * eb) + step_start + wgmma_address(mode, lbo, sbo, k_major, mn, k, eb))
    row, at_k = (wg * 64 + mn) if which == "A" else mn, kk * 16 + k
    elem = (row, at_k) if k_major else (at_k, row)
    return prove(read == layout.offset(*elem) * eb,
                 [mn < extent, k < 16, kk < depth // 16, wg < warpgroups],
                 watch={"mn": mn.term, "k": k.term, "k16 step": kk.term, "warpgroup": wg.term})


def _conflict_free(layout, eb) -> Outcome:
    r1, r2, c = BV.var("row"), BV.var("row'"), BV.var("chunk")
    rows_, cols = layout.shape
    per = 16 // eb
    group = lambda r: (layout.offset(r, c * per) * eb // 16) % 8
    return prove(group(r1) != group(r2), [r1 < rows_, r2 < rows_, r1 != r2, (r1 // 8) == (r2 // 8),
                                          c < cols // per],
                 watch={"row": r1.term, "row'": r2.term, "chunk": c.term})
