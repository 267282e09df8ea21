"""ta-fuse-reductions: reductions over one index that feed each other -> one pass.

A chain in which a reduction feeds a pointwise normalisation that feeds another
reduction over an index of the same extent (softmax·V, log-sum-exp, mean then
variance) is rewritten into ``ta.online`` ops of one group, which ta-to-loops
computes in a single loop over that index:

    m = max_j x;  l = sum_j exp(x - m);  o = sum_j (exp(x - m) / l) * v
      -->  L = sum_j exp(x - max x);  O = sum_j exp(x - max x) * v   (one pass, running max)
           l = L;  o = O / l

Each summand is put in the normal form sum_t sign * outside_t * inner_t (see
_fusion_algebra.py): factors constant in j move out of the sum (linearity), a
product of sums is expanded, and exp(x - m) with m = max_j x becomes the running-
max stabiliser. Groups that do not fit the form are left unchanged. In a function marked
``ta.recompute`` (a backward that reads a softmax's saved statistic) a sum that reads another
reduction's result at its own reduced index is fused too, that result computed where read
(_fusion_recompute.py).
"""

from dataclasses import dataclass

from torch_mlir import ir

from tilec.dialects.ta import tensor_dims

from . import PassInfo
from ._fusion_algebra import NotFusable, expression, refs
from ._fusion_build import build_group
from ._fusion_recompute import RECOMPUTE, recompute_groups, separate_recomputed


@dataclass(frozen=True)
class Options:
    pass


@dataclass
class Reduction:
    """A reduction over one index: ta.reduce with one dim, or ta.contract with one reduced dim."""

    op: object
    kind: str
    extents: list          # DimExpr per domain dim
    j: int                 # the reduced domain dim
    kept: list             # result dim k is domain dim kept[k]
    summand: tuple = None  # expression over ids (number, dim)


def _as_f32(expr, value_type) -> tuple:
    f32 = ir.F32Type.get()
    if ir.RankedTensorType(value_type).element_type == f32:
        return expr
    return ("op", "arith.extf", (), f32, (expr,))


def _reduction(op, number: int) -> Reduction | None:
    """The reduction ``op`` as a candidate for fusion, or None (left as it is)."""
    try:
        return _candidate(op, number)
    except NotFusable:  # a summand too large to split
        return None


def _candidate(op, number: int) -> Reduction | None:
    name = op.operation.name
    ident = lambda d: (number, d)
    if name == "ta.reduce":
        dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
        src = op.operation.operands[0]
        if len(dims) != 1:
            return None
        rank = ir.RankedTensorType(src.type).rank
        red = Reduction(op, ir.StringAttr(op.attributes["kind"]).value, tensor_dims(src.type), dims[0],
                        [d for d in range(rank) if d != dims[0]])
        red.summand = expression(src, tuple(ident(d) for d in range(rank)))
        return red
    if name == "ta.contract":
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        pos = [[ir.AffineDimExpr(e).position for e in m.results] for m in maps]
        reduced = sorted(set(range(maps[0].n_dims)) - set(pos[2]))
        if len(reduced) != 1:
            return None
        extents = {}
        for value, ps in zip(op.operation.operands, pos):
            for d, p in zip(tensor_dims(value.type), ps):
                extents.setdefault(p, d)
        lhs, rhs = op.operation.operands
        a = _as_f32(expression(lhs, tuple(ident(p) for p in pos[0])), lhs.type)
        b = _as_f32(expression(rhs, tuple(ident(p) for p in pos[1])), rhs.type)
        red = Reduction(op, "sum", [extents[p] for p in range(maps[0].n_dims)], reduced[0], pos[2])
        red.summand = ("op", "arith.mulf", (), ir.F32Type.get(), (a, b))
        return red
    return None


class _UnionFind:
    def __init__(self):
        self.parent = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def _groups(reductions: list[Reduction]):
    """Connected groups of reductions whose summands read each other, and the dim classes."""
    by_value = {r.op.result: (n, r) for n, r in enumerate(reductions)}
    dims, links = _UnionFind(), _UnionFind()
    linked = set()
    for n, r in enumerate(reductions):
        for value, idx in refs(r.summand):
            if value not in by_value:
                continue
            m, g = by_value[value]
            if (n, r.j) in idx or str(g.extents[g.j]) != str(r.extents[r.j]):
                continue  # a producer indexed by j, or another index: an ordinary dependence
            for k, c in enumerate(idx):
                dims.union(c, (m, g.kept[k]))
            dims.union((n, r.j), (m, g.j))
            links.union(n, m)
            linked.update((n, m))
    groups: dict = {}
    for n in sorted(linked):
        groups.setdefault(links.find(n), []).append(n)
    return list(groups.values()), dims


def _fuse_function(fn, counter: list) -> None:
    reductions = []
    for op in fn.entry_block.operations:
        r = _reduction(op, len(reductions))  # dim ids are (position in reductions, dim)
        if r is not None:
            reductions.append(r)
    groups, dims = _groups(reductions)
    recomputed = []
    if RECOMPUTE in fn.attributes:  # sums over a producer read at their own index: recomputed where read
        grouped = {n for members in groups for n in members}
        by_value = {r.op.result: n for n, r in enumerate(reductions)}
        recomputed = recompute_groups(reductions, grouped, by_value, refs, dims, _UnionFind())
        groups += recomputed
    for members in groups:
        group = [reductions[n] for n in members]
        roots = {}
        for n in members:
            for d in range(len(reductions[n].extents)):
                roots.setdefault(dims.find((n, d)), len(roots))
        cls = lambda ident: roots[dims.find(ident)]
        try:
            build_group(group, members, cls, f"g{counter[0]}", whole=members in recomputed)
            counter[0] += 1
        except NotFusable:
            continue
    if RECOMPUTE in fn.attributes:
        separate_recomputed(fn)
    _erase_dead(fn)


def _erase_dead(fn) -> None:
    changed = True
    while changed:
        changed = False
        for op in reversed(list(fn.entry_block.operations)):
            name = op.operation.name
            if (name.startswith("ta.") or name == "arith.constant") and op.operation.results and \
                    all(not list(r.uses) for r in op.operation.results):
                op.operation.erase()
                changed = True


def run(module: ir.Operation, options: Options) -> None:
    counter = [0]
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name == "func.func":
            _fuse_function(op, counter)


PASS = PassInfo("ta-fuse-reductions", "fuse reductions over one index into a single online pass", Options, run,
                __doc__)


def fusion_groups(fn) -> list[list]:
    """The reductions of ``fn`` this pass would fuse, one list per group (ta.reduce and
    ta.contract ops, program order): how tilec.graph.split keeps an attention's pieces together."""
    reductions = []
    for op in fn.entry_block.operations:
        r = _reduction(op, len(reductions))
        if r is not None:
            reductions.append(r)
    groups, _ = _groups(reductions)
    return [[reductions[n].op for n in sorted(members)] for members in groups]
