"""How a linalg tensor is seen through a ta tensor while raising.

torch-mlir's linalg is full of reshapes that only add or drop unit dims
(keepdim reductions, ``x[:, None]``), transposes and broadcasts. None of them
needs data movement in ta: a ta.at map can permute, and a dim the ta tensor
does not have is simply not read. So a raised linalg value is a ``View``:

    View(value=%r, dims=[0, None])     # linalg tensor<4x1xf32> seen as ta tensor<4xf32>

``dims[k]`` is the ta dim that linalg dim k reads, or None where linalg dim k is
a unit dim or a broadcast (the ta tensor does not vary along it).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir


@dataclass(frozen=True)
class View:
    value: ir.Value
    dims: tuple[int | None, ...]

    @staticmethod
    def whole(value: ir.Value) -> "View":
        return View(value, tuple(range(ir.RankedTensorType(value.type).rank)))

    @property
    def is_whole(self) -> bool:
        return self.dims == tuple(range(ir.RankedTensorType(self.value.type).rank))

    def read_map(self, results: list, n_dims: int) -> ir.AffineMap | None:
        """The projection reading the ta tensor, given what each linalg dim is indexed by
        (an AffineDimExpr of an ``n_dims`` domain, or None for a constant or unit dim);
        None when a dim the ta tensor has is not indexed by a domain dim."""
        rank = ir.RankedTensorType(self.value.type).rank
        picked = [None] * rank
        for k, t in enumerate(self.dims):
            if t is not None:
                picked[t] = results[k]
        if any(p is None for p in picked):
            return None
        return ir.AffineMap.get(n_dims, 0, picked)

    def transposed(self, permutation: list[int]) -> "View":
        """linalg.transpose: result dim k is input dim permutation[k]."""
        return View(self.value, tuple(self.dims[p] for p in permutation))

    def broadcast(self, rank: int, added: list[int]) -> "View":
        """linalg.broadcast: the result has ``rank`` dims, ``added`` are new."""
        kept = iter(self.dims)
        return View(self.value, tuple(None if k in added else next(kept) for k in range(rank)))

    def reassociated(self, groups: list[list[int]], expand: bool, sizes_in, sizes_out) -> "View | None":
        """tensor.expand_shape / collapse_shape where each group holds at most one non-unit
        dim (the only reshapes that need no index arithmetic); None for any other."""
        dims = list(self.dims)
        out: list[int | None] = [None] * len(sizes_out)
        for g, group in enumerate(groups):
            if expand:  # input dim g becomes output dims `group`
                big = [k for k in group if sizes_out[k] != 1]
                if len(big) > 1:
                    return None
                if big:
                    out[big[0]] = dims[g]
                elif sizes_in[g] != 1:
                    return None
            else:  # input dims `group` become output dim g
                big = [k for k in group if sizes_in[k] != 1]
                if len(big) > 1:
                    return None
                out[g] = dims[big[0]] if big else None
        return View(self.value, tuple(out))
