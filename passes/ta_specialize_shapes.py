"""ta-specialize-shapes: bind shape parameters to sizes, making tensor types static.

    ta-specialize-shapes{shapes=M=64,N=32}
    tensor<?x?xf32, ["M", "N"]>  -->  tensor<64x32xf32, ["M", "N"]>
    "ta.param"() {name = "N"}    -->  arith.constant 32 : index

Dims keep their names, so verifiers still relate them. Only the named
parameters are bound (a kernel then fixes exactly the sizes it says it fixes);
``defaults=true`` binds every other parameter that has a default as well.
Code generation for a fixed problem size starts from this form.
"""

from dataclasses import dataclass

from torch_mlir import ir
from torch_mlir.dialects import arith

from tilec.dialects import MAX_SIZE, param_ranges, set_param_ranges
from tilec.dialects.dims import DimError
from tilec.dialects.ta import tensor_dims

from . import PassInfo


@dataclass(frozen=True)
class Options:
    shapes: str = ""        # comma-separated NAME=SIZE
    defaults: bool = False  # also bind every other parameter to its default

    def __post_init__(self):
        parse_shapes(self.shapes)  # fail while the pipeline is parsed, not halfway through it


def parse_shapes(text: str) -> dict[str, int]:
    """``"M=64,N=32"`` -> {"M": 64, "N": 32}; ValueError when malformed: not NAME=SIZE with
    1 <= SIZE <= 2^31 - 1 in decimal digits, a size with a leading zero (``M=04``), or a name
    given twice (``M=4,M=5``). The one parser of sizes by name (``tilec --shape`` too)."""
    values = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, eq, size = (part.strip() for part in item.partition("="))
        if not eq or not name.isidentifier() or not (size.isascii() and size.isdigit()):
            raise ValueError(f"'{item[:60]}' is not NAME=SIZE with 1 <= SIZE <= 2^31 - 1")
        if len(size) > 1 and size.startswith("0"):
            raise ValueError(f"'{item[:60]}': a size has no leading zero (write {name}={size.lstrip('0') or '0'})")
        if len(size) > 10 or not 1 <= int(size) <= 2**31 - 1:  # int() of no huge string
            raise ValueError(f"'{item[:60]}' is not NAME=SIZE with 1 <= SIZE <= 2^31 - 1")
        if name in values:
            raise ValueError(f"'{name}' is given twice ({name}={values[name]} and {name}={size})")
        values[name] = int(size)
    return values


def _static(t: ir.Type, env: dict[str, int]) -> ir.Type:
    if not isinstance(t, ir.RankedTensorType) or not isinstance(ir.RankedTensorType(t).encoding, ir.ArrayAttr):
        return t
    t = ir.RankedTensorType(t)
    shape = []
    for size, dim in zip(t.shape, tensor_dims(t)):
        try:
            shape.append(dim.evaluate(env))
        except DimError:
            shape.append(size)
    return ir.RankedTensorType.get(shape, t.element_type, t.encoding)


def _specialize(fn, given: dict[str, int], defaults: bool) -> None:
    env = {}
    if defaults and "ta.params" in fn.attributes:
        for named in ir.DictAttr(fn.attributes["ta.params"]):
            if isinstance(named.attr, ir.IntegerAttr):
                env[named.name] = ir.IntegerAttr(named.attr).value
    env.update(given)
    ranges = param_ranges(fn)
    for name, value in env.items():  # a size the function is not defined for is refused, not bound
        low, high = ranges.get(name, (1, MAX_SIZE))
        if not low <= value <= high:
            raise ValueError(f"shape parameter '{name}' = {value} is outside [{low}, {high}], the sizes "
                             f"'{ir.StringAttr(fn.attributes['sym_name']).value}' is defined for")
    set_param_ranges(fn, {k: r for k, r in ranges.items() if k not in env})

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.set_type(_static(arg.type, env))
        for result in op.results:
            result.set_type(_static(result.type, env))
        name = op.attributes["name"] if op.name == "ta.param" else None
        if name is not None and ir.StringAttr(name).value in env:
            with ir.InsertionPoint(op), op.location:
                constant = arith.ConstantOp(ir.IndexType.get(), env[ir.StringAttr(name).value])
            op.result.replace_all_uses_with(constant.result)
            op.erase()
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    fn.operation.walk(visit)
    if "ta.params" in fn.attributes:  # the bound values become the parameters' values
        i64 = ir.IntegerType.get_signless(64)
        fn.attributes["ta.params"] = ir.DictAttr.get({
            named.name: ir.IntegerAttr.get(i64, given[named.name]) if named.name in given else named.attr
            for named in ir.DictAttr(fn.attributes["ta.params"])})
    ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
    fn.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [_static(t, env) for t in ftype.inputs], [_static(t, env) for t in ftype.results]))


def run(module: ir.Operation, options: Options) -> None:
    given = parse_shapes(options.shapes)
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "func.func":
            _specialize(op, given, options.defaults)


PASS = PassInfo("ta-specialize-shapes", "bind shape parameters, making ta tensor types static", Options, run,
                __doc__)
