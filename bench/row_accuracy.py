"""Accuracy of the fused reductions far from 0: rows moved by a large offset (|mean| >> std,
scores far from 0), run at the loop stage and on the tile interpreter (column loops, and a row
one block holds), against float64 torch written independently; the error is measured as
tilec run does (tilec/executors/compare.py: within the output dtype's tolerance or not).

    PYTHONPATH=. python bench/row_accuracy.py          # a table: case, stage, output, errors

tests/passes/test_ta_fuse_reductions.py asserts every case of CASES is within tolerance.
"""

import math
import os
import sys

import torch
import torch.nn.functional as F
from torch_mlir import ir

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tilec import dialects  # noqa: E402
from tilec.executors.compare import compare  # noqa: E402
from tilec.lowering.driver import specialize  # noqa: E402
from tilec.build.stages import run_stage  # noqa: E402
from tilec.frontend import load_spec, spec_to_ta  # noqa: E402
from tilec.signature import bind, random_inputs, signature  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")

# the variance written mean - x; a weighted one (its step reads lower moments of weight w) and a
# 4th moment. A weighted sum of deviations feels an error e of the mean to first order,
# 2 e sum_c w (x - mean), whatever computes it, and f32 holds a mean near 300 to 3e-5 at best:
# the weights are positive (so the sum is not itself a cancellation) and X is bf16 (its rows at
# +300 sum exactly in f32).
SPECS = {
    "variance": """param N = 16, C = 300
input X[N, C] : f32
output V[N] : f32
let mean[n] = sum[c](X[n, c]) / C
V[n] = sum[c]((mean[n] - X[n, c]) * (mean[n] - X[n, c])) / C
""",
    "moments": """param N = 16, C = 300
input X[N, C] : bf16
input w[C] : f32
output V[N] : f32
output K[N] : f32
let mean[n] = sum[c](X[n, c]) / C
let d[n, c] = X[n, c] - mean[n]
V[n] = sum[c](exp(w[c]) * d[n, c] * d[n, c])
K[n] = sum[c](d[n, c] * d[n, c] * d[n, c] * d[n, c]) / C
""",
}


def _d(x):
    return x.double()


def _attention(x):
    q, k, v = _d(x["Q"]), _d(x["K"]), _d(x["V"])
    return {"O": torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1) @ v}


def _layernorm(x):
    X = _d(x["X"])
    return {"Y": F.layer_norm(X, (X.shape[1],), _d(x["gamma"]), _d(x["beta"]), eps=1e-5), "mean": X.mean(dim=1),
            "rstd": torch.rsqrt(X.var(dim=1, unbiased=False) + 1e-5)}


def _moments(x):
    d = _d(x["X"]) - _d(x["X"]).mean(dim=1, keepdim=True)
    return {"V": (_d(x["w"]).exp() * d * d).sum(dim=1), "K": (d ** 4).mean(dim=1)}


REFERENCES = {  # float64, from the inputs as the stages read them
    "layernorm": _layernorm,
    "rmsnorm": lambda x: {"Y": F.rms_norm(_d(x["X"]), (x["X"].shape[1],), _d(x["w"]), eps=1e-6)},
    "softmax": lambda x: {"Y": torch.softmax(_d(x["X"]), dim=1)},
    "logsumexp": lambda x: {"L": torch.logsumexp(_d(x["X"]), dim=1)},
    "attention": _attention,
    "variance": lambda x: {"V": _d(x["X"]).var(dim=1, unbiased=False)},
    "moments": _moments,
}

# (spec, the input moved, offset, scale of its standard-normal values, shapes): bf16 holds
# 300 + z to 2 and 3000 + 16 z to 16, so the data keep a spread
CASES = [
    ("layernorm", "X", 300.0, 1.0, {"N": 9, "C": 768}),
    ("layernorm", "X", 3000.0, 16.0, {"N": 9, "C": 768}),
    ("layernorm", "X", 300.0, 1.0, {"N": 5, "C": 300}),   # a remainder column block
    ("variance", "X", 300.0, 1.0, {"N": 7, "C": 300}),
    ("variance", "X", 3000.0, 1.0, {"N": 7, "C": 1000}),
    ("moments", "X", 300.0, 1.0, {"N": 7, "C": 300}),
    ("rmsnorm", "X", 300.0, 1.0, {"N": 9, "C": 768}),
    ("softmax", "X", 300.0, 1.0, {"N": 9, "C": 1000}),
    ("softmax", "X", 3000.0, 1.0, {"N": 9, "C": 1000}),
    ("logsumexp", "X", 3000.0, 1.0, {"N": 9, "C": 1000}),
    # K moved by 30 moves every score of query i by 30 sum_e Q[i, e] / sqrt(D) (about +-100)
    ("attention", "K", 30.0, 1.0, {"B": 1, "H": 2, "S": 33, "T": 80, "D": 64}),
]
ONE_BLOCK = ("layernorm", "rmsnorm", "variance", "moments")  # row programs whose row fits a block


def case_id(case) -> str:
    """layernorm+300-9x768: the spec, its offset and its shapes."""
    return f"{case[0]}+{case[2]:g}-{'x'.join(map(str, case[4].values()))}"


def _module(spec: str):
    if spec in SPECS:
        return spec_to_ta(SPECS[spec], f"{spec}.ta")
    return load_spec(os.path.join(EXAMPLES, f"{spec}.ta"))


def errors(spec, moved, offset, scale, shapes, stage, one_block=False) -> dict:
    """{output: Comparison} of ``stage`` ("loop", "tile") against float64 torch on inputs whose
    ``moved`` input is scale * z + offset; ``one_block``: the row width fixed in the types.

    Example: errors("layernorm", "X", 300.0, 1.0, {"N": 9, "C": 768}, "loop")["rstd"].ok"""
    with dialects.context(), ir.Location.unknown():
        module = _module(spec)
        sig = signature(module.body.operations[0])
        env = bind(sig, shapes)
        inputs = random_inputs(sig, env, seed=0)
        inputs[moved] = (inputs[moved].double() * scale + offset).to(inputs[moved].dtype)
        if one_block:  # the tile program then reads the row once
            specialize(module, {"C": shapes["C"]})
        outputs = run_stage(stage, module, sig, inputs, env)
    expected = REFERENCES[spec](inputs)
    return {name: compare(outputs[name], value.to(outputs[name].dtype)) for name, value in expected.items()}


def main() -> None:
    runs = [(case, stage, False) for case in CASES for stage in ("loop", "tile")]
    runs += [(case, "tile", True) for case in CASES if case[0] in ONE_BLOCK]
    for case, stage, one_block in runs:
        for name, c in errors(*case, stage, one_block).items():
            where = "tile, one block" if one_block else stage
            print(f"{case_id(case):34s} {where:16s} {name:5s} {c}")


if __name__ == "__main__":
    main()
