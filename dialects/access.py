"""Where a tile op reads or writes a tensor, its meaning written once.

``tile.load``, ``tile.store`` and ``tile.async_copy`` (and a target's copy-engine copies) touch
the tile at ``offsets`` of a tensor: the element at the tile's coordinates ``coords`` is the
tensor's element at ``element(offsets, coords)`` (the leading offsets pick the batch, each
trailing one is added to its coordinate), touched only where ``inside`` holds (0 <= index <
extent in every dim); a load gives the op's ``padding`` elsewhere. A ``tile.gather`` reads at an
affine map of its indices, under the same ``inside``. The interpreter folds these over torch
tensors (every coordinate of the tile at once), the verifier over Z3 terms (symbolic
coordinates), each through its domain of the scalar primitives (``scalar_ops.Domain``: ``add``,
``ge``, ``lt``, ``and_``, ``select``).

    >>> from tilec.dialects.scalar_ops import Domain
    >>> ints = Domain("ints", and_=lambda a, b: a and b, select=lambda c, a, b: a if c else b)
    >>> element(ints, [2, 64, 0], [5, 7])          # batch 2, row 64 + 5, column 0 + 7
    [2, 69, 7]
    >>> read(ints, [2, 69, 7], [3, 70, 8], lambda at: 1.5, 0.0)
    1.5
    >>> read(ints, [2, 70, 7], [3, 70, 8], lambda at: 1.5, 0.0)   # row 70 of 70: the padding
    0.0
"""

from __future__ import annotations

import functools


def element(d, offsets: list, coords: list) -> list:
    """The tensor index of the tile's element at ``coords``: the leading offsets (one per dim
    the tile does not span), then each trailing offset plus its coordinate."""
    lead = len(offsets) - len(coords)
    if lead < 0:
        raise ValueError(f"a tile of rank {len(coords)} at {len(offsets)} offsets")
    return list(offsets[:lead]) + [d.add(o, c) for o, c in zip(offsets[lead:], coords)]


def inside(d, at: list, extents: list):
    """Does index ``at`` fall inside a tensor of ``extents``: 0 <= a < n in every dim (a
    rank-0 tensor's one element is always read: ``read`` asks no question of it)."""
    if not at or len(at) != len(extents):
        raise ValueError(f"an index of {len(at)} dims into a tensor of {len(extents)}")
    return functools.reduce(d.and_, [d.and_(d.ge(a, 0), d.lt(a, n)) for a, n in zip(at, extents)])


def read(d, at: list, extents: list, fetch, padding):
    """The value a load (or a gather) reads at index ``at``: ``fetch(at)`` inside the tensor,
    ``padding`` outside it (a rank-0 tensor's one element, always)."""
    if not at and not extents:
        return fetch(at)
    return d.select(inside(d, at, extents), fetch(at), padding)
