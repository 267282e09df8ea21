"""Random valid specs, table-driven and reproducible from (seed, case index).

Each production is a row of a weighted table; a spec is one to three *forms* (tilec.fuzz.forms:
pointwise maps, reductions, GEMMs, softmax rows, attention, norms, shifted reads, scalars)
sharing shape parameters. Every index gets exactly one dimension, so plain subscripts never
disagree; reductions bind fresh indices and always read them plainly. A spec is kept only if
float32 arithmetic reproduces its float64 reference (reference.conditioning): the fuzzer tests
compilers, not rounding.

    case = generate(seed=1, index=7)
    print(render(case.spec), case.shapes)
"""

from __future__ import annotations

import random

from .model import Case, Spec, Stmt, Tensor, plain_uses, prune
from .arith import index_value
from .forms import FORMS
from .known import features
from .reference import conditioning, make_inputs

INDEX_NAMES = "ijklmnpqrstuvwxyzabcdefgh"
PARAM_NAMES = ["M", "N", "K", "L", "P", "R", "S", "T", "D", "H", "B", "E", "F", "U", "W", "Z"]
# sizes: size-1 dims, sizes that divide no tile (17, 33, 65, 130 > 128), a few powers of two
SIZES = [(3, 1), (2, 2), (3, 3), (2, 5), (2, 7), (2, 8), (1, 13), (2, 16), (3, 17), (2, 31), (3, 33),
         (1, 40), (1, 64), (2, 65), (1, 100), (1, 130)]
DTYPES = [(2, "f32"), (1, "bf16"), (1, "f16")]
# numbers: spelled with a point or an exponent (f32), and integers (index arithmetic beside an index)
BUDGET = 150_000          # the largest index space (product of extents) of one statement
MAX_ATTEMPTS = 12


class Gen:
    """The state of one spec under construction: declarations, statements, the current scope.

        g = Gen(random.Random(0)); g.begin(); i = g.index(g.dim()); g.read_over([i])
    """

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.names: set[str] = set()
        self.sizes: dict[str, int] = {}       # param -> size
        self.multiple: dict[str, int] = {}    # param -> the size must stay a multiple of this
        self.consts: list = []                # (name, expr)
        self.const_values: dict[str, float] = {}
        self.inputs: list[Tensor] = []
        self.outputs: list[Tensor] = []
        self.stmts: list[Stmt] = []
        self.temps: list[tuple[str, tuple]] = []   # readable results: lets and f32 outputs
        self.stmt_dims: list[dict] = []            # per statement: index -> dim (for the budget)
        self.forms: list[str] = []

    # ---- choices -------------------------------------------------------------------------
    def pick(self, table):
        """A weighted choice: pick([(3, "a"), (1, "b")]) is "a" three times in four."""
        total = sum(w for w, _ in table)
        x = self.rng.random() * total
        for w, value in table:
            x -= w
            if x < 0:
                return value
        return table[-1][1]

    def chance(self, p: float) -> bool:
        """True with probability ``p``: chance(0.25) holds one time in four."""
        return self.rng.random() < p

    def fresh(self, base: str) -> str:
        """An unused declaration name: fresh("X") is "X", then "X1", "X2", ..."""
        name, n = base, 1
        while name in self.names:
            name, n = f"{base}{n}", n + 1
        self.names.add(name)
        return name

    # ---- declarations ----------------------------------------------------------------------
    def param(self, size: int | None = None, multiple: int = 1) -> tuple:
        """A new shape parameter (as a dim expression) of ``size`` (random if None).

        g.param(16, multiple=4)   # ("param", "M"), its size kept a multiple of 4 when the budget shrinks it
    """
        pool = [n for n in PARAM_NAMES if n not in self.names]
        name = self.fresh(self.rng.choice(pool) if pool else "P")
        size = size if size is not None else self.pick(SIZES)
        self.sizes[name] = max(multiple, size // multiple * multiple)
        self.multiple[name] = multiple
        return ("param", name)

    def dim(self) -> tuple:
        """A dimension: an existing or new parameter, a literal (often 1), or an integer const.

        g.dim()   # e.g. ("param", "N"), ("int", 1) or ("const", "C")
    """
        kind = self.pick([(4, "reuse"), (5, "new"), (0.8, "one"), (0.4, "int"), (0.4, "const")])
        params = [n for n, m in self.multiple.items() if m == 1]
        if kind == "reuse" and params:
            return ("param", self.rng.choice(params))
        if kind == "one":
            return ("int", 1)
        if kind == "int":
            return ("int", self.rng.choice([2, 3, 5]))
        if kind == "const":
            return ("const", self.const(self.rng.choice([2, 3, 4]), "C"))
        return self.param()

    def const(self, value: float, base: str = "cst", expr=None) -> str:
        """A const of ``value`` (reused if one exists): const(1e-5, "eps") declares `const eps = 1e-05`."""
        for name, v in self.const_values.items():
            if v == value and name.startswith(base) and expr is None:
                return name
        name = self.fresh(base)
        self.consts.append((name, expr if expr is not None else ("num", value)))
        self.const_values[name] = value
        return name

    def dtype(self) -> str:
        """A random element type: "f32", "bf16" or "f16"."""
        return self.pick(DTYPES)

    def input(self, dims: tuple, dtype: str | None = None, base: str = "X", reuse: float = 0.5) -> str:
        """An input with ``dims``: an existing one (sometimes) or a new declaration.

        g.input((("param", "N"),), "bf16")   # "X", declared `input X[N] : bf16`
    """
        same = [t.name for t in self.inputs if t.dims == dims and (dtype is None or t.dtype == dtype)]
        if same and self.chance(reuse):
            return self.rng.choice(same)
        name = self.fresh(base)
        self.inputs.append(Tensor(name, dims, dtype or self.dtype()))
        return name

    def output(self, dims: tuple, dtype: str | None = None, base: str = "Y") -> str:
        """A new output: output((("param", "N"),), "f32") declares `output Y[N] : f32`, returns "Y"."""
        name = self.fresh(base)
        self.outputs.append(Tensor(name, dims, dtype or self.dtype()))
        return name

    # ---- statements ------------------------------------------------------------------------
    def begin(self) -> None:
        """Start a statement: fresh index names, an empty index -> dim record."""
        self.pool = iter(INDEX_NAMES)
        self.scope_dims: dict[str, tuple] = {}

    def index(self, dim: tuple) -> str:
        """The next fresh index name of the statement, ranging over ``dim``: index(("param", "N")) is "i"."""
        name = next(self.pool)
        self.scope_dims[name] = dim
        return name

    def finish(self, name: str, lhs: tuple, expr: tuple, let: bool = False, readable: bool = True) -> None:
        """Add the statement; a ``let`` reads each of its indices plainly somewhere (its range).
        Later statements may read it back, and an output only at f32 (a rounded bf16 value read
        again would amplify the rounding of its reference); nothing reads a result that is
        ``readable=False`` (NaN rows of a fully masked softmax)."""
        if let:
            missing = [i for i in lhs if i not in plain_uses(expr)]
            if missing:
                expr = ("bin", self.rng.choice("+*"), expr, self.read_over(missing))
        out = {t.name: t for t in self.outputs}.get(name)
        if readable and (let or out.dtype == "f32"):
            self.temps.append((name, tuple(self.scope_dims[i] for i in lhs)))
        self.stmts.append(Stmt(name, tuple(lhs), expr, let))
        self.stmt_dims.append(dict(self.scope_dims))

    def read_over(self, indices: list, dtype: str | None = None, base: str = "X") -> tuple:
        """A plain read of a (new or reused) input over exactly ``indices``.

        g.read_over(["i", "k"])   # ("read", "X", (("var", "i"), ("var", "k")))
    """
        dims = tuple(self.scope_dims[i] for i in indices)
        return ("read", self.input(dims, dtype, base), tuple(("var", i) for i in indices))

    # ---- the spec ---------------------------------------------------------------------------
    def fit_budget(self) -> None:
        """Halve the largest parameter of the largest statement until every statement fits BUDGET
    (so that no case takes long): M=130, N=130, K=65 in one GEMM becomes M=65, N=65, K=32."""
        for _ in range(64):
            worst, used = 0, []
            for dims in self.stmt_dims:
                size, names = 1, []
                for d in dims.values():
                    size *= self.size(d)
                    names += [n for n in _params(d)]
                if size > worst:
                    worst, used = size, names
            if worst <= BUDGET or not used:
                return
            name = max(used, key=lambda n: self.sizes[n])
            m = self.multiple[name]
            self.sizes[name] = max(m, self.sizes[name] // 2 // m * m)

    def size(self, d) -> int:
        """The current size of a dim: size(("+", ("param", "N"), ("int", 1))) is N + 1."""
        return max(1, index_value(d, self.sizes, self.const_values))

    def spec(self) -> tuple[Spec, tuple]:
        """(spec, --shape items): each param with a default, without one (given on the command
        line), or with a default that the command line overrides.

            spec, shapes = g.spec()   # e.g. shapes == (("N", 17),) for `param M = 8, N`
        """
        params, shapes = [], []
        for name, size in self.sizes.items():
            how = self.pick([(6, "default"), (3, "shape"), (1, "override")])
            if how == "default":
                params.append((name, size))
                continue
            other = self.pick(SIZES) // self.multiple[name] * self.multiple[name] or self.multiple[name]
            params.append((name, other if how == "override" else None))
            shapes.append((name, size))
        spec = prune(Spec(tuple(params), tuple(self.consts), tuple(self.inputs), tuple(self.outputs),
                          tuple(self.stmts)))
        kept = {name for name, _ in spec.params}
        return spec, tuple((n, v) for n, v in shapes if n in kept)


def _params(d) -> list:
    if d[0] == "param":
        return [d[1]]
    return _params(d[1]) + _params(d[2]) if d[0] in "+-*/" else []


def build(rng: random.Random) -> tuple[Spec, tuple, str]:
    """One random spec (not yet checked for conditioning): (spec, --shape items, form names).

        spec, shapes, form = build(random.Random(0))   # form e.g. "gemm" or "attention+rows"
    """
    g = Gen(rng)
    for _ in range(g.pick([(14, 1), (5, 2), (1, 3)])):
        form = g.pick(FORMS)
        g.forms.append(form.__name__.removeprefix("form_"))
        form(g)
    g.fit_budget()
    spec, shapes = g.spec()
    return spec, shapes, "+".join(g.forms)


def generate(seed: int, index: int, avoid=frozenset()) -> Case:
    """Case ``index`` of the stream ``seed``: the same (seed, index, avoid) gives the same case;
    a case with a feature in ``avoid`` (known.KNOWN_FEATURES) is drawn again.

        generate(1, 0) == generate(1, 0)
    """
    why = ""
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"tilec-fuzz/{seed}/{index}/{attempt}")
        spec, shapes, form = build(rng)
        case = Case(seed, index, spec, shapes, data_seed=index, form=form)
        if features(case) & avoid:
            why = f"it has {', '.join(sorted(features(case) & avoid))}"
            continue
        env = case.env()
        why = conditioning(spec, env, make_inputs(spec, env, case.data_seed))
        if not why:
            return Case(seed, index, spec, shapes, index, form, {"attempts": attempt + 1})
    # no well-conditioned spec in MAX_ATTEMPTS draws: a plain copy, still a valid test
    x = Tensor("X", (("param", "N"),), "f32")
    copy = Spec((("N", 5),), (), (x,), (Tensor("Y", x.dims, "f32"),),
                (Stmt("Y", ("i",), ("read", "X", (("var", "i"),))),))
    return Case(seed, index, copy, (), index, "fallback", {"attempts": MAX_ATTEMPTS, "rejected": why})
