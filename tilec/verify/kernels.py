"""Which properties each kernel of a spec gets, and the Result rows they become."""

from __future__ import annotations

from torch_mlir import ir

from tilec.dialects.layout import WarpTiling
from tilec.dialects.tile import layout_of

from . import gemm, gemm_values, layouts
from .report import Result
from .symbolic import execute

SYMBOLIC = "all shapes (M, N, K >= 1), all program ids, k tiles and lanes"


def check_spec(module, schedule: str, path: str) -> list[Result]:
    from tilec.diagnostics import TilecError
    from tilec.driver import run_passes, to_tile

    results = []
    try:
        specialized = ir.Module.parse(str(module))  # tile programs are built for fixed register tiles
        defaults = {n.name: ir.IntegerAttr(n.attr).value for n in ir.DictAttr(
            specialized.body.operations[0].attributes["ta.params"]) if isinstance(n.attr, ir.IntegerAttr)}
        if "D" in defaults and any(op.operation.name == "ta.softmax" for op in
                                   specialized.body.operations[0].entry_block.operations):
            run_passes(specialized, [f"ta-specialize-shapes{{shapes=D={defaults['D']}}}"])
        tiled = to_tile(specialized, schedule)
    except TilecError:
        tiled = None
    fn = tiled.body.operations[0] if tiled is not None else None
    if fn is not None and "tile.kind" in fn.attributes:
        from tilec.driver import tile_pipeline

        from .attention import check_attention, check_reference
        results += check_attention(tiled, path)
        fused = ir.Module.parse(str(specialized))
        run_passes(fused, tile_pipeline("")[:-2])  # the ta that ta-to-tile lowered
        results += check_reference(tiled, fused, path)
    elif fn is not None:
        reference = ir.Module.parse(str(module))
        run_passes(reference, ["ta-canonicalize"])
        results += check_tile(tiled, reference, path, schedule)
    from tilec.driver import LOOP_PIPELINE

    from .loops import check_loops
    from .online import check_online
    lowered_ta = ir.Module.parse(str(module))
    run_passes(lowered_ta, LOOP_PIPELINE[:-1])  # the ta that ta-to-loops lowers
    loops = ir.Module.parse(str(lowered_ta))
    run_passes(loops, LOOP_PIPELINE[-1:])
    results += check_loops(lowered_ta.body.operations[0], loops.body.operations[0], path)
    results += check_online(loops, path)
    return results


def _row(kernel, prop, check, outcome, domain, replay="") -> Result:
    return Result(kernel, "tile", prop, check, outcome.verdict, round(outcome.seconds, 4), domain,
                  outcome.model, outcome.detail, replay if outcome.verdict == "counterexample" else "")


def check_tile(tiled, reference, path: str, schedule: str) -> list[Result]:
    fn = tiled.body.operations[0]
    ref_fn = reference.body.operations[0]
    kernel = ir.StringAttr(fn.attributes["sym_name"]).value
    sched = dict(x.split("=") for x in ir.StringAttr(fn.attributes["tile.schedule"]).value.split(","))
    tiling = WarpTiling(int(sched["bm"]), int(sched["bn"]), int(sched["warps"]))
    threads = 32 * int(sched["warps"])
    p = execute(fn)
    ref = gemm_values.Reference(ref_fn, p.params)
    flag = ",".join(f"{k}={v}" for k, v in sched.items())

    def replay(model):
        shapes = ",".join(f"{k}={model[k]}" for k in p.params if k in model and model[k] >= 1)
        return f"tilec run {path} --stage tile --schedule {flag}" + (f" --shape {shapes}" if shapes else "")

    rows = []
    add = lambda prop, check, outcome, domain=SYMBOLIC: rows.append(
        _row(kernel, prop, check, outcome, domain, replay(outcome.model)))
    mma = next(e for e in p.events if e.kind == "mma")
    for which, operand in (("a", mma.data["a"]), ("b", mma.data["b"])):
        if not (isinstance(operand, tuple) and operand[0] == "smem"):
            continue
        _, buf, _, transposed = operand
        layout = layout_of(buf.owner.attributes["layout"])
        element = 4 if isinstance(ir.MemRefType(buf.type).element_type, ir.F32Type) else 2
        name = f"{which.upper()} tile {layout.shape[0]}x{layout.shape[1]}"
        domain = f"every element of the {layout.shape[0]}x{layout.shape[1]} tile"
        add("swizzle", f"{name}: the layout is a bijection onto shared memory", layouts.bijection(layout), domain)
        if element == 2:
            add("swizzle", f"{name}: ldmatrix phases are free of bank conflicts",
                layouts.ldmatrix_conflict_free(layout, tiling, which, transposed, int(sched["bk"]), element),
                "every warp, lane pair, fragment and k step")
        add("swizzle", f"{name}: cp.async phases are free of bank conflicts",
            layouts.cp_async_conflict_free(layout, threads, element), "every warp, lane pair and copy iteration")
    add("coverage", "accumulator fragments hold every tile element exactly once", layouts.fragments_cover_tile(tiling),
        "every warp, lane, mma tile and register")
    check, outcome = gemm.output_coverage(p)
    add("coverage", check, outcome, "M, N <= 4096 (the raster divides by a grid size; Z3 integer arithmetic)")
    add("coverage", *gemm.k_coverage(p, ref.size_k))
    for prop, check, outcome in gemm.pipeline(p, ref):
        add(prop, check, outcome)
    for check, outcome in gemm_values.operand_indices(p, ref):
        add("equivalence", check, outcome)
    add("equivalence", *gemm_values.accumulator_starts_at_zero(p), "the initial accumulator tile")
    add("equivalence", *gemm_values.epilogue_equivalence(p, ref),
        "every output element; inputs, exp/erf/tanh and dtype casts uninterpreted (real arithmetic)")
    add("in-bounds", *gemm_values.offsets_not_negative(p))
    return rows
