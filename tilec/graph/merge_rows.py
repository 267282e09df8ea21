"""Leading dims that a graph only ever uses together, taken as one: [B, T, C] as [B*T, C].

    merge_leading(fn)       # the raised ta function, in place; True when it merged

A Linear, a norm or an MLP on a [B, T, C] activation treats B and T alike: every op reads
every tensor that has them at the same two leading indices of its domain, and no op reduces
them, indexes them or reads them apart. The function is then the same on the row-major
view [B*T, C] of each such tensor (contiguous, so the view is free: the caller reshapes, as
it drops size-1 dims). This rewrites the function to take and return those views, so the
tile level sees plain [rows, cols] programs and GEMMs with B*T rows (one 8192-row GEMM, not
eight 1024-row ones). A function where any op uses the leading dims otherwise (attention's
heads, an index of T, a reduction over T) is left as it is.
"""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects import ta_builders as tb
from tilec.dialects.dims import binary, parse_dim


def merge_leading(fn) -> bool:
    """Merge the leading dims every rank>=3 tensor of ``fn`` shares, when every op treats them
    alike; returns whether it did."""
    block = fn.entry_block
    ops = [op for op in block.operations if op.operation.name not in ("arith.constant", "func.return")]
    values = list(fn.arguments) + [op.result for op in ops if len(op.operation.results) == 1]
    lead = _leading(values)
    if lead is None or not all(_alike(op, lead) for op in ops):
        return False
    k = len(lead)
    merged = _product(lead)
    for op in ops:
        _rewrite_op(op, lead, k)
    for v in values:
        if _has(v, lead):
            v.set_type(_merged_type(v.type, k, merged))
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    returned = list(list(block.operations)[-1].operation.operands)
    fn.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get([a.type for a in fn.arguments], [r.type for r in returned] or list(ftype.results)))
    return True


def _product(dims: list[str]) -> str:
    """The merged dim's name: the product of static sizes, else the product expression."""
    if all(d.isdigit() for d in dims):
        size = 1
        for d in dims:
            size *= int(d)
        return str(size)
    expr = parse_dim(dims[0])
    for d in dims[1:]:
        expr = binary("*", expr, parse_dim(d))
    return str(expr)


def _dims(t) -> list[str]:
    return [ir.StringAttr(d).value for d in ir.ArrayAttr(ir.RankedTensorType(t).encoding)]


def _leading(values) -> list[str] | None:
    """The longest run of leading dims (two or more) every tensor of rank >= 3 starts with: all
    its dims but the last, or all of them for a tensor that is the run itself (a row statistic,
    [B, H, S] of [B, H, S, D]: one value a merged row)."""
    ranked = sorted((_dims(v.type) for v in values if ir.RankedTensorType(v.type).rank >= 3), key=len, reverse=True)
    if not ranked:
        return None
    lead = ranked[0][:-1]
    for dims in ranked[1:]:
        n = 0
        while n < min(len(lead), len(dims) - 1) and lead[n] == dims[n]:
            n += 1
        if dims == lead:
            n = len(lead)
        lead = lead[:n]
    return lead if len(lead) >= 2 else None


def _has(v, lead) -> bool:
    dims = _dims(v.type)
    return len(dims) >= len(lead) and dims[:len(lead)] == lead


def _positions(amap) -> list[int] | None:
    out = []
    for e in amap.results:
        if not isinstance(e, ir.AffineDimExpr):
            return None
        out.append(ir.AffineDimExpr(e).position)
    return out


def _reads_lead(amap, src_has: bool, k: int) -> bool:
    """A read that treats the leading dims alike: a tensor with them at the domain's first k
    positions, a tensor without them not at any of those positions."""
    pos = _positions(amap)
    if pos is None:
        return not src_has and all(not tb.uses_dim(e, d) for e in amap.results for d in range(k))
    if src_has:
        return pos[:k] == list(range(k)) and all(p >= k for p in pos[k:])
    return all(p >= k for p in pos)


def _alike(op, lead) -> bool:
    k, name = len(lead), op.operation.name
    if name == "ta.contract":
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        owners = list(op.operation.operands) + [op.result]
        if not _has(op.result, lead):
            return not any(_has(v, lead) for v in owners)
        return all(_reads_lead(m, _has(v, lead), k) for m, v in zip(maps, owners))
    if name == "ta.reduce":
        src = op.operation.operands[0]
        dims = [ir.IntegerAttr(d).value for d in ir.ArrayAttr(op.attributes["dims"])]
        if not _has(src, lead):
            return not _has(op.result, lead)
        return _has(op.result, lead) and all(d >= k for d in dims)
    if name == "ta.map":
        result_has = _has(op.result, lead)
        ok = True

        def visit(inner):
            nonlocal ok
            if inner.name == "ta.at":
                src_has = _has(inner.operands[0], lead)
                amap = ir.AffineMapAttr(inner.attributes["map"]).value
                ok = ok and (_reads_lead(amap, src_has, k) if result_has else not src_has)
            elif inner.name == "ta.index":
                ok = ok and (not result_has or ir.IntegerAttr(inner.attributes["dim"]).value >= k)
            return ir.WalkResult.ADVANCE

        op.operation.walk(visit)
        return ok
    return not any(_has(v, lead) for v in list(op.operation.operands) + list(op.operation.results))


def _merged_map(amap, k: int) -> ir.AffineMap:
    """The map over a domain whose first k dims are one: d0..d{k-1} -> d0, d{i} -> d{i-k+1}."""
    pos = _positions(amap)
    shift = lambda p: 0 if p < k else p - k + 1  # noqa: E731
    if pos is not None:
        out, seen_lead = [], False
        for p in pos:
            if p < k:
                if not seen_lead:
                    out.append(0)
                seen_lead = True
            else:
                out.append(shift(p))
        return ir.AffineMap.get(amap.n_dims - k + 1, 0, [ir.AffineDimExpr.get(p) for p in out])
    dims = [ir.AffineDimExpr.get(shift(p)) if p >= k else ir.AffineDimExpr.get(0) for p in range(amap.n_dims)]
    return ir.AffineMap.get(amap.n_dims - k + 1, 0, [e.compose(ir.AffineMap.get(amap.n_dims - k + 1, 0, dims))
                                                    for e in amap.results])


def _rewrite_op(op, lead, k: int) -> None:
    name = op.operation.name
    if name == "ta.contract" and _has(op.result, lead):
        maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["maps"])]
        op.operation.attributes["maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(_merged_map(m, k)) for m in maps])
    elif name == "ta.reduce" and _has(op.result, lead):
        dims = [ir.IntegerAttr(d).value - k + 1 for d in ir.ArrayAttr(op.attributes["dims"])]
        i64 = ir.IntegerType.get_signless(64)
        op.operation.attributes["dims"] = ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in dims])
    elif name == "ta.map" and _has(op.result, lead):
        def visit(inner):
            if inner.name == "ta.at":
                inner.attributes["map"] = ir.AffineMapAttr.get(_merged_map(ir.AffineMapAttr(inner.attributes["map"]).value, k))
            elif inner.name == "ta.index":
                i64 = ir.IntegerType.get_signless(64)
                inner.attributes["dim"] = ir.IntegerAttr.get(i64, ir.IntegerAttr(inner.attributes["dim"]).value - k + 1)
            return ir.WalkResult.ADVANCE

        op.operation.walk(visit)


def _merged_type(t, k: int, merged: str) -> ir.RankedTensorType:
    t = ir.RankedTensorType(t)
    shape = list(t.shape)
    size = 1
    for n in shape[:k]:
        size = ir.ShapedType.get_dynamic_size() if ir.ShapedType.is_dynamic_size(n) or size < 0 else size * n
    names = [merged] + _dims(t)[k:]
    return ir.RankedTensorType.get([size] + shape[k:], t.element_type,
                                   ir.ArrayAttr.get([ir.StringAttr.get(d) for d in names]))
