"""sm_90a's tile-warp-specialize from Python: the clones it moves a staged program's ops with
(tilec/targets/sm_90a/clone.py), and the rewritten kernels of the contraction and attention
spaces run by the interpreter against the oracle. FileCheck tests of the rewrite itself:
tests/filecheck/passes/tile-warp-specialize*.mlir."""

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.dialects.schedule import Schedule
from tilec.executors.tile_interpreter import run_tile
from tilec.frontend import load_spec
from tilec.executors.oracle import evaluate
from tilec.lowering.driver import build_tile
from tilec.signature import bind, random_inputs, signature
from tilec.targets.sm_90a.clone import Clones

FN = """
func.func @f(%a: index, %b: index) -> index {
  %c2 = arith.constant 2 : index
  %0 = arith.muli %a, %c2 : index
  %1 = arith.addi %0, %b : index
  %2 = scf.execute_region -> index {
    %x = arith.addi %a, %c2 : index
    scf.yield %x : index
  }
  %3 = arith.muli %1, %2 : index
  return %3 : index
}
"""


def test_clones_come_in_program_order_with_their_values_replaced_inside_regions_too():
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse(FN)
        fn = module.body.operations[0]
        ops = list(fn.regions[0].blocks[0].operations)
        a, b = fn.regions[0].blocks[0].arguments
        clones = Clones(fn, keep=lambda op: op.name == "arith.constant")
        clones.map(a, b)
        with ir.InsertionPoint(ops[-1]):
            (result,) = clones.bring([ops[4].result])
        text = str(fn)
        # %0..%3 again after the originals, reading %b where they read %a (in the region too), %c2 kept
        tail = text[text.index("%4"):]
        assert [line.split("=")[1].split()[0] for line in tail.splitlines() if "=" in line] == \
            ["arith.muli", "arith.addi", "scf.execute_region", "arith.addi", "arith.muli"]
        assert "%arg0" not in tail and tail.count("%c2") == 2
        assert result.owner.name == "arith.muli"
        assert module.operation.verify()


def test_a_block_argument_of_a_region_left_behind_must_be_mapped():
    with dialects.context(), ir.Location.unknown():
        module = ir.Module.parse("""
func.func @g(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = arith.addi %i, %i : index
  }
  return
}""")
        fn = module.body.operations[0]
        loop = list(fn.regions[0].blocks[0].operations)[2]
        x = list(loop.regions[0].blocks[0].operations)[0].result
        with ir.InsertionPoint(list(fn.regions[0].blocks[0].operations)[-1]), pytest.raises(ValueError, match="map it"):
            Clones(fn, keep=lambda op: False).bring([x])


@pytest.mark.parametrize("spec,form", [("gemm", "contraction"), ("batched_gemm", "contraction"),
                                       ("swiglu", "contraction"), ("causal_attention", "online"),
                                       ("gqa_attention", "online")])
def test_warp_specialised_points_compute_what_the_spec_does(spec, form):
    """Warp-specialised points of the form's space on sm_90a (a contraction's every fifth;
    attention's all, the rotated key loops among them), on sizes that divide no tile: the
    interpreter runs the rewritten kernel against the oracle."""
    shapes = {"gemm": {"M": 130, "N": 200, "K": 72}, "batched_gemm": {"M": 130, "N": 200, "K": 72}, "swiglu": {},
              "causal_attention": {"B": 1, "H": 2, "S": 100}, "gqa_attention": {"B": 1, "S": 100, "T": 75}}[spec]
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{spec}.ta"))
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, shapes)
        inputs = random_inputs(sig, env, seed=3)
        want = evaluate(fn, inputs, env)
        points = [p for p in Schedule.space(form, "sm_90a") if p.consumers]
        points = points[::5] if form == "contraction" else points
        ran = 0
        for point in points:
            try:
                tiled = build_tile(module, shapes, point.as_text(), "sm_90a")
            except Exception as err:  # an illegal point (the schedule's check) is not this test's
                assert "cannot build" in str(err) or "schedule" in str(err), err
                continue
            assert "tile.warp_specialize" in str(tiled.tile)
            got = run_tile(tiled.tile, signature(tiled.ta.body.operations[0]), inputs, env)
            for name, value in want.items():
                torch.testing.assert_close(got[name].float(), value.float(), rtol=2e-2, atol=2e-2)
            ran += 1
        assert ran >= 2
