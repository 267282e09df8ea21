"""The index arithmetic's one meaning (dialects/index_ops.py): Python ints, Z3 integers and the
C text the emitter prints agree where a division's meaning is given (dividend >= 0, divisor > 0),
and C's truncating division would not agree with the others outside it."""

import itertools

import z3

from tilec.dialects.index_ops import C, DIVISIONS, INDEX, defined, z3_domain


def _c(text: str, a: int, b: int) -> int:
    """The C text of two operands "a" and "b", evaluated with C's truncating / and % (the test's
    own text of one operator)."""
    def trunc_div(x, y):
        q = abs(x) // abs(y)
        return q if (x >= 0) == (y > 0) else -q

    ops = {" / ": lambda x, y: trunc_div(x, y), " % ": lambda x, y: x - y * trunc_div(x, y),
           " + ": lambda x, y: x + y, " - ": lambda x, y: x - y, " * ": lambda x, y: x * y}
    if text.startswith(("min(", "max(")):
        return (min if text.startswith("min") else max)(a, b)
    if text == "(a + b - 1) / b":
        return trunc_div(a + b - 1, b)
    for sign, f in ops.items():
        if sign in text:
            return f(a, b)
    raise AssertionError(text)


def test_ints_z3_and_c_agree_where_the_meaning_is_given():
    z = z3_domain()
    for name, op in INDEX.items():
        text = op("a", "b", C)
        for a, b in itertools.product(range(0, 13), range(1, 6)):
            assert defined(name, a, b)
            want = op(a, b)
            assert z3.simplify(op(z3.IntVal(a), z3.IntVal(b), z)).as_long() == want, (name, a, b)
            assert _c(text, a, b) == want, (name, text, a, b)


def test_the_emitters_text_of_each_op():
    assert {name: op("a", "b", C) for name, op in INDEX.items()} == {
        "arith.addi": "a + b", "arith.subi": "a - b", "arith.muli": "a * b", "arith.divsi": "a / b",
        "arith.floordivsi": "a / b", "arith.ceildivsi": "(a + b - 1) / b", "arith.remsi": "a % b",
        "arith.minsi": "min(a, b)", "arith.maxsi": "max(a, b)"}


def test_outside_the_given_meaning_c_and_floor_division_differ():
    """Why a division is defined for a >= 0, b > 0 alone: at -5 and 4 C truncates to -1, floor
    division gives -2 (and the remainders -1 and 3); ceildivsi's C text is off too."""
    assert not defined("arith.divsi", -5, 4) and not defined("arith.remsi", 3, 0)
    assert defined("arith.addi", -5, 4)
    assert _c(INDEX["arith.divsi"]("a", "b", C), -5, 4) == -1 and INDEX["arith.divsi"](-5, 4) == -2
    assert _c(INDEX["arith.remsi"]("a", "b", C), -5, 4) == -1 and INDEX["arith.remsi"](-5, 4) == 3
    assert _c(INDEX["arith.ceildivsi"]("a", "b", C), -5, 4) == 0 and INDEX["arith.ceildivsi"](-5, 4) == -1
    assert DIVISIONS == {"arith.divsi", "arith.remsi", "arith.floordivsi", "arith.ceildivsi"}
