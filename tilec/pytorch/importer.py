"""PyTorch code -> linalg-on-tensors -> a ta module.

    module, graph = import_torch(fn, (x, w))

``torch.export`` traces ``fn`` at the example inputs' shapes; torch-mlir's FX
importer lowers the graph to linalg-on-tensors in a tilec context; ``Raiser``
turns that into one ta function. An nn.Module's parameters and buffers become
leading inputs (named after them), so the ta function never embeds weights.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import warnings
from dataclasses import dataclass

import torch
from torch_mlir import ir, passmanager
from torch_mlir import fx
from torch_mlir.dialects import func

from torch_mlir.compiler_utils import TorchMlirCompilerError

from ..graph.merge_rows import merge_leading
from .raising import Raiser
from .support import Unsupported, io_type, squeezed

_SUPPORTED_DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.bool)  # bool: taken as bf16 0/1


@dataclass(frozen=True)
class Graph:
    """What the ta function takes: state tensors (parameters, buffers) then user inputs."""

    state_names: tuple[str, ...]
    input_names: tuple[str, ...]
    output_names: tuple[str, ...]
    input_shapes: tuple[tuple[int, ...], ...]    # as torch has them (state first); the ta function
    output_shapes: tuple[tuple[int, ...], ...]   # takes and returns them without size-1 dims


class _WithState(torch.nn.Module):
    """Calls ``module`` with its parameters and buffers passed as inputs."""

    def __init__(self, module: torch.nn.Module, names: list[str]):
        super().__init__()
        self.names = names
        self.held = [module]  # in a list: its parameters must not be this module's (export would freeze them)

    def forward(self, *args):
        state = dict(zip(self.names, args[:len(self.names)]))
        return torch.func.functional_call(self.held[0], state, args[len(self.names):])


def _function_module(fn) -> torch.nn.Module:
    """A module whose forward is ``fn`` itself (no wrapper frame: locations name the user's lines);
    a builtin (``F.gelu``: no Python signature for export to bind) is called from a wrapper."""
    forward = fn if _has_signature(fn) else (lambda *args: fn(*args))
    return type("Function", (torch.nn.Module,), {"forward": staticmethod(forward)})()


def _has_signature(fn) -> bool:
    try:
        inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    return True


def state_of(fn) -> dict[str, torch.Tensor]:
    if not isinstance(fn, torch.nn.Module):
        return {}
    return {**dict(fn.named_parameters()), **dict(fn.named_buffers())}


def exportable(fn, args: tuple) -> tuple[torch.nn.Module, tuple, list[str]]:
    """(a module to export, its example inputs, the state names): state tensors lead."""
    state = state_of(fn)
    wrapped = _WithState(fn, list(state)) if isinstance(fn, torch.nn.Module) else _function_module(fn)
    return wrapped, tuple(t.detach() for t in state.values()) + tuple(args), list(state)


@contextlib.contextmanager
def _quiet_export():
    """torch.export deep-copies pytree specs through a deprecated isinstance check and warns
    (FutureWarning) on every call; that is torch's own business, not the user's code. And it
    exports outside any TorchDynamo tracing context (the backend runs inside one), so that the
    export's guards name its own inputs, not the frame TorchDynamo traced."""
    from torch._guards import tracing

    with warnings.catch_warnings(), tracing(None):
        warnings.filterwarnings("ignore", message=r".*isinstance\(treespec, LeafSpec\).*", category=FutureWarning)
        yield


def export(wrapped: torch.nn.Module, example: tuple, strict: bool = False):
    """torch.export.export(wrapped, example) (non-strict unless asked), without torch's
    internal warnings."""
    with _quiet_export():
        return torch.export.export(wrapped, example, strict=strict)


def exported(fn, args: tuple, strict: bool = False):
    """(torch.export's program of ``fn`` at ``args``, the state names): the state tensors lead
    its inputs (exportable)."""
    wrapped, example, state = exportable(fn, args)
    return export(wrapped, example, strict), state


def _linalg(program, context: ir.Context):
    """The linalg-on-tensors module of an exported program, parsed into ``context``."""
    # torch-mlir imports into a context of its own (with its torch dialect); the linalg
    # text, locations included, is read back into tilec's context
    try:
        with _quiet_export():
            lowered = fx.export_and_import(program, output_type="linalg-on-tensors")
    except TorchMlirCompilerError as err:
        diagnostics = [line for line in str(err).splitlines() if "error:" in line]
        raise Unsupported("torch-mlir", (diagnostics or ["cannot lower the graph to linalg"])[0].strip(), None) from None
    text = lowered.operation.get_asm(enable_debug_info=True, print_generic_op_form=True)
    with context:
        # ops of torch-mlir's own dialects (tm_tensor.sort, ...) are read as unregistered
        # ones; the raiser reports them as unsupported
        context.allow_unregistered_dialects = True
        try:
            return ir.Module.parse(text)
        finally:
            context.allow_unregistered_dialects = False


def _ident(name: str) -> str:
    name = re.sub(r"\W", "_", name)
    return "_" + name if not name or name[0].isdigit() else name


def import_torch(fn, args: tuple, name: str = "graph", program=None) -> tuple[ir.Module, Graph]:
    """The ta module of ``fn`` at ``args`` (call inside a tilec context); ``program``: what
    ``exported(fn, args)`` returned, when the caller has it already."""
    for k, a in enumerate(args):
        if not isinstance(a, torch.Tensor):
            raise TypeError(f"example input {k} is a {type(a).__name__}; tilec.compile takes tensors")
    _check_dtypes(fn, args)
    program, state_names = program or exported(fn, args)
    linalg = _linalg(program, ir.Context.current)
    with ir.Location.name(name):
        try:
            return _build(linalg, state_names, len(args), name)
        except Unsupported as err:
            raise _at_its_own_line(err, fn, args, name) from None


def _check_dtypes(fn, args: tuple) -> None:
    """``Unsupported`` naming the first state tensor or example input whose dtype no tilec kernel
    takes (an int64 block table, token ids or lengths): like an op with no ta rule, the graph then
    stays in torch, or is split around it, unless ``strict``.

        _check_dtypes(lambda x, ids: x[ids], (x, ids))   # Unsupported: example input 1 (ids): dtype torch.int64 ...
    """
    names = _parameter_names(fn)
    tensors = [(f"state tensor {n}", t) for n, t in state_of(fn).items()] + \
        [(f"example input {k}" + (f" ({names[k]})" if k < len(names) else ""), a) for k, a in enumerate(args)]
    for what, t in tensors:
        if t.dtype not in _SUPPORTED_DTYPES:
            raise Unsupported(what, f"dtype {t.dtype} is not taken (tilec takes f32, f16, bf16 and bool tensors)", None)


def _parameter_names(fn) -> list[str]:
    """The names of ``fn``'s positional parameters (a module's forward's; a graph module's
    placeholders), as far as its signature gives them."""
    forward = fn.forward if isinstance(fn, torch.nn.Module) else fn
    if not _has_signature(forward):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in inspect.signature(forward).parameters.values() if p.kind in kinds]


def _at_its_own_line(err: Unsupported, fn, args: tuple, name: str) -> Unsupported:
    """``err`` located at the op's own source line. A non-strict torch.export keeps only the
    frames of ``forward`` methods (an op in a helper is placed at the helper's call); a strict
    one (dynamo) keeps every frame, so on this error path the graph is exported strictly once
    more and the same op's error taken from it. ``err`` itself when that export fails or
    stops elsewhere, and for a graph module (TorchDynamo's own graphs, and regions of a split
    graph: a strict export runs TorchDynamo, which must not run inside its own backend)."""
    if isinstance(fn, torch.fx.GraphModule):
        return err
    try:
        with warnings.catch_warnings():  # dynamo's own notes on the state wrapper are not the user's
            warnings.simplefilter("ignore")
            program, state_names = exported(fn, args, strict=True)
            linalg = _linalg(program, ir.Context.current)
        _build(linalg, state_names, len(args), name)
    except Unsupported as again:
        if again.op_name == err.op_name and again.loc is not None:
            return again
    except Exception:  # noqa: BLE001 - dynamo refusing the code leaves the first error as it is
        pass
    return err


def _build(linalg, state_names, n_args, name):
    source = next(op for op in linalg.body.operations if op.operation.name == "func.func")
    names = [_ident(n) for n in state_names] + [f"in{k}" for k in range(n_args)]
    source_type = ir.FunctionType(ir.TypeAttr(source.attributes["function_type"]).value)
    module = ir.Module.create(ir.Location.name(name))
    arg_types = [io_type(squeezed(ir.RankedTensorType(t).shape), ir.RankedTensorType(t).element_type)
                 for t in source_type.inputs]
    with ir.InsertionPoint(module.body), ir.Location.name(name):
        fn_op = func.FuncOp(_ident(name), (arg_types, []))
        block = fn_op.add_entry_block()
    with ir.InsertionPoint(block):
        results = Raiser(source, names).raise_body(list(fn_op.arguments))
        with ir.Location.name(name):
            func.ReturnOp(results)
    outputs = [f"out{k}" for k in range(len(results))]
    fn_op.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(arg_types, [r.type for r in results]))
    merge_leading(fn_op)  # [B, T, C] as [B*T, C] where every op treats B and T alike (merge_rows.py)
    named = lambda n: ir.DictAttr.get({"ta.name": ir.StringAttr.get(n)})
    fn_op.attributes["arg_attrs"] = ir.ArrayAttr.get([named(n) for n in names])
    fn_op.attributes["res_attrs"] = ir.ArrayAttr.get([named(n) for n in outputs])
    fn_op.attributes["ta.params"] = ir.DictAttr.get({})
    pm = passmanager.PassManager.parse("builtin.module(canonicalize, cse)")
    module.operation.verify()
    pm.run(module.operation)
    shapes = lambda types: tuple(tuple(ir.RankedTensorType(t).shape) for t in types)
    return module, Graph(tuple(names[:len(state_names)]), tuple(names[len(state_names):]), tuple(outputs),
                         shapes(source_type.inputs), shapes(source_type.results))
