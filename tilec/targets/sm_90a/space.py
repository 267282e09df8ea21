"""sm_90a's own schedule points: the warp-specialised kernels its passes build.

Every target runs the points of the grid all targets share (dialects/schedule.py ``GRIDS``);
the registry names this module as sm_90a's ``space``, and ``Schedule.space(form, "sm_90a")``
adds these. A point has consumer warpgroups c with bm = 64 c and warps = 4 c (a contraction's k
tile bk = 64); a contraction also gets the ping-pong points (two warpgroups on tiles of their
own, persistent) at each bn, stages and tma_store of its axes; attention its rotated key loop
(``softmax_overlap``) on the consumer counts and occupancies ``rotated`` lists.

    points("contraction", "search")  # every warp-specialised contraction tilec tune ranks

Two grids, as the shared points have: ``check`` (``tilec verify --schedules all`` proves every
point) and ``search`` (``tilec tune`` ranks every point), the first a subset of the second's
axes, small enough to prove each point in a test. A third, ``any-size``, is a short list, best
first: what a spec compiled with a size left free is built with (tune/pick.py), the schedules that
measured best over the sizes of docs/benchmarks.md (GEMM 2048-16384: bn=256 with two
consumers, then bn=128 with five stages; attention at D = 64 one consumer with two CTAs an SM,
at D = 128, where those do not fit, two consumers with the rotated key loop: docs/benchmarks.md,
"The default schedule"), each taken only where it lowers and compiles without spilling.
"""

from __future__ import annotations

from tilec.dialects.schedule import Schedule, grid

SPACES = {
    "check": {
        "contraction": {"axes": {"consumers": (1, 2, 3), "bn": (128, 256), "stages": (3, 4),
                                 "tma_store": (False, True)},
                        # split-K on each consumer count (not the whole grid over again: each point
                        # proved costs seconds); 3 ways, so that the last part is shorter
                        "extra": tuple({"consumers": c, "bn": 128, "stages": 3, "split_k": 3} for c in (1, 2, 3))},
        "online": {"axes": {"consumers": (2, 3), "bn": (64, 128), "stages": (2,)},
                   # a stage more: two consumer warpgroups, or one with two CTAs an SM
                   "rotated": ({"consumers": 2, "stages": (3,)}, {"consumers": 1, "occupancy": 2, "stages": (3,)})},
    },
    "search": {
        "contraction": {"axes": {"consumers": (1, 2, 3), "bn": (64, 128, 192, 256), "stages": (2, 3, 4, 5),
                                 "persistent": (False, True), "tma_store": (False, True), "split_k": (1, 2, 4)}},
        "online": {"axes": {"consumers": (1, 2, 3), "bn": (64, 96, 128, 176, 192), "stages": (2, 3, 4),
                            "softmax_overlap": (False, True)},
                   "rotated": ({"consumers": 1, "occupancy": 2, "stages": (2, 3, 4)},)},
    },
    "any-size": {
        "contraction": {"points": ({"bm": 128, "bn": 256, "bk": 64, "warps": 8, "stages": 4, "consumers": 2},
                                   {"bm": 128, "bn": 128, "bk": 64, "warps": 8, "stages": 5, "consumers": 2})},
        # D = 64: one consumer, two CTAs an SM (at D = 128 their tiles do not fit two to an SM: the next)
        "online": {"points": ({"bm": 64, "bn": 128, "warps": 4, "stages": 3, "consumers": 1, "softmax_overlap": True,
                               "occupancy": 2},
                              {"bm": 128, "bn": 128, "warps": 8, "stages": 3, "consumers": 2, "softmax_overlap": True},
                              {"bm": 128, "bn": 128, "warps": 8, "stages": 2, "consumers": 2})},
    },
}


def points(form: str, use: str) -> list[Schedule]:
    """sm_90a's warp-specialised schedules of ``form`` in the ``use`` grid ("check", "search" or
    "any-size"), in order: the grid's, its extra points, then the ping-pong (contraction) or
    rotated (attention) ones; an "any-size" list as it is."""
    space = SPACES[use].get(form)
    if space is None:
        return []
    if "points" in space:
        return [Schedule(**p) for p in space["points"]]
    axes = space["axes"]
    bk = {"bk": 64} if form == "contraction" else {}
    out = [Schedule(bm=64 * p["consumers"], warps=4 * p["consumers"], **bk, **p) for p in grid(axes)]
    out += [Schedule(bm=64 * p["consumers"], warps=4 * p["consumers"], **bk, **p) for p in space.get("extra", ())]
    if form == "contraction":
        out += pingpong_points(axes["bn"], axes["stages"], axes.get("tma_store", (False,)))
    for rotated in space.get("rotated", ()):
        c = rotated["consumers"]
        out += [Schedule(bm=64 * c, bn=bn, warps=4 * c, stages=n, consumers=c, softmax_overlap=True,
                         occupancy=rotated.get("occupancy", 1)) for bn in axes["bn"] for n in rotated["stages"]]
    return out


def pingpong_points(bns, stages, stores=(False,)) -> list[Schedule]:
    """The ping-pong contractions at each bn, stages and tma_store of ``stores``: two consumer
    warpgroups with tiles of their own of one or two 64-row slabs, persistent."""
    return [Schedule(bm=bm, bn=bn, bk=64, warps=8, stages=n, consumers=2, pingpong=True, persistent=True,
                     tma_store=store) for bm in (64, 128) for bn in bns for n in stages for store in stores]
