"""``tilec layout SPEC --operand NAME``: the shared-memory layout an operand is staged through in
the kernel a target's pipeline builds (bank conflicts, the swizzle), as text and, with --png,
a picture (layout_view.py draws both)."""

from __future__ import annotations

from ..diagnostics import TilecError, check_output
from .commands import _check_specs, _lower
from .layout_view import png, text
from .schedules import chosen_targets, merged as _merged, resolve_each, resolve_one


def layout_command(args) -> int:
    """The shared-memory layout an operand is staged through, as text (and a picture with
    --png). With several --target: each target's kernel's, by its own pipeline and schedule (as a
    package for them holds it); otherwise the kernel of the target every one named runs."""
    if args.png is not None:
        check_output(args.png, "--png")
    _check_specs([args.spec])
    targets = chosen_targets(args)
    if len(dict.fromkeys(args.target or ())) > 1:
        if args.png is not None:
            raise TilecError(f"--png draws one kernel's layout, and {len(targets)} targets are named: keep one --target")
        schedules = resolve_each(args, args.spec, targets)
        for target in targets:
            layout, element_bytes = _staged_layout(args, schedules[target], target)
            print(f"// {args.spec}: the {target} kernel")
            print(text(layout, element_bytes))
        return 0
    schedule, target = resolve_one(args, args.spec, targets)
    layout, element_bytes = _staged_layout(args, schedule, target)
    print(text(layout, element_bytes))
    if args.png:
        try:
            png(layout, element_bytes, args.png)
        except OSError as err:
            raise TilecError(f"--png: cannot write '{args.png}': {err.strerror}") from None
        print(f"picture -> {args.png}")
    return 0


def _staged_layout(args, schedule: str, target: str) -> tuple:
    """(layout, element bytes) of the shared buffer ``args.operand`` is copied into in the kernel
    ``target``'s pipeline builds under ``schedule``."""
    from torch_mlir import ir

    from tilec import dialects
    from tilec.dialects.tile import layout_of

    from ..lowering.driver import build_tile

    with dialects.context(), ir.Location.unknown():
        tiled = build_tile(_lower(args.spec, _merged(args.shape)), {}, schedule, target).tile
        fn = tiled.body.operations[0]
        names = {arg: ir.StringAttr(ir.DictAttr(a)["ta.name"]).value
                 for a, arg in zip(ir.ArrayAttr(fn.attributes["arg_attrs"]), fn.arguments) if "ta.name" in ir.DictAttr(a)}
        found = []

        # the shared buffer a copy writes: cp.async's (..., dst, stage), the copy engine's (..., dst, stage, bar)
        dst_from_end = {"tile.async_copy": 2, "tile.tma_copy": 3}

        def visit(op):
            if op.name in dst_from_end and names.get(op.operands[0]) == args.operand:
                alloc = op.operands[len(op.operands) - dst_from_end[op.name]].owner
                element = ir.MemRefType(alloc.results[0].type).element_type
                found.append((layout_of(alloc.attributes["layout"]), 4 if isinstance(element, ir.F32Type) else 2))
            return ir.WalkResult.ADVANCE

        fn.operation.walk(visit)
    if not found:
        raise TilecError(f"'{args.operand}' is not staged through shared memory in {args.spec} "
                         f"(inputs copied there: {', '.join(sorted(set(names.values())))})")
    return found[0]
