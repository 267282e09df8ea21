"""Helpers several test folders share: a spec run at the tile stage against the oracle, and a
one-place edit of IR text (a mutant)."""

import re

from tilec.executors.compare import compare
from tilec.executors.oracle import evaluate
from tilec.executors.tile_interpreter import run_tile
from tilec.lowering.driver import run_passes, to_tile
from tilec.signature import bind, random_inputs, signature
from torch_mlir import ir


def run_tile_stage(module, shapes, schedule, mutate=None, seed=0):
    fn = module.body.operations[0]
    sig = signature(fn)
    env = bind(sig, shapes)
    inputs = random_inputs(sig, env, seed)
    expected = evaluate(fn, inputs, env)
    tiled = to_tile(module, schedule)
    if mutate:
        tiled = ir.Module.parse(mutate(str(tiled)))
    actual = run_tile(tiled, sig, inputs, env)
    return [compare(actual[k], expected[k]) for k in expected]


def check_tile_stage(module, shapes, schedule="bm=16 bn=16 warps=1 stages=2"):
    run_passes(module, [f"ta-specialize-shapes{{shapes={','.join(f'{k}={v}' for k, v in shapes.items())}}}"])
    fn = module.body.operations[0]
    sig = signature(fn)
    env = bind(sig, shapes)
    inputs = random_inputs(sig, env, 3)
    expected = evaluate(fn, inputs, env)
    actual = run_tile(to_tile(module, schedule), sig, inputs, env)
    return [compare(actual[k], expected[k]) for k in expected]


def tile_and_reference(example: str, schedule: str) -> tuple[str, str]:
    """(the tile IR of an example at ``schedule``, the canonical ta it is checked against), as text."""
    from conftest import EXAMPLES
    from tilec import dialects
    from tilec.frontend import load_spec

    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        tiled = str(to_tile(module, schedule))
        reference = ir.Module.parse(str(module))
        run_passes(reference, ["ta-canonicalize"])
        return tiled, str(reference)


def edit_once(pattern: str, repl: str):
    def edit(text):
        new = re.sub(pattern, repl, text, count=1)
        assert new != text, f"the mutation {pattern!r} did not apply"
        return new
    return edit
