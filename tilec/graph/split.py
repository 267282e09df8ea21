"""A fused ta function that no one kernel form takes, split into a sequence of kernels.

    pieces = split_kernels(fused)     # [Piece], in launch order; fused: ta after TA_REWRITES

Each piece is a ta function of its own that ta-to-tile takes (a GEMM with its prologue
and epilogue maps, an online group, a row program), or a lone ta.remap that is one strided
copy (tilec/graph/strided.py: it runs in torch between the kernels). Ops are placed in program order: an
op joins the latest group that produced one of its operands, else the latest group, when
that group with it still lowers as one kernel (joining either keeps every read after its
write); otherwise it starts a group. A group's outputs are the values any op outside it
reads (or the function returns); they are stored between kernels with their ta type, so
the sequence computes exactly what the function does (intermediates stay f32).
Identity copies (a ta.map that reads one tensor at the identity into the same type) are
read through first, so one value is never stored twice.

The pieces are slices of ``fused``: every op is cloned with its operands renamed, and
``check_split`` reads them back against it (each op's operands are the function's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from torch_mlir import ir

from torch_mlir.dialects import func

from ..dialects import param_ranges, set_param_ranges
from ..diagnostics import TilecError, mlir_loc
from .split_units import items, units
from .strided import strided_form
from tilec.dialects.dims import parse_dim
from tilec.passes._fusion_recompute import RECOMPUTE
from tilec.passes.ta_to_tile import match_form, MATCHERS, TILED
from tilec.passes.ta_to_tile.common import NoTileLowering
from .merge_rows import merge_leading
from ..lowering.driver import copy_module, rewrite, run_passes

_SKIP = ("arith.constant", "func.return")
# each op is tried against the groups it may join, each try a function of its own that is
# rewritten and matched: time quadratic in the ops (400: 8 s, 2,500: two minutes), so a longer
# function is refused with its count
MAX_SPLIT_OPS = 512


@dataclass(frozen=True)
class Piece:
    """One kernel of a split function: its ta module (text), the form ta-to-tile lowers it as,
    and the names of the values it reads and writes (graph inputs, outputs, or ``t<N>``)."""

    text: str
    form: str
    inputs: tuple
    outputs: tuple
    ops: tuple  # positions in the fused function of the ops it holds
    merged: bool = False  # lowered with its leading dims merged (tilec/graph/merge_rows.py)

    def kernel_module(self) -> ir.Module:
        """The ta module the kernel is built from: the piece, its leading dims merged when marked."""
        module = ir.Module.parse(self.text)
        if self.merged:
            from .merge_rows import merge_leading

            merge_leading(module.body.operations[0])
        return module


def split_kernels(module: ir.Module, fuse_each: bool = False) -> list[Piece]:
    """The kernels of ``module``'s function (fused ta; with ``fuse_each``, ta before reduction
    fusion, which each kernel then fuses on its own), in an order that respects every read."""
    s = FunctionView(module.body.operations[0], fuse_each)
    if len(s.ops) > MAX_SPLIT_OPS:
        raise TilecError(f"'{s.name}' is {len(s.ops)} ops; tilec splits a function of at most {MAX_SPLIT_OPS} "
                         f"ops into kernels", mlir_loc(s.fn.location, "<ir>"))
    ops = [op for op in s.ops if op.result not in s.through]
    made = {op.result: op.operation for op in ops}
    producers = {op.operation: [made[v] for v in s.reads[op.operation] if v in made] for op in ops}
    consumers = {op.operation: [] for op in ops}
    for op in ops:
        for p in producers[op.operation]:
            consumers[p].append(op.operation)
    placed = items(ops, units(s, ops, keep_out=_narrowing))  # an attention's ops lower only together
    forward = _place(s, placed, producers)
    # consumers absorb their producers; a narrowing map (a tensor stored between kernels in 16
    # bits, tilec.graph.boundaries) stays with its producer, so it starts a group its producer joins
    backward = _place(s, placed[::-1], consumers, fresh=_narrowing)[::-1]
    groups = [sorted(g, key=lambda op: s.position[op.operation])  # fewer kernels; forward on a tie
              for g in (backward if len(backward) < len(forward) else forward)]
    groups = _coalesced(s, groups)
    pieces = []
    for k, group in enumerate(groups):
        outputs = s.outputs(group)
        text, inputs, form = s.piece(group, outputs, f"{s.name}_k{k}")
        if form is None:
            inside = {op.operation for op in group}
            why = [reason for ops, reason in s.refused if inside & ops]  # the cause, where a fusion fell apart
            if why:  # its own reason (its location dropped) less the pointwise fallback's
                text = "it is part of a fused reduction no kernel form takes whole: " + \
                    re.sub(r"^.*?error: ", "", why[0]).split("; pointwise: ")[0]
            error = TilecError(f"no tile lowering takes kernel {k} of '{s.name}' ({len(group)} ops): {text}",
                               mlir_loc(group[0].location, "<ir>"))
            error.whole = len(groups) == 1  # the one group is the function itself
            raise error
        merged = form.endswith("+merged")
        pieces.append(Piece(text, form.removesuffix("+merged"), tuple(inputs), tuple(s.names[v] for v in outputs),
                            tuple(s.position[op.operation] for op in group), merged))
    return pieces


def _bandwidth(form) -> bool:
    """A kernel that reads and writes each element about once: two in a row are less traffic as one."""
    return form is not None and form.removesuffix("+merged") in ("rows", "pointwise")


def _coalesced(s, groups: list) -> list:
    """``groups`` with each run of consecutive row or pointwise kernels merged while their union is
    still one such kernel (a residual add, the next norm and its gain: one pass over the rows).
    Consecutive groups merge without moving any read before its write. GEMMs and attention are
    left as placed: their union (Q, K and V sharing A) would lower to a slower form."""
    out, forms = [], []
    for group in groups:
        form = s.piece(group, s.outputs(group), "fits")[2]
        if out and _bandwidth(form) and _bandwidth(forms[-1]):
            union = sorted(out[-1] + group, key=lambda op: s.position[op.operation])
            merged = s.piece(union, s.outputs(union), "fits")[2]
            if _bandwidth(merged):
                out[-1], forms[-1] = union, merged
                continue
        out.append(group)
        forms.append(form)
    return out


def _narrowing(op) -> bool:
    """A ta.map that only narrows one tensor to a 16-bit type (truncf of one element)."""
    if op.operation.name != "ta.map":
        return False
    body = [inner.operation.name for inner in op.regions[0].blocks[0].operations]
    return body == ["ta.at", "arith.truncf", "ta.yield"]


def _place(s, placed, deps, fresh=lambda op: False) -> list:
    """Groups of ``placed`` (lists of ops: one op, or a unit) placed in the given order: each
    joins the latest group holding one of its ``deps`` (producers in program order, consumers
    in reverse), else the latest group, when that group still lowers with it; else it starts
    one. Either keeps every read after its write."""
    group_of, groups = {}, []
    for item in placed:
        inside = {op.operation for op in item}
        owners = [group_of[d] for op in item for d in deps[op.operation] if d in group_of and d not in inside]
        tries = [] if any(fresh(op) for op in item) else \
            ([max(owners)] if owners else []) + ([len(groups) - 1] if groups else [])
        in_order = lambda k: sorted(groups[k] + item, key=lambda o: s.position[o.operation])  # noqa: E731
        k = next((k for k in dict.fromkeys(tries) if s.lowers(in_order(k))), len(groups))
        if k == len(groups):
            groups.append([])
        groups[k].extend(item)
        for op in item:
            group_of[op.operation] = k
    return groups


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

    def __init__(self, fn, fuse_each: bool = False):
        self.fn, self.block, self.fuse_each = fn, fn.entry_block, fuse_each
        self.name = ir.StringAttr(fn.attributes["sym_name"]).value
        self.ops = [op for op in self.block.operations if op.operation.name not in _SKIP]
        self.position = {op.operation: n for n, op in enumerate(self.block.operations)}
        self.through = _identity_copies(self.ops)
        self.reads = {op.operation: self._reads(op) for op in self.ops}
        self.returned = [self.through.get(v, v) for v in list(self.block.operations)[-1].operation.operands]
        self.names = self._names()
        self.forms: dict = {}  # (positions, outputs) of a group -> (name, form, reason) piece() found
        self.refused: list = []  # (ops, reason) of each fused reduction no kernel form takes whole

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

    def outputs(self, group) -> list:
        """The values of ``group`` that any op outside it reads, or that the function returns (a
        group only grows by ops placed later, so what it must write never grows)."""
        inside = {op.operation for op in group}
        read = {v for op in self.ops if op.operation not in inside and op.result not in self.through
                for v in self.reads[op.operation]}
        return [op.result for op in group if op.result in read or op.result in self.returned]

    def lowers(self, group) -> bool:
        return self.piece(group, self.outputs(group), "fits")[2] is not None

    def piece(self, group, outputs, name: str):
        """(module text, input names, form) of ``group`` as a function of its own; (the reason,
        inputs, None) when no kernel form takes it."""
        fn, block = self.fn, self.block
        inside = {op.result for op in group}
        inputs = []
        for op in group:
            inputs += [v for v in self.reads[op.operation]
                       if v not in inside and v not in inputs and not _is_constant(v)]
        module = ir.Module.create(fn.location)
        with ir.InsertionPoint(module.body), fn.location:
            piece = func.FuncOp(name, ([v.type for v in inputs], [v.type for v in outputs]))
            piece.arg_attrs = ir.ArrayAttr.get([_named(self.names[v]) for v in inputs])
            piece.res_attrs = ir.ArrayAttr.get([_named(self.names[v]) for v in outputs])
            if "ta.params" in fn.attributes:  # those its tensors' dims or its bodies name
                used = self._params_of(group, inputs + outputs)
                piece.attributes["ta.params"] = ir.DictAttr.get(
                    {n.name: n.attr for n in ir.DictAttr(fn.attributes["ta.params"]) if n.name in used})
                set_param_ranges(piece, {k: r for k, r in param_ranges(fn).items() if k in used})
            if RECOMPUTE in fn.attributes:  # a saved backward's pieces recompute what they read, as it does
                piece.attributes[RECOMPUTE] = ir.UnitAttr.get()
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
        key = (tuple(self.position[op.operation] for op in group), tuple(self.names[v] for v in outputs))
        if key not in self.forms:  # the placement, the coalescing and the pieces ask of one group alike
            self.forms[key] = (name, *self._form(module, group))
        asked, form, reason = self.forms[key]
        if form is None:  # the reason names the function it was found for
            return reason.replace(f"'{asked}'", f"'{name}'"), inputs, None
        return _text(module), [self.names[v] for v in inputs], form

    def _form(self, module, group) -> tuple:
        """(form, None) of the piece ``module`` of ``group``, or (None, the reason no form takes it)."""
        fused = module
        try:
            fused = rewrite(module)[0] if self.fuse_each else module
            form = match_form(fused.body.operations[0], TILED)[0]
            if form == "online":  # how an attention reads Q, K and V is checked as it lowers
                run_passes(copy_module(fused), ["ta-to-tile"])
            if form == "contraction" and self._merged_form(module) == "contraction":
                # a Linear on [B, T, C] as one GEMM of B*T rows: one grid of tiles a persistent
                # kernel loops over, not B grids of T rows (with a partial row tile each)
                return "contraction+merged", None
            return form, None
        except (NoTileLowering, TilecError) as err:
            if strided_form(list(group)) is not None:  # copies in torch between kernels, as one
                return "strided", None
            form = self._merged_form(module)  # [B, T, C] rows as [B*T, C], where the piece allows it
            if form is not None:
                return form + "+merged", None
            try:  # maps read at any index, one element at a time: the last resort
                MATCHERS["pointwise"].match(fused.body.operations[0])
                return "pointwise", None
            except NoTileLowering as last:
                return None, f"{err}; pointwise: {last}"

    def _merged_form(self, module) -> str | None:
        """The form of ``module`` with its leading dims merged (merge_rows), when they can be."""
        copy = copy_module(module)
        fn = copy.body.operations[0]
        if not merge_leading(fn):
            return None
        try:
            fused = rewrite(copy)[0] if self.fuse_each else copy
            return match_form(fused.body.operations[0], TILED)[0]
        except (NoTileLowering, TilecError):
            return None

    def _params_of(self, group, values) -> set:
        """The shape parameters a piece names: in its tensors' dims and its ta.param ops."""
        used = set()
        for v in values + [op.result for op in group]:
            for d in ir.ArrayAttr(ir.RankedTensorType(v.type).encoding):
                used |= parse_dim(ir.StringAttr(d).value).symbols

        def visit(inner):
            if inner.name == "ta.param":
                used.add(ir.StringAttr(inner.attributes["name"]).value)
            return ir.WalkResult.ADVANCE

        for op in group:
            op.operation.walk(visit)
        return used

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


def _text(module) -> str:
    """A piece's ta as text, with its source locations (errors in a kernel name the spec's line)."""
    return module.operation.get_asm(enable_debug_info=True)
