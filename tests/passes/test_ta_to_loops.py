"""The loop stage: every example and more specs, JIT-run on the CPU, match the oracle;
the fused attention makes one pass over the keys and never stores a scores matrix."""

import re

import pytest
import torch
from torch_mlir import ir

from conftest import EXAMPLES, run_spec
from test_examples import ODD_SHAPES, REFERENCES
from tilec import dialects
from tilec.executors.compare import compare
from tilec.lowering.driver import LOOP_PIPELINE, run_passes, to_loops
from tilec.frontend import load_spec, spec_to_ta
from tilec.executors.loop_runner import run_loops
from tilec.executors.oracle import evaluate
from tilec.signature import bind, random_inputs, signature


def _check_loop_stage(module, shapes, seed=0):
    fn = module.body.operations[0]
    sig = signature(fn)
    env = bind(sig, shapes)
    inputs = random_inputs(sig, env, seed)
    expected = evaluate(fn, inputs, env)
    actual = run_loops(to_loops(module), sig, inputs, env)
    for name in expected:
        result = compare(actual[name], expected[name])
        assert result.ok, f"{name}: {result}"


@pytest.mark.parametrize("name", sorted(REFERENCES))
@pytest.mark.parametrize("shapes", ["default", "odd"])
def test_example_at_loop_stage(name, shapes):
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{name}.ta"))
        _check_loop_stage(module, ODD_SHAPES[name] if shapes == "odd" else {})


MORE_SPECS = {
    # 1.0 is an f32 (not the integer 1): 1.0 / N is a real division, 1 / N an index one
    "float-literal-over-param": ("param N\ninput X[N] : f32\noutput Y[N] : f32\nY[i] = X[i] * (1.0 / N)\n",
                                 [{"N": 1}, {"N": 7}]),
    # a rank-0 input read by its bare name, and a rank-0 result read back
    "rank-0-by-name": ("param N\ninput s[] : f32\ninput X[N] : f32\noutput t[] : f32\noutput Y[N] : f32\n"
                       "t = sum[i](X[i]) * s\nY[i] = X[i] / t + s\n", [{"N": 1}, {"N": 9}]),
    "sum-max-min": ("param N, C\ninput X[N, C] : f32\noutput S[N] : f32\noutput A[N] : f32\noutput B[N] : f32\n"
                    "S[n] = sum[c](X[n, c])\nA[n] = max[c](X[n, c])\nB[n] = min[c](X[n, c])\n",
                    [{"N": 1, "C": 1}, {"N": 7, "C": 33}, {"N": 3, "C": 1000}]),
    "scalar-output": ("param N\ninput X[N] : f32\noutput t[] : f32\nt = sum[i](X[i] * X[i])\n",
                      [{"N": 1}, {"N": 1000}]),
    "mask-and": ("param S\ninput X[S, S] : f32\noutput Y[S, S] : f32\n"
                 "Y[i, j] = X[i, j] where j <= i and i - j < 3 else -1.5\n", [{"S": 1}, {"S": 33}]),
    "shift": ("param N\ninput X[N + 1] : f32\noutput D[N] : f32\nD[i] = X[i + 1] - X[i + 0]\n",
              [{"N": 1}, {"N": 7}]),
    "grouped-heads": ("param H, T\nconst G = 3\ninput K[H / G, T] : bf16\noutput R[H, T] : bf16\n"
                      "R[h, j] = K[h / G, j]\n", [{"H": 3, "T": 1}, {"H": 9, "T": 33}]),
    "transpose-broadcast": ("param M, N\ninput A[M, N] : f16\ninput b[M] : f16\noutput T[N, M] : f16\n"
                            "T[j, i] = A[i, j] + b[i]\n", [{"M": 7, "N": 33}]),
    "functions": ("param N\ninput X[N] : f32\noutput Y[N] : f32\n"
                  "Y[i] = select(X[i] > 0, sigmoid(X[i]) + tanh(X[i]), abs(X[i]) - sqrt(abs(X[i]))) "
                  "+ max(X[i], 0.25) * erf(X[i]) - log(1 + exp(X[i]))\n", [{"N": 33}]),
    "logsumexp-2d": ("param N, C\ninput X[N, C] : f32\noutput L[N] : f32\nL[n] = logsumexp[c](X[n, c] * 4)\n",
                     [{"N": 7, "C": 1}, {"N": 2, "C": 1000}]),
    "softmax-cols": ("param N, C\ninput X[N, C] : f32\noutput P[N, C] : f32\nP[n, c] = softmax[n](X[n, c])\n",
                     [{"N": 33, "C": 7}]),
    "variance-and-max-groups": ("param N, C\ninput X[N, C] : f32\noutput V[N] : f32\noutput M[N] : f32\n"
                                "V[n] = sum[c]((X[n, c] - sum[k](X[n, k]) / C) * (X[n, c] - sum[k](X[n, k]) / C)) / C\n"
                                "M[n] = sum[c](X[n, c] * exp(X[n, c] - max[k](X[n, k])))\n",
                                [{"N": 1, "C": 1}, {"N": 7, "C": 33}]),
    "multi-index-sum": ("param A, B, C\ninput X[A, B, C] : f32\noutput s[A] : f32\n"
                        "s[a] = sum[b, c](X[a, b, c])\n", [{"A": 7, "B": 1, "C": 33}]),
    "cross-attention-sq-ne-sk": ("param S, T, D\ninput Q[S, D] : bf16\ninput K[T, D] : bf16\ninput V[T, D] : bf16\n"
                                 "input bias[S, T] : bf16\noutput O[S, D] : f32\n"
                                 "O[i, d] = sum[j](softmax[j](sum[e](Q[i, e] * K[j, e]) + bias[i, j]) * V[j, d])\n",
                                 [{"S": 1, "T": 33, "D": 7}, {"S": 33, "T": 1, "D": 1}]),
}


@pytest.mark.parametrize("name", sorted(MORE_SPECS))
def test_spec_at_loop_stage(name):
    text, shape_list = MORE_SPECS[name]
    for shapes in shape_list:
        with dialects.context(), ir.Location.unknown():
            _check_loop_stage(spec_to_ta(text, f"{name}.ta"), shapes)


def _loads(op, buffer) -> bool:
    """Whether ``op`` or anything nested in it loads from ``buffer``."""
    found = []

    def visit(inner):
        if inner.name == "memref.load" and inner.operands[0] == buffer:
            found.append(inner)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return bool(found)


@pytest.mark.parametrize("example", ["attention", "causal_attention", "gqa_attention", "attention_bias"])
def test_fused_attention_is_one_pass_over_keys(example):
    with dialects.context(), ir.Location.unknown():
        module = to_loops(load_spec(str(EXAMPLES / f"{example}.ta")))
        fn = module.body.operations[0]
        args = {ir.StringAttr(ir.DictAttr(a)["ta.name"]).value if "ta.name" in ir.DictAttr(a)
                else ir.StringAttr(ir.DictAttr(a)["ta.param"]).value: v
                for a, v in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments)}
        keys = args["T"] if "T" in args else args["S"]
        loops = []

        def visit(op):
            if op.name == "scf.for" and op.operands[1] == keys and _loads(op, args["K"]):
                loops.append(op)
            return ir.WalkResult.ADVANCE

        fn.operation.walk(visit)
        # one loop over the keys reads K (the loops around it run over rows and heads)
        outermost = [op for op in loops if not any(o != op and _contains(o, op) for o in loops)]
        assert len(outermost) == 1
        text = str(module)
    rows = args_name(text, "S")
    cols = args_name(text, "T") or rows
    for sizes in re.findall(r"memref.alloc\(([^)]*)\)", text):
        parts = [p.strip() for p in sizes.split(",")]
        assert parts.count(rows) + (parts.count(cols) if cols != rows else 0) <= 1, f"a scores buffer: {sizes}"


def _contains(outer, inner) -> bool:
    parent = inner.parent
    while parent is not None:
        if parent == outer:
            return True
        parent = parent.parent
    return False


def args_name(text: str, param: str) -> str | None:
    match = re.search(rf'(%arg\d+): index {{ta.param = "{param}"}}', text)
    return match[1] if match else None


@pytest.mark.parametrize("example", ["attention", "causal_attention", "gqa_attention", "attention_bias",
                                     "softmax", "logsumexp", "layernorm"])
def test_fusion_applies_from_the_spec_alone(example):
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / f"{example}.ta"))
        run_passes(module, LOOP_PIPELINE[:-1])  # everything before ta-to-loops
        text = str(module)
    assert '"ta.online"' in text
    assert '"ta.reduce"' not in text and "ta.softmax" not in text and "ta.logsumexp" not in text


def test_gemm_is_left_alone_by_fusion():
    with dialects.context(), ir.Location.unknown():
        module = load_spec(str(EXAMPLES / "gemm.ta"))
        run_passes(module, LOOP_PIPELINE[:-1])
        assert '"ta.online"' not in str(module) and '"ta.contract"' in str(module)


def test_run_stage_loop_command(tilec):
    status, out, err = tilec("run", EXAMPLES / "attention.ta", "--stage", "loop", "--shape", "S=9,T=17")
    assert status == 0, err
    assert "loop vs oracle: max abs err" in out and "(ok)" in out


def test_compile_emit_loop(tilec):
    status, out, err = tilec("compile", EXAMPLES / "softmax.ta", "--emit", "loop")
    assert status == 0, err
    assert "scf.for" in out and "memref" in out and '"ta.' not in out


# what a JIT-ed loop program may call: libc's allocator and memory functions, libm's
# float functions. Anything else (libgcc's __truncsfbf2, __extendhfsf2, ...) is missing
# from some Linux machines users have (GCC 12's libgcc on Debian 12 / Ubuntu 22.04).
LIBC = {"malloc", "free", "memset", "memcpy", "memmove", "aligned_alloc", "abort"}
LIBM = {"expf", "logf", "tanhf", "erff", "sqrtf", "powf", "exp2f", "log2f", "log1pf", "expm1f",
        "fabsf", "floorf", "ceilf", "fmaf", "fmaxf", "fminf", "sinf", "cosf", "atan2f", "roundf",
        "exp", "log", "tanh", "erf", "sqrt", "pow", "fma"}


def _undefined_symbols(module) -> set[str]:
    import shutil
    import subprocess
    import tempfile

    from torch_mlir import execution_engine

    from tilec.executors.loop_runner import lower_to_llvm

    fn = ir.StringAttr(module.body.operations[0].attributes["sym_name"]).value
    lower_to_llvm(module)
    # no bf16 arithmetic may reach LLVM: on a CPU without native bf16 it becomes a libgcc call,
    # which the object file of this (possibly bf16-capable) machine would not show
    converts = [line for line in str(module).splitlines()
                if re.search(r"llvm\.(f(?!unc\b)[a-z]+|intr\.\w+)\b.*\bbf16\b", line)]
    assert converts == [], converts[:3]
    engine = execution_engine.ExecutionEngine(module, opt_level=2)
    engine.raw_lookup(f"_mlir_ciface_{fn}")  # compiles the module
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        engine.dump_to_object_file(f"{tmp}/jit.o")
        out = subprocess.run([nm, "-u", f"{tmp}/jit.o"], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


# bf16 compared and added as it is read, the way the torch importer leaves a boolean mask torch
# passes as bf16 (SDPA's attn_mask compared with 0): such ops reach LLVM unless computed in f32
BF16_ARITHMETIC = """#map = affine_map<(d0) -> (d0)>
module {
  func.func @bf16(%arg0: tensor<8xbf16, ["8"]> {ta.name = "X"}) -> (tensor<8xf32, ["8"]> {ta.name = "Y"}) attributes {ta.params = {}} {
    %cst = arith.constant 0.000000e+00 : bf16
    %0 = "ta.map"() ({
      %1 = "ta.at"(%arg0) {map = #map} : (tensor<8xbf16, ["8"]>) -> bf16
      %2 = arith.cmpf une, %1, %cst : bf16
      %3 = arith.addf %1, %1 : bf16
      %4 = arith.select %2, %3, %1 : bf16
      %5 = arith.extf %4 : bf16 to f32
      "ta.yield"(%5) : (f32) -> ()
    }) : () -> tensor<8xf32, ["8"]>
    return %0 : tensor<8xf32, ["8"]>
  }
}
"""


def test_jit_of_bf16_compares_and_arithmetic_needs_only_libc_and_libm():
    from tilec.frontend import source_to_ta

    with dialects.context(), ir.Location.unknown():
        module = to_loops(source_to_ta(BF16_ARITHMETIC, "bf16.mlir"))
        assert re.search(r"arith\.cmpf .*bf16", str(module)) and re.search(r"arith\.addf .*bf16", str(module))
        symbols = _undefined_symbols(module)
    assert symbols <= LIBC | LIBM, sorted(symbols - LIBC - LIBM)


# a sum rounded to bf16 and stored: LLVM's optimiser recognised the integer rounding ahead of
# the bf16 store as an fptrunc (a libgcc call without bf16 instructions) until the store was
# made a 16-bit integer one (found by tilec fuzz, seed 2026, case 250)
SUM_TO_BF16 = """param T, W
input X[T, W, T] : f32
output Y[T, 1, T] : bf16
Y[i, j, k] = sum[l, m](X[l, m, i])
"""


def test_jit_of_a_sum_stored_as_bf16_needs_only_libc_and_libm():
    with dialects.context(), ir.Location.unknown():
        symbols = _undefined_symbols(to_loops(spec_to_ta(SUM_TO_BF16, "sum.ta")))
    assert symbols <= LIBC | LIBM, sorted(symbols - LIBC - LIBM)
    inputs, expected, env = run_spec(SUM_TO_BF16, {"T": 3, "W": 2})
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(SUM_TO_BF16, "sum.ta")
        outputs = run_loops(to_loops(module), signature(module.body.operations[0]), inputs, env)
    assert torch.equal(outputs["Y"], expected["Y"])


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_jit_needs_only_libc_and_libm(name):
    with dialects.context(), ir.Location.unknown():
        symbols = _undefined_symbols(to_loops(load_spec(str(EXAMPLES / f"{name}.ta"))))
    assert symbols <= LIBC | LIBM, f"JIT-ed {name} needs {sorted(symbols - LIBC - LIBM)}"


def test_bf16_conversion_rounds_like_torch():
    """The expanded bf16 truncation rounds to nearest even, with NaN and infinities kept."""
    import torch

    text = "param N\ninput X[N] : f32\noutput Y[N] : bf16\nY[i] = X[i]\n"
    with dialects.context(), ir.Location.unknown():
        module = spec_to_ta(text, "cast.ta")
        sig = signature(module.body.operations[0])
        x = torch.tensor([1.0, 1.00390625, 1.01171875, -3.3e38, 3.4e38, float("inf"), float("-inf"),
                          float("nan"), 1e-40, -0.0, 65504.0, 0.1])
        y = run_loops(to_loops(module), sig, {"X": x}, {"N": x.numel()})["Y"]
    expected = x.to(torch.bfloat16)
    same = (y.view(torch.int16) == expected.view(torch.int16)) | (y.isnan() & expected.isnan())
    assert bool(same.all()), (y, expected)
