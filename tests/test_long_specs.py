"""Long specs lower and run in time about linear in their length: a chain of 2,500 lets (the
most a 64 KiB spec holds) through the loop stage in seconds; the reduction fusion bounds the
summands it expands, so lets that read their predecessor twice, or a product of sums, cost
no more than short ones. Runaways run in a subprocess with a time limit."""

import resource
import subprocess
import sys
import time

import pytest
from torch_mlir import ir

from tilec import dialects
from tilec.lowering.driver import to_loops
from tilec.frontend import spec_to_ta
from tilec.executors.loop_runner import OPTIMISED_NESTS, lower_to_llvm


def chain(lets: int, step: str = "{prev}[i]*2", reduce: bool = False) -> str:
    """``let t0[i] = A[i] * 2`` then ``lets - 1`` lets, each computed from the one before."""
    lines = ["param N = 64", "input A[N] : f32", f"output C{'[]' if reduce else '[N]'} : f32",
             "let t0[i] = A[i] * 2"]
    lines += [f"let t{k}[i]=" + step.format(prev=f"t{k - 1}") for k in range(1, lets)]
    lines.append(f"C = sum[i](t{lets - 1}[i])" if reduce else f"C[i] = t{lets - 1}[i]")
    return "\n".join(lines) + "\n"


def _tilec(tmp_path, text: str, *args, seconds: float) -> tuple[subprocess.CompletedProcess, float]:
    """``tilec ARGS SPEC`` in a process of its own, killed past ``seconds``; (result, its CPU seconds)."""
    spec = tmp_path / "long.ta"
    spec.write_text(text)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run([sys.executable, "-m", "tilec", args[0], str(spec), *args[1:]],
                              capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tilec {' '.join(args)} ran past {seconds} s")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return done, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def test_2500_lets_run_at_the_loop_stage_in_seconds(tmp_path):
    """About 10 s of CPU here (three minutes before: ta-to-loops listed the function's ops per op,
    MLIR searched for a Python module of the ta dialect per op viewed, and LLVM compiled one
    function of 2,500 loop nests)."""
    done, cpu = _tilec(tmp_path, chain(2500), "run", "--stage", "loop", seconds=240)
    assert done.returncode == 0, done.stderr
    assert "loop vs oracle: max abs err 0.000e+00" in done.stdout
    assert cpu < 60, f"{cpu:.1f} s of CPU"


def test_ta_dialect_modules_are_searched_for_once(monkeypatch):
    """MLIR imports <prefix>.ta before it views a ta op; a failed import is retried per op."""
    searched = []

    class Spy:
        def find_spec(self, name, path=None, target=None):
            if name.rpartition(".")[2] in ("ta", "tile"):
                searched.append(name)
            return None

    monkeypatch.setattr(sys, "meta_path", [Spy(), *sys.meta_path])
    with dialects.context(), ir.Location.unknown():
        to_loops(spec_to_ta(chain(200), "chain.ta"))
    assert len(searched) <= 2, searched[:4]


def test_each_loop_nest_is_its_own_function_for_the_jit():
    with dialects.context(), ir.Location.unknown():
        loops = to_loops(spec_to_ta(chain(OPTIMISED_NESTS + 1), "chain.ta"))
        assert lower_to_llvm(loops) == OPTIMISED_NESTS + 1
        functions = [op for op in loops.body.operations if op.operation.name == "llvm.func"]
        assert sum("__nest" in str(op.attributes["sym_name"]) for op in functions) == OPTIMISED_NESTS + 1


@pytest.mark.parametrize("lets", [2, OPTIMISED_NESTS + 4])
def test_outlined_nests_compute_what_the_oracle_does(tilec, tmp_path, lets):
    """Optimised below OPTIMISED_NESTS nests, compiled plainly above: the same numbers."""
    spec = tmp_path / "chain.ta"
    spec.write_text(chain(lets, "{prev}[i]*0.5+tanh({prev}[i])-A[i]*0.25", reduce=lets > 2))
    status, out, err = tilec("run", spec, "--stage", "loop", "--seed", "3")
    assert status == 0 and "(ok)" in out, out + err


def test_a_let_chain_under_a_fused_reduction_lowers(tilec, tmp_path):
    """400 lets, each adding a row sum, summed: the summand (every let inlined) was deeper than
    Python's recursion limit ("error: maximum recursion depth exceeded")."""
    lines = ["param N = 64, M = 32", "input A[N, M] : f32", "output C[N] : f32", "let t0[i, j] = A[i, j] * 2"]
    lines += [f"let t{k}[i, j] = t{k - 1}[i, j] * 2 + sum[m](A[i, m])" for k in range(1, 400)]
    spec = tmp_path / "deep.ta"
    spec.write_text("\n".join(lines) + "\nC[i] = sum[j](t399[i, j])\n")
    status, out, err = tilec("compile", spec, "--emit", "loop")
    assert status == 0, err


@pytest.mark.parametrize("text", [
    # each let reads the one before twice: the summand doubles per let (2^40 nodes as a tree)
    "param N = 64, M = 32\ninput A[N, M] : f32\noutput C[N] : f32\nlet t0[i, j] = A[i, j] * 2\n"
    + "".join(f"let t{k}[i, j] = t{k - 1}[i, j] * t{k - 1}[i, j]\n" for k in range(1, 40))
    + "C[i] = sum[j](t39[i, j])\n",
    # a product of 24 sums in a softmax's numerator: 2^24 terms before like terms merge
    "param N = 64, M = 32\ninput A[N, M] : f32\noutput C[N] : f32\nlet m[i] = max[j](A[i, j])\n"
    "C[i] = sum[j](exp(A[i, j] - m[i]) * " + " * ".join(f"(A[i, j] + {k})" for k in range(24)) + ")\n",
], ids=["lets-read-twice", "product-of-sums"])
def test_summands_are_bounded_as_they_expand(tmp_path, text):
    start = time.monotonic()
    done, _ = _tilec(tmp_path, text, "compile", "--emit", "loop", seconds=60)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 60


def test_a_function_too_long_to_split_names_the_limit(tilec, tmp_path):
    """The split into kernels is quadratic in the ops (2,500 lets took two minutes, then failed)."""
    from tilec.graph.split import MAX_SPLIT_OPS

    spec = tmp_path / "long.ta"
    spec.write_text(chain(MAX_SPLIT_OPS + 1))
    status, out, err = tilec("compile", spec, "-o", tmp_path / "long.tkg")
    assert status == 1 and err.count("error:") == 1, err
    assert err.startswith(f"{spec}:1:1: error: 'long' is {MAX_SPLIT_OPS + 1} ops; tilec splits a function of "
                          f"at most {MAX_SPLIT_OPS} ops into kernels"), err
