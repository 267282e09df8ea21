// RUN: not tilec opt %s --pass-pipeline='builtin.module(tile-pingpong)' 2>&1 | filecheck %s

// Ping-pong warpgroups are a warp-specialised kernel's: on the staged program (tile-warp-specialize
// and tile-persistent not run) whose schedule asks for pingpong=true, the pass refuses, at the
// function.
// CHECK: tile-pingpong-unspecialised.mlir:[[# @LINE + 16]]:3: error: a pass failed: ValueError: tile-pingpong: ping-pong consumers are a warp-specialised kernel's (tile-warp-specialize first)

// The staged program: `tilec opt` of the ta of this spec with ta-to-tile{target=sm_90a bm=64
// bn=256 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true}, tile-canonicalize:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @pingpong(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+63)/64*((N+255)/256)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 64 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = true, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg4, %c64 : index
    %c256 = arith.constant 256 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %c8 = arith.constant 8 : index
    %3 = arith.muli %c8, %1 : index
    %4 = arith.divsi %2, %3 : index
    %5 = arith.muli %4, %c8 : index
    %6 = arith.subi %0, %5 : index
    %7 = arith.minsi %6, %c8 : index
    %8 = arith.remsi %2, %3 : index
    %9 = arith.remsi %8, %7 : index
    %10 = arith.addi %5, %9 : index
    %11 = arith.divsi %8, %7 : index
    %c64_0 = arith.constant 64 : index
    %12 = arith.muli %10, %c64_0 : index
    %c256_1 = arith.constant 256 : index
    %13 = arith.muli %11, %c256_1 : index
    %14 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
    %15 = "tile.alloc"() {layout = #tile.layout<[64, 256], [256, 1], [3, 3, 5]>} : () -> memref<4x64x256xbf16, 3>
    %c64_2 = arith.constant 64 : index
    %16 = arith.ceildivsi %arg3, %c64_2 : index
    %c0_3 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1_4 = arith.constant 1 : index
    scf.for %arg6 = %c0_3 to %c3 step %c1_4 {
      %c64_7 = arith.constant 64 : index
      %20 = arith.muli %arg6, %c64_7 : index
      "tile.async_copy"(%arg0, %12, %20, %14, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %20, %13, %15, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %17 = "tile.map"() ({
      %cst = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<64x256xf32, #tile.mma<[2, 4]>>
    %c0_5 = arith.constant 0 : index
    %c1_6 = arith.constant 1 : index
    %18 = scf.for %arg6 = %c0_5 to %16 step %c1_6 iter_args(%arg7 = %17) -> (tensor<64x256xf32, #tile.mma<[2, 4]>>) {
      %c4 = arith.constant 4 : index
      %20 = arith.remsi %arg6, %c4 : index
      "tile.wait_group"() {pending = 2 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %21 = "tile.smem_load"(%14, %20) : (memref<4x64x64xbf16, 3>, index) -> tensor<64x64xbf16, #tile.mma_operand<[2, 4], 0 : i64>>
      %22 = "tile.smem_load"(%15, %20) : (memref<4x64x256xbf16, 3>, index) -> tensor<64x256xbf16, #tile.mma_operand<[2, 4], 1 : i64>>
      %c3_7 = arith.constant 3 : index
      %23 = arith.addi %arg6, %c3_7 : index
      %c4_8 = arith.constant 4 : index
      %24 = arith.remsi %23, %c4_8 : index
      %c64_9 = arith.constant 64 : index
      %25 = arith.muli %23, %c64_9 : index
      "tile.async_copy"(%arg0, %12, %25, %14, %24) : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %25, %13, %15, %24) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %c64_10 = arith.constant 64 : index
      %26 = arith.muli %arg6, %c64_10 : index
      %27 = "tile.mma"(%21, %22, %arg7) {tile.computes = 0 : i64} : (tensor<64x64xbf16, #tile.mma_operand<[2, 4], 0 : i64>>, tensor<64x256xbf16, #tile.mma_operand<[2, 4], 1 : i64>>, tensor<64x256xf32, #tile.mma<[2, 4]>>) -> tensor<64x256xf32, #tile.mma<[2, 4]>>
      scf.yield %27 : tensor<64x256xf32, #tile.mma<[2, 4]>>
    } {tile.stages = 4 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %19 = "tile.map"() ({
      %20 = "tile.elem"(%18) {map = #map} : (tensor<64x256xf32, #tile.mma<[2, 4]>>) -> f32
      %21 = arith.truncf %20 : f32 to bf16
      "tile.yield"(%21) : (bf16) -> ()
    }) : () -> tensor<64x256xbf16, #tile.mma<[2, 4]>>
    "tile.store"(%19, %arg2, %12, %13) : (tensor<64x256xbf16, #tile.mma<[2, 4]>>, memref<?x?xbf16>, index, index) -> ()
    return
  }
}
