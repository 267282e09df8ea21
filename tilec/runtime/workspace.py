"""The workspace of a split-K kernel (manifest ``workspace``: tile.split_sum, codegen/cuda_split.py).

A launch of a kernel whose K is split S ways passes two buffers after its arguments: S parts
of ``floats`` f32 elements per slot and a u32 count per slot, where slots = the grid's CTAs / S
(one per output tile). The counts are zero when a launch starts and the kernel leaves them so
(the CTA that arrives last sets its slot's back), and each part is written before it is read,
so one pair per GPU serves every launch of the kernel on the streams of one process in turn; it
is allocated at the first call (counts zeroed) and grows with the grid. Two launches of one
kernel running at once on different streams would share it: the runtime launches a kernel on the
current stream, one call after another.

    ws = Workspace(manifest)              # None-like when the manifest has none
    ws.pointers(device, grid)             # [floats, counts] addresses for the launch
"""

from __future__ import annotations

import math


class Workspace:
    """The buffers of one kernel's split-K workspace, per GPU."""

    def __init__(self, manifest: dict):
        spec = manifest.get("workspace")
        self.floats, self.splits = (spec["floats"], spec["splits"]) if spec else (0, 0)
        self._held: dict = {}  # device index -> (f32 tiles, u32 counts)

    def __bool__(self) -> bool:
        return bool(self.splits)

    def slots(self, grid) -> int:
        """Output tiles of a launch over ``grid``: its CTAs over the splits."""
        return math.prod(grid) // self.splits

    def buffers(self, device, grid):
        """(parts, counts) of at least ``grid``'s slots on ``device``; the counts zero but for a
        launch running now."""
        import torch

        need = self.slots(grid)
        key = device.index if device.index is not None else torch.cuda.current_device()
        held = self._held.get(key)
        if held is None or held[1].numel() < need:
            held = (torch.empty(need * self.splits * self.floats, dtype=torch.float32, device=device),
                    torch.zeros(need, dtype=torch.int32, device=device))
            self._held[key] = held
        return held

    def pointers(self, device, grid) -> list[int]:
        """The two launch arguments: the parts' and the counts' addresses."""
        return [t.data_ptr() for t in self.buffers(device, grid)]
