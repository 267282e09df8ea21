"""Row-major views of kernel arguments: a tile whose rows run along a dim other than the
second to last.

Attention written in einsum order stores Q, K, V and O as [B, S, H, D]: a tile of query rows
by head-dim columns is not a window of the last two dims. The dims after the row index are
one column dim of the row-major view [B, S, H*D] of the same memory, and the tile is the
plain 2-D window at rows s0.., columns h*D..:

    Q[b, s, h, e]  ==  view[b, s, h*D + e]        (row-major, the same address)

The argument is retyped to the view (its ``ta.dims`` name the merged dim ``H * D``); the
package keeps the tensor's own dims, so the runtime passes the same contiguous memory. The
tile interpreter reshapes the tensor to the view, and the verifier proves the view's dims are
the products of the dims they merge (tilec/verify/views.py).
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects.dims import binary, parse_dim

from .common import NoTileLowering


def merge_view(fn, arg, positions_: list, group: list):
    """Retype buffer ``arg`` (an input indexed by domain dims ``positions_``) as the row-major
    view of the same memory whose dims standing for ``group`` are one; returns that dim."""
    index = list(fn.arguments).index(arg)
    attrs = ir.ArrayAttr(fn.attributes["arg_attrs"])
    entry = ir.DictAttr(attrs[index])
    names = [ir.StringAttr(d).value for d in ir.ArrayAttr(entry["ta.dims"])]
    at, n = positions_.index(group[0]), len(group)
    merged = parse_dim(names[at])
    for name in names[at + 1:at + n]:
        merged = binary("*", merged, parse_dim(name))
    dims = names[:at] + [str(merged)] + names[at + n:]
    old = ir.MemRefType(arg.type)
    shape = list(old.shape)
    run = shape[at:at + n]
    size = ir.ShapedType.get_dynamic_size() if any(ir.ShapedType.is_dynamic_size(x) for x in run) else \
        math.prod(run)
    arg.set_type(ir.MemRefType.get(shape[:at] + [size] + shape[at + n:], old.element_type))
    entry = ir.DictAttr.get({**{a.name: a.attr for a in entry},
                             "ta.dims": ir.ArrayAttr.get([ir.StringAttr.get(d) for d in dims])})
    fn.attributes["arg_attrs"] = ir.ArrayAttr.get([entry if k == index else a for k, a in enumerate(attrs)])
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([a.type for a in fn.arguments],
                                                                         list(ftype.results)))
    return merged


class RowViews:
    """The arguments of one tile function read or stored through a row view (merged once each)."""

    def __init__(self, fn, builder):
        self.fn, self.b = fn, builder
        self.merged = {}  # argument -> (first merged dim, the argument's own dim names)

    def window(self, arg, offsets: list, row: int, what: str) -> list:
        """Offsets of the tile of ``arg`` at ``offsets`` (one per dim of the tensor) whose rows run
        along dim ``row`` and whose columns run along the last dim, in the argument as the
        kernel reads it (its view when ``row`` is not the second to last dim)."""
        rank = len(offsets)
        if row == rank - 2 and arg not in self.merged:
            return offsets
        if row >= rank - 1:
            raise NoTileLowering(f"{what} must have its head dim last, after its row index")
        names = self._merge(arg, row + 1, rank, what)
        column = offsets[-1]
        stride = None
        for k in range(rank - 2, row, -1):  # row-major: dim k steps over every dim after it
            extent = self.b.dim(parse_dim(names[k + 1]))
            stride = extent if stride is None else arith.MulIOp(stride, extent).result
            column = arith.AddIOp(column, arith.MulIOp(offsets[k], stride).result).result
        return offsets[:row + 1] + [column]

    def _merge(self, arg, first: int, rank: int, what: str) -> list:
        if arg in self.merged:
            if self.merged[arg][0] != first:
                raise NoTileLowering(f"{what} is read with its rows along two different dims")
            return self.merged[arg][1]
        attrs = ir.DictAttr(ir.ArrayAttr(self.fn.attributes["arg_attrs"])[list(self.fn.arguments).index(arg)])
        names = [ir.StringAttr(d).value for d in ir.ArrayAttr(attrs["ta.dims"])]
        merge_view(self.fn, arg, list(range(rank)), list(range(first, rank)))
        self.merged[arg] = (first, names)
        return names
