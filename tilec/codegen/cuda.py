"""CUDA C++ from tile IR, for sm_80+ (cp.async, ldmatrix, mma.sync m16n8k16).

The emitter walks the tile function op by op. Index arithmetic becomes C locals;
shared buffers become slices of one dynamic shared-memory array, addressed by the
layout's own offset function (cexpr.py); tile.async_copy becomes 16-byte
cp.async per thread (a per-element copy when rows are not 16-byte aligned);
tile.mma becomes, per 16-wide k step, ldmatrix of each warp's fragments and
mma.sync; register tiles that are only read in the epilogue (tile.load,
tile.map) are evaluated element by element at the accumulator fragments that
tile.store writes, with bounds checks (masks).

Warp tiling: ``warps`` warps as wm x wn (wm = 2 when warps >= 2); each warp owns
(bm/wm) x (bn/wn) of the output: (bm/wm)/16 x (bn/wn)/8 mma tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from torch_mlir import ir

from tilec.dialects import PERSISTENT_ATTR
from tilec.dialects.dims import binary, parse_dim
from tilec.dialects.raster import ATTR as RASTER_ATTR, raster_of
from tilec.dialects._verify import Invalid
from tilec.dialects.layout import BlockedLayout, MmaLayout, OperandLayout, SliceLayout
from tilec.dialects.target import DEFAULT, target_of
from tilec.dialects.tile import layout_of, register_layout, schedule_of
from tilec.dialects.index_ops import C, INDEX
from tilec.dialects.op_rules import check_target, features_used, no_rule, rule
from tilec.dialects.scalar_ops import NoRule, evaluate

from ..diagnostics import TilecError
from .cexpr import CExpr, dim_expr
from . import cuda_blocked, cuda_split
from .cuda_blocked import copy_carried
from .cuda_regs import load_columns, materialize_map
from .cuda_scalar import C as SCALAR_C
from .cuda_text import ctype
from .targets import TARGETS


@dataclass
class Kernel:
    """What the runtime needs to launch an emitted kernel."""

    name: str
    source: str
    threads: int
    smem_bytes: int
    grid: list            # dimension expressions (strings) over the parameters
    args: list            # (role, name, dims) per argument, in order
    schedule: str
    variants: dict = field(default_factory=dict)
    tensor_maps: list = field(default_factory=list)  # (input name, box outermost first, swizzle bytes)
    persistent: bool = False  # CTAs loop over the grid's tiles (tile.num_programs of them launched)
    workspace: dict | None = None  # a split-K kernel's: slots, floats a slot, splits (cuda_split.py)


# Programmatic dependent launch (sm_90+). The kernel's first act, before any global access, is
# to wait until the grid it depends on (the launch before it on the stream) has completed and
# its writes are visible; so a launch may be issued before that grid ends, which takes the
# launch's latency off the gap between kernels. It does not signal launch_dependents: the grid
# after it is scheduled as its CTAs exit. Signalled at entry, the next grid's CTAs came up
# early, and a persistent ping-pong GEMM after a row program ran 25-28% slower (H200,
# docs/benchmarks.md). Elsewhere (sm_80) the lines compile to nothing.
GRID_DEPENDENCY = [
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900",
    '    asm volatile("griddepcontrol.wait;" ::: "memory");',
    "#endif",
]


@dataclass
class _Shared:
    name: str
    layout: object
    stage_elems: int
    element: str


@dataclass
class _SmemTile:
    shared: _Shared
    stage: str
    transpose: bool


@dataclass
class _Lazy:
    op: object            # a tile.load or tile.map, evaluated per element


def _reads_whole_tiles(op) -> bool:
    """Does tile.map ``op`` read only 2-d tiles and global loads (no row vectors in registers),
    as a store computes them element by element?"""
    sources = [inner.operation.operands[0] for inner in op.regions[0].blocks[0].operations
               if inner.operation.name == "tile.elem"]
    return all(ir.RankedTensorType(v.type).rank == 2 or
               not isinstance(v.owner, ir.Block) and v.owner.name == "tile.load" for v in sources)


class CudaEmitter:
    def __init__(self, fn, aligned: bool = True, target: str = DEFAULT):
        self.fn = fn
        self.target = TARGETS[target]  # the instructions the walk prints
        self.aligned = aligned   # rows of the async-copied inputs are whole 16-byte chunks
        self.differences = {}    # C name of an f32 a - b -> (a, b): exp of it is one FFMA and ex2
        self.scaled_reads = {}   # C text of an element of a scaled tile -> (its y, c) (cuda_scaled.py)
        self.prologue: list[str] = []  # per-thread constants computed before the main loop
        self.lines: list[str] = []
        self.names: dict = {}
        self.counter = 0
        self.indent = 1
        try:
            schedule = schedule_of(fn)
        except Invalid as err:
            raise TilecError(str(err)) from None
        self.schedule = schedule
        self.bm, self.bn, self.bk, self.warps = schedule.bm, schedule.bn, schedule.bk, schedule.warps
        self.threads = schedule.threads
        # the warp grid of the function's register tiles (read from their layouts)
        self.parent = parent_layout(fn)
        self.wm = self.parent.wm if isinstance(self.parent, MmaLayout) else self.warps
        self.tiling = self.parent.tiling(self.bm, self.bn) if isinstance(self.parent, MmaLayout) else None
        t = self.tiling
        self.mi, self.ni, self.tm, self.tn = (t.mi, t.ni, t.tm, t.tn) if t is not None else (0, 0, 0, 0)
        self.smem_bytes = 0
        self.hopper = bool(features_used(fn))  # warp-specialised: copy engine, mbarriers, wgmma
        self.role = None                      # the warp role being emitted (tile.warp_specialize)
        self.consumer_roles = 1               # consumer warpgroups running the consumer region on their own
        self.helpers: dict = {}               # device functions the walk asked for, by name
        self.tensor_maps: list = []
        self.staged_stores = False            # a tile.tma_store was emitted (its bulk groups end with the kernel)

    # -- helpers -------------------------------------------------------------------------------
    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)

    def value(self, v):
        return self.names[v]

    # -- the walk ------------------------------------------------------------------------------
    def emit(self) -> Kernel:
        fn = self.fn
        name = ir.StringAttr(fn.attributes["sym_name"]).value + ("" if self.aligned else "_unaligned")
        params, args, sig = {}, [], []
        for attrs, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments):
            d = ir.DictAttr(attrs)
            if "ta.param" in d:
                pname = ir.StringAttr(d["ta.param"]).value
                params[pname] = f"p_{pname}"
                self.names[arg] = f"p_{pname}"
                args.append(("param", pname, []))
                sig.append(f"long long p_{pname}")
                continue
            aname = ir.StringAttr(d["ta.name"]).value
            dims = [ir.StringAttr(x).value for x in ir.ArrayAttr(d["ta.dims"])]
            element = ctype(ir.MemRefType(arg.type).element_type)
            role = "output" if "ta.output" in d else "input"
            const = "" if role == "output" else "const "
            sig.append(f"{const}{element}* __restrict__ g_{aname}")
            self.names[arg] = ("memref", f"g_{aname}", dims, element)
            args.append((role, aname, dims))
        self.params = params
        # the warp index as lane 0 holds it: the same value, which the compiler then knows is
        # uniform across the warp, so the loop counters, ring stages and wgmma descriptors derived
        # from it run on the uniform datapath (Llama's ping-pong SwiGLU GEMM: 389M vector ALU
        # instructions -> 110M, 3.21 -> 3.11 ms on the H200; docs/benchmarks.md)
        self.line("const int tid = threadIdx.x, lane = tid % 32, warp = __shfl_sync(0xffffffffu, tid / 32, 0);")
        self.line(f"const int warp_m = warp % {self.wm}, warp_n = warp / {self.wm};")
        # the copy engine's 128-byte swizzle repeats every 1024 bytes of the address
        self.line(f"extern __shared__ __align__({1024 if self.hopper else 128}) unsigned char smem[];")
        self.raster = self._raster(fn)
        self.block(fn.entry_block)
        split = cuda_split.workspace(fn)
        sig += list(cuda_split.WORKSPACE) if split else []  # after the arguments, before the tensor maps
        sig += [f"const __grid_constant__ TensorMap {self._map_name(key)}" for key in self.tensor_maps]
        head, rest = self.lines[:3], self.lines[3:]
        body = "\n".join(GRID_DEPENDENCY + head + ["    " + line for line in self.prologue] + rest)
        variant = "copy engine, mbarriers, wgmma" if self.hopper else \
            "16-byte aligned rows: cp.async" if self.aligned else "any row length: element copies"
        # setmaxnreg needs the cap at entry: the registers of the CTAs resident on an SM
        bounds = f"{self.threads}, {self.schedule.occupancy}" if self.hopper else f"{self.threads}"
        source = (f"// schedule: {self.schedule.as_text()}; {variant}\n" + "".join(self.helpers.values()) +
                  f"extern \"C\" __global__ void __launch_bounds__({bounds})\n{name}({', '.join(sig)}) {{\n"
                  f"{body}\n}}\n")
        grid = [ir.StringAttr(g).value for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
        if self.raster is not None:  # one dimension: the raster numbers the CTAs
            grid = [str(binary("*", parse_dim(grid[0]), parse_dim(grid[1])))]
        return Kernel(name, source, self.threads, self.smem_bytes, grid, args, self.schedule.as_text(),
                      tensor_maps=list(self.tensor_maps), persistent=PERSISTENT_ATTR in fn.attributes,
                      workspace=split)

    def tensor_map(self, arg: str, box: list, swizzle: int) -> str:
        """The kernel parameter holding the tensor map of argument ``arg`` for copies of ``box``: one
        per box shape (attention's Q and K tiles of one QKV projection are boxes of bm and bn rows)."""
        key = (arg, tuple(box), swizzle)
        if key not in self.tensor_maps:
            self.tensor_maps.append(key)
        return self._map_name(key)

    def _map_name(self, key) -> str:
        """tm_<input> for an input's first tensor map, tm_<input>_<k> for its k-th other box shape."""
        k = [a for a, _, _ in self.tensor_maps[:self.tensor_maps.index(key)]].count(key[0])
        return f"tm_{key[0]}" if k == 0 else f"tm_{key[0]}_{k}"

    def block(self, block) -> None:
        for op in block.operations:
            name = op.operation.name
            handler = getattr(self, "op_" + name.replace(".", "_"), None)
            if handler is not None:
                handler(op)
                continue
            own = rule("cuda", name)  # a target's own op: its rule from the target's folder (op_rules)
            if own is None:
                raise TilecError(no_rule("the CUDA emitter has no rule for", name))
            own(self, op)

    def op_func_return(self, op):
        pass

    def op_scf_yield(self, op):
        copy_carried(self, op)

    def op_arith_constant(self, op):
        attr = op.attributes["value"]
        if isinstance(op.result.type, ir.IndexType):
            self.names[op.result] = f"{ir.IntegerAttr(attr).value}LL"
        else:
            self.names[op.result] = ("scalar-const", op)

    def _index_op(self, op, expr: str):
        name = self.fresh("i")
        self.line(f"const long long {name} = {expr};")
        self.names[op.result] = name

    def index_arith(self, op):
        """arith's index ops: their one meaning (dialects/index_ops.py) in C text. A division
        is C's / or % on a dividend >= 0 and a divisor > 0, which the verifier proves of each
        (verify/index_divisions.py)."""
        a, b = (self.value(v) for v in op.operation.operands)
        self._index_op(op, INDEX[op.operation.name](a, b, C))

    op_arith_addi = op_arith_subi = op_arith_muli = op_arith_divsi = op_arith_remsi = index_arith
    op_arith_floordivsi = op_arith_ceildivsi = op_arith_minsi = op_arith_maxsi = index_arith

    def op_arith_cmpi(self, op):
        if not isinstance(op.operation.operands[0].type, ir.IndexType):
            raise TilecError("the CUDA emitter compares indices with eq, ne, slt, sle, sgt or sge")
        try:
            condition = evaluate(op, [self.value(v) for v in op.operation.operands], SCALAR_C)
        except NoRule:
            raise TilecError("the CUDA emitter compares indices with eq, ne, slt, sle, sgt or sge") from None
        name = self.fresh("c")
        self.line(f"const bool {name} = {condition};")
        self.names[op.result] = name

    def op_scf_if(self, op):
        if op.operation.results or len(op.regions[1].blocks):
            raise TilecError("the CUDA emitter takes an scf.if without results or else")
        self.line(f"if ({self.value(op.operation.operands[0])}) {{")
        self.indent += 1
        self.block(op.regions[0].blocks[0])
        self.indent -= 1
        self.line("}")

    def _raster(self, fn):
        """The C names of program ids 0 and 1 that a ``tile.raster`` gives the CTA (declared at the
        kernel's top), None without one."""
        try:
            raster = raster_of(fn)
        except ValueError as err:
            raise TilecError(str(err)) from None
        if raster is None:
            return None
        grid = [ir.StringAttr(g).value for g in ir.ArrayAttr(fn.attributes["tile.grid"])]
        if PERSISTENT_ATTR in fn.attributes or len(grid) != 2:
            raise TilecError(f"{RASTER_ATTR}: a kernel launched once per program id pair (a grid of two "
                             "dims, not persistent)")
        self.line("// launch raster: heavy-first (the last query block first), in groups of batch elements;")
        self.line("// 32-bit: the runtime launches at most 2^31 - 1 CTAs (64-bit divisions are long subroutines)")

        def bind(name, value):
            self.line(f"const unsigned raster_{name} = {value};")
            return CExpr(f"raster_{name}")

        blocks, batch = (self.dims_c(grid))
        self.line(f"if (({blocks}) * ({batch}) == 0) return;  // an empty grid (launched as one CTA)")
        blocks, batch = bind("blocks", f"(unsigned)({blocks})"), bind("batch", f"(unsigned)({batch})")
        group = _unsigned(parse_dim(raster.group), self.params)  # any value will do: the raster clamps it
        pid0, pid1 = raster.program_ids(bind("cta", "blockIdx.x"), blocks, batch, CExpr(f"({group})"),
                                        lambda a, b: a // b, lambda c, a, b: CExpr(f"({c} ? {a} : {b})"), bind)
        self.line(f"const long long raster_pid0 = {pid0}, raster_pid1 = {pid1};")
        return ["raster_pid0", "raster_pid1"]

    def op_tile_program_id(self, op):
        axis = ir.IntegerAttr(op.attributes["axis"]).value
        if self.raster is not None:
            self.names[op.result] = self.raster[axis]
            return
        self._index_op(op, f"(long long)blockIdx.{'xyz'[axis]}")

    def op_tile_num_programs(self, op):
        axis = ir.IntegerAttr(op.attributes["axis"]).value
        self._index_op(op, f"(long long)gridDim.{'xyz'[axis]}")

    def op_tile_alloc(self, op):
        t = ir.MemRefType(op.result.type)
        layout = layout_of(op.attributes["layout"])
        element = ctype(t.element_type)
        name = self.fresh("s")
        if self.hopper:  # swizzled tiles start at a whole swizzle period (wgmma and the copy engine)
            self.smem_bytes = -(-self.smem_bytes // 1024) * 1024
        self.line(f"{element}* {name} = reinterpret_cast<{element}*>(smem + {self.smem_bytes});")
        self.smem_bytes += t.shape[0] * layout.size * 2 if element != "float" else t.shape[0] * layout.size * 4
        self.names[op.result] = _Shared(name, layout, layout.size, element)

    def op_scf_for(self, op):
        lb, ub, step = (self.value(v) for v in list(op.operation.operands)[:3])
        carried = list(op.operation.operands)[3:]
        body = op.regions[0].blocks[0]
        iv = self.fresh("k")
        self.names[body.arguments[0]] = iv
        for arg, init, result in zip(list(body.arguments)[1:], carried, op.operation.results):
            self.names[arg] = self.names[result] = self.value(init)  # carried in place
        pragma = "#pragma unroll 1" if carried else ""
        if pragma:
            self.line(pragma)
        self.line(f"for (long long {iv} = {lb}; {iv} < {ub}; {iv} += {step}) {{")
        self.indent += 1
        self.block(body)
        self.indent -= 1
        self.line("}")

    def op_tile_commit_group(self, op):
        self.line(self.target.commit)

    def op_tile_wait_group(self, op):
        self.line(self.target.wait.format(pending=ir.IntegerAttr(op.attributes["pending"]).value))

    def op_tile_barrier(self, op):
        self.line(self.target.barrier)

    def op_tile_smem_load(self, op):
        buf, stage = (self.value(v) for v in op.operation.operands)
        self.names[op.result] = _SmemTile(buf, stage, "transpose" in op.attributes)

    def op_tile_load(self, op):
        t = ir.RankedTensorType(op.result.type)
        if t.rank == 2 and isinstance(register_layout(t), BlockedLayout):
            cuda_blocked.load(self, op)
            return
        if load_columns(self, op):  # a value per column of an mma tile: read once, into registers
            return
        self.names[op.result] = _Lazy(op)  # fragments and vectors: read element by element where used

    def op_tile_map(self, op):
        layout = register_layout(op.result.type)
        if isinstance(layout, SliceLayout) and layout.dim == 0 or isinstance(layout, OperandLayout):
            self.names[op.result] = _Lazy(op)  # a value per column, or an mma operand's prologue: computed where read
            return
        if cuda_blocked.is_blocked(op.result.type):
            cuda_blocked.materialize(self, op)
            return
        users = [use.owner for use in op.result.uses]
        if len(users) == 1 and users[0].name in ("tile.store", "tile.tma_store") and _reads_whole_tiles(op):
            # the epilogue's last map (a conversion, bias, activation) computed where each element is
            # stored: an up-front bf16 conversion of every accumulator element makes ptxas serialise
            # an asynchronous wgmma (C7514)
            self.names[op.result] = _Lazy(op)
            return
        materialize_map(self, op)

    from .cuda_ops import op_tile_async_copy, op_tile_mma, op_tile_store  # noqa: E402
    from .cuda_blocked import op_tile_reduce  # noqa: E402
    from .cuda_split import op_tile_split_sum  # noqa: E402

    def dims_c(self, dims: list[str]) -> list[str]:
        return [dim_expr(parse_dim(d), self.params) for d in dims]


def _unsigned(expr, params: dict) -> str:
    """A dim expression in 32-bit unsigned C arithmetic (where wrapping cannot matter)."""
    if expr.op == "const":
        return f"{expr.value}u"
    if expr.op == "sym":
        return f"(unsigned){params[expr.value]}"
    lhs, rhs = (_unsigned(a, params) for a in expr.args)
    return f"({lhs} {expr.op} {rhs})"


def parent_layout(fn):
    """The 2-d register layout the function's tiles share (an mma grid or a blocked layout)."""
    def visit(block):
        for op in block.operations:
            for v in op.operation.results:
                if isinstance(v.type, ir.RankedTensorType):
                    layout = register_layout(v.type)
                    if isinstance(layout, (MmaLayout, BlockedLayout)):
                        return layout
            for region in op.operation.regions:
                for inner in region.blocks:
                    found = visit(inner)
                    if found is not None:
                        return found
        return None
    return visit(fn.regions[0].blocks[0])


def emit_cuda(module: ir.Module) -> Kernel:
    """The CUDA kernels of the (single) tile function in ``module``, in the instructions of the
    module's target (its ``tile.target``; targets.py holds each target's table): one for inputs
    whose rows are whole 16-byte chunks (cp.async), one ``_unaligned`` for any other row length;
    a warp-specialised kernel (copy engine, wgmma) has the first alone."""
    fn = module.body.operations[0]
    if "tile.schedule" not in fn.attributes:
        raise TilecError("the CUDA emitter takes tile IR (run ta-to-tile first)")
    if parent_layout(fn) is None:
        raise TilecError("the CUDA emitter takes register tiles with layouts (#tile.mma, #tile.blocked)")
    try:
        target = target_of(module)
        check_target(fn, target)
    except (ValueError, Invalid) as err:
        raise TilecError(str(err)) from None
    if features_used(fn):  # the copy engine needs 16-byte aligned rows: no other variant
        kernel = CudaEmitter(fn, True, target.name).emit()
        kernel.source = f"{TARGETS[target.name].prelude}{rule('cuda-prelude', target.name) or ''}\n{kernel.source}"
        kernel.variants = {"aligned": kernel.name}
        return kernel
    fast, slow = CudaEmitter(fn, True, target.name).emit(), CudaEmitter(fn, False, target.name).emit()
    fast.source = f"{TARGETS[target.name].prelude}\n{fast.source}\n{slow.source}"
    fast.variants = {"aligned": fast.name, "unaligned": slow.name}
    return fast
