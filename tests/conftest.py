"""Shared helpers: lower a spec, run the oracle, call the CLI in-process."""

from pathlib import Path

import pytest
import torch
from torch_mlir import ir

from tilec import dialects
from tilec.cli import main
from tilec.frontend import load_spec, spec_to_ta
from tilec.executors.oracle import evaluate
from tilec.signature import bind, random_inputs, signature

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(autouse=True, scope="session")
def _caches_of_the_test_run(tmp_path_factory):
    """The caches of a test run (tilec/cache.py) live in its temporary folder, not in the
    user's ~/.cache (kept across the run's tests; a test may still set its own)."""
    import os

    if "TILEC_CACHE_DIR" not in os.environ:
        os.environ["TILEC_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    if "TILEC_CPU_CACHE_DIR" not in os.environ:
        # one C++ compiler cache for the run, whatever cache root a test sets: its C library is
        # built once (3-10 s), not in every test that runs CUDA on the CPU in a fresh root
        os.environ["TILEC_CPU_CACHE_DIR"] = str(tmp_path_factory.mktemp("cpu"))
    yield


def run_spec(source: str | Path, shapes: dict | None = None, seed: int = 0, file: str = "test.ta"):
    """(inputs, outputs, env) of the oracle on random inputs for a spec file or text."""
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(source)) if isinstance(source, Path) else spec_to_ta(source, file)
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, shapes or {})
        inputs = random_inputs(sig, env, seed)
        return inputs, evaluate(fn, inputs, env), env


def tile_matches_oracle(text: str, schedule: str, shapes: dict, seed: int = 0, file: str = "test.ta") -> dict:
    """{output: Comparison} of the tile kernel of spec ``text`` (built under ``schedule`` with
    symbolic sizes) on the interpreter against the oracle, at ``shapes`` on random inputs."""
    from tilec.executors.compare import compare
    from tilec.lowering.driver import build_tile
    from tilec.executors.tile_interpreter import run_tile

    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, file)
        build = build_tile(module, None, schedule)
        fn = module.body.operations[0]
        sig = signature(fn)
        env = bind(sig, shapes)
        inputs = random_inputs(sig, env, seed)
        expected = evaluate(fn, inputs, env)
        actual = run_tile(build.tile, sig, inputs, env)
    return {k: compare(actual[k], expected[k]) for k in expected}


def close(actual: torch.Tensor, expected: torch.Tensor, dtype=None) -> None:
    """Compare within the tolerance of the output's dtype."""
    tol = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}[dtype or actual.dtype]
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    torch.testing.assert_close(actual.double(), expected.double(), rtol=tol, atol=tol)


@pytest.fixture
def tilec(capfd):
    """Run ``tilec ARGS...`` in-process; returns (status, stdout, stderr)."""
    def call(*args):
        status = main([str(a) for a in args])
        out, err = capfd.readouterr()
        return status, out, err
    return call


@pytest.fixture
def backend_graphs(monkeypatch) -> list:
    """Every CompiledGraph the torch.compile backend builds while the test runs, in order."""
    import tilec.pytorch.backend as backend

    built = []

    class Recording(backend.CompiledGraph):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(backend, "CompiledGraph", Recording)
    return built
