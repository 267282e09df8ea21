"""bench/trace_graph.py's reading of a profiler trace: each marked call's kernels after the
flush and the spin, their span and sum, and the idle gaps with the host calls under them."""

import sys
from conftest import ROOT

sys.path.insert(0, str(ROOT))

from bench.trace_graph import MARK, _calls, _summary  # noqa: E402


def _trace() -> dict:
    """Two calls (marks at 0 and 1000 us); each: flush, spin, then three kernels, with a 20 us
    hole before the third of the first call while the host was in cudaMalloc."""
    events = []
    for start, hole in ((0, 20), (1000, 0)):
        events.append({"name": MARK, "ts": start, "dur": 50, "cat": "user_annotation"})
        events += [{"name": "fill", "ts": start + 10, "dur": 5, "cat": "kernel"},
                   {"name": "spin", "ts": start + 20, "dur": 100, "cat": "kernel"},
                   {"name": "k0", "ts": start + 121, "dur": 100, "cat": "kernel"},
                   {"name": "k1", "ts": start + 222, "dur": 100, "cat": "kernel"},
                   {"name": "k2", "ts": start + 323 + hole, "dur": 100, "cat": "kernel"}]
        if hole:
            events.append({"name": "cudaMalloc", "ts": start + 325, "dur": 15, "cat": "cuda_runtime"})
    return {"traceEvents": events}


def test_a_calls_kernels_span_sum_and_gaps():
    calls = _calls(_trace())
    assert [[k[2] for k in kernels] for kernels, _ in calls] == [["fill", "spin", "k0", "k1", "k2"]] * 2
    summary = _summary(calls, skip=2)
    # spans 322 and 302 us, sums 300: the median of two is their mean
    assert abs(summary["span_ms"] - 0.312) < 1e-9 and abs(summary["kernel_sum_ms"] - 0.300) < 1e-9
    gap, = summary["gaps"]
    assert gap["after"] == "k1" and gap["before"] == "k2" and gap["us"] == 21
    assert gap["host_calls_during"] == ["cudaMalloc"]
    assert abs(summary["gap_total_ms_per_call"] - 0.0105) < 1e-9
