"""A kernel argument read as a row-major view of its tensor: [B, S, H, D] as [B, S, H*D].

The tile program addresses a view's element v at sum_k v_k * prod_{k' > k} V_k' (row-major
over the view's dims V), the tensor's element o at sum_g o_g * prod_{g' > g} E_g' (its own
dims E, contiguous: the runtime refuses other strides). When each view dim is the product of
a run of the tensor's dims (a group), the two addresses agree exactly when each view index is
the row-major flattening of its group's indices:

    v_k = sum_{g in group k} o_g * prod_{g' in group k, g' > g} E_g'

So the checks compare indices, not addresses: a reference index is flattened into the view
(``flatten``), and an index the kernel writes is read back as the tensor's own index
(``unflatten``: fresh symbols bounded by their extents, tied to the view index by the equation
above; for a run of one dim, the view index itself). Which dims a group holds is found here,
from the two dim lists, and each group's product is proved equal to its view dim — a view the
kernel got wrong is refuted, not assumed.
"""

from __future__ import annotations

import z3

from tilec.dialects import arg_attrs
from tilec.dialects.dims import parse_dim

from .solver import Outcome, prove, satisfiable
from .symbolic import dim


class View:
    """The view ``view_dims`` (a kernel argument's ``ta.dims``) of a tensor with ``own_dims``
    (the reference's, with its static sizes ``static``: None where symbolic)."""

    def __init__(self, name: str, view_dims: list[str], own_dims: list[str], static: list, params: dict,
                 assumptions: list):
        self.name, self.params = name, params
        self.extents = [z3.IntVal(s) if s is not None else dim(d, params) for d, s in zip(own_dims, static)]
        # a size the reference fixed (a head dim the register tiles are built for, or any dim at
        # sizes given with --shape) is that size: a dim such as `H/G` too, not only a plain parameter
        self.sizes = [dim(d, params) == s for d, s in zip(own_dims, static)
                      if s is not None and parse_dim(d).symbols <= params.keys()]
        self.facts = list(assumptions) + self.sizes + [e >= 1 for e in self.extents]
        self.views = [dim(d, params) for d in view_dims]
        self.groups = self._groups()

    def _groups(self) -> list[list[int]] | None:
        """The run of own dims each view dim merges (None: no grouping makes the view)."""
        groups, at = [], 0
        for v in self.views:
            for end in range(at + 1, len(self.extents) + 1):
                if _equal(v, z3.Product(*self.extents[at:end]) if end - at > 1 else self.extents[at], self.facts):
                    groups.append(list(range(at, end)))
                    at = end
                    break
            else:
                return None
        return groups if at == len(self.extents) else None

    def check(self) -> tuple[str, Outcome]:
        """The view is the tensor's memory, row-major: every view dim the product of a run of
        the tensor's own dims, in order."""
        check = f"{self.name}: the kernel's view is the tensor's row-major memory (each view dim a product of its dims)"
        if self.groups is None:
            return check, prove(z3.BoolVal(False), [], watch={"view rank": z3.IntVal(len(self.views))})
        claim = z3.And(*[v == z3.Product(*[self.extents[g] for g in group]) if len(group) > 1
                         else v == self.extents[group[0]] for v, group in zip(self.views, self.groups)])
        return check, prove(claim, self.facts, watch=dict(self.params))

    @property
    def merged(self) -> bool:
        return self.groups is not None and any(len(g) > 1 for g in self.groups)

    def flatten(self, own: list) -> list:
        """The view index of the tensor's own index ``own``."""
        return [self._flat([own[g] for g in group], group) for group in self.groups]

    def unflatten(self, view: list, tag: str) -> tuple[list, list]:
        """(own index, constraints tying it to the view index ``view``)."""
        own, facts = [], []
        for v, group in zip(view, self.groups):
            if len(group) == 1:
                own.append(v)
                continue
            parts = [z3.Int(f"{self.name}.{tag}{g}") for g in group]
            facts += [z3.And(x >= 0, x < self.extents[g]) for x, g in zip(parts, group)]
            facts.append(v == self._flat(parts, group))
            own += parts
        return own, facts

    def _flat(self, parts: list, group: list):
        total, stride = z3.IntVal(0), z3.IntVal(1)
        for x, g in reversed(list(zip(parts, group))):
            total = total + x * stride
            stride = stride * self.extents[g]
        return z3.simplify(total) if len(group) > 1 else parts[0]


def _equal(a, b, facts) -> bool:
    return satisfiable([*facts, a != b], 10_000_000) == z3.unsat


def view_of(ta_fn, name: str, kernel_dims: list[str], params: dict, assumptions: list) -> View:
    """The View of the kernel argument (dims ``kernel_dims``) of the reference ``ta_fn``'s input
    or output ``name``, its own dims and static sizes read from the reference's types."""
    from torch_mlir import ir

    ftype = ir.FunctionType(ir.TypeAttr(ta_fn.attributes["function_type"]).value)
    named = list(zip(arg_attrs(ta_fn), ftype.inputs)) + \
        list(zip(map(ir.DictAttr, ir.ArrayAttr(ta_fn.attributes["res_attrs"])), ftype.results))
    t = next(ir.RankedTensorType(t) for a, t in named if ir.StringAttr(a["ta.name"]).value == name)
    own = [ir.StringAttr(d).value for d in t.encoding]
    static = [None if ir.ShapedType.is_dynamic_size(s) else s for s in t.shape]
    return View(name, kernel_dims, own, static, params, assumptions)
