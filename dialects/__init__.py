"""tilec's dialects: ``ta`` (tensor algebra) and ``tile`` (one CTA's program).

This package is the ground floor: it imports nothing else of tilec.
``context()`` gives an MLIR context with both dialects loaded.
"""

import operator

from torch_mlir import ir
from torch_mlir.dialects import ext, irdl

STAGES_ATTR = "tile.stages"  # on scf.for: software-pipeline depth of the loop
# on the loop that fills the first stages - 1 stages before a pipelined loop, and on each copy
# and commit in it (so the structure stays readable when a one-trip loop is inlined)
PROLOGUE_ATTR = "tile.prologue"
# on a persistent kernel's function (the launch caps grid x at one CTA per SM, or fewer) and on
# its loop over output tiles: from the program id, in steps of tile.num_programs, below grid x
PERSISTENT_ATTR = "tile.persistent"
# arith.cmpi's signed predicates as Python operators (on ints, tensors and Z3 terms alike)
CMPI = {0: operator.eq, 1: operator.ne, 2: operator.lt, 3: operator.le, 4: operator.gt, 5: operator.ge}


def arg_attrs(fn) -> list:
    """The attribute dictionaries of a func.func's arguments; [] for a function of no arguments
    (a spec, or a kernel of a split one, that reads no input: MLIR then keeps no ``arg_attrs``).

        names = [ir.StringAttr(a["ta.name"]).value for a in arg_attrs(fn)]
    """
    if "arg_attrs" not in fn.attributes:
        return []
    return [ir.DictAttr(a) for a in ir.ArrayAttr(fn.attributes["arg_attrs"])]


def _load(dialect) -> None:
    """Register a Python-defined dialect in the current context.

    Like ``ext.Dialect.load`` but without running CSE over the IRDL definition:
    IRDL treats one constraint value used twice as "these types are equal", so
    merging two ``irdl.base "!builtin.tensor"`` would force, say, both operands
    of ta.contract to have the same type.
    """
    irdl.load_dialects(dialect._emit_module())
    for op in dialect.operations:
        op._attach_traits()
    ext._cext.globals._register_dialect_impl(dialect.DIALECT_NAMESPACE, dialect, replace=True)
    for attr in dialect.attributes:
        typeid = ir.DynamicAttr.lookup_typeid(attr.attr_name)
        ext._cext.register_type_caster(typeid, replace=True)(attr)
    for op in dialect.operations:
        ext._cext.register_operation(dialect, replace=True)(op)
        ext._cext.register_op_adaptor(op, replace=True)(op.Adaptor)


def context() -> ir.Context:
    """A fresh MLIR context with the ta and tile dialects loaded."""
    from . import ta, ta_online, tile, tile_hopper  # noqa: F401  (ta_online adds ta.online to TA; tile_hopper its ops to tile)

    ctx = ir.Context()
    with ctx, ir.Location.unknown():
        _load(ta.TA)
        _load(tile.Tile)
    return ctx
