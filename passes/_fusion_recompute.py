"""ta-fuse-reductions in a function marked ``ta.recompute``: sums over what they read, recomputed.

A reduction over j whose summand reads another reduction's result at j (the backward of
attention reads the scores s = Q·Kᵀ and dP = dO·Vᵀ, both [.., i, j], in dV = Σ_i P·dO,
dK = Σ_i dS·Q and dQ = Σ_j dS·K) would otherwise store that result whole: a tensor the size
of both index spaces. In such a function it becomes a ta.online sum whose body reads the
producer where it needs it, which ta-to-loops computes there and never stores
(passes/_loops.py, ``find_inlined``). Sums that read one producer with their reduced dim at
the same place (dV and dK over the query rows of one score block) form one group: one loop,
the producer's element computed once a step for both.

    dV[j, d] = sum_i exp(s[i, j] - lse[i]) * dO[i, d]        (s = contract(Q, K), kept)
      -->  "ta.online" {kind = "sum", dim = i, group = g} reading s at (i, j)

The marker is data in the IR: ta-grad{saved=true} sets it on a backward that reads a
softmax's statistic (the trade FlashAttention makes: the scores computed twice, never stored).
"""

from torch_mlir import ir

RECOMPUTE = "ta.recompute"
RECOMPUTED_BY = "ta.recomputed_by"  # on a contraction copied per group: the group that reads it


def separate_recomputed(fn) -> None:
    """Give each group of online sums its own copy of a contraction several groups recompute
    (attention's scores, read by the dK/dV group over i and the dQ group over j): each group is
    then a kernel that computes what it reads, and a split never stores the shared one."""
    groups_of: dict = {}
    for op in fn.entry_block.operations:
        if op.operation.name != "ta.online":
            continue
        group = ir.StringAttr(op.attributes["group"]).value
        for inner in op.regions[0].blocks[0].operations:
            src = inner.operation.operands[0] if inner.operation.name == "ta.at" else None
            if src is not None and not isinstance(src.owner, ir.Block) and src.owner.name == "ta.contract":
                groups_of.setdefault(src, {}).setdefault(group, []).append(inner)
    for value, by_group in groups_of.items():
        if len(by_group) < 2 or any(use.owner.name != "ta.at" for use in value.uses):
            continue  # read by one group, or also stored: kept as it is
        first, *rest = by_group
        value.owner.attributes[RECOMPUTED_BY] = ir.StringAttr.get(first)
        for group in rest:  # the mark keeps cse from merging the copies back into one
            copy = value.owner.clone(ip=ir.InsertionPoint(value.owner))
            copy.attributes[RECOMPUTED_BY] = ir.StringAttr.get(group)
            for read in by_group[group]:
                read.operation.operands[0] = copy.result


def _plain(idx) -> bool:
    return all(isinstance(c, tuple) and len(c) == 2 and all(isinstance(x, int) for x in c) for c in idx)


def recompute_groups(reductions: list, grouped: set, by_value: dict, refs, dims, links) -> list[list[int]]:
    """Groups of the reductions not in ``grouped`` whose summands read a reduction's result at
    their own reduced dim: linked where two read one producer with that dim at the same place
    (their dims unified through the read), each group sorted. ``dims``/``links``: union-finds."""
    first = {}   # (producer, place of the reduced dim) -> the first reduction reading it so
    chosen = set()
    for n, r in enumerate(reductions):
        if n in grouped:
            continue
        for value, idx in sorted(refs(r.summand), key=lambda ref: str(ref[1])):
            if value not in by_value or (n, r.j) not in idx or not _plain(idx):
                continue
            chosen.add(n)
            links.union(n, n)
            key = (value, idx.index((n, r.j)))
            if key not in first:
                first[key] = (n, idx)
                continue
            m, other = first[key]
            if m == n or links.find(m) == links.find(n):
                continue
            for a, b in zip(idx, other):
                dims.union(a, b)
            links.union(n, m)
    groups: dict = {}
    for n in sorted(chosen):
        groups.setdefault(links.find(n), []).append(n)
    return list(groups.values())
