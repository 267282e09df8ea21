"""ta-raise-softmax on the ta PyTorch code gives: the softmax torch-mlir writes out becomes one
ta.softmax, and the rewrite is proved (the ta rewrite check, for all shapes) and runs the same on
the oracle; a guarded softmax (SDPA's) keeps its guard."""

import torch
import torch.nn.functional as F
from torch_mlir import ir

import tilec
from tilec.executors.oracle import evaluate
from tilec.lowering.driver import copy_module, run_passes
from tilec.signature import bind, random_inputs, signature
from tilec.verify.ta_rewrites import check_rewrite


def _raised(fn, shape=(1, 2, 5, 3)):
    q, k, v = (torch.randn(*shape) for _ in range(3))
    graph = tilec.compile(fn, (q, k, v))
    with graph.context, ir.Location.unknown():
        after = copy_module(graph.module)
        run_passes(after, ["ta-raise-softmax", "canonicalize", "cse"])
        return graph, after, str(after)


def _proved_and_equal(graph, after) -> None:
    with graph.context, ir.Location.unknown():
        before, new = graph.module.body.operations[0], after.body.operations[0]
        rows = check_rewrite("ta-raise-softmax", before, new)
        sig = signature(before)
        env = bind(sig, {})
        inputs = random_inputs(sig, env, 0)
        old, raised = evaluate(before, inputs, env), evaluate(new, inputs, env)
    assert rows and {r.verdict for r in rows} == {"proved"}, [(r.verdict, r.detail) for r in rows]
    for name in old:
        torch.testing.assert_close(raised[name], old[name], rtol=1e-6, atol=1e-6)


def test_a_written_out_softmax_is_raised_and_proved():
    graph, after, text = _raised(lambda q, k, v: torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1) @ v)
    assert text.count('"ta.softmax"') == 1 and "ta.reduce" not in text
    _proved_and_equal(graph, after)


def test_a_guarded_softmax_keeps_its_guard():
    """SDPA's decomposition guards a fully masked row (where(max == -inf, 0, softmax)): the
    softmax inside is raised, the guard and the max it reads stay."""
    graph, after, text = _raised(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))
    assert text.count('"ta.softmax"') == 1 and 'kind = "max"' in text and "arith.select" in text
    _proved_and_equal(graph, after)
