"""Error growth of the fused reductions: rows with a large offset (|mean| >> std, scores far from
0), run at the loop stage and on the tile interpreter (column loops and a row one block holds),
against float64 torch written independently, within the output dtype's tolerance.

The fused variance must not be the one-pass sum x^2 - 2 mean sum x + n mean^2 (equal over the
reals, so no proof sees it): in f32 it cancels catastrophically for rows at +300. Softmax,
log-sum-exp, attention and RMSNorm are shift-invariant or sums of positive terms; they are here
so that every fused reduction has its error measured the same way.
"""

import math

import pytest
import torch
import torch.nn.functional as F
from torch_mlir import ir

from conftest import EXAMPLES
from tilec import dialects
from tilec.compare import compare
from tilec.driver import run_stage, specialize
from tilec.frontend import load_spec, spec_to_ta
from tilec.signature import bind, random_inputs, signature


def _d(x):
    return x.double()


def _attention(x):
    q, k, v = _d(x["Q"]), _d(x["K"]), _d(x["V"])
    return {"O": torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1]), dim=-1) @ v}


def _layernorm(x):
    X = _d(x["X"])
    return {"Y": F.layer_norm(X, (X.shape[1],), _d(x["gamma"]), _d(x["beta"]), eps=1e-5), "mean": X.mean(dim=1),
            "rstd": torch.rsqrt(X.var(dim=1, unbiased=False) + 1e-5)}


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

# (spec, the input moved, offset, scale of its standard-normal values, shapes): the offsets the
# rows are far from 0 by. bf16 holds 300 + z to 2 and 3000 + 16 z to 16: the data keep a spread.
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


def _module(spec: str):
    return spec_to_ta(SPECS[spec], f"{spec}.ta") if spec in SPECS else load_spec(str(EXAMPLES / f"{spec}.ta"))


def _id(case) -> str:
    return f"{case[0]}+{case[2]:g}-{'x'.join(map(str, case[4].values()))}"


def _errors(spec, moved, offset, scale, shapes, stage, one_block=False):
    """{output: Comparison} of ``stage`` against float64 torch on inputs with a large offset."""
    with dialects.context(), ir.Location.unknown():
        module = _module(spec)
        sig = signature(module.body.operations[0])
        env = bind(sig, shapes)
        inputs = random_inputs(sig, env, seed=0)
        inputs[moved] = (inputs[moved].double() * scale + offset).to(inputs[moved].dtype)
        if one_block:  # the row width fixed in the types: the tile program reads a row once
            specialize(module, {"C": shapes["C"]})
        outputs = run_stage(stage, module, sig, inputs, env)
    expected = REFERENCES[spec](inputs)
    return {name: compare(outputs[name], value.to(outputs[name].dtype)) for name, value in expected.items()}


@pytest.mark.parametrize("stage", ["loop", "tile"])
@pytest.mark.parametrize("spec,moved,offset,scale,shapes", CASES, ids=[_id(c) for c in CASES])
def test_fused_reductions_keep_their_accuracy_far_from_zero(spec, moved, offset, scale, shapes, stage):
    bad = {name: str(c) for name, c in _errors(spec, moved, offset, scale, shapes, stage).items() if not c.ok}
    assert not bad, bad


ONE_BLOCK = [c for c in CASES if c[0] in ("layernorm", "rmsnorm", "variance", "moments")]


@pytest.mark.parametrize("spec,moved,offset,scale,shapes", ONE_BLOCK, ids=[_id(c) for c in ONE_BLOCK])
def test_one_block_rows_keep_their_accuracy_far_from_zero(spec, moved, offset, scale, shapes):
    """Where one block holds the row (C fixed), the variance is the two-pass form from registers."""
    bad = {name: str(c) for name, c in _errors(spec, moved, offset, scale, shapes, "tile", True).items() if not c.ok}
    assert not bad, bad
