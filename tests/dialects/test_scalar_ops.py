"""The scalar ops' one meaning (dialects/scalar_ops.py): torch tensors, Z3 terms and the C text
the emitter prints, each a domain of the same meanings, agree; at a NaN torch and C follow IEEE
754 for every arith.cmpf predicate (the C run on the CPU compiler); a layer without a rule says
so, located."""

import doctest
import itertools
import math
import re
import subprocess

import pytest
import torch
import z3
from torch_mlir import ir

from tilec import dialects
from tilec.codegen.cuda_scalar import C
from tilec.codegen.cuda_text import PRELUDE
from tilec.diagnostics import TilecError
from tilec.dialects import index_ops, scalar_ops
from tilec.dialects.scalar_ops import NoRule, evaluate
from tilec.executors.oracle_scalar import TORCH, scalar_op
from tilec.verify.scalars import Values

PREDICATES = ["oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno"]
FLOATS = [-1.5, 0.0, 2.0, 3.25]
# one module holding an op of each kind (f: two floats, i: two i64, c: two conditions)
BODY = """
func.func @f(%a: f32, %b: f32, %i: i64, %j: i64, %p: i1, %q: i1) {
  %addf = arith.addf %a, %b : f32
  %subf = arith.subf %a, %b : f32
  %mulf = arith.mulf %a, %b : f32
  %divf = arith.divf %a, %b : f32
  %negf = arith.negf %a : f32
  %max = arith.maximumf %a, %b : f32
  %min = arith.minimumf %a, %b : f32
  %sel = arith.select %p, %a, %b : f32
  %addi = arith.addi %i, %j : i64
  %subi = arith.subi %i, %j : i64
  %muli = arith.muli %i, %j : i64
  %fdiv = arith.floordivsi %i, %j : i64
  %and = arith.andi %p, %q : i1
  %or = arith.ori %p, %q : i1
  %xor = arith.xori %p, %q : i1
  %sitofp = arith.sitofp %i : i64 to f32
  %cf = arith.constant 2.5 : f32
  %ci = arith.constant 7 : i64
""" + "".join(f"  %{p} = arith.cmpf {p}, %a, %b : f32\n" for p in PREDICATES) + \
    "".join(f"  %i{p} = arith.cmpi {p}, %i, %j : i64\n" for p in ["eq", "ne", "slt", "sle", "sgt", "sge"]) + """
  %andw = arith.andi %i, %j : i64
  %cmpu = arith.cmpi ult, %i, %j : i64
  %never = arith.cmpf false, %a, %b : f32
  return
}
"""


@pytest.fixture(scope="module")
def ops():
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(BODY)
        fn = module.body.operations[0]
        named = [op for op in fn.entry_block.operations if op.operation.results]
        yield dict(zip(re.findall(r"%(\w+) = ", BODY), named, strict=True))


def _operands(op, a, b, i, j, p, q):
    """The values of ``op``'s operands, named by the function's arguments."""
    by_arg = {0: a, 1: b, 2: i, 3: j, 4: p, 5: q}
    return [by_arg[ir.BlockArgument(v).arg_number] for v in op.operation.operands]


def _z3_value(term):
    term = z3.simplify(term)
    if z3.is_true(term) or z3.is_false(term):
        return z3.is_true(term)
    if z3.is_int_value(term):
        return term.as_long()
    return float(term.as_fraction())


def test_the_docstrings_examples_hold():
    for module in (scalar_ops, index_ops):
        assert doctest.testmod(module).failed == 0


def test_torch_and_z3_agree_on_finite_values(ops):
    """Every op Z3 interprets (math's ops and roundings are uninterpreted there), on every pair
    of values from FLOATS and of ints (divisors > 0), with both conditions."""
    vals = Values({})
    checked = set()
    for (a, b), (i, j), (p, q) in itertools.product(itertools.product(FLOATS, repeat=2),
                                                    [(7, 2), (-7, 2), (0, 3), (5, 5)],
                                                    itertools.product([False, True], repeat=2)):
        for name, op in ops.items():
            if name in ("andw", "cmpu", "never") or (name == "divf" and b == 0.0):
                continue
            t = evaluate(op, [torch.tensor(x) for x in _operands(op, a, b, i, j, p, q)], TORCH)
            zs = [z3.RealVal(x) if isinstance(x, float) else z3.IntVal(x) if not isinstance(x, bool) else z3.BoolVal(x)
                  for x in _operands(op, a, b, i, j, p, q)]
            want = t.item()
            got = _z3_value(vals.scalar(op, zs))
            assert (got == want) if isinstance(want, bool) else math.isclose(got, want, rel_tol=1e-6), \
                (name, a, b, i, j, p, q, got, want)
            checked.add(name)
    assert len(checked) == len(ops) - 3


def _c_program(ops) -> tuple[str, list]:
    """A C++ program printing, for each pair of FLOATS and NaN, each cmpf predicate's C text, the
    floats' arithmetic and select; and floordivsi's text with the prelude's own floor_div."""
    floor_div = next(line for line in PRELUDE.splitlines() if "floor_div(long long" in line)
    floor_div = floor_div.replace("__device__ __forceinline__ ", "")
    cases, lines = [], []
    for name in [*PREDICATES, "addf", "subf", "mulf", "sel", "max", "min"]:
        text = evaluate(ops[name], ["a", "b"] if name != "sel" else ["p", "a", "b"], C)
        cases.append(name)
        lines.append(f'  printf("%d %g\\n", (int)({text}), (double)({text}));')
    program = "#include <stdio.h>\n#include <math.h>\n" + floor_div + """
static void row(float a, float b, bool p) {
""" + "\n".join(lines) + """
}
int main() {
  float v[] = {""" + ", ".join(f"{x}f" for x in FLOATS) + """, NAN};
  for (float a : v) for (float b : v) for (int p = 0; p < 2; ++p) row(a, b, p);
  for (long long i = -7; i <= 7; ++i) for (long long j = 1; j <= 3; ++j) printf("%lld\\n", """ + \
        evaluate(ops["fdiv"], ["i", "j"], C) + """);
  return 0;
}
"""
    return program, cases


def test_c_text_runs_as_torch_computes_it_nan_included(ops, tmp_path):
    """The C text of every cmpf predicate, compiled and run, is torch's value at every pair of
    values with NaN among them (IEEE 754: an ordered comparison false, an unordered one true at
    a NaN); the arithmetic, select, max and min agree (but max and min at one NaN); floordivsi
    floors."""
    from tilec.runtime.cpu.launch import compiler

    program, cases = _c_program(ops)
    (tmp_path / "p.cpp").write_text(program)
    command, env = compiler()
    built = subprocess.run([*command, "-std=c++17", "-O1", "-o", str(tmp_path / "p"), str(tmp_path / "p.cpp")],
                           capture_output=True, text=True, env=env, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    out = iter(subprocess.run([str(tmp_path / "p")], capture_output=True, text=True, check=True).stdout.split("\n"))
    values = [*FLOATS, math.nan]
    for a, b, p in itertools.product(values, values, [False, True]):
        for name in cases:
            flag, number = next(out).split()
            args = _operands(ops[name], torch.tensor(a), torch.tensor(b), 0, 0, torch.tensor(p), None)
            want = evaluate(ops[name], args, TORCH)
            if want.dtype == torch.bool:
                assert int(flag) == int(want.item()), (name, a, b)
            elif name in ("max", "min") and math.isnan(a) != math.isnan(b):
                # the one difference at a NaN (scalar_ops.py): fmaxf returns the other operand
                assert float(number) == (b if math.isnan(a) else a) and math.isnan(want.item()), (name, a, b)
            else:
                assert (math.isnan(float(number)) and math.isnan(want.item())) or \
                    math.isclose(float(number), want.item(), rel_tol=1e-5), (name, a, b, p)
    for i, j in itertools.product(range(-7, 8), range(1, 4)):
        assert int(next(out)) == i // j, (i, j)


def test_unordered_predicates_at_nan_follow_ieee(ops):
    nan, one = torch.tensor(math.nan), torch.tensor(1.0)
    truth = {p: evaluate(ops[p], [nan, one], TORCH).item() for p in PREDICATES}
    assert truth == {p: p.startswith("u") for p in PREDICATES}  # every unordered one, no ordered one
    assert evaluate(ops["ult"], ["a", "b"], C) == "!(a >= b)"
    assert evaluate(ops["one"], ["a", "b"], C) == "a < b || a > b"
    assert evaluate(ops["une"], ["a", "b"], C) == "a != b"


def test_what_no_domain_has_is_refused(ops):
    """A bitwise andi on integers, an unsigned compare, cmpf's constant predicates: no meaning,
    in any layer; divsi and remsi in a body: none in the emitter."""
    for name in ("andw", "cmpu", "never"):
        with pytest.raises(NoRule):
            evaluate(ops[name], ["x", "y"], C)
        with pytest.raises(NoRule):
            evaluate(ops[name], [torch.tensor(1), torch.tensor(2)], TORCH)
        with pytest.raises(ValueError, match="no value rule"):
            Values({}).scalar(ops[name], [z3.IntVal(1), z3.IntVal(2)])


def test_the_oracle_locates_an_op_it_cannot_run(ops):
    with dialects.context():
        text = 'func.func @f(%a: f32) {\n  %x = arith.cmpf true, %a, %a : f32 loc("spec.ta":3:7)\n  return\n}'
        module = ir.Module.parse(text)
        op = module.body.operations[0].entry_block.operations[0]
        with pytest.raises(TilecError) as err:
            scalar_op(op, "arith.cmpf", [torch.tensor(1.0), torch.tensor(1.0)])
    assert "spec.ta:3:7" in str(err.value) and "arith.cmpf predicate 15" in str(err.value)
