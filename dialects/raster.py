"""Launch rasters: which program ids the CTA that a one-dimensional launch numbers L runs.

A tile function's program ids range over its ``tile.grid`` ([blocks, batch] for attention).
Without a raster the kernel is launched on that grid as it stands: the hardware counts
``blockIdx.x`` fastest, so CTAs start in the order (0, 0), (1, 0), ... , (0, 1), ...

A causal attention CTA's work grows with its query block (block q reads about q + 1 key
blocks), and CTAs that start last decide when the kernel ends. ``heavy-first``, the function
attribute ``tile.raster = {kind = "heavy-first", group = "<dim expression>"}``, launches the
grid as one dimension of blocks x batch CTAs and gives CTA L the program ids

    G    = min(batch, max(1, group))  the group's dim expression at the call's sizes
    span = G * blocks                 CTAs of one group of G batch elements
    g    = L / span                   the group
    size = min(G, batch - g * G)      its batch elements (the last group may hold fewer)
    w    = L - g * span               the CTA's place in its group
    pid0 = blocks - 1 - w / size      query blocks from the last (the heaviest) down
    pid1 = g * G + w % size           the batch elements of the group, fastest

so within each group of G batch elements every batch element's heaviest block starts before
anyone's lighter one (longest first: the CTAs that start last are the short ones), and the
CTAs in flight at once read the keys and values of about G batch elements, which the pass
sizes to stay in L2 (a dim expression of the key length, so one package serves every
length). The program ids mean what they meant; only the order in which CTAs start changes,
so every proof over program ids stands, and the verifier proves that the raster runs each
(pid0, pid1) exactly once, for any grid and any group (verify/raster.py).

``program_ids`` is written once, over any values with + - * % < and a floor division and a
select: the CUDA emitter calls it on C expressions, the verifier on Z3 integers, the
interpreter and the tests on Python ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir

from .dims import DimError, parse_dim

ATTR = "tile.raster"


@dataclass(frozen=True)
class HeavyFirst:
    """The heavy-first raster over groups of ``group`` batch elements (a dim expression; see
    the module docstring).

    Example: ``HeavyFirst("2").program_ids(0, 3, 5, 2, ...)`` is (2, 0): the first CTA runs
    the last query block of batch element 0."""

    group: str

    @staticmethod
    def program_ids(linear, blocks, batch, group, div, select, bind=lambda name, value: value):
        """(pid0, pid1) of the CTA numbered ``linear`` in a launch of ``blocks`` x ``batch``
        CTAs, ``group`` the group's value; ``div(a, b)``: floor division of non-negatives,
        ``select(c, a, b)``: a if c else b, ``bind(name, value)``: the value as the caller
        names it (the emitter declares a C variable)."""
        group = bind("want", select(group < 1, 1, group))
        group = bind("group", select(batch < group, batch, group))  # so span <= blocks * batch: no overflow
        span = bind("span", blocks * group)
        g = bind("g", div(linear, span))
        rest = bind("rest", batch - g * group)
        size = bind("size", select(rest < group, rest, group))
        w = bind("w", linear - g * span)
        return blocks - 1 - div(w, size), g * group + w % size

    def attribute(self) -> ir.Attribute:
        """The function attribute's value (inside an active context)."""
        return ir.DictAttr.get({"kind": ir.StringAttr.get("heavy-first"), "group": ir.StringAttr.get(self.group)})


def raster_of(fn) -> HeavyFirst | None:
    """The raster a tile function is launched with (its ``tile.raster``), None for the plain grid.
    ValueError for a malformed attribute."""
    attrs = fn.attributes
    if ATTR not in attrs:
        return None
    try:
        entries = ir.DictAttr(attrs[ATTR])
        kind = ir.StringAttr(entries["kind"]).value
        group = ir.StringAttr(entries["group"]).value
        parse_dim(group)
    except (ValueError, KeyError, TypeError, DimError):
        raise ValueError(f"malformed {ATTR} attribute: {attrs[ATTR]}") from None
    if kind != "heavy-first":
        raise ValueError(f"{ATTR}: a 'heavy-first' raster, not {attrs[ATTR]}")
    return HeavyFirst(group)
