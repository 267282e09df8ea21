"""Every kind of user mistake gives one located error, exit status 1 (2 for
command-line misuse), and no traceback."""

import re

import pytest

GEMM_DECLS = "param M = 8, N = 8\ninput A[M, N] : f32\ninput B[M, N] : f32\noutput C[M, N] : f32\n"

# (name, spec text, expected message fragment, line, column)
BAD_SPECS = [
    ("syntax-unclosed", "input A[M, K : bf16\n", "unexpected ':'", 1, 14),
    ("syntax-eof", GEMM_DECLS + "C[i, j] = A[i, j] +\n", "unexpected end of file", 5, 20),
    ("syntax-character", GEMM_DECLS + "C[i, j] = A[i, j] @ B[i, j]\n", "unexpected character '@'", 5, 19),
    ("unknown-name", GEMM_DECLS + "C[i, j] = A[i, j] + x\n", "unknown name 'x'", 5, 21),
    ("unknown-tensor", GEMM_DECLS + "C[i, j] = Z[i, j]\n", "unknown tensor 'Z'", 5, 11),
    ("unknown-function", GEMM_DECLS + "C[i, j] = foo(A[i, j])\n", "unknown function 'foo'", 5, 11),
    ("arity", GEMM_DECLS + "C[i, j] = exp(A[i, j], B[i, j])\n", "'exp' takes 1 argument, got 2", 5, 11),
    ("unknown-function-close", GEMM_DECLS + "C[i, j] = exq(A[i, j])\n", "unknown function 'exq'; did you mean 'exp'?",
     5, 11),
    ("unknown-reduction", GEMM_DECLS + "C[i, j] = softmx[j](A[i, j])\n",
     "unknown function 'softmx'; did you mean 'softmax'?", 5, 11),
    ("unknown-reduction-in-const", "const s = summ[k](1)\n", "unknown function 'summ'; did you mean 'sum'?", 1, 11),
    ("function-with-index", GEMM_DECLS + "C[i, j] = exp[j](A[i, j])\n", "'exp' is applied elementwise and takes no "
     "index: write exp(...)", 5, 11),
    ("tensor-called", GEMM_DECLS + "C[i, j] = A(i, j)\n", "'A' is a tensor, not a function: read it as A[...]", 5, 11),
    ("rank", GEMM_DECLS + "C[i, j] = A[i, j, j]\n", "'A' has 2 dims [M, N] but is read with 3 indices", 5, 11),
    # read with too few indices, X[c] ties c to X's first dim: the rank, not c's range, is the mistake
    ("rank-before-ranges", "param N = 8, C = 4\ninput X[N, C] : f32\ninput W[C] : f32\noutput Y[N] : f32\n"
     "Y[n] = sum[c](X[c] * W[c])\n", "'X' has 2 dims [N, C] but is read with 1 index", 5, 15),
    ("rank-let", "param N = 8, C = 4\ninput X[N, C] : f32\noutput Y[N, C] : f32\nlet T[n, c] = X[n, c]\n"
     "Y[n, c] = T[c] + X[n, c]\n", "'T' has 2 dims [N, C] but is read with 1 index", 5, 11),
    ("rank-output-read", "param N = 8, C = 4\ninput X[N, C] : f32\noutput Y[N, C] : f32\noutput Z[N] : f32\n"
     "Y[n, c] = X[n, c]\nZ[n] = Y[n]\n", "'Y' has 2 dims [N, C] but is read with 1 index", 6, 8),
    ("rank-by-name", GEMM_DECLS + "C[i, j] = A\n", "'A' has 2 dims [M, N] but is read with no index", 5, 11),
    ("rank-write", GEMM_DECLS + "C[i] = A[i, i]\n", "'C' has 2 dims [M, N] but is written with 1 index", 5, 1),
    ("shape-mismatch", "param M, N\ninput A[M] : f32\ninput B[N] : f32\noutput C[M] : f32\nC[i] = A[i] + B[i]\n",
     "index 'i' ranges over 'N' here but over 'M'", 5, 17),
    ("contraction-mismatch", "param M, N, K, L\ninput A[M, K] : f32\ninput B[L, N] : f32\noutput C[M, N] : f32\n"
     "C[i, j] = sum[k](A[i, k] * B[k, j])\n", "index 'k' ranges over 'L' here but over 'K'", 5, 30),
    ("dtype", "param M\ninput A[M] : f64\n", "unsupported element type 'f64'", 2, 14),
    ("unknown-dim", "param M\ninput A[M, Q] : f32\n", "unknown shape parameter 'Q'", 2, 12),
    ("assign-input", GEMM_DECLS + "A[i, j] = B[i, j]\n", "'A' is an input and cannot be assigned", 5, 1),
    ("never-assigned", GEMM_DECLS, "output 'C' is never assigned", 4, 8),
    ("assigned-twice", GEMM_DECLS + "C[i, j] = A[i, j]\nC[i, j] = B[i, j]\n", "output 'C' is assigned twice", 6, 1),
    ("undeclared-output", GEMM_DECLS + "C[i, j] = A[i, j]\nD[i] = A[i, i]\n", "'D' is not a declared output", 6, 1),
    ("free-index", GEMM_DECLS + "C[i, j] = A[i, k]\n", "unknown name 'k'", 5, 16),
    ("reduction-unused", GEMM_DECLS + "C[i, j] = sum[k](A[i, j])\n", "cannot tell the range of index 'k'", 5, 11),
    ("softmax-two-indices", GEMM_DECLS + "C[i, j] = softmax[i, j](A[i, j])\n", "'softmax' takes exactly one index", 5, 11),
    ("comparison-value", GEMM_DECLS + "C[i, j] = A[i, j] < 0\n", "a comparison is not a number", 5, 11),
    ("duplicate", "param M\nparam M\n", "'M' is already declared", 2, 7),
    ("fractional-dim", "param M\nconst G = 1.5\ninput A[M / G] : f32\n", "is not an integer", 3, 9),
    ("sum-without-index", GEMM_DECLS + "C[i, j] = sum(A[i, j])\n", "write sum[j](...)", 5, 11),
    ("lhs-repeated", GEMM_DECLS + "C[i, i] = A[i, i]\n", "index 'i' appears twice", 5, 6),
    ("where-not-condition", GEMM_DECLS + "C[i, j] = A[i, j] where B[i, j]\n", "'where' needs a condition", 5, 25),
    ("non-affine-subscript", GEMM_DECLS + "C[i, j] = A[i * j, j]\n", "subscripts must be affine", 5, 11),
]

LOCATED = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: ")


def _check(status, err, expected_status=1):
    assert status == expected_status, err
    assert "Traceback" not in err
    assert err.count("error:") == 1, err


@pytest.mark.parametrize("name,text,message,line,col", BAD_SPECS, ids=[b[0] for b in BAD_SPECS])
def test_bad_spec(tilec, tmp_path, name, text, message, line, col):
    spec = tmp_path / f"{name}.ta"
    spec.write_text(text)
    status, out, err = tilec("compile", spec)
    _check(status, err)
    match = LOCATED.match(err)
    assert match, err
    assert (match["file"], int(match["line"]), int(match["col"])) == (str(spec), line, col), err
    assert message in err
    assert "^" in err.splitlines()[2]  # the caret under the offending column


BAD_IR = [
    ("parse", "func.func @f() {\n  %0 = arith.constant : f32\n  return\n}\n", "expected attribute value", 2),
    ("verifier", 'func.func @f(%a: tensor<?x?xf32, ["M", "N"]>) {\n'
     '  %m = "ta.reduce"(%a) {kind = "mean", dims = [1]} : (tensor<?x?xf32, ["M", "N"]>) -> tensor<?xf32, ["M"]>\n'
     "  return\n}\n", "attribute 'kind' must be one of sum, max, min", 2),
    ("unknown-op", 'func.func @f() {\n  "ta.bogus"() : () -> ()\n  return\n}\n', "ta.bogus", 2),
]


@pytest.mark.parametrize("name,text,message,line", BAD_IR, ids=[b[0] for b in BAD_IR])
def test_bad_ir(tilec, tmp_path, name, text, message, line):
    path = tmp_path / f"{name}.mlir"
    path.write_text(text)
    status, out, err = tilec("opt", path)
    _check(status, err)
    match = LOCATED.match(err)
    assert match and match["file"] == str(path) and int(match["line"]) == line, err
    assert message in err


BAD_PIPELINES = [
    ("builtin.module(ta-decompose-softmax, bogus)", "unknown pass 'bogus'", 38),
    ("builtin.module(cse,,)", "malformed pass pipeline", 20),
    ("builtin.module(ta-specialize-shapes{shape=3})", "has no option 'shape'", 16),
    ("builtin.module(ta-specialize-shapes{shapes=M})", "is not NAME=SIZE", 16),
    ("builtin.module(func.func(ta-decompose-softmax))", "runs on the whole module", 26),
]


@pytest.mark.parametrize("pipeline,message,col", BAD_PIPELINES)
def test_bad_pipeline(tilec, tmp_path, pipeline, message, col):
    path = tmp_path / "ok.mlir"
    path.write_text("func.func @f() {\n  return\n}\n")
    status, out, err = tilec("opt", path, f"--pass-pipeline={pipeline}")
    _check(status, err)
    assert err.startswith(f"<pass-pipeline>:1:{col}: error: "), err
    assert message in err


def test_missing_parameter_value(tilec, tmp_path):
    spec = tmp_path / "p.ta"
    spec.write_text("param M\ninput A[M] : f32\noutput B[M] : f32\nB[i] = A[i]\n")
    status, out, err = tilec("run", spec)
    _check(status, err)
    assert "shape parameter 'M' has no value; pass --shape M=..." in err


def test_unknown_shape_parameter(tilec):
    status, out, err = tilec("run", "examples/gemm.ta", "--shape", "Q=3")
    _check(status, err)
    assert "'Q' is not a shape parameter of gemm" in err


def test_missing_file(tilec):
    status, out, err = tilec("compile", "no/such/spec.ta")
    _check(status, err)
    assert "cannot read 'no/such/spec.ta'" in err


@pytest.mark.parametrize("args", [["frobnicate"], ["run", "x.ta", "--shape", "M=zero"], ["compile"],
                                  ["run", "x.ta", "--stage", "gpu"]])
def test_command_line_misuse_exits_2(tilec, args):
    with pytest.raises(SystemExit) as exit_info:
        tilec(*args)
    assert exit_info.value.code == 2


def test_debug_shows_the_traceback(tilec, tmp_path):
    spec = tmp_path / "bad.ta"
    spec.write_text("param M\ninput A[M] : f32\noutput B[M] : f32\nB[i] = nope[i]\n")
    status, out, err = tilec("compile", spec, "--debug")
    assert status == 1 and "Traceback" in err and "unknown tensor 'nope'" in err


def test_an_epilogue_the_gemm_kernel_cannot_take_is_located(tilec, tmp_path):
    """A limit ta-to-tile finds while building a GEMM epilogue (an operand reading a batch dim
    after a tile dim) is located at the contraction's statement, as the form's other limits."""
    spec = tmp_path / "epi.ta"
    spec.write_text("param Z = 3, M = 20, N = 24, K = 16\ninput A[Z, M, K] : f32\ninput B[Z, K, N] : f32\n"
                    "input X[N, Z] : f32\noutput C[Z, M, N] : f32\n"
                    "C[z, i, j] = sum[k](A[z, i, k] * B[z, k, j]) + X[j, z]\n")
    status, out, err = tilec("compile", spec, "--emit", "tile")
    _check(status, err)
    match = LOCATED.match(err)
    assert match and (match["file"], int(match["line"])) == (str(spec), 6), err
    assert "an epilogue operand must keep its batch dims in front" in err


@pytest.mark.parametrize("text,message", [
    ("softmx[j](X[i, j])", "4:11: error: unknown function 'softmx'; did you mean 'softmax'?"),
    ("X[i]", "4:11: error: 'X' has 2 dims [M, N] but is read with 1 index")])
def test_cli_process_reports_one_located_error(tmp_path, text, message):
    """The installed command, not only main(): exit status 1 and the three lines of one error."""
    import subprocess
    import sys

    spec = tmp_path / "bad.ta"
    spec.write_text(f"param M = 8, N = 8\ninput X[M, N] : f32\noutput Y[M, N] : f32\nY[i, j] = {text}\n")
    done = subprocess.run([sys.executable, "-m", "tilec", "compile", str(spec)], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"{spec}:{message}", f"  Y[i, j] = {text}", "            ^"], done.stderr
