"""Where a tile op reads or writes a tensor, written once (dialects/access.py): the
interpreter's window (torch, every coordinate at once) and the verifier's read (Z3, one symbolic
coordinate) are folds of the same meaning, and agree with it element by element."""

import doctest
import itertools

import torch
import z3

from tilec.dialects import access
from tilec.dialects.scalar_ops import Domain
from tilec.executors.tile_interpreter import window
from tilec.verify.scalars import Values

INTS = Domain("ints", and_=lambda a, b: a and b, select=lambda c, a, b: a if c else b)


def test_the_docstrings_examples_hold():
    assert doctest.testmod(access).failed == 0


def test_the_interpreters_window_is_the_meaning_at_every_element():
    """Tiles at the edges and past them (a negative offset, a batch offset outside the tensor):
    the mask is ``inside`` and, inside, the index is ``element``."""
    tensor = torch.arange(3 * 10 * 7).reshape(3, 10, 7)
    for offsets in ([1, 0, 0], [2, 8, 4], [0, -2, 5], [3, 0, 0], [1, 9, 6]):
        index, mask = window(tensor, offsets, [4, 4])
        for r, c in itertools.product(range(4), range(4)):
            at = access.element(INTS, offsets, [r, c])
            assert bool(mask[r, c]) == access.inside(INTS, at, [3, 10, 7]), (offsets, r, c)
            if mask[r, c]:
                assert [int(i[r, c]) for i in index] == at


def test_the_verifiers_read_is_the_meaning_at_a_symbolic_coordinate():
    vals = Values({})
    r, c = z3.Ints("r c")
    term = access.read(vals.domain, access.element(vals.domain, [z3.IntVal(1), z3.IntVal(8)], [r, c]), [10, 7],
                       lambda at: vals.tensor("X", at), z3.RealVal(0))
    for rv, cv in itertools.product(range(-1, 4), range(-1, 8)):
        value = z3.simplify(z3.substitute(term, (r, z3.IntVal(rv)), (c, z3.IntVal(cv))))
        at = [1 + rv, 8 + cv]
        if access.inside(INTS, at, [10, 7]):
            assert z3.eq(value, z3.simplify(vals.tensor("X", [z3.IntVal(a) for a in at]))), (rv, cv)
        else:
            assert z3.is_rational_value(value) and value.as_fraction() == 0, (rv, cv)


def test_inside_is_zero_to_the_extent_exclusive():
    """The meaning itself, pinned (the folds above are checked against it): 0 <= a < n in
    every dim, the last index in and the extent out, a negative index out."""
    assert access.inside(INTS, [0, 69], [1, 70]) and not access.inside(INTS, [0, 70], [1, 70])
    assert not access.inside(INTS, [-1, 0], [1, 70]) and not access.inside(INTS, [1, 0], [1, 70])
    assert access.read(INTS, [], [], lambda at: 2.5, 0.0) == 2.5  # a rank-0 tensor: its one element
