// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-warp-specialize, tile-canonicalize)' | filecheck %s

// A contraction under a schedule with consumer warpgroups (sm_90a): the tiles are placed as the
// copy engine writes them (A [128, 64] in one 128-byte-swizzled box, B [64, 256] as four
// 64-column boxes side by side: a split stride), two mbarrier rings (full: the producer's one
// arrival and its bytes; empty: one arrival per consumer warp), and one tile.warp_specialize
// whose producer waits for a stage's release, expects 128*64*2 + 64*256*2 bytes and starts
// both copies, and whose consumers wait for the stage, issue its wgmma asynchronously, wait
// until only that group is in flight and release the previous iteration's stage (from the
// second iteration on); after the loop they wait for the last group and release its stage.
// Each role starts from its tile.ring_start: the ring iteration its tile starts at, which
// tile-persistent decides (0 for the CTA's one tile, or n x nk in a loop over tiles).
// CHECK-LABEL: func.func @warp_specialized
// CHECK-SAME:  tile.threads = 384
// CHECK:       %[[SA:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
// CHECK:       %[[SB:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK-NEXT:    %[[PSTART:[0-9]+]] = "tile.ring_start"()
// CHECK:         scf.for %[[PT:arg[0-9]+]] = %[[PSTART]] to
// CHECK:           %[[S:[0-9]+]] = arith.remsi %[[PT]], %c4
// CHECK:           %[[RELEASED:[0-9]+]] = arith.subi %c1, %{{[0-9]+}}
// CHECK:           "tile.mbarrier_wait"(%[[EMPTY]], %[[S]], %[[RELEASED]])
// CHECK:           "tile.mbarrier_expect"(%[[FULL]], %[[S]]) {bytes = 49152 : i64}
// CHECK:           "tile.tma_copy"(%arg0, %{{[0-9]+}}, %{{[0-9]+}}, %[[SA]], %[[S]], %[[FULL]])
// CHECK:           "tile.tma_copy"(%arg1, %{{[0-9]+}}, %{{[0-9]+}}, %[[SB]], %[[S]], %[[FULL]])
// CHECK:       }, {
// CHECK-NEXT:    %[[CSTART:[0-9]+]] = "tile.ring_start"()
// CHECK:         scf.for %[[KT:arg[0-9]+]] = %[[CSTART]] to {{.*}} iter_args
// CHECK:           %[[T:[0-9]+]] = arith.remsi %[[KT]], %c4
// CHECK:           "tile.mbarrier_wait"(%[[FULL]], %[[T]], %{{[0-9]+}})
// CHECK:           "tile.wgmma"(%[[SA]], %[[SB]], %[[T]], %{{.*}}) {async, tile.computes = 0 : i64} {{.*}} -> tensor<128x256xf32, #tile.mma<[8, 1]>>
// CHECK-NEXT:      "tile.wgmma_wait"() {pending = 1 : i64}
// CHECK-NEXT:      %[[SECOND:[0-9]+]] = arith.addi %[[CSTART]], %c1
// CHECK-NEXT:      %[[LATER:[0-9]+]] = arith.cmpi sge, %[[KT]], %[[SECOND]]
// CHECK-NEXT:      scf.if %[[LATER]] {
// CHECK-NEXT:        %[[PREV:[0-9]+]] = arith.subi %[[KT]], %c1
// CHECK-NEXT:        %[[PS:[0-9]+]] = arith.remsi %[[PREV]], %c4
// CHECK-NEXT:        "tile.mbarrier_arrive"(%[[EMPTY]], %[[PS]])
// CHECK:         } {tile.stages = 4 : i64}
// CHECK-NEXT:    "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:         scf.if
// CHECK:           "tile.mbarrier_arrive"(%[[EMPTY]],
// CHECK:         "tile.store"
// CHECK:       }) {consumer_registers = 232 : i64, producer_registers = 40 : i64}

// The staged program ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2} builds from the ta of this spec:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @warp_specialized(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
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
    %c128_0 = arith.constant 128 : index
    %12 = arith.muli %10, %c128_0 : index
    %c256_1 = arith.constant 256 : index
    %13 = arith.muli %11, %c256_1 : index
    %14 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %15 = "tile.alloc"() {layout = #tile.layout<[64, 256], [256, 1], [3, 3, 5]>} : () -> memref<4x64x256xbf16, 3>
    %c64 = arith.constant 64 : index
    %16 = arith.ceildivsi %arg3, %c64 : index
    %c0_2 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1_3 = arith.constant 1 : index
    scf.for %arg6 = %c0_2 to %c3 step %c1_3 {
      %c64_6 = arith.constant 64 : index
      %20 = arith.muli %arg6, %c64_6 : index
      "tile.async_copy"(%arg0, %12, %20, %14, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %20, %13, %15, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %17 = "tile.map"() ({
      %cst = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<128x256xf32, #tile.mma<[2, 4]>>
    %c0_4 = arith.constant 0 : index
    %c1_5 = arith.constant 1 : index
    %18 = scf.for %arg6 = %c0_4 to %16 step %c1_5 iter_args(%arg7 = %17) -> (tensor<128x256xf32, #tile.mma<[2, 4]>>) {
      %c4 = arith.constant 4 : index
      %20 = arith.remsi %arg6, %c4 : index
      "tile.wait_group"() {pending = 2 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %21 = "tile.smem_load"(%14, %20) : (memref<4x128x64xbf16, 3>, index) -> tensor<128x64xbf16, #tile.mma_operand<[2, 4], 0 : i64>>
      %22 = "tile.smem_load"(%15, %20) : (memref<4x64x256xbf16, 3>, index) -> tensor<64x256xbf16, #tile.mma_operand<[2, 4], 1 : i64>>
      %c3_6 = arith.constant 3 : index
      %23 = arith.addi %arg6, %c3_6 : index
      %c4_7 = arith.constant 4 : index
      %24 = arith.remsi %23, %c4_7 : index
      %c64_8 = arith.constant 64 : index
      %25 = arith.muli %23, %c64_8 : index
      "tile.async_copy"(%arg0, %12, %25, %14, %24) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %25, %13, %15, %24) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %c64_9 = arith.constant 64 : index
      %26 = arith.muli %arg6, %c64_9 : index
      %27 = "tile.mma"(%21, %22, %arg7) {tile.computes = 0 : i64} : (tensor<128x64xbf16, #tile.mma_operand<[2, 4], 0 : i64>>, tensor<64x256xbf16, #tile.mma_operand<[2, 4], 1 : i64>>, tensor<128x256xf32, #tile.mma<[2, 4]>>) -> tensor<128x256xf32, #tile.mma<[2, 4]>>
      scf.yield %27 : tensor<128x256xf32, #tile.mma<[2, 4]>>
    } {tile.stages = 4 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %19 = "tile.map"() ({
      %20 = "tile.elem"(%18) {map = #map} : (tensor<128x256xf32, #tile.mma<[2, 4]>>) -> f32
      %21 = arith.truncf %20 : f32 to bf16
      "tile.yield"(%21) : (bf16) -> ()
    }) : () -> tensor<128x256xbf16, #tile.mma<[2, 4]>>
    "tile.store"(%19, %arg2, %12, %13) : (tensor<128x256xbf16, #tile.mma<[2, 4]>>, memref<?x?xbf16>, index, index) -> ()
    return
  }
}

// -----

// A staged program whose schedule has no consumer warpgroups is an mma.sync kernel: kept as it is
// (on sm_90a too).
// CHECK-LABEL: func.func @mma_sync
// CHECK-NOT:   tile.warp_specialize
// CHECK:       "tile.async_copy"
// CHECK:       "tile.mma"
// CHECK-NOT:   tile.wgmma

// The staged program ta-to-tile{target=sm_90a bm=128 bn=128 bk=32 warps=8 stages=3} builds from the ta of this spec:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @mma_sync(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+127)/128)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 0 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 256 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %c128_0 = arith.constant 128 : index
    %1 = arith.ceildivsi %arg5, %c128_0 : index
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
    %c128_1 = arith.constant 128 : index
    %12 = arith.muli %10, %c128_1 : index
    %c128_2 = arith.constant 128 : index
    %13 = arith.muli %11, %c128_2 : index
    %14 = "tile.alloc"() {layout = #tile.layout<[128, 32], [32, 1], [2, 3, 3]>} : () -> memref<3x128x32xbf16, 3>
    %15 = "tile.alloc"() {layout = #tile.layout<[32, 128], [128, 1], [3, 3, 4]>} : () -> memref<3x32x128xbf16, 3>
    %c32 = arith.constant 32 : index
    %16 = arith.ceildivsi %arg3, %c32 : index
    %c0_3 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1_4 = arith.constant 1 : index
    scf.for %arg6 = %c0_3 to %c2 step %c1_4 {
      %c32_7 = arith.constant 32 : index
      %20 = arith.muli %arg6, %c32_7 : index
      "tile.async_copy"(%arg0, %12, %20, %14, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<3x128x32xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %20, %13, %15, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<3x32x128xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %17 = "tile.map"() ({
      %cst = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<128x128xf32, #tile.mma<[2, 4]>>
    %c0_5 = arith.constant 0 : index
    %c1_6 = arith.constant 1 : index
    %18 = scf.for %arg6 = %c0_5 to %16 step %c1_6 iter_args(%arg7 = %17) -> (tensor<128x128xf32, #tile.mma<[2, 4]>>) {
      %c3 = arith.constant 3 : index
      %20 = arith.remsi %arg6, %c3 : index
      "tile.wait_group"() {pending = 1 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %21 = "tile.smem_load"(%14, %20) : (memref<3x128x32xbf16, 3>, index) -> tensor<128x32xbf16, #tile.mma_operand<[2, 4], 0 : i64>>
      %22 = "tile.smem_load"(%15, %20) : (memref<3x32x128xbf16, 3>, index) -> tensor<32x128xbf16, #tile.mma_operand<[2, 4], 1 : i64>>
      %c2_7 = arith.constant 2 : index
      %23 = arith.addi %arg6, %c2_7 : index
      %c3_8 = arith.constant 3 : index
      %24 = arith.remsi %23, %c3_8 : index
      %c32_9 = arith.constant 32 : index
      %25 = arith.muli %23, %c32_9 : index
      "tile.async_copy"(%arg0, %12, %25, %14, %24) : (memref<?x?xbf16>, index, index, memref<3x128x32xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %25, %13, %15, %24) : (memref<?x?xbf16>, index, index, memref<3x32x128xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %c32_10 = arith.constant 32 : index
      %26 = arith.muli %arg6, %c32_10 : index
      %27 = "tile.mma"(%21, %22, %arg7) {tile.computes = 0 : i64} : (tensor<128x32xbf16, #tile.mma_operand<[2, 4], 0 : i64>>, tensor<32x128xbf16, #tile.mma_operand<[2, 4], 1 : i64>>, tensor<128x128xf32, #tile.mma<[2, 4]>>) -> tensor<128x128xf32, #tile.mma<[2, 4]>>
      scf.yield %27 : tensor<128x128xf32, #tile.mma<[2, 4]>>
    } {tile.stages = 3 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %19 = "tile.map"() ({
      %20 = "tile.elem"(%18) {map = #map} : (tensor<128x128xf32, #tile.mma<[2, 4]>>) -> f32
      %21 = arith.truncf %20 : f32 to bf16
      "tile.yield"(%21) : (bf16) -> ()
    }) : () -> tensor<128x128xbf16, #tile.mma<[2, 4]>>
    "tile.store"(%19, %arg2, %12, %13) : (tensor<128x128xbf16, #tile.mma<[2, 4]>>, memref<?x?xbf16>, index, index) -> ()
    return
  }
}
