"""tilec's dialects: ``ta`` (tensor algebra) and ``tile`` (one CTA's program).

This package is the ground floor: it imports nothing else of tilec.
``context()`` gives an MLIR context with both dialects loaded.
"""

import importlib

from torch_mlir import ir
from torch_mlir.dialects import ext, irdl

from . import target

STAGES_ATTR = "tile.stages"  # on scf.for: software-pipeline depth of the loop
# on the loop that fills the first stages - 1 stages before a pipelined loop, and on each copy
# and commit in it (so the structure stays readable when a one-trip loop is inlined)
PROLOGUE_ATTR = "tile.prologue"
# on a persistent kernel's function (the launch caps grid x at one CTA per SM, or fewer) and on
# its loop over output tiles: from the program id, in steps of tile.num_programs, below grid x
PERSISTENT_ATTR = "tile.persistent"
# on a ta function (and the loop and tile functions lowered from it): the sizes a shape parameter
# may take where the function is defined for those only, e.g. {T = [1, 64]} for a length that
# slices a buffer of 64 rows (torch.export's Dim(max=...)); a parameter it does not name ranges
# over 1 to MAX_SIZE, as every size does
RANGES_ATTR = "ta.ranges"
MAX_SIZE = 2**31 - 1


def arg_attrs(fn) -> list:
    """The attribute dictionaries of a func.func's arguments; [] for a function of no arguments
    (a spec, or a kernel of a split one, that reads no input: MLIR then keeps no ``arg_attrs``).

        names = [ir.StringAttr(a["ta.name"]).value for a in arg_attrs(fn)]
    """
    if "arg_attrs" not in fn.attributes:
        return []
    return [ir.DictAttr(a) for a in ir.ArrayAttr(fn.attributes["arg_attrs"])]


def param_ranges(fn) -> dict:
    """{name: (low, high)} of each shape parameter whose range ``fn`` states (``ta.ranges``).

        param_ranges(fn)   # {"T": (1, 64)}
    """
    if RANGES_ATTR not in fn.attributes:
        return {}
    out = {}
    try:
        for named in ir.DictAttr(fn.attributes[RANGES_ATTR]):
            out[named.name] = tuple(ir.IntegerAttr(x).value for x in ir.ArrayAttr(named.attr))
    except ValueError:  # not a dictionary of integer pairs (IR is data: a hand-written one may be anything)
        out = {"": ()}
    if any(len(r) != 2 or not 1 <= r[0] <= r[1] <= MAX_SIZE for r in out.values()):
        raise ValueError(f"{RANGES_ATTR} maps each shape parameter to [low, high] with 1 <= low <= high <= "
                         f"2^31 - 1, not {fn.attributes[RANGES_ATTR]}")
    return out


def set_param_ranges(fn, ranges: dict) -> None:
    """State ``ranges`` ({name: (low, high)}) on ``fn``; the attribute is dropped when none is left."""
    if not ranges:
        if RANGES_ATTR in fn.attributes:
            del fn.attributes[RANGES_ATTR]
        return
    i64 = ir.IntegerType.get_signless(64)
    fn.attributes[RANGES_ATTR] = ir.DictAttr.get({
        name: ir.ArrayAttr.get([ir.IntegerAttr.get(i64, low), ir.IntegerAttr.get(i64, high)])
        for name, (low, high) in sorted(ranges.items())})


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
    from . import ta, ta_online, tile  # noqa: F401  (ta_online adds ta.online to TA)
    for name in target.names():  # each target's own tile ops (sm_90a: the copy engine, mbarriers, wgmma)
        for module in target.get(name).ops:
            importlib.import_module(module)

    # MLIR imports <prefix>.<namespace> before it makes the Python view of an op, and retries
    # on every op while the import fails: without this prefix each ta or tile op viewed cost a
    # failed search of sys.path for torch_mlir.dialects.ta (a third of a long spec's lowering)
    search = ext._cext.globals
    if __name__ not in search.dialect_search_modules:
        search.append_dialect_search_prefix(__name__)
    ctx = ir.Context()
    with ctx, ir.Location.unknown():
        _load(ta.TA)
        _load(tile.Tile)
    return ctx
