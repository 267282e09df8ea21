"""The kernels a function was split into (tilec.graph.split), read back against the function.

Proved when, op for op, the kernels hold the function's ops: the same op, attributes and
types, each operand the same value (an input of a kernel is the function's value of that
name; a constant, the same constant), each kernel's output the value of its name; every
op in exactly one kernel; every kernel reading only the function's inputs and earlier
kernels' outputs; every result an input or a kernel's output. Run in that order, the
kernels then compute the function's results for every size: the check is structural, it
holds whatever the shapes.
"""

from __future__ import annotations

import time

from torch_mlir import ir

from tilec.dialects import arg_attrs

from .report import Result
from tilec.dialects.affine import z3_results
from tilec.graph.split import FunctionView, result_sources
from .solver import prove

_DOMAIN = "every size (structural: the kernels' ops are the function's, reading the same values)"


class _Mismatch(Exception):
    pass


def check_split(fused: ir.Module, pieces: list, rounded: tuple = ()) -> Result:
    """One row: the sequence ``pieces`` computes ``fused``'s function (``rounded``: (dtype,
    names) when the tensors between kernels are stored in dtype, an edit tilec.graph.boundaries
    made to the function, which the row names)."""
    start = time.perf_counter()
    s = FunctionView(fused.body.operations[0])
    by_name = {name: v for v, name in s.names.items()}
    ops = list(s.block.operations)
    try:
        written, covered = {n for n in by_name if by_name[n] in list(s.fn.arguments)}, []
        for k, piece in enumerate(pieces):
            module = ir.Module.parse(piece.text)  # kept alive while its function is read
            _match_piece(k, module.body.operations[0], piece, s, by_name, ops, written)
            written.update(piece.outputs)
            covered += list(piece.ops)
        expected = sorted(s.position[op.operation] for op in s.ops if op.result not in s.through)
        if sorted(covered) != expected:
            raise _Mismatch(f"the kernels hold ops {sorted(covered)}, the function {expected}")
        missing = [n for n, src in result_sources(fused).items() if src not in written]
        if missing:
            raise _Mismatch(f"results {missing} are written by no kernel")
        verdict, detail = "proved", ""
    except _Mismatch as err:
        verdict, detail = "counterexample", str(err)
    what = f"{len(pieces)} kernels in order compute the function"
    if rounded:
        what += f" with {', '.join(rounded[1])} stored in {rounded[0]} between kernels (rounded as torch stores them)"
    return Result(s.name, "ta", "split", what, verdict,
                  time.perf_counter() - start, _DOMAIN, detail=detail)


def _match_piece(k, fn, piece, s, by_name, ops, written) -> None:
    names = [ir.StringAttr(a["ta.name"]).value for a in arg_attrs(fn)]  # a kernel may read no input
    late = [n for n in names if n not in written]
    if late:
        raise _Mismatch(f"kernel {k} reads {late} before any kernel writes them")
    corr = {}
    for arg, name in zip(fn.arguments, names):
        if name not in by_name:
            raise _Mismatch(f"kernel {k} reads '{name}', which the function does not have")
        corr[arg] = by_name[name]
    body = [op for op in fn.entry_block.operations if op.operation.name != "func.return"]
    held = [op for op in body if op.operation.name != "arith.constant"]
    if len(held) != len(piece.ops):
        raise _Mismatch(f"kernel {k} holds {len(held)} ops, its record {len(piece.ops)}")
    for op in body:
        if op.operation.name == "arith.constant":
            corr[op.result] = _same_constant(k, op, ops)
    for op, at in zip(held, piece.ops):
        _same_op(k, op.operation, ops[at].operation, corr, s.through)
    returned = list(list(fn.entry_block.operations)[-1].operation.operands)
    out_names = [ir.StringAttr(ir.DictAttr(a)["ta.name"]).value for a in ir.ArrayAttr(fn.attributes["res_attrs"])]
    if out_names != list(piece.outputs):
        raise _Mismatch(f"kernel {k} writes {out_names}, its record {list(piece.outputs)}")
    for v, name in zip(returned, out_names):
        if corr.get(v) != by_name.get(name):
            raise _Mismatch(f"kernel {k} writes as '{name}' another value than the function's '{name}'")


def _same_constant(k, op, ops):
    for orig in ops:
        if orig.operation.name == "arith.constant" and str(orig.attributes["value"]) == str(op.attributes["value"]) \
                and orig.result.type == op.result.type:
            return orig.result
    raise _Mismatch(f"kernel {k} has a constant {op.attributes['value']} the function does not")


def _same_op(k, op, orig, corr, through) -> None:
    """``op`` (in kernel k) is ``orig`` (in the function), nested ops and operands included."""
    where = f"kernel {k}: '{op.name}' at {orig.location}"
    if op.name != orig.name or str(op.attributes) != str(orig.attributes) \
            or [r.type for r in op.results] != [r.type for r in orig.results] \
            or len(op.regions) != len(orig.regions) or len(op.operands) != len(orig.operands):
        raise _Mismatch(f"{where} differs from the function's op")
    for v, w in zip(op.operands, orig.operands):
        w = through.get(w, w)
        if corr.get(v) != w:
            raise _Mismatch(f"{where} reads another value than the function's op")
    for r, q in zip(op.results, orig.results):
        corr[r] = q
    for region, orig_region in zip(op.regions, orig.regions):
        blocks, orig_blocks = list(region.blocks), list(orig_region.blocks)
        if len(blocks) != len(orig_blocks):
            raise _Mismatch(f"{where}: its regions differ")
        for block, orig_block in zip(blocks, orig_blocks):
            inner, orig_inner = list(block.operations), list(orig_block.operations)
            if len(inner) != len(orig_inner) or len(block.arguments) != len(orig_block.arguments):
                raise _Mismatch(f"{where}: its bodies differ")
            corr.update(zip(block.arguments, orig_block.arguments))
            for a, b in zip(inner, orig_inner):
                _same_op(k, a.operation, b.operation, corr, through)


def check_merge(piece, merged) -> Result:
    """One row: ``merged`` (the piece with its leading dims merged, merge_rows) is ``piece`` on
    row-major views. Op for op the same ops; every index map, at every index of its domain
    (bounded by the static sizes), reads in the merged function the flattened element it reads
    in the piece (Z3, linear); a reduction's dims move with the merge."""
    start = time.perf_counter()
    name = ir.StringAttr(piece.attributes["sym_name"]).value
    try:
        _same_merged(piece, merged)
        verdict, detail = "proved", ""
    except _Mismatch as err:
        verdict, detail = "counterexample", str(err)
    return Result(name, "ta", "merge", "the kernel's ta is the piece on [B*T, ...] row-major views", verdict,
                  time.perf_counter() - start, "every index of the piece's static shapes", detail=detail)


def _static(t) -> list:
    return list(ir.RankedTensorType(t).shape)


def _same_merged(piece, merged) -> None:
    import z3

    a_ops, b_ops = [], []
    piece.operation.walk(lambda op: a_ops.append(op) or ir.WalkResult.ADVANCE)
    merged.operation.walk(lambda op: b_ops.append(op) or ir.WalkResult.ADVANCE)
    if [o.name for o in a_ops] != [o.name for o in b_ops]:
        raise _Mismatch("the merged function has other ops than the piece")
    for a, b in zip(a_ops, b_ops):
        if a.name == "ta.at":
            domain = [_static(a.parent.results[0].type), _static(b.parent.results[0].type)]
            maps = [(ir.AffineMapAttr(x.attributes["map"]).value, _static(x.operands[0].type)) for x in (a, b)]
            _same_map(maps, domain, z3, prove)
        elif a.name == "ta.contract":
            for n in range(3):
                owners = [list(x.operands) + [x.results[0]] for x in (a, b)]
                maps = [(ir.AffineMapAttr(ir.ArrayAttr(x.attributes["maps"])[n]).value, _static(o[n].type))
                        for x, o in zip((a, b), owners)]
                domain = [_contract_domain(x) for x in (a, b)]
                _same_map(maps, domain, z3, prove)
        elif a.name == "ta.reduce":
            shift = len(_static(a.operands[0].type)) - len(_static(b.operands[0].type))
            dims = [[ir.IntegerAttr(d).value for d in ir.ArrayAttr(x.attributes["dims"])] for x in (a, b)]
            if [d - shift for d in dims[0]] != dims[1]:
                raise _Mismatch(f"a reduction over {dims[0]} became one over {dims[1]}")


def _contract_domain(op) -> list:
    sizes = {}
    for m, v in zip(ir.ArrayAttr(op.attributes["maps"]), list(op.operands) + [op.results[0]]):
        for e, n in zip(ir.AffineMapAttr(m).value.results, _static(v.type)):
            sizes[ir.AffineDimExpr(e).position] = n
    return [sizes[k] for k in range(len(sizes))]


def _flat(idx, sizes, k):
    """The first k indices of ``idx`` (extents ``sizes``) as one row-major index, then the rest."""
    if k <= 1:
        return list(idx)
    head = idx[0]
    for i, n in zip(idx[1:k], sizes[1:k]):
        head = head * n + i
    return [head] + list(idx[k:])


def _same_map(maps, domain, z3, prove) -> None:
    (m, src), (m2, src2) = maps
    k, ks = len(domain[0]) - len(domain[1]) + 1, len(src) - len(src2) + 1
    idx = [z3.Int(f"d{n}") for n in range(len(domain[0]))]
    bounds = [z3.And(i >= 0, i < n) for i, n in zip(idx, domain[0])]

    read = z3_results(m, idx)
    expected = _flat(read, src, ks)
    got = z3_results(m2, _flat(idx, domain[0], k))
    if len(got) != len(expected) or prove(z3.And(*[g == e for g, e in zip(got, expected)]), bounds,
                                          budget=10_000_000).verdict != "proved":
        raise _Mismatch(f"the map {m2} does not read the flattened element of {m}")
