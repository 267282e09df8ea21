"""The graph cache (tilec/pytorch/cache.py), timed: the transformer block of
tests/test_pytorch.py compiled in two fresh processes sharing one empty cache folder, once by
``torch.compile(..., backend="tilec")`` and twice by ``tilec.compile`` (with torch.export used
once in the process before the timing, and with its first use counted). Each process reports the
seconds tilec took (the first exports, imports and raises the graph; the second reads it back:
the backend without exporting, ``tilec.compile`` after its export) and its first call (which
JITs the loop stage). CPU only.

    python bench/graph_cache.py
"""

import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, sys, time
import torch
sys.path.insert(0, "tests")
from test_pytorch import Block
import tilec.pytorch.backend as backend

seconds = {}
def timed(gm, example, **options):
    start = time.perf_counter()
    run = backend.tilec_backend(gm, example, **options)
    seconds["backend"] = time.perf_counter() - start
    return run

torch.manual_seed(0)
block, x = Block(), torch.randn(2, 7, 32)
compiled = torch.compile(block, backend=timed)
with torch.no_grad():
    start = time.perf_counter()
    compiled(x)
    seconds["first call, all in"] = time.perf_counter() - start
print(json.dumps(seconds))
"""

COMPILE = r"""
import json, sys, time
import torch
sys.path.insert(0, "tests")
from test_pytorch import Block
import tilec
from tilec.pytorch.importer import export

class _Warm(torch.nn.Module):
    def forward(self, x):
        return x + 1

if sys.argv[1:] == ["warm"]:
    export(_Warm(), (torch.randn(2),))  # torch.export's own first use (its import, first trace) left out
torch.manual_seed(0)
block, x = Block(), torch.randn(2, 7, 32)
seconds = {}
start = time.perf_counter()
graph = tilec.compile(block, (x,))
seconds["tilec.compile"] = time.perf_counter() - start
with torch.no_grad():
    start = time.perf_counter()
    graph(x)
    seconds["first call"] = time.perf_counter() - start
print(json.dumps(seconds))
"""


RUNS = (("torch.compile", CHILD, []), ("tilec.compile, torch.export used once before", COMPILE, ["warm"]),
        ("tilec.compile, torch.export's first use counted", COMPILE, []))


def main() -> None:
    root = os.path.join(os.path.dirname(__file__), "..")
    for what, child, args in RUNS:
        with tempfile.TemporaryDirectory() as cache:  # each pair of processes starts from an empty cache
            env = dict(os.environ, TILEC_CACHE_DIR=cache)
            for run in ("empty cache", "cached"):
                out = subprocess.run([sys.executable, "-c", child, *args], cwd=root, env=env, capture_output=True,
                                     text=True, check=True).stdout
                seconds = json.loads(out.strip().splitlines()[-1])
                print(f"{what}, {run}: " + ", ".join(f"{k} {v:.2f} s" for k, v in seconds.items()))


if __name__ == "__main__":
    main()
