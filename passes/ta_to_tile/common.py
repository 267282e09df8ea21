"""What every ta-to-tile matcher shares: its errors and a few index-arithmetic builders."""

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects.target import target_of
from tilec.dialects import PROLOGUE_ATTR

SHARED = 3  # the address space of shared memory


class NoTileLowering(ValueError):
    """The function is not of a form ta-to-tile lowers."""


class NeedsStaticSize(NoTileLowering):
    """A size the tile program is built for (register tiles) is a symbolic parameter.

    The driver binds ``param`` to its default (or to the user's --shape) and lowers
    again; the fixed size is recorded in the package and in the verification report."""

    def __init__(self, message: str, param: str | None):
        super().__init__(message)
        self.param = param


def check_schedule(schedule, form: str, sizes: dict, fn) -> None:
    """Refuse an illegal schedule for ``form`` on the target of ``fn``'s module before anything is
    built (every reason in one message)."""
    try:
        schedule.check(form, sizes, target_of(fn).name)
    except ValueError as err:
        refuse_schedule(str(err))


def refuse_schedule(message: str) -> None:
    """Raise the error of a schedule the kernel cannot take (about the --schedule option, not a
    place in the spec)."""
    error = NoTileLowering(message)
    error.flag = True
    raise error from None


def mark_prologue(loop) -> None:
    """Mark ``loop`` (an scf.for filling the first pipeline stages) and the copies and commits
    in it as the pipeline's prologue (PROLOGUE_ATTR)."""
    loop.operation.attributes[PROLOGUE_ATTR] = ir.UnitAttr.get()
    for op in loop.body.operations:
        if op.operation.name in ("tile.async_copy", "tile.commit_group"):
            op.operation.attributes[PROLOGUE_ATTR] = ir.UnitAttr.get()


def ceildiv(a, b):
    return arith.CeilDivSIOp(a, b).result


def const_index(value: int) -> ir.Value:
    return arith.ConstantOp(ir.IndexType.get(), value).result


def op_with_ints(name: str, **attrs) -> None:
    i64 = ir.IntegerType.get_signless(64)
    ir.Operation.create(name, attributes={k: ir.IntegerAttr.get(i64, v) for k, v in attrs.items()})


def constant_tile(tile_type, value: float) -> ir.Value:
    """A register tile of ``tile_type`` holding ``value`` everywhere (an accumulator's start)."""
    op = ir.Operation.create("tile.map", results=[tile_type], regions=1)
    with ir.InsertionPoint(op.regions[0].blocks.append()):
        c = arith.ConstantOp(ir.RankedTensorType(tile_type).element_type, value).result
        ir.Operation.create("tile.yield", operands=[c])
    return op.result


def element_bytes(t) -> int:
    """Bytes of one element of a tensor or memref type whose elements are f32 or 16-bit."""
    return 4 if isinstance(t.element_type, ir.F32Type) else 2


def copy_rows(copied: list, schedule) -> dict:
    """{tensor name: (bytes per row, "read" or "write")} of the buffers a warp-specialised
    schedule moves with the copy engine, for those whose row length the types fix; ``copied``:
    (fallback name, function argument, "read" or "write"), the output written only with
    tma_store. Schedule.legal checks them against the target's tensor-map rules."""
    if not schedule.consumers:
        return {}
    rows = {}
    for fallback, arg, how in copied:
        if how == "write" and not schedule.tma_store:
            continue
        kind = ir.MemRefType(arg.type)
        if not kind.shape or ir.ShapedType.is_dynamic_size(kind.shape[-1]):
            continue  # a symbolic row: the runtime checks it before the launch
        rows[argument_name(arg) or fallback] = (kind.shape[-1] * element_bytes(kind), how)
    return rows


def argument_name(arg) -> str | None:
    """The spec's name of the function argument ``arg`` (its ``ta.name``), if it has one."""
    argument = ir.BlockArgument(arg)
    fn = argument.owner.owner
    attrs = ir.DictAttr(ir.ArrayAttr(fn.attributes["arg_attrs"])[argument.arg_number])
    return ir.StringAttr(attrs["ta.name"]).value if "ta.name" in attrs else None


def clone_constants(fn) -> dict:
    """The arith.constant ops of ta function ``fn``, cloned at the insertion point: old value -> new."""
    cloned = {}
    for op in fn.entry_block.operations:
        if op.operation.name == "arith.constant":
            cloned[op.result] = ir.Operation.create(
                "arith.constant", results=[op.result.type], attributes=dict(op.operation.attributes.items())).result
    return cloned
