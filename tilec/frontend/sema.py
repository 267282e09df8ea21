"""Spec statements -> ta IR: names, index ranges, and expression elaboration."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from torch_mlir import ir
from torch_mlir.dialects import func

from tilec.dialects.dims import DimExpr, substitute

from ..diagnostics import SourceLoc, TilecError
from . import ast
from tilec.dialects.ta_builders import tensor_type

from .emit import ELEMENT_TYPES, Emitter, mlir_loc
from .elaborate import elaborate
from .limits import MAX_INT, MAX_RANK
from .values import Scalar, free_indices


@dataclass
class Tensor:
    name: str
    kind: str  # input, output, let
    dims: tuple[DimExpr, ...] | None
    element: str
    loc: SourceLoc
    value: ir.Value | None = None

    def rank_mismatch(self, count: int, verb: str) -> str | None:
        """What is wrong with reading (``verb`` "read") or writing this tensor with ``count``
        indices; None when its rank is known and is ``count``, or not known yet (a let).

        >>> Tensor("X", "input", (sym("N"), sym("C")), "f32", loc).rank_mismatch(1, "read")
        "'X' has 2 dims [N, C] but is read with 1 index"
        """
        if self.dims is None or len(self.dims) == count:
            return None
        rank, dims = len(self.dims), ", ".join(map(str, self.dims))
        indices = "no index" if count == 0 else f"{count} ind{'ex' if count == 1 else 'ices'}"
        return f"'{self.name}' has {rank} dim{'s' * (rank != 1)} [{dims}] but is {verb} with {indices}"


class Lowering:
    """Lowers one spec (a list of statements) into a func.func of ta ops."""

    def __init__(self, source: str, file: str):
        self.source, self.file = source, file
        self.params: dict[str, ast.Param] = {}
        self.consts: dict[str, float] = {}
        self.integer_consts: set[str] = set()  # const G = 4 (not 4.0): usable in index arithmetic
        self.tensors: dict[str, Tensor] = {}

    def error(self, message: str, loc: SourceLoc) -> TilecError:
        return TilecError(message, loc, self.source)

    def declare(self, name: str, loc: SourceLoc) -> None:
        if name in self.params or name in self.consts or name in self.tensors:
            raise self.error(f"'{name}' is already declared", loc)

    def run(self, statements: list[ast.Node]) -> ir.Module:
        module = ir.Module.create(loc=ir.Location.file(self.file, 1, 1))
        for s in statements:
            if isinstance(s, ast.Param):
                self.declare(s.name, s.loc)
                if s.default is not None and s.default < 1:
                    raise self.error(f"parameter '{s.name}' = {s.default}: a size must be at least 1", s.default_loc)
                self.params[s.name] = s
            elif isinstance(s, ast.Const):
                self.declare(s.name, s.loc)
                value = self.elaborate(s.expr, {}, None)
                if not isinstance(value, Scalar):
                    raise self.error("a constant must be a number known at compile time", s.expr.loc)
                self.consts[s.name] = value.value
                if value.integer:
                    self.integer_consts.add(s.name)
            elif isinstance(s, ast.TensorDecl):
                self.declare_tensor(s)
        if not any(t.kind == "output" for t in self.tensors.values()):
            first = statements[0].loc if statements else SourceLoc(self.file, 1, 1)
            raise self.error("the spec declares no output; a spec needs at least one, e.g. "
                             "'output C[M, N] : f32' and its assignment 'C[i, j] = ...'", first)
        inputs = [t for t in self.tensors.values() if t.kind == "input"]
        fn = self._function(module, inputs)
        with ir.InsertionPoint(fn.entry_block):
            for s in statements:
                if isinstance(s, ast.Assign):
                    self.assign(s)
            outputs = [t for t in self.tensors.values() if t.kind == "output"]
            for t in outputs:
                if t.value is None:
                    raise self.error(f"output '{t.name}' is never assigned", t.loc)
            # the return's location names where each output is declared (read by signature())
            declared = [ir.Location.name(t.name, childLoc=mlir_loc(t.loc)) for t in outputs]
            func.ReturnOp([t.value for t in outputs], loc=ir.Location.fused(declared))
        fn.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get([a.type for a in fn.arguments], [t.value.type for t in outputs]))
        fn.attributes["res_attrs"] = ir.ArrayAttr.get([_named(t.name) for t in outputs])
        return module

    def declare_tensor(self, s: ast.TensorDecl) -> None:
        self.declare(s.name, s.loc)
        if s.dtype not in ELEMENT_TYPES:
            raise self.error(f"unsupported element type '{s.dtype}'; use f32, f16 or bf16", s.dtype_loc)
        if len(s.dims) > MAX_RANK:
            raise self.error(f"'{s.name}' has {len(s.dims)} dimensions; tensors have at most {MAX_RANK}", s.loc)
        integers = {}
        dim_locs = s.dim_locs or (s.loc,) * len(s.dims)
        for name in sorted(set().union(*(d.symbols for d in s.dims))):
            value = self.consts.get(name)
            loc = next(at for d, at in zip(s.dims, dim_locs) if name in d.symbols)  # the first dim using it
            if value is not None and not (math.isfinite(value) and value == int(value)):
                raise self.error(f"constant '{name}' = {value} is not an integer and cannot size a dimension", loc)
            if value is not None and not 1 <= value <= MAX_INT:
                raise self.error(f"constant '{name}' = {int(value)} cannot size a dimension: sizes are "
                                 f"between 1 and 2^31 - 1", loc)
            if value is not None:
                integers[name] = int(value)
            elif name not in self.params:
                raise self.error(f"unknown shape parameter '{name}' in the shape of '{s.name}'", loc)
        dims = tuple(substitute(d, integers) for d in s.dims)
        for d, loc in zip(dims, dim_locs):
            if d.static is not None and d.static < 1:
                raise self.error(f"dimension '{d}' of '{s.name}' is not positive", loc)
            if d.static is not None and d.static > MAX_INT:
                raise self.error(f"dimension of '{s.name}' is {d.static}; sizes are at most 2^31 - 1", loc)
        self.tensors[s.name] = Tensor(s.name, s.io, dims, s.dtype, s.loc)

    def _function(self, module: ir.Module, inputs: list[Tensor]) -> func.FuncOp:
        types = [tensor_type(t.dims, ELEMENT_TYPES[t.element]()) for t in inputs]
        name = re.sub(r"\W", "_", Path(self.file).stem) or "spec"
        with ir.InsertionPoint(module.body), ir.Location.file(self.file, 1, 1):
            fn = func.FuncOp("_" + name if name[0].isdigit() else name, (types, []))
            fn.add_entry_block(arg_locs=[mlir_loc(t.loc) for t in inputs])
        fn.attributes["arg_attrs"] = ir.ArrayAttr.get([_named(t.name) for t in inputs])
        i64 = ir.IntegerType.get_signless(64)
        fn.attributes["ta.params"] = ir.DictAttr.get({
            p.name: ir.IntegerAttr.get(i64, p.default) if p.default is not None else ir.UnitAttr.get()
            for p in self.params.values()})
        for t, arg in zip(inputs, fn.arguments):
            t.value = arg
        return fn

    def assign(self, s: ast.Assign) -> None:
        target = self._target(s)
        lhs = self._lhs_indices(s, target)
        extents = _Extents(self)
        if target.dims is not None:
            for index, dim in zip(lhs, target.dims):
                extents.record(index, dim, s.loc)
        extents.scan(s.expr)
        for index, node in zip(lhs, s.indices or ()):
            extents.require(index, node.loc)
        self.extents = extents.dims
        self.emitter = Emitter(extents.dims, self.source)
        value = self.elaborate(s.expr, dict.fromkeys(lhs), extents)
        extra = [i for i in free_indices(value) if i not in lhs]
        if extra:
            raise self.error(f"index '{extra[0]}' is not on the left-hand side; reduce it "
                             f"(sum[{extra[0]}](...)) or add it to '{target.name}'", s.expr.loc)
        element = ELEMENT_TYPES[target.element]()
        with mlir_loc(s.loc):
            target.value = self.emitter.materialize(value, lhs, element, s.expr.loc)
        if target.kind == "let":
            target.dims = tuple(extents.dims[i] for i in lhs)

    def _target(self, s: ast.Assign) -> Tensor:
        if s.let:
            self.declare(s.name, s.loc)
            self.tensors[s.name] = Tensor(s.name, "let", None, "f32", s.loc)
            return self.tensors[s.name]
        target = self.tensors.get(s.name)
        if target is None:
            raise self.error(f"'{s.name}' is not a declared output; declare it (output {s.name}[...] : f32) "
                             f"or write 'let {s.name}[...] = ...' for a temporary", s.loc)
        if target.kind != "output":
            raise self.error(f"'{s.name}' is an input and cannot be assigned", s.loc)
        if target.value is not None:
            raise self.error(f"output '{s.name}' is assigned twice", s.loc)
        return target

    def _lhs_indices(self, s: ast.Assign, target: Tensor) -> tuple[str, ...]:
        subs = s.indices or ()
        if len(subs) > MAX_RANK:
            raise self.error(f"'{s.name}' would have {len(subs)} dimensions; tensors have at most {MAX_RANK}", s.loc)
        mismatch = target.rank_mismatch(len(subs), "written")
        if mismatch:
            raise self.error(mismatch, s.loc)
        names = []
        for node in subs:
            if not isinstance(node, ast.Name) or self._is_symbol(node.id):
                raise self.error("left-hand side indices must be plain index names such as i, j", node.loc)
            if node.id in names:
                raise self.error(f"index '{node.id}' appears twice on the left-hand side", node.loc)
            names.append(node.id)
        return tuple(names)

    def _is_symbol(self, name: str) -> bool:
        return name in self.params or name in self.consts or name in self.tensors

    def elaborate(self, node: ast.Node, scope: dict, extents: "_Extents | None"):
        """The value of expression ``node`` with the index names in ``scope`` bound."""
        return elaborate(self, node, scope, extents)


def _named(name: str) -> ir.DictAttr:
    return ir.DictAttr.get({"ta.name": ir.StringAttr.get(name)})


class _Extents:
    """The range of every index in one statement, read off the tensors it subscripts."""

    def __init__(self, lowering: Lowering):
        self.lowering = lowering
        self.dims: dict[str, DimExpr] = {}
        self.where: dict[str, SourceLoc] = {}

    def record(self, index: str, dim: DimExpr, loc: SourceLoc) -> None:
        if index in self.dims and str(self.dims[index]) != str(dim):
            raise self.lowering.error(
                f"index '{index}' ranges over '{dim}' here but over '{self.dims[index]}' at "
                f"{self.where[index]}", loc)
        self.dims.setdefault(index, dim)
        self.where.setdefault(index, loc)

    def require(self, index: str, loc: SourceLoc) -> None:
        if index not in self.dims:
            raise self.lowering.error(f"cannot tell the range of index '{index}': use it as a plain "
                                      f"subscript of a tensor with a known shape", loc)

    def scan(self, node) -> None:
        if isinstance(node, ast.Access):
            tensor = self.lowering.tensors.get(node.name)
            # a wrong rank first: zipped with the wrong dims, the indices' ranges would be nonsense
            mismatch = tensor and tensor.rank_mismatch(len(node.subscripts), "read")
            if mismatch:
                raise self.lowering.error(mismatch, node.loc)
            if tensor is not None and tensor.dims is not None:
                for sub, dim in zip(node.subscripts, tensor.dims):
                    if isinstance(sub, ast.Name) and not self.lowering._is_symbol(sub.id):
                        self.record(sub.id, dim, sub.loc)
        for child in vars(node).values():
            for item in (child if isinstance(child, tuple) else (child,)):
                if isinstance(item, ast.Node):
                    self.scan(item)
