"""Register fragments against the PTX ISA: the warp tiling's lane maps put every element where
mma.sync m16n8k16 expects it (the ISA's tables: dialects/ptx_fragments.py).

- accumulator: register r of lane L of mma tile (mi, ni) is the element the C/D table gives;
- A or B from shared memory: the rows ldmatrix.x4 reads at the addresses ``ldmatrix_a`` /
  ``ldmatrix_b`` give, dealt to the lanes as ldmatrix deals them and wired into a0..a3 / b0,b1
  as the emitter wires them, are the elements of the A / B tables at k step kk;
- A from registers (attention's P·V): the accumulator registers the emitter packs into a0..a3
  are the elements of the A table.

Each is proved with Z3 over 32-bit vectors, with warp, lane, fragment index and k step
symbolic (so for every value in range) and one query per register half, e.g.

    >>> accumulator_matches_ptx(WarpTiling(128, 128, 4)).verdict
    'proved'

A counterexample names the lane, the register, and the (row, col) the ISA expects and the
tiling gives. The bank-conflict and coverage checks (layouts.py) miss some of these bugs: a
tiling that deals the right elements to the wrong lanes can still be conflict-free and still
hold every element once (tests/verify/test_fragments.py keeps two such mutants).
"""

from __future__ import annotations

import z3

from tilec.dialects import ptx_fragments as ptx
from tilec.dialects.layout import WarpTiling

from .solver import BV, Outcome, prove, satisfiable

DOMAIN = "every warp, lane, mma tile, k step and register (Z3 on 32-bit vectors, one query per register half)"

# How tile.mma's CUDA (tilec/codegen/cuda_ops.py, _mma) assembles the operands; the checks
# hold the tiling to this wiring, so a change there must change these tables too.
# ldmatrix .trans is used when the stored tile's rows are not the fragment's rows:
A_TRANS = {False: False, True: True}      # A stored [m, k] -> plain; [k, m] -> .trans
B_TRANS = {False: True, True: False}      # B stored [k, n] -> .trans; [n, k] -> plain
# ldmatrix register j -> (n tile 2p + t, its b register): b0 = r[0], r[1]; b1 = r[2], r[3]
B_FROM_LDMATRIX = ((0, 0), (0, 1), (1, 0), (1, 1))
# A from registers: a register j = pack2(P[mi][2kk + t][c], P[mi][2kk + t][c + 1]), (t, c) below
A_FROM_ACCUMULATOR = ((0, 0), (0, 2), (1, 0), (1, 2))


def _mma_origin(tiling: WarpTiling, warp_m, warp_n, mi, ni):
    """Top-left (row, col) of mma tile (mi, ni) of warp (warp_m, warp_n) in the CTA tile: the
    tiling's contract (warp (wm, wn) owns rows warp_m*tm.., columns warp_n*tn.., as
    (tm/16) x (tn/8) mma tiles), which the lane maps must fill in the ISA's order."""
    return warp_m * tiling.tm + mi * 16, warp_n * tiling.tn + ni * 8


def _vars(*names):
    return [BV.var(n) for n in names]


def _agree(cases, assumptions, watch, frame: str, gives: str) -> Outcome:
    """Prove each case (register name, expected (row, col), actual (row, col), conditions for
    the source register to exist); the first that fails is the outcome, with the register
    named. ``frame`` names the coordinates, ``gives`` what produced the actual cell. An empty
    domain (no mma tile, bk < 16) is an error: everything holds there, which proves nothing."""
    if satisfiable(assumptions) != z3.sat:
        return Outcome("error", 0.0, detail=f"empty domain ({', '.join(map(str, assumptions))}): "
                                            "the warp has no mma tile, or bk < 16")
    seconds = 0.0
    for name, expected, actual, held in cases:
        (er, ec), (ar, ac) = [tuple(BV.lift(v) for v in pair) for pair in (expected, actual)]
        claim = z3.And(er.term == ar.term, ec.term == ac.term, *held)
        seen = {**watch, "expected row": er.term, "expected col": ec.term, "row": ar.term, "col": ac.term}
        outcome = prove(claim, assumptions, watch=seen)
        seconds += outcome.seconds
        if outcome.verdict != "proved":
            outcome.seconds = seconds
            outcome.model["register"] = name
            outcome.detail = outcome.detail or _explain(outcome.model, name, list(watch), frame, gives)
            return outcome
    return Outcome("proved", seconds)


def _explain(m: dict, register: str, where: list[str], frame: str, gives: str) -> str:
    at = ", ".join(f"{k} {m[k]}" for k in where if k != "lane")
    expected, actual = (m["expected row"], m["expected col"]), (m["row"], m["col"])
    text = f"lane {m['lane']}, register {register} ({at}): the PTX ISA wants {frame} {expected}, {gives} {actual}"
    return text if expected != actual else text + ", but that register is not among the lane's"


def accumulator_matches_ptx(tiling: WarpTiling) -> Outcome:
    """``tiling.accumulator`` places register c_r of every lane of every mma tile where the
    PTX C/D table does (rows and columns of the CTA's bm x bn tile)."""
    warp_m, warp_n, lane, mi, ni = _vars("warp_m", "warp_n", "lane", "mi", "ni")
    bounds = [warp_m < tiling.wm, warp_n < tiling.wn, lane < 32, mi < tiling.mi, ni < tiling.ni]
    row0, col0 = _mma_origin(tiling, warp_m, warp_n, mi, ni)
    cases = []
    for r in range(ptx.C_ELEMENTS):
        row, col = ptx.mma_c(lane, r)
        cases.append((f"c{r}", (row0 + row, col0 + col), tiling.accumulator(warp_m, warp_n, lane, mi, ni, r), []))
    watch = {"lane": lane.term, "warp_m": warp_m.term, "warp_n": warp_n.term, "mi": mi.term, "ni": ni.term}
    return _agree(cases, bounds, watch, "CTA tile cell", "WarpTiling.accumulator puts it at")


def wgmma_accumulator_matches_ptx(tiling: WarpTiling) -> Outcome:
    """A wgmma m64nN multiplies one 64-row slab a warpgroup: warp w % 4 of the warpgroup holds
    rows 16 (w % 4).. of the slab, register j of the slab's accumulator where m16n8k16's C/D
    table puts c_(j % 4) of n tile j // 4 (PTX ISA, wgmma D fragments). The emitter hands slab
    s the warp's mma tiles [s] (a warpgroup owning several slabs) or warpgroup g the slab g of
    the tile (warpgroups sharing it, each mma tile 0): so tile (mi, ni) of warp w must sit at
    rows 64 (mi + w // 4) + 16 (w % 4).., columns 8 ni.. ."""
    if tiling.wn != 1:
        return Outcome("error", 0.0, detail=f"wgmma accumulators are whole rows of a warp (wn = 1); this tiling "
                                            f"has {tiling.wn} warps along n")
    warp_m, lane, mi, ni = _vars("warp_m", "lane", "mi", "ni")
    bounds = [warp_m < tiling.wm, lane < 32, mi < tiling.mi, ni < tiling.ni]
    row0, col0 = (mi + warp_m // 4) * 64 + (warp_m % 4) * 16, ni * 8
    cases = []
    for r in range(ptx.C_ELEMENTS):
        row, col = ptx.mma_c(lane, r)
        cases.append((f"c{r}", (row0 + row, col0 + col), tiling.accumulator(warp_m, 0, lane, mi, ni, r), []))
    watch = {"lane": lane.term, "warp_m": warp_m.term, "mi": mi.term, "ni": ni.term}
    return _agree(cases, bounds, watch, "CTA tile cell", "WarpTiling.accumulator puts it at")


def ldmatrix_a_matches_ptx(tiling: WarpTiling, transposed: bool, bk: int) -> Outcome:
    """ldmatrix.x4 at the addresses of ``tiling.ldmatrix_a`` gives register j of every lane
    the elements a_2j, a_2j+1 of the PTX A table, for every fragment mi and k step kk < bk/16
    (coordinates in the stored tile: [m, k], or [k, m] if ``transposed``)."""
    warp_m, lane, mi, kk = _vars("warp_m", "lane", "mi", "kk")
    bounds = [warp_m < tiling.wm, lane < 32, mi < tiling.mi, kk < bk // 16]
    trans = A_TRANS[transposed]
    m0, _ = _mma_origin(tiling, warp_m, 0, mi, 0)
    cases = []
    for j in range(ptx.LDMATRIX_X4_MATRICES):
        for half, i in enumerate(ptx.a_register(j)):
            row, col = ptx.mma_a(lane, i)
            m, k = m0 + row, kk * 16 + col
            q, c = ptx.ldmatrix_element(lane, half, trans)
            at_row, at_col = tiling.ldmatrix_a(warp_m, ptx.ldmatrix_row_lane(j, q), mi, kk, transposed)
            name = f"a{i} (register {j} {('low', 'high')[half]} half, ldmatrix{'.trans' * trans} matrix {j})"
            cases.append((name, (k, m) if transposed else (m, k), (at_row, at_col + c), []))
    watch = {"lane": lane.term, "warp_m": warp_m.term, "mi": mi.term, "kk": kk.term}
    return _agree(cases, bounds, watch, f"element of the stored A tile ({'[k, m]' if transposed else '[m, k]'})",
                  "ldmatrix at WarpTiling.ldmatrix_a's addresses delivers")


def ldmatrix_b_matches_ptx(tiling: WarpTiling, transposed: bool, bk: int) -> Outcome:
    """ldmatrix.x4 at the addresses of ``tiling.ldmatrix_b`` for pair p, wired as b0 (n tile
    2p) = r0, r1 and b1 (n tile 2p+1) = r2, r3, gives every lane the elements of the PTX B
    table of both n tiles at every k step kk < bk/16 (stored tile [k, n], or [n, k] if
    ``transposed``). With an odd number of n tiles (P·V of a value head dim of 8) the last is
    loaded alone, by ldmatrix.x2 at pair ni // 2's addresses: its matrices 0 and 1 (lanes
    0-15 give their rows) are b0's, so n tile 2p is checked for p up to ni // 2, 2p+1 below."""
    warp_n, lane, p, kk = _vars("warp_n", "lane", "p", "kk")
    bounds = lambda pairs: [warp_n < tiling.wn, lane < 32, p < pairs, kk < bk // 16]
    trans = B_TRANS[transposed]
    cases = ([], [])  # those of n tile 2p, those of 2p+1
    for j, (t, reg) in enumerate(B_FROM_LDMATRIX):
        _, n0 = _mma_origin(tiling, 0, warp_n, 0, p * 2 + t)
        for half, i in enumerate(ptx.b_register(reg)):
            row, col = ptx.mma_b(lane, i)
            k, n = kk * 16 + row, n0 + col
            q, c = ptx.ldmatrix_element(lane, half, trans)
            at_row, at_col = tiling.ldmatrix_b(warp_n, ptx.ldmatrix_row_lane(j, q), p, kk, transposed)
            name = (f"b{i} of n tile 2p+{t} (its register {reg} {('low', 'high')[half]} half, "
                    f"ldmatrix{'.trans' * trans} matrix {j})")
            cases[t].append((name, (n, k) if transposed else (k, n), (at_row, at_col + c), []))
    watch = {"lane": lane.term, "warp_n": warp_n.term, "p": p.term, "kk": kk.term}
    frame = f"element of the stored B tile ({'[n, k]' if transposed else '[k, n]'})"
    gives = "ldmatrix at WarpTiling.ldmatrix_b's addresses delivers"
    first = _agree(cases[0], bounds((tiling.ni + 1) // 2), watch, frame, gives)
    if first.verdict != "proved" or tiling.ni == 1:  # one n tile: no second half to check
        return first
    second = _agree(cases[1], bounds(tiling.ni // 2), watch, frame, gives)
    second.seconds += first.seconds
    return second


def accumulator_as_a_matches_ptx(tiling: WarpTiling, source: WarpTiling, bk: int) -> Outcome:
    """An mma whose A is the accumulator of another (``source``, e.g. attention's P), packed
    as the emitter packs it, gives every lane the elements of the PTX A table: element a_i of
    fragment mi at k step kk is source's element (row of the mma's tile mi, column 16kk + ...),
    and the registers it is packed from exist in the lane's accumulator."""
    if source.warps != tiling.warps:
        raise ValueError(f"the A accumulator has {source.warps} warps, the mma {tiling.warps}")
    warp, lane, mi, kk = _vars("warp", "lane", "mi", "kk")
    bounds = [warp < tiling.warps, lane < 32, mi < tiling.mi, kk < bk // 16]
    m0, _ = _mma_origin(tiling, warp % tiling.wm, 0, mi, 0)
    cases = []
    for j, (t, c) in enumerate(A_FROM_ACCUMULATOR):
        ni = kk * 2 + t
        held = [ni < source.ni, mi < source.mi]  # P[mi][ni] is one of the lane's registers
        for half, i in enumerate(ptx.a_register(j)):
            row, col = ptx.mma_a(lane, i)
            actual = source.accumulator(warp % source.wm, warp // source.wm, lane, mi, ni, c + half)
            name = f"a{i} (register {j} {('low', 'high')[half]} half = c{c + half} of accumulator tile 2kk+{t})"
            cases.append((name, (m0 + row, kk * 16 + col), actual, held))
    watch = {"lane": lane.term, "warp": warp.term, "mi": mi.term, "kk": kk.term}
    return _agree(cases, bounds, watch, "element of the source accumulator tile",
                  "the packed accumulator register holds")


def check_fragments(tiling: WarpTiling, bk: int, a_transposed: bool = False, b_transposed: bool = False,
                    a_registers: WarpTiling | None = None) -> list[tuple[str, Outcome, str]]:
    """(check, outcome, domain) rows for one mma of ``tiling`` with k extent ``bk``: the
    accumulator, A (from shared memory, stored transposed or not; or, with ``a_registers``,
    from the accumulator of that tiling) and B (stored transposed or not)."""
    rows = [("accumulator registers sit where the PTX m16n8k16 C/D fragment table puts them",
             accumulator_matches_ptx(tiling), DOMAIN)]
    if a_registers is None:
        rows.append((f"ldmatrix{'.trans' * A_TRANS[a_transposed]} A fragments are the PTX m16n8k16 A table",
                     ldmatrix_a_matches_ptx(tiling, a_transposed, bk), DOMAIN))
    else:
        rows.append(("A fragments packed from accumulator registers are the PTX m16n8k16 A table",
                     accumulator_as_a_matches_ptx(tiling, a_registers, bk), DOMAIN))
    rows.append((f"ldmatrix{'.trans' * B_TRANS[b_transposed]} B fragments are the PTX m16n8k16 B table",
                 ldmatrix_b_matches_ptx(tiling, b_transposed, bk), DOMAIN))
    return rows
