"""The execution row (tilec/build/verification_run.py): a kernel whose sizes are fixed in its
types (a PyTorch graph compiled at its inputs' shapes) past what a CPU run takes is not run and
says so, ``unknown`` with the reason, and still packages; at small fixed sizes it runs."""

import torch

import tilec


def _matmul(x, w):
    return x @ w


def _rows(graph):
    return [r for r in graph.verify(targets=("sm_90a",)).results if r.property == "execution"]


def test_a_kernel_fixed_past_the_run_budget_is_unknown_and_packages(tmp_path):
    x = torch.zeros(512, 512, dtype=torch.bfloat16)
    graph = tilec.compile(_matmul, (x, x), stage="oracle", strict=True, name="big")
    rows = _rows(graph)
    assert [r.verdict for r in rows] == ["unknown"], [(r.verdict, r.detail) for r in rows]
    assert "[512, 512, 512]" in rows[0].detail and "not run" in rows[0].domain and "6.71e+07" in rows[0].detail
    graph.package(tmp_path / "big.tkp", targets=("sm_90a",))  # an unknown row does not stop the package
    assert (tmp_path / "big.tkp").exists()


def test_a_kernel_fixed_at_small_sizes_runs():
    x = torch.zeros(64, 64, dtype=torch.bfloat16)
    graph = tilec.compile(_matmul, (x, x), stage="oracle", strict=True, name="small")
    assert [r.verdict for r in _rows(graph)] == ["tested"]
