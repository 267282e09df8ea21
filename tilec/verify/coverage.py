"""Where the batch program id stores, for any tile program: GEMM, attention, any store of a
[rows, cols] tile at (batch offsets..., row0, col0), directly or through a row-major view.

inside     the batch offsets lie inside the output's batch extents (of the view the kernel
           stores through), and the tile's columns start at >= 0; when the column dim is a
           merged one ([B, S, H*D]), the whole tile lies inside it, so each stored element is
           one element of the tensor (this also makes the read-back indices of the other
           checks non-vacuous: they exist)
batch      distinct batch program ids store distinct batch elements, read back as the
           output's own indices, and the grid has one id per batch element: a bijection
"""

from __future__ import annotations

import z3

from .solver import Outcome, prove


def stored_inside(offsets: list, view, width: int, facts: list, watch: dict) -> tuple[str, Outcome, str]:
    """The ``inside`` check for a store at ``offsets`` of a tile ``width`` columns wide."""
    lead = offsets[:-2]
    claims = [z3.And(o >= 0, o < e) for o, e in zip(lead, view.views)] + [offsets[-1] >= 0]
    if len(view.groups[-1]) > 1:  # columns of several dims: the tile must not straddle the view's end
        claims.append(offsets[-1] + width <= view.views[-1])
    what = "batch and head-dim extents" if len(view.groups[-1]) > 1 else "batch extents"
    return f"the stored tile lies inside the output's {what}", \
        prove(z3.And(*claims), facts + view.sizes, watch=watch), "all shapes and program ids"


def batch_coverage(pids: list, grid: list, params: dict, facts: list, offsets: list, view,
                   tile: tuple, watch: dict, splits: int = 1) -> tuple[str, Outcome, str] | None:
    """The ``batch`` check; ``tile`` is (row symbol, column symbol, [rows, cols]) of the stored
    element; None for a kernel with no batch program id. A split-K kernel's batch id is
    pid1 / ``splits`` (its S CTAs of a tile store it once: split_k.py)."""
    pid = next((x for x in pids if str(x) == "pid1"), None)
    if pid is None:
        return None
    r, c, shape = tile
    row_at = view.groups[len(offsets) - 2][0]
    other = z3.Int("pid1'")
    moved = [z3.substitute(o, (pid, other)) for o in offsets]
    own, tied = view.unflatten(offsets[:-2] + [offsets[-2] + r, offsets[-1] + c], "w")
    own2, tied2 = view.unflatten(moved[:-2] + [moved[-2] + r, moved[-1] + c], "v")
    batch = [k for k in range(len(own)) if k not in (row_at, len(own) - 1)]
    count = z3.IntVal(1)
    for k in batch:
        count = count * view.extents[k]
    differ = z3.Or(*[own[k] != own2[k] for k in batch]) if batch else z3.BoolVal(False)
    claim = z3.And(z3.Implies(pid / splits != other / splits, differ), grid[1] == count * splits)
    # the batch id is split by div/rem by symbolic extents (nonlinear) when there are several
    bounded = [x <= 64 for x in params.values()] if len(batch) > 1 else []
    domain = "all sizes <= 64 (nonlinear div/rem split)" if bounded else "all batch sizes and program ids"
    ranges = [r >= 0, r < shape[0], c >= 0, c < shape[1], other >= 0, other < grid[1]]
    outcome = prove(claim, facts + view.sizes + tied + tied2 + ranges + bounded, budget=60_000_000,
                    watch={"pid1'": other, **watch})
    what = "batch program id" if splits == 1 else f"batch program id (pid1 / {splits})"
    return f"every batch element is stored by exactly one {what}", outcome, domain


def tile_coverage(pid, grid: list, params: dict, facts: list, offsets: list, view, shape: list,
                  watch: dict) -> tuple[str, Outcome, str]:
    """The ``tiles`` check: the tile id ``pid`` (program id 0, or a persistent kernel's tile loop
    index, which tile_partition covers) is a bijection onto the output's [rows, cols] tiles
    (a grouped raster for GEMM, row blocks for attention): distinct ids store distinct tile
    origins, each a multiple of the tile size inside the tile grid, and grid x counts as many
    ids as there are tiles. The origin is the output's own index (read back through a view:
    attention stores at head-dim column 0 of its head)."""
    bm, bn = shape
    other = z3.Int(f"{pid}'")
    row_at = view.groups[len(offsets) - 2][0]
    own, tied = view.unflatten(offsets, "t")  # the tile's origin, as the output's own index
    own2, tied2 = view.unflatten([z3.substitute(o, (pid, other)) for o in offsets], "u")
    (m0, n0), (m1, n1) = (own[row_at], own[-1]), (own2[row_at], own2[-1])
    rows, cols = view.extents[row_at], view.extents[-1]
    tiles_m, tiles_n = (rows + bm - 1) / bm, (cols + bn - 1) / bn
    claim = z3.And(z3.Implies(pid != other, z3.Or(m0 != m1, n0 != n1)), m0 >= 0, n0 >= 0, m0 % bm == 0,
                   n0 % bn == 0, m0 < tiles_m * bm, n0 < tiles_n * bn, grid[0] == tiles_m * tiles_n)
    base = facts + view.sizes + tied + tied2 + [other >= 0, other < grid[0]]
    watch = {str(pid): pid, f"{pid}'": other, "row0": m0, "col0": n0, "grid": grid[0], **watch}
    owner = "CTA (program id 0" if str(pid) == "pid0" else "tile id (it"
    check = f"every output tile is owned by exactly one {owner} is a bijection onto the tiles)"
    outcome = prove(claim, base, budget=20_000_000, watch=watch)
    if outcome.verdict != "unknown":
        return check, outcome, "all shapes and program ids"
    # a grouped raster divides by symbolic grid sizes (nonlinear integer arithmetic): bounded sizes, said so
    bounded = prove(claim, base + [x <= 4096 for x in params.values()], budget=60_000_000, watch=watch)
    return check, bounded, "sizes <= 4096 (the raster divides by a grid size; Z3 integer arithmetic)"


def tile_partition(pid, ctas, loops: list, grid: list, facts: list, warpgroups: int = 1) -> tuple[str, Outcome, str]:
    """A persistent kernel's ``partition`` check: each role's tile loop runs t = pid, pid + C,
    ... below grid x, for C CTAs with program ids 0 .. C - 1; so every tile id below grid x is
    visited by exactly one CTA, once (t = (t mod C) + (t div C) C, and pid + n C = pid' + n' C
    with pids below C only when pid = pid' and n = n').

    With W > 1 consumer ``warpgroups`` on their own (ping-pong), each loop after the first is
    warpgroup g's share of the CTA's tiles, t = pid + g C, step W C: the n-th tile of the CTA
    with n = g + W m; every n >= 0 is that for exactly one g < W and m >= 0 (g = n mod W), so
    the warpgroups' loops visit the CTA's tiles once between them."""
    n, n2, pid2, t = z3.Ints("n n' pid' t")
    plain = lambda lb, ub, step: z3.And(lb == pid, ub == grid[0], step == ctas)
    claims, watch = [], {"pid0": pid, "ctas": ctas, "t": t, "n": n}
    if warpgroups > 1:
        g, g2, m, m2 = z3.Ints("g g' m m'")
        share = lambda lb, ub, step: z3.Or(*[z3.And(lb == pid + k * ctas, ub == grid[0], step == warpgroups * ctas)
                                              for k in range(warpgroups)])
        shape = z3.And(plain(*loops[0]), *[share(*x) for x in loops[1:]])
        in_range = lambda k, r: z3.And(k >= 0, k < warpgroups, r >= 0)
        claims += [z3.Implies(z3.And(g + warpgroups * m == g2 + warpgroups * m2, in_range(g, m), in_range(g2, m2)),
                              z3.And(g == g2, m == m2)),
                   z3.Implies(n >= 0, z3.And(in_range(n % warpgroups, n / warpgroups),
                                             n == n % warpgroups + warpgroups * (n / warpgroups)))]
        watch.update({"g": g, "m": m})
    else:
        shape = z3.And(*[plain(*x) for x in loops])
    once = z3.Implies(z3.And(pid + n * ctas == pid2 + n2 * ctas, n >= 0, n2 >= 0, pid2 >= 0, pid2 < ctas),
                      z3.And(pid == pid2, n == n2))
    hit = z3.Implies(z3.And(t >= 0, t < grid[0]), z3.And(t % ctas < ctas, t % ctas >= 0, t / ctas >= 0,
                                                           t == t % ctas + (t / ctas) * ctas))
    check = "every tile id below grid x is visited by exactly one CTA's tile loop, once (t = pid + n * CTAs)"
    if warpgroups > 1:
        check += f", and by one of its {warpgroups} consumer warpgroups (n = g + {warpgroups} m)"
    return check, prove(z3.And(shape, once, hit, *claims), facts, budget=20_000_000, watch=watch), \
        "all shapes, CTA counts and program ids"
