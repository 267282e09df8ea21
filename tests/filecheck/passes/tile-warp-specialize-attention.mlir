// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-warp-specialize, tile-canonicalize)' | filecheck %s

// The staged attention kernel under a schedule with consumer warpgroups (sm_90a) becomes the
// warp-specialised one, its stabiliser, online step, epilogue and store cloned into the consumers,
// its mma ops becoming wgmma ones: Q [128, 128] is two 64-column
// boxes of the 128-byte swizzle, copied once onto a one-stage barrier of its own; K and V
// blocks [128, 128] stream through a two-stage ring (full: the producer's arrival and
// 128*(128+128)*2 bytes; empty: one arrival per consumer warp). The consumers wait for Q, then
// per key block for the stage: Q·Kᵀ by wgmma from shared memory (K stored [n, k]:
// transpose_b), which also waits for the block before's P·V, so that block's stage is
// released; the online step in registers; P·V by wgmma with P in registers, left in flight.
// After the loop: the wait for the last P·V and the release of its stage.
// CHECK-LABEL: func.func @attention(
// CHECK-SAME:  tile.threads = 384
// CHECK:       %[[SQ:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[128, 128], [64, [64, 1, 8192]], [3, 3, 3]>} : () -> memref<1x128x128xbf16, 3>
// CHECK:       %[[SK:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<2x128x128xbf16, 3>
// CHECK:       %[[SV:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<2x128x128xbf16, 3>
// CHECK:       %[[QBAR:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<2xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<2xi64, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK:         "tile.mbarrier_expect"(%[[QBAR]], %c0) {bytes = 32768 : i64}
// CHECK:         "tile.tma_copy"(%arg0, {{.*}}, %[[SQ]], %c0, %[[QBAR]])
// CHECK:         scf.for %[[PT:arg[0-9]+]] =
// CHECK:           %[[S:[0-9]+]] = arith.remsi %[[PT]], %c2
// CHECK:           "tile.mbarrier_wait"(%[[EMPTY]], %[[S]], %{{[0-9]+}})
// CHECK:           "tile.mbarrier_expect"(%[[FULL]], %[[S]]) {bytes = 65536 : i64}
// CHECK:           "tile.tma_copy"(%arg1, {{.*}}, %[[SK]], %[[S]], %[[FULL]])
// CHECK:           "tile.tma_copy"(%arg2, {{.*}}, %[[SV]], %[[S]], %[[FULL]])
// CHECK:       }, {
// CHECK:         "tile.mbarrier_wait"(%[[QBAR]], %c0, %c0)
// CHECK:         scf.for %[[KT:arg[0-9]+]] = {{.*}} iter_args
// CHECK:           %[[T:[0-9]+]] = arith.remsi %[[KT]], %c2
// CHECK:           "tile.mbarrier_wait"(%[[FULL]], %[[T]], %{{[0-9]+}})
// CHECK:           "tile.wgmma"(%[[SQ]], %[[SK]], %[[T]], %{{[0-9]+}}) {transpose_b} {{.*}} -> tensor<128x128xf32, #tile.mma<[8, 1]>>
// CHECK-NEXT:      %[[LATER:[0-9]+]] = arith.cmpi sge, %[[KT]], %c1
// CHECK-NEXT:      scf.if %[[LATER]] {
// CHECK:             "tile.mbarrier_arrive"(%[[EMPTY]],
// CHECK:           "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:           arith.truncf {{.*}} : f32 to bf16
// CHECK:           "tile.wgmma"(%{{[0-9]+}}, %[[SV]], %[[T]], %{{[0-9]+}}) {async} : (tensor<128x128xbf16, #tile.mma<[8, 1]>>
// CHECK-NEXT:      scf.yield
// CHECK:         } {tile.computes = [{{.*}}], tile.stages = 2 : i64}
// CHECK-NEXT:    "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:         "tile.mbarrier_arrive"(%[[EMPTY]],
// CHECK:         "tile.store"
// CHECK:       }) {consumer_registers = 232 : i64, producer_registers = 40 : i64}

// The staged program ta-to-tile{target=sm_90a bm=128 bn=128 warps=8 stages=2 consumers=2} builds from the ta of this spec at D=128:
//   param B = 2, H = 4, S = 1000, T = 1000, D = 128
//   input Q[B, H, S, D] : bf16
//   input K[B, H, T, D] : bf16
//   input V[B, H, T, D] : bf16
//   output O[B, H, S, D] : bf16
//   O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)) * V[b, h, j, d])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 128 : i64, H = 4 : i64, S = 1000 : i64, T = 1000 : i64}, tile.grid = ["(S+127)/128", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 2 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 0.0883883461 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %c128 = arith.constant 128 : index
    %1 = arith.muli %0, %c128 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.divsi %4, %arg4 : index
    %c128_1 = arith.constant 128 : index
    %7 = arith.ceildivsi %arg8, %c128_1 : index
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<1x128x128xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<2x128x128xbf16, 3>
    %10 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<2x128x128xbf16, 3>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    "tile.async_copy"(%arg0, %5, %3, %1, %c0_2, %8, %c0_3) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<1x128x128xbf16, 3>, index) -> ()
    "tile.commit_group"() : () -> ()
    %c0_4 = arith.constant 0 : index
    %c1_5 = arith.constant 1 : index
    %c1_6 = arith.constant 1 : index
    scf.for %arg9 = %c0_4 to %c1_5 step %c1_6 {
      %c128_10 = arith.constant 128 : index
      %17 = arith.muli %arg9, %c128_10 : index
      %c0_11 = arith.constant 0 : index
      "tile.async_copy"(%arg1, %5, %3, %17, %c0_11, %9, %arg9) {tile.prologue} : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index) -> ()
      %c0_12 = arith.constant 0 : index
      "tile.async_copy"(%arg2, %5, %3, %17, %c0_12, %10, %arg9) {tile.prologue} : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %11 = "tile.map"() ({
      %cst_10 = arith.constant 0xFF800000 : f32
      "tile.yield"(%cst_10) : (f32) -> ()
    }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
    %12 = "tile.map"() ({
      %cst_10 = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst_10) : (f32) -> ()
    }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
    %13 = "tile.map"() ({
      %cst_10 = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst_10) : (f32) -> ()
    }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
    %c0_7 = arith.constant 0 : index
    %c1_8 = arith.constant 1 : index
    %14:3 = scf.for %arg9 = %c0_7 to %7 step %c1_8 iter_args(%arg10 = %11, %arg11 = %12, %arg12 = %13) -> (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) {
      %c2 = arith.constant 2 : index
      %17 = arith.remsi %arg9, %c2 : index
      "tile.wait_group"() {pending = 0 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %c0_10 = arith.constant 0 : index
      %18 = "tile.smem_load"(%8, %c0_10) : (memref<1x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 0 : i64>>
      %19 = "tile.smem_load"(%9, %17) {transpose} : (memref<2x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>
      %20 = "tile.smem_load"(%10, %17) : (memref<2x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>
      %c1_11 = arith.constant 1 : index
      %21 = arith.addi %arg9, %c1_11 : index
      %c2_12 = arith.constant 2 : index
      %22 = arith.remsi %21, %c2_12 : index
      %c128_13 = arith.constant 128 : index
      %23 = arith.muli %21, %c128_13 : index
      %c0_14 = arith.constant 0 : index
      "tile.async_copy"(%arg1, %5, %3, %23, %c0_14, %9, %22) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index) -> ()
      %c0_15 = arith.constant 0 : index
      "tile.async_copy"(%arg2, %5, %3, %23, %c0_15, %10, %22) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %24 = "tile.map"() ({
        %cst_17 = arith.constant 0.000000e+00 : f32
        "tile.yield"(%cst_17) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %25 = "tile.mma"(%18, %19, %24) : (tensor<128x128xbf16, #tile.mma_operand<[8, 1], 0 : i64>>, tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %c128_16 = arith.constant 128 : index
      %26 = arith.muli %arg9, %c128_16 : index
      %27 = "tile.map"() ({
        %38 = "tile.elem"(%25) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = arith.mulf %38, %cst_0 : f32
        %40 = "tile.index"() {dim = 1 : i64} : () -> index
        %41 = arith.addi %26, %40 : index
        %42 = arith.cmpi slt, %41, %arg8 : index
        %cst_17 = arith.constant 0xFF800000 : f32
        %43 = arith.select %42, %39, %cst_17 : f32
        "tile.yield"(%43) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %28 = "tile.reduce"(%27) {dim = 1 : i64, kind = "max"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %29 = "tile.map"() ({
        %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%28) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.maximumf %38, %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %30 = "tile.map"() ({
        %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %cst_17 = arith.constant 1.000000e+00 : f32
        %40 = arith.cmpf oeq, %38, %39 : f32
        %41 = arith.subf %38, %39 : f32
        %42 = math.exp %41 : f32
        %43 = arith.select %40, %cst_17, %42 : f32
        "tile.yield"(%43) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %31 = "tile.map"() ({
        %38 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %cst_17 = arith.constant 0xFF800000 : f32
        %39 = arith.cmpf oeq, %38, %cst_17 : f32
        %cst_18 = arith.constant 0.000000e+00 : f32
        %40 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %41 = arith.select %39, %cst_18, %40 : f32
        "tile.yield"(%41) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %32 = "tile.map"() ({
        %38 = "tile.elem"(%27) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = "tile.elem"(%31) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.subf %38, %39 : f32
        %41 = math.exp %40 : f32
        "tile.yield"(%41) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "sum"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %34 = "tile.map"() ({
        %38 = "tile.elem"(%arg11) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.mulf %38, %39 : f32
        %41 = "tile.elem"(%33) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %42 = arith.addf %40, %41 : f32
        "tile.yield"(%42) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %35 = "tile.map"() ({
        %38 = "tile.elem"(%32) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = arith.truncf %38 : f32 to bf16
        "tile.yield"(%39) : (bf16) -> ()
      }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
      %36 = "tile.map"() ({
        %38 = "tile.elem"(%arg12) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = "tile.elem"(%30) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.mulf %38, %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %37 = "tile.mma"(%35, %20, %36) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      scf.yield %29, %34, %37 : tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>
    } {tile.computes = [3, 3, 4], tile.stages = 2 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %15 = "tile.map"() ({
      %17 = "tile.elem"(%14#2) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
      %18 = "tile.elem"(%14#1) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
      %19 = arith.divf %cst, %18 : f32
      %20 = arith.mulf %17, %19 : f32
      "tile.yield"(%20) : (f32) -> ()
    }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
    %16 = "tile.map"() ({
      %17 = "tile.elem"(%15) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
      %18 = arith.truncf %17 : f32 to bf16
      "tile.yield"(%18) : (bf16) -> ()
    }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
    %c0_9 = arith.constant 0 : index
    "tile.store"(%16, %arg3, %5, %3, %1, %c0_9) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<?x?x?x128xbf16>, index, index, index, index) -> ()
    return
  }
}

// -----

// With softmax-overlap the consumers are built as without it, the key loop from block 0
// carrying (m, l, acc): rotating it is the next pass's (tile-softmax-overlap.mlir).
// CHECK-LABEL: func.func @attention_rotated(
// CHECK:       }, {
// CHECK:         scf.for %[[KT:arg[0-9]+]] = %c0 to {{.*}} iter_args(%{{.*}}, %{{.*}}, %[[ACC:arg[0-9]+]] = %{{[0-9]+}}) -> (
// CHECK:           "tile.wgmma"({{.*}}) {transpose_b}
// CHECK:           "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:           "tile.wgmma"({{.*}}) {async}
// CHECK-NEXT:      scf.yield
// CHECK:         } {tile.computes = [{{.*}}], tile.stages = 3 : i64}
// CHECK-NEXT:    "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:         "tile.store"

// The staged program ta-to-tile{target=sm_90a bm=128 bn=128 warps=8 stages=3 consumers=2 softmax-overlap=true}
// builds from the same attention.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention_rotated(%arg0: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 128 : i64, H = 4 : i64, S = 1000 : i64, T = 1000 : i64}, tile.grid = ["(S+127)/128", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = true, stages = 3 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 0.0883883461 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %c128 = arith.constant 128 : index
    %1 = arith.muli %0, %c128 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.divsi %4, %arg4 : index
    %c128_1 = arith.constant 128 : index
    %7 = arith.ceildivsi %arg8, %c128_1 : index
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<1x128x128xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<3x128x128xbf16, 3>
    %10 = "tile.alloc"() {layout = #tile.layout<[128, 128], [128, 1], [3, 3, 4]>} : () -> memref<3x128x128xbf16, 3>
    %c0_2 = arith.constant 0 : index
    %c0_3 = arith.constant 0 : index
    "tile.async_copy"(%arg0, %5, %3, %1, %c0_2, %8, %c0_3) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<1x128x128xbf16, 3>, index) -> ()
    "tile.commit_group"() : () -> ()
    %c0_4 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1_5 = arith.constant 1 : index
    scf.for %arg9 = %c0_4 to %c2 step %c1_5 {
      %c128_9 = arith.constant 128 : index
      %17 = arith.muli %arg9, %c128_9 : index
      %c0_10 = arith.constant 0 : index
      "tile.async_copy"(%arg1, %5, %3, %17, %c0_10, %9, %arg9) {tile.prologue} : (memref<?x?x?x128xbf16>, index, index, index, index, memref<3x128x128xbf16, 3>, index) -> ()
      %c0_11 = arith.constant 0 : index
      "tile.async_copy"(%arg2, %5, %3, %17, %c0_11, %10, %arg9) {tile.prologue} : (memref<?x?x?x128xbf16>, index, index, index, index, memref<3x128x128xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %11 = "tile.map"() ({
      %cst_9 = arith.constant 0xFF800000 : f32
      "tile.yield"(%cst_9) : (f32) -> ()
    }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
    %12 = "tile.map"() ({
      %cst_9 = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst_9) : (f32) -> ()
    }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
    %13 = "tile.map"() ({
      %cst_9 = arith.constant 0.000000e+00 : f32
      "tile.yield"(%cst_9) : (f32) -> ()
    }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
    %c0_6 = arith.constant 0 : index
    %c1_7 = arith.constant 1 : index
    %14:3 = scf.for %arg9 = %c0_6 to %7 step %c1_7 iter_args(%arg10 = %11, %arg11 = %12, %arg12 = %13) -> (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) {
      %c3 = arith.constant 3 : index
      %17 = arith.remsi %arg9, %c3 : index
      "tile.wait_group"() {pending = 1 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %c0_9 = arith.constant 0 : index
      %18 = "tile.smem_load"(%8, %c0_9) : (memref<1x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 0 : i64>>
      %19 = "tile.smem_load"(%9, %17) {transpose} : (memref<3x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>
      %20 = "tile.smem_load"(%10, %17) : (memref<3x128x128xbf16, 3>, index) -> tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>
      %c2_10 = arith.constant 2 : index
      %21 = arith.addi %arg9, %c2_10 : index
      %c3_11 = arith.constant 3 : index
      %22 = arith.remsi %21, %c3_11 : index
      %c128_12 = arith.constant 128 : index
      %23 = arith.muli %21, %c128_12 : index
      %c0_13 = arith.constant 0 : index
      "tile.async_copy"(%arg1, %5, %3, %23, %c0_13, %9, %22) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<3x128x128xbf16, 3>, index) -> ()
      %c0_14 = arith.constant 0 : index
      "tile.async_copy"(%arg2, %5, %3, %23, %c0_14, %10, %22) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<3x128x128xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %24 = "tile.map"() ({
        %cst_16 = arith.constant 0.000000e+00 : f32
        "tile.yield"(%cst_16) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %25 = "tile.mma"(%18, %19, %24) : (tensor<128x128xbf16, #tile.mma_operand<[8, 1], 0 : i64>>, tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %c128_15 = arith.constant 128 : index
      %26 = arith.muli %arg9, %c128_15 : index
      %27 = "tile.map"() ({
        %38 = "tile.elem"(%25) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = arith.mulf %38, %cst_0 : f32
        %40 = "tile.index"() {dim = 1 : i64} : () -> index
        %41 = arith.addi %26, %40 : index
        %42 = arith.cmpi slt, %41, %arg8 : index
        %cst_16 = arith.constant 0xFF800000 : f32
        %43 = arith.select %42, %39, %cst_16 : f32
        "tile.yield"(%43) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %28 = "tile.reduce"(%27) {dim = 1 : i64, kind = "max"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %29 = "tile.map"() ({
        %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%28) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.maximumf %38, %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %30 = "tile.map"() ({
        %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %cst_16 = arith.constant 1.000000e+00 : f32
        %40 = arith.cmpf oeq, %38, %39 : f32
        %41 = arith.subf %38, %39 : f32
        %42 = math.exp %41 : f32
        %43 = arith.select %40, %cst_16, %42 : f32
        "tile.yield"(%43) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %31 = "tile.map"() ({
        %38 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %cst_16 = arith.constant 0xFF800000 : f32
        %39 = arith.cmpf oeq, %38, %cst_16 : f32
        %cst_17 = arith.constant 0.000000e+00 : f32
        %40 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %41 = arith.select %39, %cst_17, %40 : f32
        "tile.yield"(%41) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %32 = "tile.map"() ({
        %38 = "tile.elem"(%27) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = "tile.elem"(%31) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.subf %38, %39 : f32
        %41 = math.exp %40 : f32
        "tile.yield"(%41) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "sum"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %34 = "tile.map"() ({
        %38 = "tile.elem"(%arg11) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %39 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.mulf %38, %39 : f32
        %41 = "tile.elem"(%33) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %42 = arith.addf %40, %41 : f32
        "tile.yield"(%42) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %35 = "tile.map"() ({
        %38 = "tile.elem"(%32) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = arith.truncf %38 : f32 to bf16
        "tile.yield"(%39) : (bf16) -> ()
      }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
      %36 = "tile.map"() ({
        %38 = "tile.elem"(%arg12) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %39 = "tile.elem"(%30) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %40 = arith.mulf %38, %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %37 = "tile.mma"(%35, %20, %36) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, tensor<128x128xbf16, #tile.mma_operand<[8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      scf.yield %29, %34, %37 : tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>
    } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %15 = "tile.map"() ({
      %17 = "tile.elem"(%14#2) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
      %18 = "tile.elem"(%14#1) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
      %19 = arith.divf %cst, %18 : f32
      %20 = arith.mulf %17, %19 : f32
      "tile.yield"(%20) : (f32) -> ()
    }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
    %16 = "tile.map"() ({
      %17 = "tile.elem"(%15) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
      %18 = arith.truncf %17 : f32 to bf16
      "tile.yield"(%18) : (bf16) -> ()
    }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
    %c0_8 = arith.constant 0 : index
    "tile.store"(%16, %arg3, %5, %3, %1, %c0_8) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<?x?x?x128xbf16>, index, index, index, index) -> ()
    return
  }
}
