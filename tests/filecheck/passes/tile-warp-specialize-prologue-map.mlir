// RUN: not tilec opt %s --pass-pipeline='builtin.module(tile-warp-specialize)' 2>&1 | filecheck %s

// wgmma multiplies its operands where the copy engine put them: a staged program whose mma
// reads a map of a loaded tile (a prologue: relu on X, a per-channel scale on W) is refused
// (ta-to-tile keeps such a contraction to consumers=0; a tile module written by hand meets this).
// CHECK: tile-warp-specialize: a warp-specialised kernel multiplies its operands as they are stored (tile.smem_load), with no map in between

// What `tilec compile examples/dequant_linear.ta --emit tile --target sm_90a` prints, its schedule then
// set to consumers = 2.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @prologue_map(%arg0: memref<?x?xbf16> {ta.dims = ["T", "C"], ta.name = "X"}, %arg1: memref<?x?xbf16> {ta.dims = ["N", "C"], ta.name = "W"}, %arg2: memref<?xbf16> {ta.dims = ["C"], ta.name = "s"}, %arg3: memref<?x?xf32> {ta.dims = ["T", "N"], ta.name = "Y", ta.output}, %arg4: index {ta.param = "C"}, %arg5: index {ta.param = "N"}, %arg6: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {C = 256 : i64, N = 512 : i64, T = 128 : i64}, tile.grid = ["(T+63)/64*((N+63)/64)", "1"], tile.operands = "nt", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 64 : i64, bn = 64 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 4 : i64}>, tile.threads = 128 : i64} {
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg6, %c64 : index
    %1 = arith.ceildivsi %arg5, %c64 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %1, %c8 : index
    %4 = arith.divsi %2, %3 : index
    %5 = arith.muli %4, %c8 : index
    %6 = arith.subi %0, %5 : index
    %7 = arith.minsi %6, %c8 : index
    %8 = arith.remsi %2, %3 : index
    %9 = arith.remsi %8, %7 : index
    %10 = arith.addi %5, %9 : index
    %11 = arith.divsi %8, %7 : index
    %12 = arith.muli %10, %c64 : index
    %13 = arith.muli %11, %c64 : index
    %14 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
    %15 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
    %16 = arith.ceildivsi %arg4, %c64 : index
    scf.for %arg7 = %c0 to %c3 step %c1 {
      %19 = arith.muli %arg7, %c64 : index
      "tile.async_copy"(%arg0, %12, %19, %14, %arg7) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %13, %19, %15, %arg7) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %17 = "tile.map"() ({
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<64x64xf32, #tile.mma<[2, 2]>>
    %18 = scf.for %arg7 = %c0 to %16 step %c1 iter_args(%arg8 = %17) -> (tensor<64x64xf32, #tile.mma<[2, 2]>>) {
      %19 = arith.remsi %arg7, %c4 : index
      "tile.wait_group"() {pending = 2 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %20 = "tile.smem_load"(%14, %19) : (memref<4x64x64xbf16, 3>, index) -> tensor<64x64xbf16, #tile.mma_operand<[2, 2], 0 : i64>>
      %21 = "tile.smem_load"(%15, %19) {transpose} : (memref<4x64x64xbf16, 3>, index) -> tensor<64x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>
      %22 = arith.addi %arg7, %c3 : index
      %23 = arith.remsi %22, %c4 : index
      %24 = arith.muli %22, %c64 : index
      "tile.async_copy"(%arg0, %12, %24, %14, %23) : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %13, %24, %15, %23) : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %25 = arith.muli %arg7, %c64 : index
      %26 = "tile.map"() ({
        %30 = "tile.elem"(%20) {map = #map} : (tensor<64x64xbf16, #tile.mma_operand<[2, 2], 0 : i64>>) -> bf16
        %31 = arith.extf %30 : bf16 to f32
        %32 = arith.maximumf %31, %cst : f32
        %33 = "tile.index"() {dim = 1 : i64} : () -> index
        %34 = arith.addi %25, %33 : index
        %35 = arith.cmpi slt, %34, %arg4 : index
        %36 = arith.select %35, %32, %cst : f32
        "tile.yield"(%36) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma_operand<[2, 2], 0 : i64>>
      %27 = "tile.load"(%arg2, %25) {padding = 0.000000e+00 : bf16} : (memref<?xbf16>, index) -> tensor<64xbf16, #tile.slice<"mma", [2, 2], 1 : i64>>
      %28 = "tile.map"() ({
        %30 = "tile.elem"(%21) {map = #map} : (tensor<64x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>) -> bf16
        %31 = arith.extf %30 : bf16 to f32
        %32 = "tile.elem"(%27) {map = #map1} : (tensor<64xbf16, #tile.slice<"mma", [2, 2], 1 : i64>>) -> bf16
        %33 = arith.extf %32 : bf16 to f32
        %34 = arith.mulf %31, %33 : f32
        %35 = "tile.index"() {dim = 0 : i64} : () -> index
        %36 = arith.addi %25, %35 : index
        %37 = arith.cmpi slt, %36, %arg4 : index
        %38 = arith.select %37, %34, %cst : f32
        "tile.yield"(%38) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma_operand<[2, 2], 1 : i64>>
      %29 = "tile.mma"(%26, %28, %arg8) {tile.computes = 3 : i64} : (tensor<64x64xf32, #tile.mma_operand<[2, 2], 0 : i64>>, tensor<64x64xf32, #tile.mma_operand<[2, 2], 1 : i64>>, tensor<64x64xf32, #tile.mma<[2, 2]>>) -> tensor<64x64xf32, #tile.mma<[2, 2]>>
      scf.yield %29 : tensor<64x64xf32, #tile.mma<[2, 2]>>
    } {tile.stages = 4 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    "tile.store"(%18, %arg3, %12, %13) : (tensor<64x64xf32, #tile.mma<[2, 2]>>, memref<?x?xf32>, index, index) -> ()
    return
  }
}
