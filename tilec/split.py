"""A fused ta function that no one kernel form takes, split into a sequence of kernels.

    pieces = split_kernels(fused)     # [Piece], in launch order; fused: ta after TA_REWRITES

Each piece is a ta function of its own that ta-to-tile takes (a GEMM with its prologue
and epilogue maps, an online group, a row program). Ops are placed in program order: an
op joins the latest group that produced one of its operands when the group with it still
lowers as one kernel, else it starts a group. A group's outputs are the values other
groups (or the function's results) read; they are stored between kernels with their ta
type, so the sequence computes exactly what the function does (intermediates stay f32).
Identity copies (a ta.map that reads one tensor at the identity into the same type) are
read through first, so one value is never stored twice.

The pieces are slices of ``fused``: every op is cloned with its operands renamed, and
``check_split`` reads them back against it (each op's operands are the function's).
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import func

from .diagnostics import TilecError, mlir_loc

_SKIP = ("arith.constant", "func.return")


@dataclass(frozen=True)
class Piece:
    """One kernel of a split function: its ta module (text), the form ta-to-tile lowers it as,
    and the names of the values it reads and writes (graph inputs, outputs, or ``t<N>``)."""

    text: str
    form: str
    inputs: tuple
    outputs: tuple
    ops: tuple  # positions in the fused function of the ops it holds


def split_kernels(module: ir.Module) -> list[Piece]:
    """The kernels of ``module``'s function (fused ta), in an order that respects every read."""
    s = FunctionView(module.body.operations[0])
    group_of, groups = {}, []
    for op in s.ops:
        if op.result in s.through:
            continue
        owners = [group_of[v] for v in s.reads[op.operation] if v in group_of]
        if owners and s.lowers(groups[max(owners)] + [op], s.outputs(groups[max(owners)] + [op], set(group_of), op)):
            k = max(owners)
        else:
            k = len(groups)
            groups.append([])
        groups[k].append(op)
        group_of[op.result] = k
    pieces = []
    for k, group in enumerate(groups):
        outputs = s.outputs(group, None, None)
        text, inputs, form = s.piece(group, outputs, f"{s.name}_k{k}")
        if form is None:
            raise TilecError(f"no tile lowering takes kernel {k} of '{s.name}' ({len(group)} ops): {text}",
                             mlir_loc(group[0].location, "<ir>"))
        pieces.append(Piece(text, form, tuple(inputs), tuple(s.names[v] for v in outputs),
                            tuple(s.position[op.operation] for op in group)))
    return pieces


def result_sources(module: ir.Module) -> dict[str, str]:
    """Each result name of ``module``'s function -> the name of the value it returns (after
    identity copies are read through): an input, or a kernel's output."""
    s = FunctionView(module.body.operations[0])
    return {_result_name(s.fn, n): s.names[v] for n, v in enumerate(s.returned)}


def _result_name(fn, n: int) -> str:
    attrs = ir.ArrayAttr(fn.attributes["res_attrs"]) if "res_attrs" in fn.attributes else None
    if attrs is not None and "ta.name" in ir.DictAttr(attrs[n]):
        return ir.StringAttr(ir.DictAttr(attrs[n])["ta.name"]).value
    return f"out{n}"


class FunctionView:
    """What the split reads of the fused function, computed once: its ops, the identity copies
    read through, each op's top-level reads, and a name per value."""

    def __init__(self, fn):
        self.fn, self.block = fn, fn.entry_block
        self.name = ir.StringAttr(fn.attributes["sym_name"]).value
        self.ops = [op for op in self.block.operations if op.operation.name not in _SKIP]
        self.position = {op.operation: n for n, op in enumerate(self.block.operations)}
        self.through = _identity_copies(self.ops)
        self.reads = {op.operation: self._reads(op) for op in self.ops}
        self.returned = [self.through.get(v, v) for v in list(self.block.operations)[-1].operation.operands]
        self.names = self._names()

    def _reads(self, op) -> list:
        """The top-level values ``op`` (and its regions) read, identity copies read through."""
        out = []

        def visit(inner):
            for v in inner.operands:
                v = self.through.get(v, v)
                if _top_level(v, self.block) and v not in out:
                    out.append(v)
            return ir.WalkResult.ADVANCE

        op.operation.walk(visit)
        return out

    def _names(self) -> dict:
        """Inputs by their ta.name, returned values by their result's name (the first), every
        other op result ``t<position>``."""
        names = {}
        attrs = ir.ArrayAttr(self.fn.attributes["arg_attrs"]) if "arg_attrs" in self.fn.attributes else None
        for n, arg in enumerate(self.fn.arguments):
            d = ir.DictAttr(attrs[n]) if attrs is not None else None
            names[arg] = ir.StringAttr(d["ta.name"]).value if d is not None and "ta.name" in d else f"in{n}"
        for op in self.ops:
            names[op.result] = f"t{self.position[op.operation]}"
        for n, v in reversed(list(enumerate(self.returned))):
            if names[v].startswith("t"):
                names[v] = _result_name(self.fn, n)
        return names

    def outputs(self, group, placed, new) -> list:
        """The values of ``group`` read by another op or returned; with ``placed``, only reads by
        ops already placed count, and ``new`` (the op just added) is an output too."""
        inside = {op.operation for op in group}
        read = {v for op in self.ops if op.operation not in inside and op.result not in self.through
                and (placed is None or op.result in placed) for v in self.reads[op.operation]}
        return [op.result for op in group if op.result in read or op.result in self.returned or op is new]

    def lowers(self, group, outputs) -> bool:
        return self.piece(group, outputs, "fits")[2] is not None

    def piece(self, group, outputs, name: str):
        """(module text, input names, form) of ``group`` as a function of its own; (the reason,
        inputs, None) when no kernel form takes it."""
        from tilec.passes.ta_to_tile import match_form
        from tilec.passes.ta_to_tile.common import NoTileLowering

        fn, block = self.fn, self.block
        inside = {op.result for op in group}
        inputs = []
        for op in group:
            inputs += [v for v in self.reads[op.operation] if v not in inside and v not in inputs and not _is_constant(v)]
        module = ir.Module.create(fn.location)
        with ir.InsertionPoint(module.body), fn.location:
            piece = func.FuncOp(name, ([v.type for v in inputs], [v.type for v in outputs]))
            piece.arg_attrs = ir.ArrayAttr.get([_named(self.names[v]) for v in inputs])
            piece.res_attrs = ir.ArrayAttr.get([_named(self.names[v]) for v in outputs])
            if "ta.params" in fn.attributes:
                piece.attributes["ta.params"] = fn.attributes["ta.params"]
            entry = piece.add_entry_block()
        mapping = dict(zip(inputs, entry.arguments))
        read = {v for op in group for v in self.reads[op.operation]}
        with ir.InsertionPoint(entry), fn.location:
            for op in block.operations:  # the function's constants the group reads
                if op.operation.name == "arith.constant" and op.result in read:
                    mapping[op.result] = op.operation.clone().result
            for op in group:
                copy = op.operation.clone()
                copy.walk(lambda inner: self._rename(inner, mapping))
                mapping[op.result] = copy.result
            func.ReturnOp([mapping[v] for v in outputs])
        try:
            form = match_form(module.body.operations[0])[0]
        except NoTileLowering as err:
            return str(err), inputs, None
        return str(module), [self.names[v] for v in inputs], form

    def _rename(self, inner, mapping):
        for n, v in enumerate(inner.operands):
            v = self.through.get(v, v)
            if v in mapping:
                inner.operands[n] = mapping[v]
        return ir.WalkResult.ADVANCE


def _named(name: str):
    return ir.DictAttr.get({"ta.name": ir.StringAttr.get(name)})


def _identity_copies(ops) -> dict:
    """A ta.map copying one tensor at the identity into its own type -> the tensor it copies."""
    copies = {}
    for op in ops:
        if op.operation.name != "ta.map":
            continue
        body = list(op.regions[0].blocks[0].operations)
        if len(body) != 2 or body[0].operation.name != "ta.at" or body[1].operation.operands[0] != body[0].result:
            continue
        amap = ir.AffineMapAttr(body[0].attributes["map"]).value
        src = body[0].operation.operands[0]
        if src.type == op.result.type and amap == ir.AffineMap.get_identity(amap.n_dims):
            copies[op.result] = copies.get(src, src)
    return copies


def _top_level(v, block) -> bool:
    owner = v.owner
    if isinstance(owner, ir.Block):
        return owner == block
    return owner.operation.block == block


def _is_constant(v) -> bool:
    return not isinstance(v.owner, ir.Block) and v.owner.operation.name == "arith.constant"
