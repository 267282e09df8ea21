"""Graph replay's rules (tilec/runtime/replay.py), on the CPU: CUDA graphs are modelled by
``Model`` (every tensor counts as on the GPU; a capture records the call and leaves its result
buffers as garbage; a replay runs the call again into those same buffers), so when a call
captures, replays or runs as usual, and what its results alias, are tested here; the GPU
benchmark (bench/replay.py) checks replayed results against eager ones on a GPU."""

import warnings

import pytest
import torch

from tilec.runtime.replay import Replay, ReplayWarning


REPLAYING = []  # set while the model replays a graph: the work is the GPU's, no Python of fn runs


class _Graph:
    def __init__(self, call, results):
        self.call, self.results, self.was_reset = call, results, False

    def replay(self):
        REPLAYING.append(True)
        try:
            out = self.call()
        finally:
            REPLAYING.pop()
        for mine, new in zip(self.results, (out,) if isinstance(out, torch.Tensor) else out):
            mine.copy_(new)

    def reset(self):
        self.was_reset = True


class Model:
    """CUDA graphs on the CPU, with a record of the graphs made."""

    def __init__(self, capturing=False, fail=None):
        self.graphs, self.is_capturing, self.fail = [], capturing, fail

    def on_device(self, t):
        return True

    def capturing(self):
        return self.is_capturing

    def capture(self, call):
        if self.fail:
            raise RuntimeError(self.fail)
        out = call()
        results = (out,) if isinstance(out, torch.Tensor) else tuple(out)
        for t in results:
            t.fill_(float("nan"))  # captured, not run: the buffers hold nothing yet
        graph = _Graph(call, results)
        self.graphs.append(graph)
        return graph, out


@pytest.fixture
def model(monkeypatch):
    m = Model()
    monkeypatch.setattr(Replay, "cuda", m)
    monkeypatch.delenv("TILEC_REPLAY", raising=False)
    return m


class Counted:
    """a @ b + 1, counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, a, b, sizes=None):
        self.calls += 0 if REPLAYING else 1
        return a @ b + (sizes or {}).get("shift", 1)


def test_the_second_call_runs_and_captures_later_calls_replay(model):
    fn = Counted()
    run = Replay(fn)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    first = run(a, b)
    assert fn.calls == 1 and run.captures == 0  # a key seen once: run as usual
    second = run(a, b)
    assert fn.calls == 3 and (run.captures, run.replays) == (1, 0)  # the call, then its capture
    for out in (first, second):
        torch.testing.assert_close(out, a @ b + 1)
    third = run(a, b)
    assert fn.calls == 3 and run.replays == 1  # no Python of fn: one graph launch
    torch.testing.assert_close(third, a @ b + 1)
    a.mul_(2)  # the graph reads the inputs where they are, as they are now
    torch.testing.assert_close(run(a, b), a @ b + 1)
    assert (run.captures, run.replays, run.graphs) == (1, 2, 1)


def test_keys_that_never_repeat_are_never_captured(model):
    fn = Counted()
    run = Replay(fn)
    b = torch.randn(3, 5)
    for n in range(1, 6):
        run(torch.randn(n, 3), b)
    assert run.captures == 0 and fn.calls == 5 and not model.graphs
    eager = Replay(Counted(), capture_after=0)  # captured at its first call
    eager(b.t(), b)
    assert eager.captures == 1


def test_results_are_fresh_unless_static(model):
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    copying, static = Replay(Counted(), capture_after=0), Replay(Counted(), results="static", capture_after=0)
    for run in (copying, static):
        run(a, b)
    kept_copy, kept_static = copying(a, b), static(a, b)
    before = kept_copy.clone()
    a.add_(1)
    again_copy, again_static = copying(a, b), static(a, b)
    torch.testing.assert_close(kept_copy, before)      # a kept result stays what it was
    assert again_copy.data_ptr() != kept_copy.data_ptr()
    assert again_static is kept_static                 # the graph's own buffer, overwritten
    torch.testing.assert_close(kept_static, a @ b + 1)


def test_a_new_key_captures_again(model):
    """Shapes, dtypes, strides, addresses and the other arguments' values are the key."""
    fn = Counted()
    run = Replay(fn, capture_after=0)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    run(a, b)
    run(a.clone(), b)                        # another address
    run(torch.randn(6, 3), b)                # another shape
    run(a, b.t().contiguous().t())           # other strides
    run(a, b, sizes={"shift": 3})            # another value of an argument
    assert run.captures == 5 and run.replays == 0
    torch.testing.assert_close(run(a, b, sizes={"shift": 3}), a @ b + 3)
    assert run.replays == 1


def test_copied_inputs_key_without_the_address(model):
    fn = Counted()
    run = Replay(fn, inputs="copy", capture_after=0)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    run(a, b)
    for _ in range(3):
        a2, b2 = torch.randn(4, 3), torch.randn(3, 5)  # new tensors every call: copied in
        torch.testing.assert_close(run(a2, b2), a2 @ b2 + 1)
    assert (run.captures, run.replays) == (1, 3)


def test_at_most_max_graphs_are_kept(model):
    run = Replay(Counted(), max_graphs=2, capture_after=0)
    b = torch.randn(3, 5)
    inputs = [torch.randn(n, 3) for n in (1, 2, 3)]
    for a in inputs:
        run(a, b)
    assert (run.captures, run.graphs) == (3, 2)
    assert [g.was_reset for g in model.graphs] == [True, False, False]  # the least recent, freed
    run(inputs[0], b)  # dropped: captured again
    assert run.captures == 4
    run.clear()
    assert run.graphs == 0 and all(g.was_reset for g in model.graphs)


def test_a_call_that_cannot_be_captured_runs_as_usual(monkeypatch):
    monkeypatch.setattr(Replay, "cuda", Model(fail="operation not permitted when stream is capturing"))
    fn = Counted()
    run = Replay(fn, capture_after=0)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    with pytest.warns(ReplayWarning, match="not captured and runs as usual.*operation not permitted"):
        first = run(a, b)
    torch.testing.assert_close(first, a @ b + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once: the key is remembered
        torch.testing.assert_close(run(a, b), a @ b + 1)
    assert run.captures == 0 and fn.calls == 2


def test_the_opt_out_and_calls_that_never_capture(model, monkeypatch):
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    off = Replay(Counted(), enabled=False, capture_after=0)
    off(a, b), off(a, b)
    monkeypatch.setenv("TILEC_REPLAY", "0")
    by_env = Replay(Counted(), capture_after=0)
    by_env(a, b), by_env(a, b)
    assert off.captures == by_env.captures == 0
    monkeypatch.delenv("TILEC_REPLAY")
    model.is_capturing = True  # inside a caller's own capture: its graph takes the work
    inside = Replay(Counted(), capture_after=0)
    inside(a, b)
    assert inside.captures == 0


def test_cpu_tensors_run_as_usual():
    """The real CUDA side: a call with no CUDA tensor never asks CUDA anything."""
    fn = Counted()
    run = Replay(fn)
    a, b = torch.randn(4, 3), torch.randn(3, 5)
    torch.testing.assert_close(run(a, b), a @ b + 1)
    assert fn.calls == 1 and run.captures == 0


@pytest.mark.parametrize("bad, message", [({"results": "fresh"}, "results must be"), ({"inputs": "pointer"}, "inputs must"),
                                          ({"max_graphs": 0}, "max_graphs must"), ({"capture_after": -1}, "capture_after")])
def test_bad_options_are_one_error(bad, message):
    with pytest.raises(ValueError, match=message):
        Replay(Counted(), **bad)


def test_compiled_graphs_replay_their_kernels_unless_told_not_to():
    import tilec

    compiled = tilec.compile(lambda x: torch.relu(x) * 2, (torch.randn(4, 8),))
    kernels = object()
    assert isinstance(compiled._replay_of(kernels), Replay) and compiled._replay_of(kernels).fn is kernels
    assert compiled._replay_of(kernels) is compiled._replay_of(kernels)  # one, kept
    plain = tilec.compile(lambda x: torch.relu(x) * 2, (torch.randn(4, 8),), replay=False)
    assert plain._replay_of(kernels) is kernels


def test_the_torch_compile_backend_replays_unless_told_not_to():
    from tilec.pytorch.backend import tilec_backend

    gm = torch.fx.symbolic_trace(lambda x: torch.relu(x) * 2)
    example = [torch.randn(4, 8)]
    assert tilec_backend(gm, example).graph.replay is True
    assert tilec_backend(gm, example, replay=False).graph.replay is False
