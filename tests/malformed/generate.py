"""Generate the malformed-input corpus that tests/test_malformed.py runs through the CLI.

    python tests/malformed/generate.py           # (re)write spec/, ir/ and cases.json
    python tests/malformed/generate.py --check   # exit 1 if the committed files are not what this writes

Every case is one CLI invocation with its expected outcome: the exit status, where the one
error is located (``[line, col]``; ``[line, null]`` when only the line is pinned; ``[null,
null]`` for "somewhere in this file"; ``null`` for an error with no location) and a fragment
of its message. Spec and IR inputs are files under spec/ and ir/; command-line cases (bad
--shape, --schedule, paths, pipelines) live only in cases.json. In the expected text of a
file, MARK stands where the error is expected; it is removed before the file is written.

Placeholders in argv, filled in by the test: {file} (this case's corpus file), {examples}
(the repository's examples/), {tmp} (a fresh directory holding the fixtures the test makes:
fifo, fifo.tkp, dir/, dir.tkp/, afile, big.ta, big.mlir, ok.mlir, gemm.ta.mlir, empty.tkp,
notzip.tkp, and bomb.tkp for the one case that names it).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import zipfile
from pathlib import Path

from tilec.runtime.manifest import seal

HERE = Path(__file__).resolve().parent
MARK = "\u2038"  # the expected error position in a template

GEMM = """# GEMM
param M = 64, N = 64, K = 32
input A[M, K] : bf16
input B[K, N] : bf16
output C[M, N] : bf16
C[i, j] = sum[k](A[i, k] * B[k, j])
"""
DECLS = "param M = 8, N = 8\ninput A[M, N] : f32\ninput B[M, N] : f32\noutput C[M, N] : f32\n"
VEC = "param N = 8\ninput X[N] : f32\noutput Y[N] : f32\n"
OK_IR = 'func.func @f() {\n  return\n}\n'

# assignment lines of valid specs, each with the declarations it needs (for truncations)
STATEMENTS = [
    (GEMM.rsplit("\n", 2)[0] + "\n", "C[i, j] = sum[k](A[i, k] * B[k, j])"),
    ("param B = 2, H = 2, S = 16, T = 16, D = 16\ninput Q[B, H, S, D] : bf16\ninput K[B, H, T, D] : bf16\n"
     "input V[B, H, T, D] : bf16\noutput O[B, H, S, D] : bf16\n",
     "O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)) * V[b, h, j, d])"),
    ("param N = 8, C = 16\nconst eps = 1e-5\ninput X[N, C] : bf16\ninput w[C] : bf16\noutput Y[N, C] : bf16\n",
     "Y[n, c] = X[n, c] * rsqrt(sum[k](X[n, k] * X[n, k]) / C + eps) * w[c]"),
    ("param B = 1, H = 2, S = 16, D = 16\ninput Q[B, H, S, D] : bf16\ninput K[B, H, S, D] : bf16\n"
     "output P[B, H, S, S] : f32\n",
     "P[b, h, i, j] = softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) where j <= i and i - j < 8 else -inf)"),
    ("param N = 8, C = 16\ninput X[N, C] : f32\noutput L[N] : f32\n", "L[n] = logsumexp[c](max(X[n, c], 0.5 * -X[n, c]))"),
    ("param N = 8\ninput X[N + 1] : f32\noutput Y[N] : f32\n", "Y[i] = select(i > 0, X[i + 1] - X[i + 0], X[i + 0])"),
]


def located(text: str) -> tuple[str, list]:
    """(text without MARK, [line, col] of MARK)."""
    at = text.index(MARK)
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return text.replace(MARK, "", 1), [line, col]


class Corpus:
    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.cases: list[dict] = []

    def _add(self, name: str, argv: list, exit: int, loc, message: str, **extra) -> None:
        assert name not in {c["name"] for c in self.cases}, name
        case = {"name": name, "argv": argv, "exit": exit, "loc": loc, "message": message}
        case.update({k: v for k, v in extra.items() if v})
        self.cases.append(case)

    def file(self, kind: str, name: str, content, message: str, *, exit: int = 1, loc="mark",
             command: tuple = (), line: int | None = None, **extra) -> None:
        """A spec (kind "spec", run through `tilec compile`) or IR file (kind "ir", `tilec opt`).

        ``content`` is text (with MARK where the error is, when ``loc`` is "mark") or bytes
        (``loc`` given). ``line`` pins only the line."""
        if isinstance(content, str) and loc == "mark":
            content, loc = located(content)
        elif loc == "mark":
            raise ValueError(f"{name}: bytes need an explicit loc")
        if line is not None:
            loc = [line, None]
        data = content.encode() if isinstance(content, str) else content
        path = f"{kind}/{name}.{ {'spec': 'ta', 'ir': 'mlir', 'pkg': 'tkp'}[kind]}"
        assert path not in self.files, path
        self.files[path] = data
        argv = list(command) if command else {"spec": ["compile", "{file}"], "ir": ["opt", "{file}"],
                                              "pkg": ["verify", "{file}"]}[kind]
        self._add(path.rsplit(".", 1)[0], argv, exit, loc, message, file=path, **extra)

    def cli(self, name: str, argv: list, exit: int, message: str, loc=None, **extra) -> None:
        """A command-line case (no corpus file of its own)."""
        self._add(f"cli/{name}", argv, exit, loc, message, **extra)


# ---------------------------------------------------------------- specs

def spec_encoding(c: Corpus) -> None:
    head = b"param M = 8\ninput A[M] : f32\noutput B[M] : f32\n"
    cases = [
        ("ff-in-comment", b"# caf\xff\n" + head + b"B[i] = A[i]\n", [1, 6]),
        ("ff-after-param", b"param M = 8\xff\n", [1, 12]),
        ("latin1-name", head + b"B[i] = A[i] * \xe9\n", [4, 15]),
        ("truncated-sequence-at-eof", head + b"B[i] = A[i]\n# \xc3", [5, 3]),
        ("overlong-slash", head + b"B[i] = A[i] \xc0\xaf 2\n", [4, 13]),
        ("encoded-surrogate", b"# \xed\xa0\x80\n" + head, [1, 3]),
        ("lone-continuation", b"\x80" + head, [1, 1]),
        ("beyond-unicode", head + b"# \xf5\x80\x80\x80\n", [4, 3]),
        ("utf16-with-bom", "param M = 8\n".encode("utf-16"), [1, 1]),
        ("bad-byte-after-utf8", "# π ≈ 3.14\n".encode() + b"param M = \xfe\n", [2, 11]),
        ("bad-byte-line-9", b"\n" * 8 + b"param \xff = 1\n", [9, 7]),
    ]
    for name, data, loc in cases:
        c.file("spec", f"encoding-{name}", data, "is not valid UTF-8", loc=loc)
    head = head.decode()
    c.file("spec", "encoding-nul-byte", head + "B[i] = A[i] \u2038\x00\n", "unexpected character '\\x00'")
    c.file("spec", "encoding-escape-sequence", head + "B[i] = \u2038\x1b[31mA[i]\n", "unexpected character '\\x1b'")
    c.file("spec", "encoding-nbsp", head + "B[i] =\u2038\u00a0A[i]\n", "unexpected character")
    c.file("spec", "encoding-bom-then-valid", "\ufeff" + GEMM, "", exit=0, loc=None)


def spec_integers(c: Corpus) -> None:
    big = {"2p31": str(2**31), "2p63": str(2**63), "2p64": str(2**64), "1e30": "1" + "0" * 30,
           "5000-digits": "9" * 5000}
    for tag, n in big.items():
        c.file("spec", f"int-param-{tag}", f"param M = \u2038{n}\ninput A[M] : f32\noutput B[M] : f32\nB[i] = A[i]\n",
               "is too large")
        c.file("spec", f"int-dim-{tag}", f"input A[\u2038{n}] : f32\noutput B[4] : f32\nB[i] = A[i]\n", "is too large")
        offset = f"Y[i] = X[i + \u2038{n}]" if len(n) > 39 else f"Y[i] = X[\u2038i + {n}]"  # > f32: the number
        c.file("spec", f"int-index-offset-{tag}", VEC + offset + "\n", "too large")
    c.file("spec", "int-param-max-is-fine", f"param M = {2**31 - 1}\ninput A[M] : f32\noutput B[M] : f32\nB[i] = A[i]\n",
           "", exit=0, loc=None)
    c.file("spec", "int-param-leading-zeros", f"param M = \u2038{'0' * 40}{2**31}\ninput A[M] : f32\n", "is too large")
    c.file("spec", "int-dim-product", "input A[\u203865536 * 65536] : f32\noutput B[4] : f32\nB[i] = A[i]\n",
           "sizes are at most 2^31 - 1")
    c.file("spec", "int-dim-product-of-constants", "const G = 65536\ninput A[G, \u2038G * G * G] : f32\n"
           "output B[4] : f32\nB[i] = A[0, i]\n", "sizes are at most 2^31 - 1")
    c.file("spec", "int-const-dim-huge", "const G = 1e30\ninput A[\u2038G] : f32\n", "cannot size a dimension")
    c.file("spec", "int-const-dim-2p31", f"const G = {2**31}\ninput A[4, \u2038G] : f32\n", "cannot size a dimension")
    c.file("spec", "int-const-dim-zero", "const G = 0\ninput A[\u2038G + 1] : f32\n", "cannot size a dimension")
    c.file("spec", "int-const-dim-inf", "const G = inf\ninput A[\u2038G] : f32\n", "is not an integer")
    c.file("spec", "int-const-dim-negative", "const G = -3\ninput A[\u2038G] : f32\n", "cannot size a dimension")
    c.file("spec", "int-index-scale", VEC + f"Y[i] = X[\u2038{2**40} * i / {2**40}]\n", "too large for an index")
    c.file("spec", "int-index-divisor", VEC + f"Y[i] = X[\u2038i / {2**63}]\n", "too large")
    c.file("spec", "int-index-value", VEC + f"Y[i] = X[i] + \u2038i * {2**33}\n", "too large for an index")
    c.file("spec", "int-index-sum-of-constants-run", VEC + f"Y[i] = \u2038X[i + {2**31 - 1} + {2**31 - 1}]\n",
           "outside 0..7", command=("run", "{file}"))
    c.file("spec", "int-index-out-of-bounds-run", VEC + "Y[i] = \u2038X[i + 1]\n", "outside 0..7",
           command=("run", "{file}"))
    for tag, n in {"1e39": "1e39", "1e400": "1e400", "2p128": str(2**128), "long-mantissa": "9" * 400 + ".5"}.items():
        c.file("spec", f"number-{tag}", f"const s = \u2038{n}\n", "too large for f32")
        c.file("spec", f"number-in-expression-{tag}", VEC + f"Y[i] = X[i] * \u2038{n}\n", "too large for f32")
    c.file("spec", "number-f32-max-is-fine", VEC + "Y[i] = X[i] * 3.4028234e38\n", "", exit=0, loc=None)


def spec_constants(c: Corpus) -> None:
    cases = {
        "div-zero": ("1 / 0", "division by zero"), "zero-div-zero": ("0 / 0", "division by zero"),
        "neg-div-zero": ("-1 / 0", "division by zero"), "div-folded-zero": ("1 / (2 - 2)", "division by zero"),
        "div-zero-float": ("3.5 / 0.0", "division by zero"),
        "exp-1000": ("exp(1000)", "overflows f32"), "exp-89": ("exp(89)", "overflows f32"),
        "neg-exp-100": ("-\u2038exp(100)", "overflows f32"), "product": ("1e38 * 10", "overflows f32"),
        "sum": ("3e38 + 3e38", "overflows f32"), "max-of-overflow": ("max(\u20381e30 * 1e30, 0)", "overflows f32"),
        "log-zero": ("log(0)", "is -inf"), "log-negative": ("log(-1)", "NaN"), "sqrt-negative": ("sqrt(-1)", "NaN"),
        "rsqrt-zero": ("rsqrt(0)", "is inf"), "rsqrt-negative": ("rsqrt(-4)", "NaN"),
        "inf-minus-inf": ("inf - inf", "NaN"), "zero-times-inf": ("0 * inf", "NaN"), "inf-over-inf": ("inf / inf", "NaN"),
        "exp-of-const": ("exp(big)", "overflows f32"),
    }
    for name, (expr, message) in cases.items():
        expr = expr if MARK in expr else MARK + expr
        c.file("spec", f"const-{name}", f"const big = 100\nconst x = {expr}\n", message)
    c.file("spec", "const-in-expression", VEC + "Y[i] = X[i] * \u2038exp(1000)\n", "overflows f32")
    c.file("spec", "const-in-where-fill", VEC + "Y[i] = X[i] where i > 0 else \u2038log(0) * 2\n", "is -inf")
    c.file("spec", "const-sigmoid-large-negative-is-fine", "const s = sigmoid(-1000)\n" + VEC + "Y[i] = X[i] * s\n",
           "", exit=0, loc=None)
    c.file("spec", "const-minus-inf-is-fine", "const m = -inf\n" + VEC + "Y[i] = max(X[i], m)\n", "", exit=0, loc=None)
    c.file("spec", "index-div-zero", VEC + "Y[i] = X[i] + i / \u20380\n", "division of an index by zero")
    c.file("spec", "index-subscript-div-zero", VEC + "Y[i] = X[i / \u20380]\n", "division of an index by zero")
    c.file("spec", "index-div-by-index", VEC + "Y[i] = X[i] + i / (\u2038i - i)\n", "divided only by a positive")
    c.file("spec", "index-div-negative", VEC + "Y[i] = X[i] + i / \u2038-2\n", "divided only by a positive")
    c.file("spec", "index-div-by-param-is-fine", VEC + "Y[i] = X[i] + i / N\n", "", exit=0, loc=None)
    c.file("spec", "dim-div-zero", "param M = 4\ninput A[M / \u20380] : f32\n", "division by zero in a dimension")
    c.file("spec", "dim-div-folded-zero", "param M = 4\ninput A[M / (\u20382 - 2)] : f32\n",
           "division by zero in a dimension")


def _nest(depth: int, open_: str, inner: str, close: str) -> str:
    return open_ * depth + inner + close * depth


def spec_nesting(c: Corpus) -> None:
    decl = "param N = 8\ninput A[N] : f32\noutput B[N] : f32\n"
    deep = {
        "parens-around-sums": "B[i] = " + "(" * 5000 + "A[i]" + " + 1)" * 5000,
        "unary-minus": "B[i] = " + "-" * 5000 + "A[i]",
        "exp-calls": "B[i] = " + _nest(5000, "exp(", "A[i]", ")"),
        "max-calls": "B[i] = " + _nest(3000, "max(", "A[i]", ", 1)"),
        "sum-chain": "B[i] = A[i]" + " + A[i]" * 5000,
        "product-chain": "B[i] = A[i]" + " * 2" * 5000,
        "select-calls": "B[i] = " + _nest(2000, "select(i > 0, ", "A[i]", ", 0)"),
        "where-chain": "B[i] = " + "(" * 2000 + "A[i]" + " where i > 0 else 0)" * 2000,
        "comparison-chain": "B[i] = A[i] where " + " and ".join(["i > 0"] * 3000) + " else 0",
        "subscripts": "B[i] = A[" + _nest(3000, "(", "i", " + 0)") + "]",
        "nested-reductions": "B[i] = " + "".join(f"sum[k{n}](" for n in range(300)) + "A[i]" + ")" * 300,
        "const-parens-chain": None,
    }
    for name, statement in deep.items():
        if statement is None:
            continue
        c.file("spec", f"deep-{name}", decl + statement + "\n", "levels deep", loc=None, line=4)
    c.file("spec", "deep-const", "const x = " + "(" * 5000 + "1" + " + 1)" * 5000 + "\n", "levels deep", loc=None, line=1)
    c.file("spec", "deep-dims", "param M = 2\ninput A[" + " + ".join(["M"] * 5000) + "] : f32\n", "levels deep",
           loc=None, line=2)
    c.file("spec", "deep-dims-parens", "param M = 2\ninput A[" + "(" * 5000 + "M" + " + 1)" * 5000 + "] : f32\n",
           "levels deep", loc=None, line=2)
    c.file("spec", "deep-unclosed-parens", decl + "B[i] = " + "(" * 5000 + "A[i]\n", "unexpected end of file",
           loc=[4, 5012])
    # redundant parentheses make no tree nodes: 5,000 of them are fine, as is a chain of 90
    c.file("spec", "deep-redundant-parens-are-fine", decl + "B[i] = " + _nest(5000, "(", "A[i]", ")") + "\n", "",
           exit=0, loc=None)
    c.file("spec", "deep-chain-of-90-is-fine", decl + "B[i] = A[i]" + " + A[i]" * 90 + "\n", "", exit=0, loc=None)
    c.file("spec", "deep-exp-of-90-is-fine", decl + "B[i] = " + _nest(90, "exp(", "A[i]", ")") + "\n", "",
           exit=0, loc=None)
    c.file("spec", "deep-chain-run", decl + "B[i] = A[i]" + " + A[i]" * 150 + "\n", "levels deep", loc=None, line=4,
           command=("run", "{file}"))


def spec_empty(c: Corpus) -> None:
    no_output = "the spec declares no output"
    c.file("spec", "empty-file", "", no_output, loc=[1, 1])
    c.file("spec", "empty-whitespace", "\n\n   \n\t\n", no_output, loc=[1, 1])
    c.file("spec", "empty-comments", "# only a comment\n# and another\n", no_output, loc=[1, 1])
    c.file("spec", "empty-bom", "\ufeff", no_output, loc=[1, 1])
    c.file("spec", "empty-params-only", "param \u2038M = 4, N = 4\n", no_output)
    c.file("spec", "empty-inputs-only", "# inputs\nparam M = 4\ninput A[M] : f32\n", no_output, loc=[2, 7])
    c.file("spec", "empty-consts-only", "\n\nconst \u2038eps = 1e-5\n", no_output)
    c.file("spec", "empty-run", "", no_output, loc=[1, 1], command=("run", "{file}"))
    c.file("spec", "empty-verify", "# nothing\n", no_output, loc=[1, 1], command=("verify", "{file}"))
    c.file("spec", "empty-layout", "", no_output, loc=[1, 1], command=("layout", "{file}", "--operand", "A"))


def spec_sizes(c: Corpus) -> None:
    c.file("spec", "size-param-zero", "param M = \u20380\ninput A[M] : f32\noutput B[M] : f32\nB[i] = A[i]\n",
           "a size must be at least 1")
    c.file("spec", "size-param-zeros", "param M = 4, N = \u2038000\n", "a size must be at least 1")
    c.file("spec", "size-param-second-zero", "param M, N = \u20380\n", "a size must be at least 1")
    c.file("spec", "size-dim-zero", "input A[4, \u20380] : f32\n", "is not positive")
    c.file("spec", "size-dim-negative", "input A[\u20382 - 3] : f32\n", "is not positive")
    c.file("spec", "size-dim-const-difference", "const G = 2\ninput A[\u2038G - G] : f32\n", "is not positive")
    c.file("spec", "size-rank-9", "param M = 2\ninput \u2038A[M, M, M, M, M, M, M, M, M] : f32\n", "at most 8")
    c.file("spec", "size-let-rank-9", "param M = 2\ninput A[M] : f32\noutput B[M] : f32\n"
           "let \u2038T[a, b, c, d, e, f, g, h, i] = A[a]\nB[i] = A[i]\n", "at most 8")
    c.file("spec", "size-17-indices", "param M = 2\ninput A[M] : f32\noutput B[M] : f32\nB[i] = sum[a](sum[b](sum[c]("
           "sum[d](sum[e](sum[f](sum[g](sum[h](sum[j](sum[k](sum[l](sum[m](sum[n](sum[o](sum[p](\u2038sum[q]("
           "A[i] * A[a] * A[b] * A[c] * A[d] * A[e] * A[f] * A[g] * A[h] * A[j] * A[k] * A[l] * A[m] * A[n] * A[o] "
           "* A[p] * A[q]))))))))))))))))\n", "a statement has at most 16")
    # symbolic sizes that are wrong only once bound: located at the declaration of the tensor
    sym = "param M = 4\ninput \u2038A[M - M] : f32\noutput B[4] : f32\nB[i] = A[0] + A[i - i]\n"
    c.file("spec", "size-symbolic-zero-run", sym, "every size must be at least 1", command=("run", "{file}"))
    big = f"param M = {2**31 - 1}\ninput \u2038A[M, M] : f32\noutput B[M] : f32\nB[i] = sum[j](A[i, j])\n"
    c.file("spec", "size-huge-default-run", big, "at most 2^31 elements", command=("run", "{file}"))
    square = f"param M = {2**31 - 1}\ninput \u2038A[M * M] : f32\noutput B[4] : f32\nB[i] = A[i + 0]\n"
    c.file("spec", "size-product-dim-run", square, "a size is at most 2^31 - 1", command=("run", "{file}"))
    c.file("spec", "size-product-dim-compile-is-fine", square.replace(MARK, ""), "", exit=0, loc=None)
    tmp = "param N = 60000\ninput X[N] : f32\noutput Y[N] : f32\nlet P[i, j] = \u2038X[i] * X[j]\nY[i] = sum[j](P[i, j])\n"
    c.file("spec", "size-temporary-run", tmp, "at most 2^31 elements", command=("run", "{file}"))
    budget = "param N = 30000\ninput X[N] : f32\noutput Y[N] : f32\nlet P[i, j] = X[i] * X[j]\n" \
             "let Q[i, j] = \u2038P[i, j] + 1\nY[i] = sum[j](Q[i, j])\n"
    c.file("spec", "size-budget-run", budget, "GiB", command=("run", "{file}"))
    work = GEMM.replace("M = 64, N = 64, K = 32", "M = 8192, N = 8192, K = 8192").replace("= sum", "= \u2038sum")
    c.file("spec", "size-work-run", work, "multiply-adds", command=("run", "{file}"))
    c.file("spec", "size-work-loop", work, "multiply-adds", command=("run", "{file}", "--stage", "loop"))


def spec_syntax(c: Corpus) -> None:
    cases = {
        "unclosed-bracket": "input A[M, K \u2038: bf16\n",
        "missing-type": "param M = 4\ninput A[M] \n\u2038output B[M] : f32\n",
        "missing-colon": "param M = 4\ninput A[M] \u2038f32\n",
        "keyword-where-a-name-goes": "param M = 4\ninput A[M] : f32\noutput \u2038=[M] : f32\n",
        "typo-keyword": "param M = 4\ninptu \u2038A[M] : f32\n",
        "double-operator": DECLS + "C[i, j] = A[i, j] * \u2038* B[i, j]\n",
        "double-comparison": DECLS + "C[i, j] = A[i, j] where i < j \u2038< 3\n",
        "extra-paren": DECLS + "C[i, j] = A[i, j]\u2038)\n",
        "extra-bracket": DECLS + "C[i, j]\u2038] = A[i, j]\n",
        "empty-parens": DECLS + "C[i, j] = (\u2038)\n",
        "empty-reduction-indices": DECLS + "C[i, j] = sum[\u2038](A[i, j])\n",
        "reduction-index-expression": DECLS + "C[i, j] = sum[i \u2038+ 1](A[i, j])\n",
        "param-float": "param M = 1\u2038.5\n",
        "param-negative": "param M = \u2038-4\n",
        "param-expression": "param M = 4 \u2038* 2\n",
        "param-name-missing": "param \u2038= 4\n",
        "const-missing-value": "const x = \u2038\n",
        "const-no-equals": "const x \u20384\n",
        "dim-float": "input A[1\u2038.5] : f32\n",
        "dim-call": "param M = 4\ninput A[exp\u2038(M)] : f32\n",
        "where-without-condition": DECLS + "C[i, j] = A[i, j] where else \u20380\n",
        "else-without-where": DECLS + "C[i, j] = A[i, j] \u2038else 0\n",
        "trailing-comma-args": DECLS + "C[i, j] = max(A[i, j], \u2038)\n",
        "leading-comma": DECLS + "C[\u2038, i, j] = A[i, j]\n",
        "assign-twice-equals": DECLS + "C[i, j] = \u2038= A[i, j]\n",
        "comparison-operator-typo": DECLS + "C[i, j] = A[i, j] where i \u2038=< j\n",
        "percent": DECLS + "C[i, j] = A[i, j] \u2038% 2\n",
        "matmul-at": DECLS + "C[i, j] = A[i, j] \u2038@ B[i, j]\n",
        "caret-power": DECLS + "C[i, j] = A[i, j] \u2038^ 2\n",
        "semicolon": "param M = 4\u2038;\n",
        "string-literal": "const s = \u2038\"text\"\n",
        "hex-number": "const s = 0x10\u2038\n",
        "let-without-name": DECLS + "let \u2038[i] = A[i, i]\n",
        "output-without-dims": "output C \u2038: f32\n",
        "type-missing-after-colon": "input A[4] : \ninput B[4] \u2038: f32\n",
        "unicode-name": "param M = 4\ninput \u2038\u00c5[M] : f32\n",
        "unicode-minus": DECLS + "C[i, j] = A[i, j] \u2038\u2212 B[i, j]\n",
        "tab-and-junk": DECLS + "C[i, j] =\tA[i, j]\t\u2038$\n",
        "long-token": "input " + "A" * 2000 + "[\u2038@]\n",
    }
    for name, text in cases.items():
        c.file("spec", f"syntax-{name}", text, "unexpected")
    # every proper prefix of a statement that leaves a bracket open or ends in an operator
    for n, (decls, statement) in enumerate(STATEMENTS):
        cuts = [k for k in range(1, len(statement)) if _incomplete(statement[:k])]
        for k in cuts[:: max(1, len(cuts) // 8)][:8]:
            prefix = statement[:k].rstrip()
            text = decls + prefix + "\n"
            line = text.count("\n")
            c.file("spec", f"syntax-truncated-{n}-{k:03d}", text, "unexpected end of file", loc=[line, len(prefix) + 1])
    # a character no token starts with, at several places of each statement
    for n, (decls, statement) in enumerate(STATEMENTS):
        spots = [k for k, ch in enumerate(statement) if ch in " ,(["][::5][:4]
        for k in spots:
            text = decls + statement[:k] + MARK + "?" + statement[k:] + "\n"
            c.file("spec", f"syntax-junk-{n}-{k:03d}", text, "unexpected character '?'")


def _incomplete(prefix: str) -> bool:
    """A prefix of a valid statement that cannot end it: an open bracket, or a trailing operator."""
    stripped = prefix.rstrip()
    depth = sum(stripped.count(ch) for ch in "([") - sum(stripped.count(ch) for ch in ")]")
    trailing = stripped[-1:] in ("=", "+", "-", "*", "/", ",", "<", ">") or stripped.endswith(
        (" where", " else", " and", " or"))
    return bool(stripped) and (depth > 0 or trailing or "=" not in stripped)


def spec_semantics(c: Corpus) -> None:
    cases = {
        "unknown-name": (DECLS + "C[i, j] = A[i, j] + \u2038x\n", "unknown name 'x'"),
        "unknown-tensor": (DECLS + "C[i, j] = \u2038Z[i, j]\n", "unknown tensor 'Z'"),
        "unknown-function": (DECLS + "C[i, j] = \u2038foo(A[i, j])\n", "unknown function 'foo'"),
        "unknown-function-close": (DECLS + "C[i, j] = \u2038exq(A[i, j])\n", "did you mean 'exp'?"),
        "unknown-reduction": (DECLS + "C[i, j] = \u2038softmx[j](A[i, j])\n", "did you mean 'softmax'?"),
        "function-with-index": (DECLS + "C[i, j] = \u2038exp[j](A[i, j])\n", "takes no index"),
        "arity": (DECLS + "C[i, j] = \u2038exp(A[i, j], B[i, j])\n", "takes 1 argument"),
        "select-arity": (DECLS + "C[i, j] = \u2038select(i < j, A[i, j])\n", "takes 3 arguments"),
        "rank": (DECLS + "C[i, j] = \u2038A[i, j, j]\n", "'A' has 2 dims [M, N] but is read with 3 indices"),
        "rank-short": (DECLS + "C[i, j] = \u2038A[j] + B[i, j]\n", "'A' has 2 dims [M, N] but is read with 1 index"),
        "lhs-rank": (DECLS + "\u2038C[i] = A[i, i]\n", "'C' has 2 dims [M, N] but is written with 1 index"),
        "dtype": ("param M = 4\ninput A[M] : \u2038f64\n", "unsupported element type"),
        "dtype-int": ("param M = 4\ninput A[M] : \u2038i32\n", "unsupported element type"),
        "unknown-dim": ("param M = 4\ninput A[M, \u2038Q] : f32\n", "unknown shape parameter 'Q'"),
        "assign-input": (DECLS + "\u2038A[i, j] = B[i, j]\n", "is an input"),
        "never-assigned": (DECLS.replace("output C", "output \u2038C"), "never assigned"),
        "assigned-twice": (DECLS + "C[i, j] = A[i, j]\n\u2038C[i, j] = B[i, j]\n", "assigned twice"),
        "undeclared-output": (DECLS + "C[i, j] = A[i, j]\n\u2038D[i] = A[i, i]\n", "not a declared output"),
        "duplicate-param": ("param M\nparam \u2038M\n", "already declared"),
        "duplicate-tensor": ("param M = 4\ninput A[M] : f32\ninput \u2038A[M] : f32\n", "already declared"),
        "param-shadows-tensor": ("param M = 4\ninput A[M] : f32\nconst \u2038A = 2\n", "already declared"),
        "fractional-dim": ("param M = 4\nconst G = 1.5\ninput A[\u2038M / G] : f32\n", "is not an integer"),
        "sum-without-index": (DECLS + "C[i, j] = \u2038sum(A[i, j])\n", "reduces over an index"),
        "softmax-two-indices": (DECLS + "C[i, j] = \u2038softmax[i, j](A[i, j])\n", "exactly one index"),
        "softmax-unbound": (DECLS + "C[i, j] = \u2038softmax[k](A[i, j])\n", "normalises along 'k'"),
        "reduction-rebinds": (DECLS + "C[i, j] = \u2038sum[i](A[i, j])\n", "already bound"),
        "reduction-unused": (DECLS + "C[i, j] = \u2038sum[k](A[i, j])\n", "cannot tell the range"),
        "lhs-repeated": (DECLS + "C[i, \u2038i] = A[i, i]\n", "appears twice"),
        "lhs-expression": (DECLS + "C[i, \u2038j + 1] = A[i, j]\n", "plain index names"),
        "lhs-param": (DECLS + "C[i, \u2038M] = A[i, i]\n", "plain index names"),
        "free-index": (DECLS + "C[i, j] = A[i, \u2038k]\n", "unknown name 'k'"),
        "comparison-value": (DECLS + "C[i, j] = \u2038A[i, j] < 0\n", "a comparison is not a number"),
        "where-not-condition": (DECLS + "C[i, j] = A[i, j] where \u2038B[i, j]\n", "needs a condition"),
        "and-of-numbers": (DECLS + "C[i, j] = A[i, j] where \u2038A[i, j] and i < j\n", "joins conditions"),
        "select-not-condition": (DECLS + "C[i, j] = select(\u2038A[i, j], 1, 0)\n", "must be a condition"),
        "non-affine": (DECLS + "C[i, j] = \u2038A[i * j, j]\n", "must be affine"),
        "param-in-subscript": (DECLS + "C[i, j] = \u2038A[M - 1, j]\n", "cannot appear in a subscript"),
        "float-subscript": (DECLS + "C[i, j] = A[\u2038i * 0.5, j]\n", "integer index expression"),
        "shape-mismatch": ("param M = 4, N = 4\ninput A[M] : f32\ninput B[N] : f32\noutput C[M] : f32\n"
                           "C[i] = A[i] + B[\u2038i]\n", "ranges over 'N' here but over 'M'"),
        "let-used-before-it": (DECLS + "C[i, j] = \u2038T[i, j]\nlet T[i, j] = A[i, j]\n", "unknown tensor 'T'"),
        "read-before-assign": (DECLS + "output D[M, N] : f32\nC[i, j] = \u2038D[i, j]\nD[i, j] = A[i, j]\n",
                               "read before it is assigned"),
        "reduction-in-const": ("const x = \u2038sum[k](1)\n", "cannot appear in a constant"),
        "tensor-in-const": (DECLS + "const x = \u2038A\n", "read before it is assigned"),
        "index-in-const": ("const x = \u2038i + 1\n", "unknown name 'i'"),
        "extra-free-index": (DECLS + "let T[i] = A[i, \u2038j]\n", "unknown name 'j'"),
    }
    for name, (text, message) in cases.items():
        c.file("spec", f"semantic-{name}", text, message)


def spec_commands(c: Corpus) -> None:
    """The same bad specs through run, verify and layout (each reads and lowers a spec)."""
    bad = {
        "nonutf8": (b"param M = 8\n\xff\n", [2, 1], "is not valid UTF-8"),
        "syntax": (DECLS.encode() + b"C[i, j] = A[i, j] +\n", [5, 20], "unexpected end of file"),
        "overflow": (b"const x = exp(1000)\n", [1, 11], "overflows f32"),
        "big-param": (b"param M = 99999999999999999999\n", [1, 11], "is too large"),
    }
    for name, (data, loc, message) in bad.items():
        for command in (("run", "{file}"), ("verify", "{file}"), ("layout", "{file}", "--operand", "A"),
                        ("compile", "{file}", "--emit", "cuda")):
            c.file("spec", f"command-{command[0]}{'-cuda' if 'cuda' in command else ''}-{name}", data, message,
                   loc=loc, command=command)


# ---------------------------------------------------------------- IR

def ir_files(c: Corpus) -> None:
    c.file("ir", "encoding-ff", b"func.func @f() {\xff\n  return\n}\n", "is not valid UTF-8", loc=[1, 17])
    c.file("ir", "encoding-latin1-string", b'func.func @f() attributes {s = "caf\xe9"} {\n  return\n}\n',
           "is not valid UTF-8", loc=[1, 36])
    c.file("ir", "encoding-utf16", OK_IR.encode("utf-16"), "is not valid UTF-8", loc=[1, 1])
    c.file("ir", "encoding-random-bytes", bytes((k * 97 + 13) % 256 for k in range(512)), "is not valid UTF-8",
           loc=[None, None])
    c.file("ir", "encoding-nul", "func.func @f() {\n  \u2038\x00return\n}\n", "a NUL character")
    # nesting that overflows MLIR's recursive parser (a segfault before the bound): in a subprocess
    deep = {
        "array-attribute": "#a = " + "[" * 10000 + "]" * 10000 + "\n",
        "dictionary-attribute": "#a = " + "{a = " * 10000 + "unit" + "}" * 10000 + "\n",
        "regions": "\"t.op\"() (" + "{\n\"t.op\"() (" * 5000 + "{}" + ") : () -> ()\n}" * 5000 + ") : () -> ()\n",
        "type-parens": "#a = " + "(" * 10000 + "i32" + ")" * 10000 + "\n",
        "affine-map": "#m = affine_map<(d0) -> (" + "(" * 10000 + "d0" + ")" * 10000 + ")>\n",
        "tensor-types": "func.func private @f(" + "tuple<" * 10000 + "i32" + ">" * 10000 + ")\n",
        "unclosed-brackets": "#a = " + "[" * 20000 + "\n",
    }
    for name, text in deep.items():
        c.file("ir", f"deep-{name}", text, "IR nested this deep is refused", loc=[None, None], subprocess=True)
    c.file("ir", "deep-array-200-is-fine", "#a = " + "[" * 200 + "]" * 200 + "\n", "", exit=0, loc=None)
    c.file("ir", "deep-in-comment-is-fine", "// " + "[" * 10000 + "\n" + OK_IR, "", exit=0, loc=None)
    c.file("ir", "deep-in-string-is-fine", 'func.func @f() attributes {s = "' + "[" * 10000 + '"} {\n  return\n}\n',
           "", exit=0, loc=None)
    c.file("ir", "deep-arrows-are-fine", "".join(f"#m{k} = affine_map<(d0) -> (d0)>\n" for k in range(600)) + OK_IR,
           "", exit=0, loc=None)
    # a spec where IR is expected
    c.file("ir", "spec-in-mlir-file", GEMM, "is a tilec spec, not MLIR", loc=None)
    c.file("ir", "spec-starting-with-param", "param M = 4\n", "is a tilec spec", loc=None)
    c.file("ir", "spec-starting-with-assignment", "C[i] = A[i]\n", "is a tilec spec", loc=None)
    c.file("ir", "spec-after-comments", "// a comment\n# spec comment\n\ninput A[4] : f32\n", "is a tilec spec", loc=None)
    c.file("ir", "spec-through-stdin-name", "let T[i] = A[i]\n", "is a tilec spec", loc=None)
    parse = {
        "missing-value": "func.func @f() {\n  %0 = arith.constant\u2038 : f32\n  return\n}\n",
        "unterminated-string": 'func.func @f() attributes {s = "abc} {\u2038\n  return\n}\n',
        "unknown-op": 'func.func @f() {\n  \u2038"ta.bogus"() : () -> ()\n  return\n}\n',
        "unknown-dialect": "func.func @f() {\n  \u2038foo.bar\n  return\n}\n",
        "undefined-value": "func.func @f() -> f32 {\n  return \u2038%x : f32\n}\n",
        "redefinition": "func.func @f() {\n  %0 = arith.constant 1.0 : f32\n  \u2038%0 = arith.constant 2.0 : f32\n"
                        "  return\n}\n",
        "type-mismatch": "func.func @f() -> f32 {\n  %0 = arith.constant 1 : i32\n  return \u2038%0 : f32\n}\n",
        "missing-brace": "func.func @f() {\n  return\u2038\n",
        "huge-integer": "func.func @f() {\n  %0 = arith.constant \u203899999999999999999999999 : i64\n  return\n}\n",
        "huge-float": "func.func @f() {\n  %0 = arith.constant 1\u2038e999 : f32\n  return\n}\n",
        "huge-dim": "func.func private @f(memref<\u203899999999999999999999xf32>)\n",
        "negative-dim": "func.func private @f(memref<\u2038-1xf32>)\n",
        "bad-affine-dim": "#m = affine_map<(d0) -> (\u2038d9)>\n",
        "bad-attribute-alias": "func.func @f() attributes {a = #nothere\u2038} {\n  return\n}\n",
        "garbage": "@\u2038@@@\n",
        "ta-bad-kind": 'func.func @f(%a: tensor<?xf32, ["M"]>) {\n  %m = \u2038"ta.reduce"(%a) {kind = "mean", dims = [0]} '
                       ': (tensor<?xf32, ["M"]>) -> tensor<f32, []>\n  return\n}\n',
        "ta-bad-encoding": 'func.func @f(%a: tensor<?xf32, ["M+"]>) {\n  %m = \u2038"ta.reduce"(%a) {kind = "sum", '
                           'dims = [0]} : (tensor<?xf32, ["M+"]>) -> tensor<f32, []>\n  return\n}\n',
        "ta-no-encoding": 'func.func @f(%a: tensor<?xf32>) {\n  %m = \u2038"ta.reduce"(%a) {kind = "sum", dims = [0]} '
                          ': (tensor<?xf32>) -> tensor<f32>\n  return\n}\n',
    }
    for name, text in parse.items():
        c.file("ir", f"parse-{name}", text, "")
    split = OK_IR + "// -----\n" + OK_IR + "// -----\nfunc.func @g() {\n  %0 = arith.constant\u2038 : f32\n}\n"
    c.file("ir", "split-third-chunk", split, "", command=("opt", "{file}", "--split-input-file"))
    c.file("ir", "empty-is-fine", "", "", exit=0, loc=None)


# ---------------------------------------------------------------- kernel packages

def _zip(members: dict[str, bytes]) -> bytes:
    """A zip archive with fixed timestamps and no compression: the same bytes on every machine."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()


_TOP = ("format", "spec", "files", "seal", "kernels", "compiler")


def _package(manifest=None, members=None, **changes) -> bytes:
    """A package whose manifest passes every check but ``changes`` (None deletes a key): to its
    own fields (format, spec, files, seal, kernels, compiler), else to its one kernel's (sm_80's)."""
    source, cubin = b"// the kernel's CUDA source\n", b"\x7fELF" + bytes(60)
    kernel = {"kernel": "gemm", "schedule": "bm=64,bn=64,bk=32,warps=4,stages=3,swizzle=true,group-m=8",
              "source": "gemm.sm_80.cu", "cubin": "gemm.sm_80.cubin", "fixed": {},
              "variants": {"aligned": "gemm"}, "threads": 128, "smem_bytes": 0, "grid": [1], "params": [], "args": []}
    base = {"format": "tilec.package/3", "spec": {"file": "gemm.ta", "text": GEMM}, "compiler": "nvrtc",
            "files": {"gemm.sm_80.cu": hashlib.sha256(source).hexdigest(),
                      "gemm.sm_80.cubin": hashlib.sha256(cubin).hexdigest()}, "kernels": {"sm_80": kernel}}
    for key, value in changes.items():
        where = base if key in _TOP else kernel
        where.pop(key, None) if value is None else where.__setitem__(key, value)
    if "seal" not in changes:  # sealed as tilec writes it: what is refused is the field under test
        base["seal"] = seal(base)
    text = manifest if manifest is not None else json.dumps(base, indent=1, sort_keys=True)
    files = {"gemm.sm_80.cu": source, "gemm.sm_80.cubin": cubin}
    return _zip({"manifest.json": text.encode(), **(files if members is None else members)})


def packages(c: Corpus) -> None:
    bad = {
        "manifest-a-list": (_package("[1, 2]"), "is not a JSON object"),
        "manifest-not-json": (_package("{"), "not a readable tilec package"),
        "manifest-missing": (_zip({"gemm.cu": b""}), "not a readable tilec package"),
        "manifest-not-utf8": (_zip({"manifest.json": b"\xff\xfe"}), "not a readable tilec package"),
        "wrong-format": (_package(format="tilec.package/0"), "expected 'tilec.package/3'"),
        "no-files": (_package(files=None), "needs 'files'"),
        "files-a-list": (_package(files=["gemm.cu"]), "needs 'files'"),
        "files-bad-digest": (_package(files={"gemm.sm_80.cu": 7}), "must map names to sha256"),
        "file-not-in-archive": (_package(members={}), "not a readable tilec package"),
        "hash-mismatch": (_package(members={"gemm.sm_80.cu": b"tampered", "gemm.sm_80.cubin": b"\x7fELF"}),
                          "does not match its hash"),
        "no-kernels": (_package(kernels=None), "needs 'kernels'"),
        "kernels-empty": (_package(kernels={}), "must map 1 to 8 targets"),
        "kernels-not-a-target": (_package(kernels={"gfx942": {}}), "must map 1 to 8 targets"),
        "kernel-a-list": (_package(kernels={"sm_80": []}), "is not a JSON object"),
        "no-kernel": (_package(kernel=None), "needs 'kernel'"),
        "kernel-source-not-listed": (_package(source="other.cu"), "its source 'other.cu' is not among"),
        "kernel-cubin-not-listed": (_package(cubin="other.cubin"), "its cubin 'other.cubin' is not among"),
        "spec-a-string": (_package(spec="gemm.ta"), "needs 'spec'"),
        "spec-without-text": (_package(spec={"file": "gemm.ta"}), "'spec' needs 'file' and 'text'"),
        "schedule-a-number": (_package(schedule=64), "needs 'schedule'"),
        "schedule-injects-passes": (_package(schedule="bm=64}, canonicalize, ta-to-tile{bk=32"), "is not KEY=VALUE"),
        "fixed-a-string": (_package(fixed={"M": "64"}), "'fixed' must map names to sizes"),
        "fixed-zero": (_package(fixed={"M": 0}), "'fixed' must map names to sizes"),
        "fixed-huge": (_package(fixed={"M": 2**70}), "'fixed' must map names to sizes"),
        "deep": (_package('{"a": ' * 3000 + "1" + "}" * 3000), "not a readable tilec package"),
        "unsealed": (_package(seal=None), "does not match its seal"),
        "threads-a-string": (_package(threads="128"), "'threads' must be"),
        "threads-not-warps": (_package(threads=100), "'threads' must be"),
        "smem-negative": (_package(smem_bytes=-1), "'smem_bytes' must be"),
        "grid-empty": (_package(grid=[]), "'grid' must be"),
        "grid-bad-op": (_package(grid=[["%", 1, 2]]), "'grid' must be"),
        "args-a-dict": (_package(args={"A": 1}), "'args' must be"),
        "args-without-name": (_package(args=[{"role": "input", "dtype": "bf16", "dims": []}]), "'args' must be"),
        "args-unknown-size": (_package(args=[{"role": "input", "name": "A", "dtype": "bf16", "dims": ["Q"]}]),
                              "'args' must be"),
        "variants-empty": (_package(variants={}), "'variants' must be"),
        "tensor-map-unknown-arg": (_package(tensor_maps=[{"arg": "Z", "box": [64], "swizzle": 128}]),
                                   "'tensor_maps' must be"),
        "cubin-not-elf": (_package(members={"gemm.sm_80.cu": b"// the kernel's CUDA source\n",
                                            "gemm.sm_80.cubin": b"\x7fELF" + bytes(60)}, cubin="gemm.sm_80.cu"),
                          "'cubin' must be"),
        "empty-archive": (_zip({}), "not a readable tilec package"),
        "truncated-archive": (_package()[:200], "not a readable tilec package"),
    }
    for name, (data, message) in bad.items():
        c.file("pkg", f"manifest-{name}", data, message, loc=None)
    c.file("pkg", "schedule-stages-100000", _package(schedule="bm=64,bn=64,bk=32,stages=100000"), "more than 8",
           loc=[1, None], loc_file="<pass-pipeline>")
    spec_errors = {
        "division-by-zero": ("gemm.ta", "const x = 1 / 0\n", [1, 11], "division by zero"),
        "no-output": ("gemm.ta", "", [1, 1], "declares no output"),
        "deep-nesting": ("g.ta", "const x = " + "(" * 3000 + "1" + " + 1)" * 3000 + "\n", [1, None], "levels deep"),
        "ir-deep-nesting": ("g.mlir", "#a = " + "[" * 10000 + "]" * 10000 + "\n", [1, 262], "nested this deep"),
        "ir-parse-error": ("g.mlir", "func.func @f() {\n  %0 = arith.constant : f32\n}\n", [2, 22],
                           "expected attribute value"),
        "ir-nul": ("g.mlir", "func.func @f() {\x00}\n", [1, 17], "a NUL character"),
        "ir-empty-module": ("g.mlir", "module {}\n", None, "holds no ta function"),
        "too-large": ("g.ta", "#" * (64 * 1024) + "\n", None, "a spec is limited to 64 KiB"),
    }
    for name, (file, text, loc, message) in spec_errors.items():
        c.file("pkg", f"source-{name}", _package(spec={"file": file, "text": text}), message, loc=loc, loc_file=file)
    c.cli("package-zip-bomb", ["verify", "{tmp}/bomb.tkp"], 1, "a package holds at most")


# ---------------------------------------------------------------- command line

def cli_cases(c: Corpus) -> None:
    gemm = "{examples}/gemm.ta"
    for name, value, message in [
        ("zero", "M=0", "is not NAME=SIZE"), ("negative", "M=-1", "is not NAME=SIZE"), ("empty", "M=", "NAME=SIZE"),
        ("no-name", "=3", "NAME=SIZE"), ("no-value", "M", "NAME=SIZE"), ("float", "M=1.5", "NAME=SIZE"),
        ("hex", "M=0x10", "NAME=SIZE"), ("1e12", "M=1000000000000", "2^31 - 1"), ("2p31", f"M={2**31}", "2^31 - 1"),
        ("2p64", f"M={2**64}", "2^31 - 1"), ("5000-digits", "M=" + "9" * 5000, "2^31 - 1"),
        ("superscript", "M=\u00b2", "NAME=SIZE"), ("arabic-digits", "M=\u0661\u0662", "NAME=SIZE"),
        ("bad-name", "1M=4", "NAME=SIZE"),
    ]:
        c.cli(f"shape-{name}-run", ["run", gemm, "--shape", value], 2, message)
    c.cli("shape-2p31-compile", ["compile", gemm, "--shape", f"M={2**31}"], 2, "2^31 - 1")
    c.cli("shape-unknown-parameter", ["run", gemm, "--shape", "Q=3"], 1, "'Q' is not a shape parameter")
    c.cli("shape-max-run", ["run", gemm, "--shape", f"M={2**31 - 1}"], 1, "at most 2^31 elements",
          loc=[4, 7], loc_file=gemm)
    c.cli("shape-large-gemm-run", ["run", gemm, "--shape", "M=40000,N=40000,K=1000"], 1, "GiB",
          loc=[8, 11], loc_file=gemm)
    c.cli("shape-attention-run", ["run", "{examples}/attention.ta", "--shape", "S=65536,T=65536"], 1,
          "at most 2^31 elements", loc=[9, 35], loc_file="{examples}/attention.ta")
    c.cli("shape-work-gemm-run", ["run", gemm, "--shape", "M=16384,N=16384,K=16384"], 1, "multiply-adds",
          loc=[8, 11], loc_file=gemm)
    c.cli("shape-max-compile-is-fine", ["compile", gemm, "--shape", f"M={2**31 - 1}"], 0, "")
    for name, value in [("negative", "-1"), ("2p64", str(2**64)), ("text", "abc"), ("float", "1.5")]:
        c.cli(f"seed-{name}", ["run", gemm, "--seed", value], 2, "is not a seed")
    c.cli("seed-max-is-fine", ["run", gemm, "--shape", "M=16,N=16,K=16", "--seed", str(2**64 - 1)], 0, "")
    schedules = [
        ("stages-100000", "stages=100000", "more than 8"), ("stages-9", "stages=9", "more than 8"),
        ("stages-1", "stages=1", "at least 2"), ("stages-0", "stages=0", "at least 1"),
        ("warps-3", "warps=3", "not one of"), ("warps-32", "warps=32", "not one of"), ("warps-0", "warps=0", "at least 1"),
        ("bm-0", "bm=0", "at least 1"), ("bm-17", "bm=17", "multiples of 16"), ("bm-512", "bm=512", "larger than 256"),
        ("bm-huge", f"bm={2**70}", "larger than 256"), ("bm-negative", "bm=-16", "at least 1"),
        ("bk-float", "bk=1e3", "takes int"), ("bn-digits", "bn=" + "9" * 5000, "takes int"),
        ("group-m-65", "group-m=65", "larger than 64"), ("group-m-0", "group-m=0", "at least 1"),
        ("swizzle-maybe", "swizzle=maybe", "takes true or false"), ("unknown-key", "bogus=1", "has no option 'bogus'"),
        ("no-value", "bm", "is not KEY=VALUE"), ("smem", "bm=256,bn=256,bk=64,stages=4", "bytes of shared memory"),
        ("smem-stages", "bm=128,bn=128,bk=128,stages=8", "bytes of shared memory"),
    ]
    for name, value, message in schedules:
        c.cli(f"schedule-{name}-compile", ["compile", gemm, "--emit", "tile", "--schedule", value], 1, message)
    for name, value, message in schedules[:6]:
        c.cli(f"schedule-{name}-run", ["run", gemm, "--stage", "tile", "--schedule", value], 1, message)
        c.cli(f"schedule-{name}-layout", ["layout", gemm, "--operand", "A", "--schedule", value], 1, message)
        if name != "stages-1":  # legal for some kernel forms: verify reports the gemm it cannot build as an error row
            c.cli(f"schedule-{name}-verify", ["verify", gemm, "--schedule", value], 1, message)
    # a schedule given for one target's kernel (--schedule TARGET:...)
    c.cli("schedule-target-unknown", ["compile", gemm, "--emit", "tile", "--schedule", "sm_75:bm=64"], 1,
          "'sm_75' is not a target")
    c.cli("schedule-target-twice", ["compile", gemm, "-o", "{tmp}/two.tkp", "--schedule", "sm_90a:bm=64",
                                    "--schedule", "sm_90a:bm=128"], 1, "sm_90a is given two schedules")
    c.cli("schedule-every-target-twice", ["verify", gemm, "--schedule", "bm=64", "--schedule", "bm=128"], 1,
          "every target is given two schedules")
    c.cli("schedule-target-not-built", ["compile", gemm, "-o", "{tmp}/t.tkp", "--target", "sm_80",
                                        "--schedule", "sm_90a:bm=64"], 1, "not among the targets built")
    c.cli("schedule-target-one-kernel", ["compile", gemm, "--emit", "cuda", "--schedule", "sm_90a:bm=64"], 1,
          "this command builds one kernel")
    c.cli("schedule-target-bad-option", ["verify", gemm, "--schedule", "sm_90a:stages=100000"], 1, "more than 8")
    c.cli("schedule-target-lacks-features", ["compile", gemm, "-o", "{tmp}/w.tkp", "--target", "sm_80",
                                             "--schedule", "bm=128,bn=128,bk=64,warps=8,consumers=2"], 1,
          "which sm_80 does not have")
    c.cli("schedule-in-pipeline", ["opt", "{tmp}/ok.mlir", "--pass-pipeline=builtin.module(ta-to-tile{stages=100000})"],
          1, "more than 8", loc=[1, 16], loc_file="<pass-pipeline>")
    # inputs that are not regular files, or too large
    inputs = [("missing", "{tmp}/missing.ta", "No such file or directory"), ("directory", "{tmp}/dir", "a directory"),
              ("fifo", "{tmp}/fifo", "a FIFO"), ("urandom", "/dev/urandom", "a character device"),
              ("zero", "/dev/zero", "a character device")]
    commands = {"run": ["run"], "compile": ["compile"], "verify": ["verify"], "opt": ["opt"],
                "layout": ["layout", "--operand", "A"]}
    for cname, prefix in commands.items():
        for iname, path, message in inputs:
            argv = prefix[:1] + [path] + prefix[1:]
            c.cli(f"input-{iname}-{cname}", argv, 1, message)
        big = "{tmp}/big.mlir" if cname == "opt" else "{tmp}/big.ta"
        c.cli(f"input-too-large-{cname}", prefix[:1] + [big] + prefix[1:], 1, "is limited to")
    c.cli("input-empty-path", ["compile", ""], 1, "cannot read ''")
    c.cli("input-nul-in-path", ["compile", "a\x00b.ta"], 1, "cannot read")
    c.cli("input-package-missing", ["verify", "{tmp}/missing.tkp"], 1, "No such file or directory")
    c.cli("input-package-directory", ["verify", "{tmp}/dir.tkp"], 1, "a directory")
    c.cli("input-package-empty", ["verify", "{tmp}/empty.tkp"], 1, "not a readable tilec package")
    c.cli("input-package-not-zip", ["verify", "{tmp}/notzip.tkp"], 1, "not a readable tilec package")
    c.cli("input-package-fifo", ["verify", "{tmp}/fifo.tkp"], 1, "a FIFO")
    # outputs that cannot be written: refused before any work, nothing written
    outputs = [("directory", "{tmp}/dir", "is a directory"),
               ("missing-directory", "{tmp}/nodir/out.x", "does not exist"),
               ("parent-is-file", "{tmp}/afile/out.x", "is not a directory"),
               ("proc", "/proc/tilec-no/out.x", "does not exist"),
               ("read-only", "/proc/out.x", "no file can be created"),
               ("fifo", "{tmp}/fifo", "it is a FIFO")]
    flags = {"compile-o": ["compile", gemm, "-o"], "compile-tkp": ["compile", gemm, "-o"],
             "opt-o": ["opt", "{tmp}/ok.mlir", "-o"], "layout-png": ["layout", gemm, "--operand", "A", "--png"],
             "verify-json": ["verify", gemm, "--json"], "verify-junit": ["verify", gemm, "--junit"],
             "verify-markdown": ["verify", gemm, "--markdown"]}
    for fname, argv in flags.items():
        for oname, path, message in outputs:
            if fname == "compile-tkp":
                path = path.replace("out.x", "out.tkp").replace("{tmp}/dir", "{tmp}/dir.tkp")
            c.cli(f"output-{oname}-{fname}", argv + [path], 1, message, absent=path if "out." in path else "")
    for oname, path, message in [("file", "{tmp}/afile", "is not a directory"),
                                 ("under-file", "{tmp}/afile/sub", "is not a directory"),
                                 ("proc", "/proc/tilec-dir", "no file can be created")]:
        c.cli(f"output-{oname}-compile-out-dir", ["compile", gemm, "--out-dir", path], 1, message)
        c.cli(f"output-{oname}-opt-dump-dir", ["opt", "{tmp}/ok.mlir", "--pass-pipeline=builtin.module(cse)",
                                                "--dump-dir", path], 1, message)
    c.cli("output-empty-path", ["compile", gemm, "-o", ""], 1, "is not a path")
    # pass pipelines are data too
    pipelines = [
        ("unclosed", "builtin.module(cse", "malformed pass pipeline"),
        ("extra-close", "builtin.module(cse))", "malformed pass pipeline"),
        ("empty-element", "builtin.module(cse,,)", "malformed pass pipeline"),
        ("unknown-pass", "builtin.module(bogus)", "unknown pass 'bogus'"),
        ("our-pass-as-anchor", "builtin.module(ta-canonicalize(cse))", "is a pass, not an anchor"),
        ("our-pass-nested", "builtin.module(func.func(ta-decompose-softmax))", "runs on the whole module"),
        ("bad-option", "builtin.module(ta-specialize-shapes{shape=3})", "has no option 'shape'"),
        ("huge-size", "builtin.module(ta-specialize-shapes{shapes=M=99999999999999999999})", ""),
        ("zero-size", "builtin.module(ta-specialize-shapes{shapes=M=0})", ""),
        ("upstream-bad-option", "builtin.module(canonicalize{max-iterations=abc})", "bad options in 'canonicalize'"),
        ("upstream-unknown-option", "builtin.module(canonicalize{bogus=1})", "no such option bogus"),
        ("upstream-nested-unknown", "builtin.module(func.func(bogus))", "'bogus' does not refer to a registered pass"),
        ("unbalanced-braces", "builtin.module(canonicalize{max-iterations=3)", "malformed pass pipeline"),
        ("deep-nesting", "builtin.module(" * 5000 + ")" * 5000, ""),
        ("non-ascii", "builtin.module(c\u00f6se)", ""),
        ("only-anchor", "func.func", ""),
    ]
    for name, pipeline, message in pipelines:
        c.cli(f"pipeline-{name}", ["opt", "{tmp}/gemm.ta.mlir", f"--pass-pipeline={pipeline}"], 1, message,
              loc=[1, None], loc_file="<pass-pipeline>")
    # misuse of the command line itself
    for name, argv in [("no-command", []), ("unknown-command", ["frobnicate"]), ("compile-no-spec", ["compile"]),
                       ("bad-emit", ["compile", gemm, "--emit", "ptx"]), ("bad-stage", ["run", gemm, "--stage", "gpu"]),
                       ("bad-target", ["compile", gemm, "--target", "sm_70"]),
                       ("layout-no-operand", ["layout", gemm]), ("o-and-out-dir", ["compile", gemm, "-o", "x", "--out-dir", "y"])]:
        c.cli(f"usage-{name}", argv, 2, "")
    c.cli("layout-unknown-operand", ["layout", gemm, "--operand", "Z"], 1, "is not staged through shared memory")
    c.cli("two-specs-one-output", ["compile", gemm, gemm, "-o", "{tmp}/x.mlir"], 1, "-o names one output file")


def translate_files(c: Corpus) -> None:
    """`tilec translate` reads IR as `tilec opt` does: the same bounds, then one tile function."""
    translate = ("translate", "{file}")
    c.file("ir", "translate-deep-regions", "\"t.op\"() (" + "{\n\"t.op\"() (" * 5000 + "{}" + ") : () -> ()\n}" * 5000
           + ") : () -> ()\n", "IR nested this deep is refused", loc=[None, None], subprocess=True, command=translate)
    c.file("ir", "translate-encoding-ff", b"func.func @f() {\xff\n  return\n}\n", "is not valid UTF-8", loc=[1, 17],
           command=translate)
    c.file("ir", "translate-spec", GEMM, "lower it to tile IR first", loc=None, command=translate)
    c.file("ir", "translate-parse-error", "func.func @f() -> f32 {\n  return \u2038%x : f32\n}\n",
           "use of undeclared SSA value", command=translate)
    c.file("ir", "translate-no-function", "module {}\n", "takes a module of one tile function; this one has 0",
           loc=None, command=translate)
    c.file("ir", "translate-two-functions", OK_IR + OK_IR.replace("@f", "@g"),
           "takes a module of one tile function; this one has 2", loc=None, command=translate)
    c.file("ir", "translate-not-tile-ir", "\u2038" + OK_IR, "the CUDA emitter takes tile IR", command=translate)


def build() -> Corpus:
    corpus = Corpus()
    for family in (spec_encoding, spec_integers, spec_constants, spec_nesting, spec_empty, spec_sizes, spec_syntax,
                   spec_semantics, spec_commands, ir_files, translate_files, packages, cli_cases):
        family(corpus)
    return corpus


def expected_files(corpus: Corpus) -> dict[str, bytes]:
    files = dict(corpus.files)
    files["cases.json"] = (json.dumps(sorted(corpus.cases, key=lambda c: c["name"]), indent=1, ensure_ascii=True)
                           + "\n").encode()
    return files


def _on_disk() -> dict[str, bytes]:
    return {str(p.relative_to(HERE)): p.read_bytes() for kind in ("spec", "ir", "pkg") if (HERE / kind).is_dir()
            for p in sorted((HERE / kind).iterdir())} | (
        {"cases.json": (HERE / "cases.json").read_bytes()} if (HERE / "cases.json").exists() else {})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    args = parser.parse_args(argv)
    wanted, present = expected_files(build()), _on_disk()
    stale = sorted(p for p in wanted.keys() | present.keys() if wanted.get(p) != present.get(p))
    if args.check:
        for path in stale[:20]:
            state = "missing" if path not in present else "extra" if path not in wanted else "differs"
            print(f"{path}: {state}")
        print(f"{len(wanted) - 1} corpus files, {len(json.loads(wanted['cases.json']))} cases: "
              + ("up to date" if not stale else f"{len(stale)} out of date (run tests/malformed/generate.py)"))
        return 1 if stale else 0
    for path in stale:
        target = HERE / path
        if path not in wanted:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(wanted[path])
    print(f"{len(wanted) - 1} corpus files, {len(json.loads(wanted['cases.json']))} cases; {len(stale)} written or removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
