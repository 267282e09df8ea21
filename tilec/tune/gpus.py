"""The rates of the GPUs the cost model knows (model.py), per SM and cycle.

H200 (sm_90a): 132 SMs at 1.83 GHz; dense bf16/f16 wgmma 989 TFLOP/s, i.e. 4096 flops per
SM and cycle (the vendor's figure); mma.sync reaches about half of that on Hopper (our sm_80
form measured 0.44-0.47x cuBLAS, docs/benchmarks.md); L2 to SM about 64 bytes per SM and
cycle; 227 KiB of shared memory, 64K registers and 2048 threads per SM. The start of a CTA
(its first copies landing) about 2000 cycles; an epilogue's stores about 32 bytes per cycle;
a tile copy lands about 1200 cycles after it is issued; HBM3e 4.8 TB/s, 2623 bytes per
cycle for the whole GPU (the vendor's figure); shared memory takes 128 bytes per SM and cycle
(one 32-bank wavefront), what a tile stored by the copy engine costs its consumers (the
copy engine's global write runs under the next tile). These are round figures, not
fitted: docs/tuning.md measures how well the ranking they give holds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GPU:
    name: str
    sms: int
    clock_hz: float
    tensor_flops_per_cycle: float   # per SM, wgmma at its peak
    mma_sync_fraction: float        # mma.sync's share of that peak
    l2_bytes_per_cycle: float       # per SM
    simt_per_cycle: float           # elementwise instructions per SM and cycle (4 x 32 lanes)
    smem_per_sm: int
    threads_per_sm: int
    start_cycles: float
    store_bytes_per_cycle: float
    copy_latency_cycles: float      # a tile copy from issue to landed (L2 hits mostly)
    dram_bytes_per_cycle: float     # the whole GPU's DRAM bandwidth
    registers_per_sm: int = 65536
    smem_bytes_per_cycle: float = 128.0  # per SM: a staged store's writes into shared memory


GPUS = {
    "h200": GPU("h200", 132, 1.83e9, 4096.0, 0.5, 64.0, 128.0, 227 * 1024, 2048, 2000.0, 32.0, 1200.0, 2623.0),
}


def gpu_named(name: str) -> GPU:
    if name.lower() not in GPUS:
        raise ValueError(f"no cost model for GPU '{name}' (known: {', '.join(GPUS)})")
    return GPUS[name.lower()]
