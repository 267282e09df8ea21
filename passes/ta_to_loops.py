"""ta-to-loops: lower ta functions to loop nests over buffers (scf / memref / arith / math).

    func @f(%A: tensor<?x?xbf16, ["M", "K"]>, ...) -> tensor<...>
      -->
    func @f(%A: memref<?x?xbf16>, ..., %C: memref<?x?xbf16> {ta.output}, %M: index, ...)

Every ta value gets a buffer (the output argument itself when it is returned);
every op becomes a loop nest with its scalar body inlined: ta.at is a load,
ta.index a loop variable, ta.param an index argument. Sizes come from the
shape parameters, so any extent works (no divisibility assumptions). Reductions
over one index that ta-fuse-reductions grouped into ta.online become a single
loop over that index with a running max and rescaled sums.
softmax/logsumexp must be decomposed first (ta-decompose-softmax).
"""

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import func

from tilec.dialects import RANGES_ATTR
from tilec.dialects.ta import tensor_dims

from . import PassInfo
from ._loops import Builder, find_inlined
from ._lower_online import lower_online_group
from ._lower_ops import lower_op


@dataclass(frozen=True)
class Options:
    pass


def _param_names(fn) -> list[str]:
    if "ta.params" not in fn.attributes:
        return []
    return [named.name for named in ir.DictAttr(fn.attributes["ta.params"])]


def new_signature(fn, suffix: str = ""):
    """A function over buffers next to ta function ``fn``: (function, Builder, arguments).

    Arguments: one memref per input, one per output (``ta.output``), one index per
    shape parameter (``ta.param``), in ``ta.params`` order.
    """
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    params = _param_names(fn)
    for value in list(ftype.inputs) + list(ftype.results):
        for dim in tensor_dims(value):
            missing = dim.symbols - set(params)
            if missing:
                raise ValueError(f"dimension '{dim}' uses '{sorted(missing)[0]}', which is not in ta.params")
    in_types = [_memref(t) for t in ftype.inputs]
    out_types = [_memref(t) for t in ftype.results]
    new_types = in_types + out_types + [ir.IndexType.get()] * len(params)
    with ir.InsertionPoint(fn), fn.location:
        new = func.FuncOp(ir.StringAttr(fn.attributes["sym_name"]).value + suffix, (new_types, []))
        block = new.add_entry_block()
    args = list(block.arguments)
    n_in, n_out = len(in_types), len(out_types)
    _copy_attributes(fn, new, n_in, n_out, params)
    return new, Builder(block, dict(zip(params, args[n_in + n_out:]))), args


def _lower_function(fn) -> None:
    entry = fn.entry_block
    ret = list(entry.operations)[-1]
    new, b, args = new_signature(fn)
    block = new.entry_block
    n_in, n_out = len(list(entry.arguments)), len(list(ret.operands))
    for old_arg, arg in zip(entry.arguments, args[:n_in]):
        b.buffers[old_arg] = arg
    returned = list(ret.operands)
    for value, out_arg in zip(returned, args[n_in:n_in + n_out]):
        if value not in b.buffers and returned.count(value) == 1:
            b.buffers[value] = out_arg  # the producing op writes the output directly
    body_ops = list(entry.operations)[:-1]
    b.inlined = find_inlined(body_ops)
    b.numbers = {op.result: n for n, op in enumerate(body_ops) if len(op.operation.results) == 1}
    lowered_groups = set()
    with ir.InsertionPoint(block), fn.location:
        for number, op in enumerate(body_ops):
            b.created = []
            if op.operation.name == "ta.online":
                group = ir.StringAttr(op.attributes["group"]).value
                if group not in lowered_groups:
                    lowered_groups.add(group)
                    lower_online_group(b, [o for o in body_ops if o.operation.name == "ta.online" and
                                           ir.StringAttr(o.attributes["group"]).value == group])
            elif not (op.operation.results and op.result in b.inlined):
                lower_op(b, op)
            _tag_origin([loop for loop in b.created if loop.operation.block == block], number)
        for value, out_arg in zip(returned, args[n_in:n_in + n_out]):
            if b.buffers[value] != out_arg:
                b.copy(b.buffers[value], out_arg, value.type)
        b.free_temporaries(set(args))
        func.ReturnOp([])
    fn.operation.erase()


def _tag_origin(nests, number: int) -> None:
    """Mark the loop nests lowered from the number-th ta op (read by the verifier). The loops
    come from the builder's record, not from a list of the block's ops taken before and after
    each op: that list grows with the function, and listing it per op was quadratic."""
    for op in nests:
        op.operation.attributes["ta.origin"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), number)


def _memref(t: ir.Type) -> ir.MemRefType:
    t = ir.RankedTensorType(t)
    return ir.MemRefType.get(t.shape, t.element_type)


def _copy_attributes(old, new, n_in: int, n_out: int, params: list[str]) -> None:
    names = lambda key, n: ([ir.DictAttr(a) for a in ir.ArrayAttr(old.attributes[key])]
                            if key in old.attributes else [ir.DictAttr.get({})] * n)
    ftype = ir.FunctionType(ir.TypeAttr(old.attributes["function_type"]).value)
    with_dims = lambda d, t, extra: ir.DictAttr.get({**{a.name: a.attr for a in d}, **extra,
                                                     "ta.dims": ir.RankedTensorType(t).encoding})
    ins = [with_dims(d, t, {}) for d, t in zip(names("arg_attrs", n_in), ftype.inputs)]
    outs = [with_dims(d, t, {"ta.output": ir.UnitAttr.get()}) for d, t in zip(names("res_attrs", n_out), ftype.results)]
    output = lambda d: d
    param = lambda p: ir.DictAttr.get({"ta.param": ir.StringAttr.get(p)})
    new.attributes["arg_attrs"] = ir.ArrayAttr.get(ins + [output(d) for d in outs] + [param(p) for p in params])
    for key in ("ta.params", RANGES_ATTR):  # the parameters, and the sizes the function is defined for
        if key in old.attributes:
            new.attributes[key] = old.attributes[key]
    new.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()


def run(module: ir.Operation, options: Options) -> None:
    for op in list(module.regions[0].blocks[0].operations):
        if op.operation.name == "func.func" and _is_ta(op):
            _lower_function(op)


def _is_ta(fn) -> bool:
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    return any(isinstance(t, ir.RankedTensorType) for t in (*ftype.inputs, *ftype.results))


PASS = PassInfo("ta-to-loops", "lower ta to scf loop nests over memref buffers", Options, run, __doc__)
