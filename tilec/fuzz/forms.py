"""The forms a generated spec is made of, one function each, picked from FORMS by weight.

    g = Gen(random.Random(0)); form_gemm(g)   # adds inputs A, B, an output and its statement

Each form declares what it reads and writes and adds one or more statements; forms of one
spec share shape parameters (Gen.dim reuses them) and may read each other's results.
"""

from __future__ import annotations

from .exprs import expr, reduce
from .masks import cond, row_mask, safe_mask, window

DEPTHS = [(1, 1), (2, 2), (2, 3)]


def form_pointwise(g) -> None:
    """Y[i, ...] = a random expression (rank 0 to 4), e.g. ``Y[i, j] = tanh(X[j, i]) * 2.0``."""
    dims = tuple(g.dim() for _ in range(g.pick([(1, 0), (2, 1), (3, 2), (2, 3), (1, 4)])))
    out = g.output(dims)
    g.begin()
    lhs = [g.index(d) for d in dims]
    g.finish(out, lhs, expr(g, lhs, g.pick(DEPTHS)))


def form_let(g) -> None:
    """let T[...] = expr; Y[...] = expr that reads T, e.g. ``let T[i] = exp(X[i])`` then ``Y[i] = T[i] - X1[i]``."""
    dims = tuple(g.dim() for _ in range(g.pick([(1, 1), (2, 2), (1, 3)])))
    g.begin()
    lhs = [g.index(d) for d in dims]
    temp = g.fresh("T")
    g.finish(temp, lhs, expr(g, lhs, g.pick(DEPTHS)), let=True)
    out = g.output(dims)
    g.begin()
    lhs = [g.index(d) for d in dims]
    body = ("bin", g.rng.choice("+-*"), ("read", temp, tuple(("var", i) for i in lhs)), expr(g, lhs, 2))
    g.finish(out, lhs, body)


def form_reduction(g) -> None:
    """Y[...] = sum / max / min / logsumexp over fresh indices, with an optional epilogue,
    e.g. ``Y[i] = max[j, k](X[i, j, k]) + 0.5``."""
    dims = tuple(g.dim() for _ in range(g.pick([(1, 0), (3, 1), (3, 2), (1, 3)])))
    out = g.output(dims)
    g.begin()
    lhs = [g.index(d) for d in dims]
    value = reduce(g, lhs, g.pick(DEPTHS))
    if g.chance(0.4):
        value = ("bin", g.rng.choice("+-*"), value, expr(g, lhs, 1))
    g.finish(out, lhs, value)


def form_scalar(g) -> None:
    """t = a reduction to rank 0, e.g. t = sum[i, j](X[i, j] * W[i, j])."""
    out = g.output(())
    g.begin()
    g.finish(out, [], reduce(g, [], g.pick(DEPTHS), g.pick([(3, "sum"), (1, "max"), (1, "min")])))


def form_gemm(g) -> None:
    """The GEMM family: C[b.., i, j] = sum[k](A[b.., i, k] * B[b.., k, j]), operands transposed or
    swapped, scales inside (``sum[k](B[k, j] * A[i, k] * 0.5)``), zero to three batch dims, and an
    epilogue (scale, bias, activation, a let)."""
    nb = g.pick([(5, 0), (2, 1), (0.8, 2), (0.3, 3)])
    bdims = [g.dim() for _ in range(nb)]
    same = nb == 0 and g.chance(0.12)           # C[i, j] = sum[k](X[i, k] * X[j, k])
    m, k_dim = g.dim(), g.dim()
    n = m if same else g.dim()
    dt = g.pick([(2, "bf16"), (1, "f16"), (2, "f32")])
    dt_b = dt
    if g.chance(0.08):   # ta-to-tile declines mixed operand types: the tile stage is n/a
        dt_b = g.rng.choice([d for d in ("f32", "f16", "bf16") if d != dt])
    g.begin()
    b = [g.index(d) for d in bdims]
    i, j, k = g.index(m), g.index(n), g.index(k_dim)
    a_subs = b + ([k, i] if not same and g.chance(0.3) else [i, k])
    b_subs = b + ([j, k] if same or g.chance(0.3) else [k, j])
    ra = g.read_over(a_subs, dt, base="A")
    rb = ("read", ra[1], tuple(("var", x) for x in b_subs)) if same else g.read_over(b_subs, dt_b, base="B")
    factors = [rb, ra] if g.chance(0.3) else [ra, rb]
    if g.chance(0.3):   # a factor without k: a scale the frontend takes out of the sum
        factors.insert(g.rng.randint(0, 2), _scale(g, k_dim, [i, j]))
    acc = ("red", "sum", (k,), _product(g, factors))
    out_dims = tuple(bdims) + (m, n)
    lhs = b + [i, j]
    epilogue = g.pick([(3, "none"), (1, "scale"), (2, "bias"), (1.5, "act"), (1.2, "let")])
    if epilogue == "scale":
        scale = g.pick([(1, ("num", 0.125)), (1, ("const", g.const(0.125, "scale"))),
                        (1, ("call", "rsqrt", (("ix", k_dim),)))])
        acc = ("bin", "*", acc, scale)
    if epilogue in ("bias", "let") and g.chance(0.8):
        acc = ("bin", "+", acc, g.read_over([j] if g.chance(0.7) else [i, j], base="bias"))
    if epilogue == "act":
        acc = ("call", g.rng.choice(["tanh", "sigmoid", "erf"]), (acc,)) if g.chance(0.6) else \
            ("call", "max", (acc, ("num", 0.0)))
    if epilogue == "let":
        z = g.fresh("Z")
        g.finish(z, lhs, acc, let=True)
        out = g.output(out_dims)
        g.begin()
        lhs = [g.index(d) for d in out_dims]
        zr = ("read", z, tuple(("var", x) for x in lhs))
        acc = g.pick([(2, ("bin", "*", ("bin", "*", ("num", 0.5), zr), ("bin", "+", ("num", 1.0), ("call", "erf", (
            ("bin", "*", zr, ("num", 0.7071067811865476)),))))),
                      (1, ("bin", "*", zr, ("call", "sigmoid", (zr,)))), (1, ("call", "max", (zr, ("num", 0.0))))])
        g.finish(out, lhs, acc)
        return
    g.finish(g.output(out_dims), lhs, acc)


def _scale(g, k_dim, rows: list) -> tuple:
    """A factor of a contraction that does not use k: a number, a const, rsqrt(K) or a read."""
    return g.pick([(2, ("num", g.rng.choice([0.5, 0.125, 2.0, 2]))), (1, ("const", g.const(0.125, "scale"))),
                   (1, ("call", "rsqrt", (("ix", k_dim),))), (1, g.read_over([g.rng.choice(rows)], base="s"))])


def _product(g, factors: list) -> tuple:
    """The product of ``factors`` in their order, grouped at random: (a * b) * c or a * (b * c)."""
    if len(factors) == 1:
        return factors[0]
    cut = g.rng.randint(1, len(factors) - 1)
    return ("bin", "*", _product(g, factors[:cut]), _product(g, factors[cut:]))


def form_rows(g) -> None:
    """Row softmax or logsumexp along one dim, with a scale, a bias row or a -inf mask (causal, a
    sliding window, or one that empties rows: NaN, or -inf for logsumexp), e.g.
    ``Y[i, j] = softmax[j](X[i, j] * 0.125 where j <= i else -inf)``."""
    dims = [g.dim() for _ in range(g.pick([(2, 1), (3, 2), (1, 3)]))]
    axis = len(dims) - 1 if g.chance(0.7) else g.rng.randrange(len(dims))
    x_dims = tuple(dims)
    lse = g.chance(0.35)
    out_dims = tuple(d for a, d in enumerate(dims) if a != axis) if lse else x_dims
    out = g.output(out_dims)
    g.begin()
    idx = [g.index(d) for d in dims]
    c = idx[axis]
    score = g.read_over(idx)
    if g.chance(0.4):
        score = ("bin", "*", score, g.pick([(1, ("num", 0.125)), (1, ("const", g.const(0.5, "scale")))]))
    if g.chance(0.3):
        score = ("bin", "+", score, g.read_over([c], base="bias"))
    others = [i for i in idx if i != c]
    mask = g.pick([(7, None), (2, safe_mask), (1, window), (1.5, row_mask)]) if others else None
    if mask:   # row_mask (and a window with more rows than columns) may leave a row with no column
        score = ("where", score, mask(g, c, g.rng.choice(others)), ("inf", -1))
    if lse:
        g.finish(out, others, ("red", "logsumexp", (c,), score), readable=mask in (None, safe_mask))
    else:
        g.finish(out, idx, ("red", "softmax", (c,), score), readable=mask in (None, safe_mask))


def form_attention(g) -> None:
    """O[b, h, i, d] = sum[j](softmax[j](sum[e](Q·K) * scale [+ bias] [where mask else -inf]) * V):
    batch and head dims or not, grouped heads (h / G), a let P, scale by rsqrt(D), a const or a number;
    a causal mask, a sliding window (``j <= i and i - j < W``) or one that empties rows (NaN rows);
    bf16, f16 or f32 inputs, an output of any type (f32 with bf16 inputs included)."""
    batch = g.pick([(1, 0), (1, 1), (3, 2)])
    gqa = batch >= 1 and g.chance(0.3)
    if gqa:
        G = g.const(g.rng.choice([2, 3]), "G")
        group = int(g.const_values[G])
        heads = g.param(group * g.rng.choice([1, 2, 3]), multiple=group)
    else:
        heads = g.dim()
    bdims = ([g.dim()] if batch == 2 else []) + ([heads] if batch else [])
    mask = g.pick([(6, None), (3, "causal"), (1, "window"), (1, "empty")])
    s = g.dim()
    t = s if mask in ("causal", "window") and g.chance(0.5) else g.dim()
    d = g.param(g.rng.choice([16, 16, 32, 64, 48, 96, 8, 24]))   # 8, 24: ta-to-tile declines (k steps by 16)
    dt = g.pick([(3, "bf16"), (1, "f16"), (1, "f32")])
    kv_dims = bdims[:-1] + [("/", heads, ("const", G))] if gqa else bdims
    q = g.input(tuple(bdims) + (s, d), dt, "Q", reuse=0)
    k = g.input(tuple(kv_dims) + (t, d), dt, "K", reuse=0)
    v = g.input(tuple(kv_dims) + (t, d), dt, "V", reuse=0)
    out = g.output(tuple(bdims) + (s, d), g.pick([(2, "f32"), (2, "bf16"), (1, "f16")]))
    bias = g.input(tuple(bdims[-1:]) + (s, t), "f32", "bias", reuse=0) if g.chance(0.2) else None
    scale = g.pick([(3, ("call", "rsqrt", (("ix", d),))), (1, ("const", g.const(0.125, "scale"))),
                    (1, ("num", 0.25)), (1, None)])
    let = g.chance(0.35)

    def heads_of(b):   # the K/V head of query head h: h / G with grouped heads
        if not gqa:
            return b
        return b[:-1] + [("/", b[-1], ("const", G))]

    g.begin()
    b = [g.index(x) for x in bdims]
    i = g.index(s)
    dd = None if let else g.index(d)
    j, e = g.index(t), g.index(d)
    bv = [("var", x) for x in b]
    qk = ("red", "sum", (e,), ("bin", "*", ("read", q, (*bv, ("var", i), ("var", e))),
                                ("read", k, (*heads_of(bv), ("var", j), ("var", e)))))
    scores = ("bin", "*", qk, scale) if scale else qk
    if bias:
        scores = ("bin", "+", scores, ("read", bias, (*bv[-1:], ("var", i), ("var", j))))
    if mask:
        keep = {"causal": lambda g, j, i: ("cmp", "<=", ("ix", ("var", j)), ("ix", ("var", i))),
                "window": window, "empty": row_mask}[mask](g, j, i)
        scores = ("where", scores, keep, ("inf", -1))
    probs = ("red", "softmax", (j,), scores)
    if let:
        p = g.fresh("P")
        g.finish(p, [*b, i, j], probs, let=True, readable=mask in (None, "causal"))
        g.begin()
        b = [g.index(x) for x in bdims]
        i, dd, j = g.index(s), g.index(d), g.index(t)
        bv = [("var", x) for x in b]
        probs = ("read", p, (*bv, ("var", i), ("var", j)))
    value = ("read", v, (*heads_of(bv), ("var", j), ("var", dd)))
    g.finish(out, [*b, i, dd], ("red", "sum", (j,), ("bin", "*", probs, value)), readable=mask in (None, "causal"))


def form_norm(g) -> None:
    """LayerNorm (mean and rstd as f32 outputs or lets) or RMSNorm over the last dim, e.g.
    ``let ms[i] = sum[j](X[i, j] * X[i, j]) / C`` then ``Y[i, j] = X[i, j] * rsqrt(ms[i] + eps) * gamma[j]``."""
    n, c = g.dim(), g.dim()
    dt = g.dtype()
    eps = ("const", g.const(g.rng.choice([1e-5, 1e-6]), "eps"))
    x = g.input((n, c), dt, "X")
    per_row = lambda base, let: (g.fresh(base), True) if let else (g.output((n,), "f32", base), False)
    g.begin()
    r, col = g.index(n), g.index(c)
    xr = ("read", x, (("var", r), ("var", col)))
    if g.chance(0.35):
        ms = g.fresh("ms")
        g.finish(ms, [r], ("bin", "/", ("red", "sum", (col,), ("bin", "*", xr, xr)), ("ix", c)), let=True)
        y = ("bin", "*", xr, ("call", "rsqrt", (("bin", "+", ("read", ms, (("var", r),)), eps),)))
    else:
        mean, mean_let = per_row("mean", g.chance(0.5))
        g.finish(mean, [r], ("bin", "/", ("red", "sum", (col,), xr), ("ix", c)), let=mean_let)
        mr = ("read", mean, (("var", r),))
        centred = ("bin", "-", xr, mr)
        var = g.fresh("var")
        g.finish(var, [r], ("bin", "/", ("red", "sum", (col,), ("bin", "*", centred, centred)), ("ix", c)), let=True)
        rstd, rstd_let = per_row("rstd", g.chance(0.5))
        g.finish(rstd, [r], ("call", "rsqrt", (("bin", "+", ("read", var, (("var", r),)), eps),)), let=rstd_let)
        y = ("bin", "*", centred, ("read", rstd, (("var", r),)))
    if g.chance(0.7):
        y = ("bin", "*", y, g.read_over([col], dt, "gamma"))
    if g.chance(0.5):
        y = ("bin", "+", y, g.read_over([col], dt, "beta"))
    g.finish(g.output((n, c), g.dtype()), [r, col], y)


def form_shifted(g) -> None:
    """Shifted and strided reads: D[i] = X[i + 1] - X[i + 0], stencils, A[2 * i + 1, j], H[i / 2]."""
    n, m = g.dim(), g.dim()
    variant = g.pick([(2, "diff"), (1, "stencil"), (1, "stride"), (1, "half")])
    two = variant in ("stencil", "stride")
    out = g.output((n, m) if two else (n,))
    g.begin()
    i = g.index(n)
    j = g.index(m) if two else None
    at = lambda name, *subs: ("read", name, subs)
    plus = lambda v, c: ("+", ("var", v), ("int", c))
    if variant == "diff":
        x = g.input((("+", n, ("int", 1)),), base="X")
        body = ("bin", "-", at(x, plus(i, 1)), at(x, plus(i, 0)))
    elif variant == "stencil":
        x = g.input((("+", n, ("int", 1)), ("+", m, ("int", 1))), base="X")
        body = ("bin", "-", ("bin", "+", at(x, plus(i, 1), plus(j, 0)), at(x, plus(i, 0), plus(j, 1))),
                ("bin", "*", ("num", 2.0), at(x, plus(i, 1), plus(j, 1))))
    elif variant == "stride":
        a = g.input((("*", ("int", 2), n), m), base="A")
        twice = ("*", ("int", 2), ("var", i))
        body = ("bin", "*", at(a, twice, ("var", j)), at(a, ("+", twice, ("int", 1)), ("var", j)))
    else:
        h = g.input((("/", ("+", n, ("int", 1)), ("int", 2)),), base="X")
        body = ("bin", "+", at(h, ("/", ("var", i), ("int", 2))), ("call", "tanh", (expr(g, [i], 1),)))
    if g.chance(0.3):
        body = ("where", body, cond(g, [i] + ([j] if j else [])), None)
    g.finish(out, [i] + ([j] if j else []), body)


FORMS = [(3, form_pointwise), (1.2, form_let), (3, form_reduction), (1, form_scalar), (3.5, form_gemm),
         (2, form_rows), (2.5, form_attention), (1, form_norm), (1, form_shifted)]
