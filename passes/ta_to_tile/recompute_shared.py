"""What the W factors of a recomputed group compute alike (recompute.py): each such value is one
tile a block, read by every W that needs it.

Attention's dK/dV kernel sums W = P into dV and W = P∘(dP − D) into dK: both bodies compute
P = exp(s·c − lse) from the same reads. Matched by structure (the same ops on the same reads,
indices and constants), P becomes one [bm, bn] tile per block, dV's W is that tile and dK's reads
it: one exp and one gather of the log-sum-exp an element, not two.

    shared = shared_values([sm.w_ops for sm in sums])   # [(value, the ops computing it)], in order
"""

from __future__ import annotations

from collections import Counter

from torch_mlir import ir

_LEAVES = ("ta.at", "ta.index", "ta.param", "arith.constant")


def keys_of(ops) -> dict:
    """value -> a key two values share exactly when the same ops compute them from the same reads."""
    keys = {}
    for op in ops:
        inner = op.operation
        if len(inner.results) != 1:
            continue
        args = tuple(keys.get(v, ("outer", v)) for v in inner.operands)
        attrs = tuple(sorted((name, str(attr)) for name, attr in inner.attributes.items()))
        keys[inner.result] = (inner.name, attrs, args)
    return keys


def shared_values(bodies: list) -> list[tuple]:
    """(the first value with the key, its ops) for each value several of ``bodies`` (lists of
    ops) compute alike and some body reads as a whole (not only inside a larger shared value),
    in the order the first body computes it; leaves (reads, constants) are not worth a tile."""
    keyed = [keys_of(ops) for ops in bodies]
    count = Counter(k for keys in keyed for k in set(keys.values()))
    f32 = {k for keys in keyed for v, k in keys.items() if isinstance(v.type, ir.F32Type)}  # tiles hold f32
    common = {k for k, n in count.items() if n > 1 and k[0] not in _LEAVES and k in f32}
    whole = set()  # common keys some body uses outside another common value (or yields)
    for ops, keys in zip(bodies, keyed):
        users = {}
        for op in ops:
            for v in op.operation.operands:
                users.setdefault(v, []).append(op)
        last = list(ops)[-1].operation.result if list(ops) else None
        for value, key in keys.items():
            if key in common and (value == last or any(keys.get(u.operation.result if len(u.operation.results) == 1
                                                                else None) not in common for u in users.get(value, []))):
                whole.add(key)
    out, seen = [], set()
    for ops, keys in zip(bodies, keyed):
        for value, key in keys.items():
            if key in whole and key not in seen:
                seen.add(key)
                out.append((key, value, ops))
    return out


def def_ops(value, ops, stop) -> list:
    """The ops of ``ops`` that ``value`` depends on, in order; a value of ``stop`` (known) brings
    its own op and nothing behind it."""
    inside = {op.operation for op in ops}
    needed, stack = set(), [value]
    while stack:
        v = stack.pop()
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.operation not in inside or owner.operation in needed:
            continue
        needed.add(owner.operation)
        if v not in stop:  # a known value is read as it is: what computes it is not needed
            stack += list(owner.operation.operands)
    return [op for op in ops if op.operation in needed]
