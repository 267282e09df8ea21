"""Graph replay: a kernel, a graph package or a compiled graph run as captured CUDA graphs.

    graph = tilec.runtime.load("block.tkg")
    step = tilec.runtime.Replay(graph)          # any callable whose CUDA work goes on the current stream
    y = step(x)                                 # first call with these inputs: run as usual
    y = step(x)                                 # second: run, then captured
    y = step(x)                                 # later calls: one graph launch (cudaGraphLaunch)

A launch from Python costs tens of microseconds of host time per kernel (arguments checked,
sizes bound, tensor maps encoded); a captured graph launches all of a call's kernels at once.

**When it captures.** A call's key is, for each tensor argument, its device, dtype, shape,
strides and address (``inputs="address"``, the default), and the value of every other
argument. The first ``capture_after`` calls with a key (1 by default) run ``fn`` as usual; the
next also runs as usual (its results are that call's) and then captures it into a graph of
its own; every later call with that key replays the graph. So a loop that passes the same
tensors (a model's weights, a static batch buffer) captures once, at its second step, and a
stream of calls whose shapes or addresses never repeat never pays for a capture (which
synchronises the device); a key whose graph was dropped starts over. ``inputs="copy"`` keys on everything
but the addresses instead and copies each call's inputs into the graph's own first (a copy
kernel per input): one capture per shape however the inputs are allocated. At most
``max_graphs`` graphs are kept; the least recently replayed is dropped (its memory freed).

**What it returns.** ``results="copy"`` (the default): fresh tensors, copied from the graph's
result buffers after the replay, so a result kept across calls stays what it was.
``results="static"``: the graph's buffers themselves, which the next replay of the same key
overwrites (no copy: for a loop that consumes each result before the next call).

**When it does not capture.** Calls with no CUDA tensor, calls made while the stream is being
captured already (inside a caller's own graph), and, with ``TILEC_REPLAY=0`` in the
environment when the Replay is made or ``enabled=False``, every call, run ``fn`` as usual. A capture that fails (``fn``
synchronises with the host, say) leaves that key to run as usual, with one
``ReplayWarning`` saying why. ``fn`` must not read its inputs' values on the host, nor launch
on another stream than the current one: a graph replays only the work it saw.
"""

from __future__ import annotations

import os
import warnings
from collections import OrderedDict

import torch

ENV = "TILEC_REPLAY"  # "0": no call is captured (the opt-out)
SEEN = 256  # keys remembered before their capture (the least recent forgotten)


class ReplayWarning(UserWarning):
    """A call that could not be captured: it runs as usual (the message says why)."""


def replay_enabled() -> bool:
    """Whether graph replay is on for this process (``TILEC_REPLAY=0`` turns it off)."""
    return os.environ.get(ENV, "1") != "0"


class CudaGraphs:
    """What Replay asks of CUDA: whether a tensor is on a GPU, whether the stream is being
    captured, and a capture of a call (a graph with ``replay()`` and ``reset()``, and the call's
    results). The tests give Replay a model of it that runs on the CPU."""

    @staticmethod
    def on_device(t: torch.Tensor) -> bool:
        return t.is_cuda

    @staticmethod
    def capturing() -> bool:
        return torch.cuda.is_current_stream_capturing()

    @staticmethod
    def capture(call):
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):  # a memory pool of its own: its buffers outlive the call
            out = call()
        return graph, out


def _value(a):
    """The key's part for an argument other than a tensor: its value (a dict's and a sequence's
    items, a tensor inside one by its layout and address)."""
    if isinstance(a, torch.Tensor):
        return ("tensor", a.data_ptr(), a.shape, a.stride(), a.dtype, a.device)
    if isinstance(a, dict):
        return ("dict", tuple(sorted((k, _value(v)) for k, v in a.items())))
    if isinstance(a, (list, tuple)):
        return (type(a).__name__, tuple(_value(x) for x in a))
    return ("value", a)


class _Captured:
    """One captured call: the graph, the tensors it reads (its own, with ``inputs="copy"``) and
    the results it writes."""

    def __init__(self, graph, inputs: list, results, single: bool):
        self.graph, self.inputs, self.results, self.single = graph, inputs, results, single


class Replay:
    """``fn`` run as captured CUDA graphs, one per key (see the module's docstring)."""

    EAGER = object()  # a key whose capture failed: it runs as usual
    cuda = CudaGraphs()

    def __init__(self, fn, *, results: str = "copy", inputs: str = "address", max_graphs: int = 8,
                 capture_after: int = 1, enabled: bool | None = None):
        if results not in ("copy", "static"):
            raise ValueError(f"results must be 'copy' or 'static', not {results!r}")
        if inputs not in ("address", "copy"):
            raise ValueError(f"inputs must be 'address' or 'copy', not {inputs!r}")
        if not isinstance(max_graphs, int) or max_graphs < 1:
            raise ValueError(f"max_graphs must be an integer >= 1, not {max_graphs!r}")
        if not isinstance(capture_after, int) or capture_after < 0:
            raise ValueError(f"capture_after must be an integer >= 0, not {capture_after!r}")
        self.capture_after = capture_after
        self._seen: OrderedDict = OrderedDict()  # key -> calls run as usual so far (the last SEEN keys)
        self.fn, self.results, self.inputs, self.max_graphs = fn, results, inputs, max_graphs
        self.enabled = replay_enabled() if enabled is None else enabled  # TILEC_REPLAY read once, here
        self._graphs: OrderedDict = OrderedDict()
        self.captures = self.replays = 0  # how many calls captured, and replayed (tests, benchmarks)

    @property
    def name(self) -> str:
        return getattr(self.fn, "name", getattr(self.fn, "__name__", type(self.fn).__name__))

    def __call__(self, *args, **kwargs):
        if not self.enabled:
            return self.fn(*args, **kwargs)
        key, on_device = self._key(args, kwargs)
        if not on_device or self.cuda.capturing():
            return self.fn(*args, **kwargs)
        entry = self._graphs.get(key)
        if entry is None:
            out = self.fn(*args, **kwargs)  # loads, plans and warms the allocator; this call's results
            runs = self._seen.pop(key, 0)
            if runs >= self.capture_after:
                self._capture(key, args, kwargs)
            else:
                self._seen[key] = runs + 1
                if len(self._seen) > SEEN:
                    self._seen.popitem(last=False)
            return out
        if entry is self.EAGER:
            return self.fn(*args, **kwargs)
        self._graphs.move_to_end(key)
        if entry.inputs:
            for mine, given in zip(entry.inputs, (a for a in args if isinstance(a, torch.Tensor))):
                mine.copy_(given)
        entry.graph.replay()
        self.replays += 1
        results = entry.results if self.results == "static" else tuple(t.clone() for t in entry.results)
        return results[0] if entry.single else results

    def _key(self, args, kwargs) -> tuple:
        """(the call's key, whether a tensor argument is on the GPU); a tensor's part is read in
        one tuple (a graph's dozen weights cost a microsecond each)."""
        address = self.inputs == "address"
        parts, on_device = [], False
        for a in args:
            if isinstance(a, torch.Tensor):
                parts.append((a.data_ptr() if address else 0, a.shape, a.stride(), a.dtype, a.device))
                on_device = on_device or self.cuda.on_device(a)
            else:
                parts.append(_value(a))
        return (tuple(parts), tuple(sorted((k, _value(v)) for k, v in kwargs.items())) if kwargs else ()), on_device

    def _capture(self, key, args, kwargs) -> None:
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        mine = [t.clone() for t in tensors] if self.inputs == "copy" else tensors
        swap = iter(mine)
        captured_args = [next(swap) if isinstance(a, torch.Tensor) else a for a in args]
        try:
            graph, out = self.cuda.capture(lambda: self.fn(*captured_args, **kwargs))
        except Exception as err:  # noqa: BLE001 - any failure to capture: this key runs as usual
            self._graphs[key] = self.EAGER
            warnings.warn(f"{self.name}: this call is not captured and runs as usual ({type(err).__name__}: "
                          f"{str(err).splitlines()[0] if str(err) else ''})", ReplayWarning, stacklevel=3)
            return
        single = isinstance(out, torch.Tensor)
        results = (out,) if single else tuple(out)
        if not all(isinstance(t, torch.Tensor) for t in results):
            self._graphs[key] = self.EAGER
            warnings.warn(f"{self.name}: returns other than tensors; it runs as usual", ReplayWarning, stacklevel=3)
            return
        # "address": the graph reads the caller's tensors where they are, and holds none of them
        # (a loop's next input may then take the freed one's place, and key)
        self._graphs[key] = _Captured(graph, mine if self.inputs == "copy" else [], results, single)
        self.captures += 1
        while len(self._graphs) > self.max_graphs:
            _, dropped = self._graphs.popitem(last=False)
            if dropped is not self.EAGER:
                dropped.graph.reset()

    def clear(self) -> None:
        """Drop every graph (their memory is freed); each key starts over."""
        for entry in self._graphs.values():
            if entry is not self.EAGER:
                entry.graph.reset()
        self._graphs.clear()
        self._seen.clear()

    @property
    def graphs(self) -> int:
        """How many captured graphs are kept."""
        return sum(1 for e in self._graphs.values() if e is not self.EAGER)
