"""sm_90a's ops in the verifier's symbolic executor (tilec/verify/symbolic.py): the events each
records, found through the op (dialects/op_rules.py, layer "symbolic").

The warp roles are walked in turn: the producer's loop is "producer", the consumers' "main";
a copy-engine copy is a copy event on its mbarrier, the mbarrier operations are wait / expect /
arrive events of the role that runs them, a wgmma reads its shared stages and is an mma event
(followed by a wait for every group when it is not asynchronous), and the consumer warpgroups'
turns are turn_wait / turn_pass events. Each rule is ``rule(program, op, operands, loop, grid)``.
"""

from __future__ import annotations

import z3
from torch_mlir import ir

from tilec.dialects.op_rules import register
from tilec.dialects.tile import store_parts
from tilec.targets.sm_90a.dialects.tile_hopper import consumer_roles, wgmma_stage
from tilec.verify.symbolic import WARPGROUP_ID, Event, as_int, walk_block


def _wgmma_wait(p, op, operands, loop, grid) -> None:
    p.events.append(Event("mma_wait", loop, op, {"pending": ir.IntegerAttr(op.attributes["pending"]).value,
                                                 "role": p.role}))


def _warpgroup_id(p, op, operands, loop, grid) -> None:
    """Any one of the warpgroups: what is proved holds for each."""
    if p.role != "consumer" or p.warpgroups < 2:
        raise ValueError("tile.warpgroup_id outside the consumer region of warpgroups running on their own")
    p.wg = p.values[op.result] = z3.Int(WARPGROUP_ID)
    p.assumptions += [p.wg >= 0, p.wg < p.warpgroups]


def _warp_specialize(p, op, operands, loop, grid) -> None:
    """The producer's loop is "producer", the consumers' "main"."""
    p.warpgroups = consumer_roles(op)
    for role, region in zip(("producer", "consumer"), op.operation.regions):
        p.role = role
        walk_block(p, region.blocks[0], loop, grid)
    p.role = ""


def _mbarrier_alloc(p, op, operands, loop, grid) -> None:
    p.values[op.result] = ("barriers", op)


def _tma_copy(p, op, operands, loop, grid) -> None:
    src, *offs, dst, stage, bar = operands
    p.events.append(Event("copy", loop, op, {"src": p.args[src][1], "offsets": [p.values.get(o) for o in offs],
                                             "dst": dst, "stage": p.values.get(stage), "bar": bar, "role": p.role}))


def _mbarrier(p, op, operands, loop, grid) -> None:
    """tile.mbarrier_wait, _expect and _arrive: an event of the role that runs it, on a stage's barrier."""
    name = op.operation.name
    data = {"bar": operands[0], "stage": p.values.get(operands[1]), "role": p.role}
    if name == "tile.mbarrier_wait":
        data["parity"] = p.values.get(operands[2])
    if name == "tile.mbarrier_expect":
        data["bytes"] = ir.IntegerAttr(op.attributes["bytes"]).value
    p.events.append(Event(name.removeprefix("tile.mbarrier_"), loop, op, data))


def _wgmma(p, op, operands, loop, grid) -> None:
    """An mma reading the stage's shared tiles (A: or registers)."""
    get = p.values.get
    a, b, stage, acc = operands
    registers = isinstance(a.type, ir.RankedTensorType)
    at = lambda buf: as_int(wgmma_stage(buf.type, get(stage)))  # a one-stage tile: stage 0
    for buf in [b] if registers else [a, b]:
        p.events.append(Event("read", loop, op, {"buffer": buf, "stage": at(buf), "role": p.role}))
    a_value = get(a) if registers else ("smem", a, at(a), "transpose_a" in op.attributes)
    p.events.append(Event("mma", loop, op, {"a": a_value, "b": ("smem", b, at(b), "transpose_b" in op.attributes),
                                            "acc": get(acc), "async": "async" in op.attributes}))
    if "async" not in op.attributes:  # complete when it returns: it waits for every group
        p.events.append(Event("mma_wait", loop, op, {"pending": 0, "role": p.role}))
    p.values[op.result] = ("mma", op)
    if loop == "main" and "mma" in [e.kind for e in p.events[:-1] if e.loop == "main"]:
        p.events[-1].data["second"] = True


def _turn(p, op, operands, loop, grid) -> None:
    """The consumer warpgroups' turns (named barriers)."""
    p.events.append(Event(op.operation.name.removeprefix("tile."), loop, op,
                          {"who": ir.StringAttr(op.attributes["who"]).value, "role": p.role}))


def _tma_store(p, op, operands, loop, grid) -> None:
    """The copy engine stores what tile.store does; "first": the first of its staging buffers."""
    value, dst, offs = store_parts(op)
    p.events.append(Event("store", loop, op, {"value": value, "dst": p.args[dst][1],
                                              "offsets": [p.values.get(o) for o in offs],
                                              "first": as_int(p.values.get(operands[-1]))}))


register("symbolic", {"tile.wgmma_wait": _wgmma_wait, "tile.warpgroup_id": _warpgroup_id,
                      "tile.warp_specialize": _warp_specialize, "tile.mbarrier_alloc": _mbarrier_alloc,
                      "tile.tma_copy": _tma_copy, "tile.mbarrier_wait": _mbarrier, "tile.mbarrier_expect": _mbarrier,
                      "tile.mbarrier_arrive": _mbarrier, "tile.wgmma": _wgmma, "tile.turn_wait": _turn,
                      "tile.turn_pass": _turn, "tile.tma_store": _tma_store})
