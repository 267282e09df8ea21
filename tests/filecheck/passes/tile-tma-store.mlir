// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-tma-store, tile-canonicalize)' | filecheck %s
// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-tma-store, tile-canonicalize)' | filecheck %s --check-prefix=PP

// A warp-specialised contraction whose schedule has tma_store=true: its consumers' tile.store
// becomes a store through the copy engine: two staging buffers of one
// 128-byte swizzle row per stored row (64 bf16 columns, one copy box), allocated after the
// operand tiles, before the mbarriers; the consumers end each tile with tile.tma_store. In
// ping-pong, each warpgroup stores through its own set of two (sets = 2), from buffer 2 g.
// CHECK-LABEL: func.func @tma_store(
// CHECK:       tma_store = true
// CHECK:       "tile.alloc"() {{.*}} -> memref<4x64x256xbf16, 3>
// CHECK:       %[[ST:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK:       }, {
// CHECK:         "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK-NOT:     "tile.store"
// CHECK:         "tile.tma_store"(%{{[0-9]+}}, %arg2, %{{[0-9]+}}, %{{[0-9]+}}, %[[ST]], %c0) {sets = 1 : i64}
// PP-LABEL:    func.func @tma_store_pingpong(
// PP:          %[[ST:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
// PP:          %[[G:[0-9]+]] = "tile.warpgroup_id"() : () -> index
// PP:          %[[FIRST:[0-9]+]] = arith.muli %[[G]], %c2
// PP:          "tile.tma_store"(%{{[0-9]+}}, %arg2, %{{[0-9]+}}, %{{[0-9]+}}, %[[ST]], %[[FIRST]]) {sets = 2 : i64}

// What tile-warp-specialize makes of the staged program ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true tma-store=true} builds from the ta of this spec:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @tma_store(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = true, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %c256 = arith.constant 256 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %c64 = arith.constant 64 : index
    %8 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %9 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %9 {
        %10 = arith.subi %arg6, %2 : index
        %11 = arith.divsi %10, %9 : index
        %12 = arith.muli %11, %8 : index
        %c8 = arith.constant 8 : index
        %13 = arith.muli %c8, %1 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %c128_0 = arith.constant 128 : index
        %22 = arith.muli %20, %c128_0 : index
        %c256_1 = arith.constant 256 : index
        %23 = arith.muli %21, %c256_1 : index
        %24 = arith.addi %12, %8 : index
        %c1 = arith.constant 1 : index
        scf.for %arg7 = %12 to %24 step %c1 {
          %c4 = arith.constant 4 : index
          %25 = arith.remsi %arg7, %c4 : index
          %26 = arith.divsi %arg7, %c4 : index
          %c2 = arith.constant 2 : index
          %27 = arith.remsi %26, %c2 : index
          %c1_2 = arith.constant 1 : index
          %28 = arith.subi %c1_2, %27 : index
          "tile.mbarrier_wait"(%7, %25, %28) : (memref<4xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%6, %25) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
          %29 = arith.subi %arg7, %12 : index
          %c64_3 = arith.constant 64 : index
          %30 = arith.muli %29, %c64_3 : index
          "tile.tma_copy"(%arg0, %22, %30, %4, %25, %6) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
          "tile.tma_copy"(%arg1, %30, %23, %5, %25, %6) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
        }
      } {tile.persistent}
    }, {
      %9 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %9 {
        %10 = arith.subi %arg6, %2 : index
        %11 = arith.divsi %10, %9 : index
        %12 = arith.muli %11, %8 : index
        %c8 = arith.constant 8 : index
        %13 = arith.muli %c8, %1 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %c128_0 = arith.constant 128 : index
        %22 = arith.muli %20, %c128_0 : index
        %c256_1 = arith.constant 256 : index
        %23 = arith.muli %21, %c256_1 : index
        %24 = "tile.map"() ({
          %cst = arith.constant 0.000000e+00 : f32
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        %25 = arith.addi %12, %8 : index
        %c1 = arith.constant 1 : index
        %26 = scf.for %arg7 = %12 to %25 step %c1 iter_args(%arg8 = %24) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
          %c4 = arith.constant 4 : index
          %30 = arith.remsi %arg7, %c4 : index
          %31 = arith.divsi %arg7, %c4 : index
          %c2 = arith.constant 2 : index
          %32 = arith.remsi %31, %c2 : index
          "tile.mbarrier_wait"(%6, %30, %32) : (memref<4xi64, 3>, index, index) -> ()
          %33 = "tile.wgmma"(%4, %5, %30, %arg8) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %c1_3 = arith.constant 1 : index
          %34 = arith.addi %12, %c1_3 : index
          %35 = arith.cmpi sge, %arg7, %34 : index
          scf.if %35 {
            %36 = arith.subi %arg7, %c1_3 : index
            %c4_4 = arith.constant 4 : index
            %37 = arith.remsi %36, %c4_4 : index
            %38 = arith.divsi %36, %c4_4 : index
            %c2_5 = arith.constant 2 : index
            %39 = arith.remsi %38, %c2_5 : index
            "tile.mbarrier_arrive"(%7, %37) : (memref<4xi64, 3>, index) -> ()
          }
          scf.yield %33 : tensor<128x256xf32, #tile.mma<[8, 1]>>
        } {tile.stages = 4 : i64}
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %c1_2 = arith.constant 1 : index
        %27 = arith.addi %12, %c1_2 : index
        %28 = arith.cmpi sge, %25, %27 : index
        scf.if %28 {
          %30 = arith.subi %25, %c1_2 : index
          %c4 = arith.constant 4 : index
          %31 = arith.remsi %30, %c4 : index
          %32 = arith.divsi %30, %c4 : index
          %c2 = arith.constant 2 : index
          %33 = arith.remsi %32, %c2 : index
          "tile.mbarrier_arrive"(%7, %31) : (memref<4xi64, 3>, index) -> ()
        }
        %29 = "tile.map"() ({
          %30 = "tile.elem"(%26) {map = #map} : (tensor<128x256xf32, #tile.mma<[8, 1]>>) -> f32
          %31 = arith.truncf %30 : f32 to bf16
          "tile.yield"(%31) : (bf16) -> ()
        }) : () -> tensor<128x256xbf16, #tile.mma<[8, 1]>>
        "tile.store"(%29, %arg2, %22, %23) : (tensor<128x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
      } {tile.persistent}
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// What tile-warp-specialize makes of the staged program ta-to-tile{target=sm_90a bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true persistent=true tma-store=true} builds from the ta of this spec:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @tma_store_pingpong(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+63)/64*((N+127)/128)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 64 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = true, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = true, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg4, %c64 : index
    %c128 = arith.constant 128 : index
    %1 = arith.ceildivsi %arg5, %c128 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x64x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 128], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<3x64x128xbf16, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<3xi64, 3>
    %8 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<2xi64, 3>
    %c64_0 = arith.constant 64 : index
    %9 = arith.ceildivsi %arg3, %c64_0 : index
    "tile.warp_specialize"() ({
      %10 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %10 {
        %11 = arith.subi %arg6, %2 : index
        %12 = arith.divsi %11, %10 : index
        %13 = arith.muli %12, %9 : index
        %c8 = arith.constant 8 : index
        %14 = arith.muli %c8, %1 : index
        %15 = arith.divsi %arg6, %14 : index
        %16 = arith.muli %15, %c8 : index
        %17 = arith.subi %0, %16 : index
        %18 = arith.minsi %17, %c8 : index
        %19 = arith.remsi %arg6, %14 : index
        %20 = arith.remsi %19, %18 : index
        %21 = arith.addi %16, %20 : index
        %22 = arith.divsi %19, %18 : index
        %c64_1 = arith.constant 64 : index
        %23 = arith.muli %21, %c64_1 : index
        %c128_2 = arith.constant 128 : index
        %24 = arith.muli %22, %c128_2 : index
        %25 = arith.addi %13, %9 : index
        %c1 = arith.constant 1 : index
        scf.for %arg7 = %13 to %25 step %c1 {
          %c3 = arith.constant 3 : index
          %26 = arith.remsi %arg7, %c3 : index
          %27 = arith.divsi %arg7, %c3 : index
          %c2 = arith.constant 2 : index
          %28 = arith.remsi %27, %c2 : index
          %c1_3 = arith.constant 1 : index
          %29 = arith.subi %c1_3, %28 : index
          "tile.mbarrier_wait"(%7, %26, %29) : (memref<3xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%6, %26) {bytes = 24576 : i64} : (memref<3xi64, 3>, index) -> ()
          %30 = arith.subi %arg7, %13 : index
          %c64_4 = arith.constant 64 : index
          %31 = arith.muli %30, %c64_4 : index
          "tile.tma_copy"(%arg0, %23, %31, %4, %26, %6) : (memref<?x?xbf16>, index, index, memref<3x64x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
          "tile.tma_copy"(%arg1, %31, %24, %5, %26, %6) : (memref<?x?xbf16>, index, index, memref<3x64x128xbf16, 3>, index, memref<3xi64, 3>) -> ()
        }
      } {tile.persistent}
    }, {
      %10 = "tile.warpgroup_id"() : () -> index
      %11 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      %12 = arith.muli %10, %11 : index
      %13 = arith.addi %2, %12 : index
      %c2 = arith.constant 2 : index
      %14 = arith.muli %c2, %11 : index
      scf.for %arg6 = %13 to %3 step %14 {
        %15 = arith.subi %arg6, %2 : index
        %16 = arith.divsi %15, %11 : index
        %17 = arith.muli %16, %9 : index
        %c2_1 = arith.constant 2 : index
        %c1 = arith.constant 1 : index
        %18 = arith.addi %16, %c1 : index
        %19 = arith.divsi %18, %c2_1 : index
        %c1_2 = arith.constant 1 : index
        %20 = arith.addi %19, %c1_2 : index
        %c2_3 = arith.constant 2 : index
        %21 = arith.remsi %20, %c2_3 : index
        "tile.mbarrier_wait"(%8, %10, %21) : (memref<2xi64, 3>, index, index) -> ()
        %c8 = arith.constant 8 : index
        %22 = arith.muli %c8, %1 : index
        %23 = arith.divsi %arg6, %22 : index
        %24 = arith.muli %23, %c8 : index
        %25 = arith.subi %0, %24 : index
        %26 = arith.minsi %25, %c8 : index
        %27 = arith.remsi %arg6, %22 : index
        %28 = arith.remsi %27, %26 : index
        %29 = arith.addi %24, %28 : index
        %30 = arith.divsi %27, %26 : index
        %c64_4 = arith.constant 64 : index
        %31 = arith.muli %29, %c64_4 : index
        %c128_5 = arith.constant 128 : index
        %32 = arith.muli %30, %c128_5 : index
        %33 = "tile.map"() ({
          %cst = arith.constant 0.000000e+00 : f32
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %34 = arith.addi %17, %9 : index
        %c1_6 = arith.constant 1 : index
        %35 = scf.for %arg7 = %17 to %34 step %c1_6 iter_args(%arg8 = %33) -> (tensor<64x128xf32, #tile.mma<[4, 1]>>) {
          %c3 = arith.constant 3 : index
          %41 = arith.remsi %arg7, %c3 : index
          %42 = arith.divsi %arg7, %c3 : index
          %c2_10 = arith.constant 2 : index
          %43 = arith.remsi %42, %c2_10 : index
          "tile.mbarrier_wait"(%6, %41, %43) : (memref<3xi64, 3>, index, index) -> ()
          %44 = "tile.wgmma"(%4, %5, %41, %arg8) {async, tile.computes = 0 : i64} : (memref<3x64x64xbf16, 3>, memref<3x64x128xbf16, 3>, index, tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64x128xf32, #tile.mma<[4, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %c1_11 = arith.constant 1 : index
          %45 = arith.addi %17, %c1_11 : index
          %46 = arith.cmpi sge, %arg7, %45 : index
          scf.if %46 {
            %47 = arith.subi %arg7, %c1_11 : index
            %c3_12 = arith.constant 3 : index
            %48 = arith.remsi %47, %c3_12 : index
            %49 = arith.divsi %47, %c3_12 : index
            %c2_13 = arith.constant 2 : index
            %50 = arith.remsi %49, %c2_13 : index
            "tile.mbarrier_arrive"(%7, %48) : (memref<3xi64, 3>, index) -> ()
          }
          scf.yield %44 : tensor<64x128xf32, #tile.mma<[4, 1]>>
        } {tile.stages = 3 : i64}
        %c1_7 = arith.constant 1 : index
        %36 = arith.addi %10, %c1_7 : index
        %c2_8 = arith.constant 2 : index
        %37 = arith.remsi %36, %c2_8 : index
        "tile.mbarrier_arrive"(%8, %37) : (memref<2xi64, 3>, index) -> ()
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %c1_9 = arith.constant 1 : index
        %38 = arith.addi %17, %c1_9 : index
        %39 = arith.cmpi sge, %34, %38 : index
        scf.if %39 {
          %41 = arith.subi %34, %c1_9 : index
          %c3 = arith.constant 3 : index
          %42 = arith.remsi %41, %c3 : index
          %43 = arith.divsi %41, %c3 : index
          %c2_10 = arith.constant 2 : index
          %44 = arith.remsi %43, %c2_10 : index
          "tile.mbarrier_arrive"(%7, %42) : (memref<3xi64, 3>, index) -> ()
        }
        %40 = "tile.map"() ({
          %41 = "tile.elem"(%35) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %42 = arith.truncf %41 : f32 to bf16
          "tile.yield"(%42) : (bf16) -> ()
        }) : () -> tensor<64x128xbf16, #tile.mma<[4, 1]>>
        "tile.store"(%40, %arg2, %31, %32) : (tensor<64x128xbf16, #tile.mma<[4, 1]>>, memref<?x?xbf16>, index, index) -> ()
      } {tile.persistent}
    }) {consumer_registers = 232 : i64, consumer_roles = 2 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// A warp-specialised kernel whose schedule has tma_store=false stores from registers: kept.
// CHECK-LABEL: func.func @register_store(
// CHECK-NOT:   tile.tma_store
// CHECK:       "tile.store"
// CHECK-NOT:   tile.tma_store

// What tile-warp-specialize makes of the staged program of tile-warp-specialize.mlir (bm=128 bn=256 bk=64
// warps=8 stages=4 consumers=2).

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @register_store(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %c256 = arith.constant 256 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %5 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %c64 = arith.constant 64 : index
    %7 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %8 = arith.muli %c8, %1 : index
      %9 = arith.divsi %2, %8 : index
      %10 = arith.muli %9, %c8 : index
      %11 = arith.subi %0, %10 : index
      %12 = arith.minsi %11, %c8 : index
      %13 = arith.remsi %2, %8 : index
      %14 = arith.remsi %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divsi %13, %12 : index
      %c128_0 = arith.constant 128 : index
      %17 = arith.muli %15, %c128_0 : index
      %c256_1 = arith.constant 256 : index
      %18 = arith.muli %16, %c256_1 : index
      %19 = arith.addi %c0, %7 : index
      %c1 = arith.constant 1 : index
      scf.for %arg6 = %c0 to %19 step %c1 {
        %c4 = arith.constant 4 : index
        %20 = arith.remsi %arg6, %c4 : index
        %21 = arith.divsi %arg6, %c4 : index
        %c2 = arith.constant 2 : index
        %22 = arith.remsi %21, %c2 : index
        %c1_2 = arith.constant 1 : index
        %23 = arith.subi %c1_2, %22 : index
        "tile.mbarrier_wait"(%6, %20, %23) : (memref<4xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%5, %20) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
        %24 = arith.subi %arg6, %c0 : index
        %c64_3 = arith.constant 64 : index
        %25 = arith.muli %24, %c64_3 : index
        "tile.tma_copy"(%arg0, %17, %25, %3, %20, %5) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
        "tile.tma_copy"(%arg1, %25, %18, %4, %20, %5) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
      }
    }, {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %8 = arith.muli %c8, %1 : index
      %9 = arith.divsi %2, %8 : index
      %10 = arith.muli %9, %c8 : index
      %11 = arith.subi %0, %10 : index
      %12 = arith.minsi %11, %c8 : index
      %13 = arith.remsi %2, %8 : index
      %14 = arith.remsi %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divsi %13, %12 : index
      %c128_0 = arith.constant 128 : index
      %17 = arith.muli %15, %c128_0 : index
      %c256_1 = arith.constant 256 : index
      %18 = arith.muli %16, %c256_1 : index
      %19 = "tile.map"() ({
        %cst = arith.constant 0.000000e+00 : f32
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
      %20 = arith.addi %c0, %7 : index
      %c1 = arith.constant 1 : index
      %21 = scf.for %arg6 = %c0 to %20 step %c1 iter_args(%arg7 = %19) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
        %c4 = arith.constant 4 : index
        %25 = arith.remsi %arg6, %c4 : index
        %26 = arith.divsi %arg6, %c4 : index
        %c2 = arith.constant 2 : index
        %27 = arith.remsi %26, %c2 : index
        "tile.mbarrier_wait"(%5, %25, %27) : (memref<4xi64, 3>, index, index) -> ()
        %28 = "tile.wgmma"(%3, %4, %25, %arg7) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
        %c1_3 = arith.constant 1 : index
        %29 = arith.addi %c0, %c1_3 : index
        %30 = arith.cmpi sge, %arg6, %29 : index
        scf.if %30 {
          %31 = arith.subi %arg6, %c1_3 : index
          %c4_4 = arith.constant 4 : index
          %32 = arith.remsi %31, %c4_4 : index
          %33 = arith.divsi %31, %c4_4 : index
          %c2_5 = arith.constant 2 : index
          %34 = arith.remsi %33, %c2_5 : index
          "tile.mbarrier_arrive"(%6, %32) : (memref<4xi64, 3>, index) -> ()
        }
        scf.yield %28 : tensor<128x256xf32, #tile.mma<[8, 1]>>
      } {tile.stages = 4 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %c1_2 = arith.constant 1 : index
      %22 = arith.addi %c0, %c1_2 : index
      %23 = arith.cmpi sge, %20, %22 : index
      scf.if %23 {
        %25 = arith.subi %20, %c1_2 : index
        %c4 = arith.constant 4 : index
        %26 = arith.remsi %25, %c4 : index
        %27 = arith.divsi %25, %c4 : index
        %c2 = arith.constant 2 : index
        %28 = arith.remsi %27, %c2 : index
        "tile.mbarrier_arrive"(%6, %26) : (memref<4xi64, 3>, index) -> ()
      }
      %24 = "tile.map"() ({
        %25 = "tile.elem"(%21) {map = #map} : (tensor<128x256xf32, #tile.mma<[8, 1]>>) -> f32
        %26 = arith.truncf %25 : f32 to bf16
        "tile.yield"(%26) : (bf16) -> ()
      }) : () -> tensor<128x256xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%24, %arg2, %17, %18) : (tensor<128x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// An attention kernel (warp-specialised by ta-to-tile): its one store of the output tile, alike.
// CHECK-LABEL: func.func @attention(
// CHECK:       "tile.alloc"() {{.*}} -> memref<2x128x128xbf16, 3>
// CHECK:       %[[ST:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<2x128x64xbf16, 3>
// CHECK-NEXT:  "tile.mbarrier_alloc"
// CHECK:       "tile.warp_specialize"() ({
// CHECK:       }, {
// CHECK-NOT:     "tile.store"
// CHECK:         "tile.tma_store"({{.*}}, %[[ST]], %c0) {sets = 1 : i64}

// What ta-to-tile{target=sm_90a bm=128 bn=128 warps=8 stages=2 consumers=2 tma-store=true} builds from
// the attention of ta-to-tile-online-hopper.mlir (D = 128).

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x128xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 128 : i64, H = 4 : i64, S = 1000 : i64, T = 1000 : i64}, tile.grid = ["(S+127)/128", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 2 : i64, swizzle = true, tma_store = true, warps = 8 : i64}>, tile.threads = 384 : i64} {
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
    %c0_2 = arith.constant 0 : index
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 128], [64, [64, 1, 8192]], [3, 3, 3]>} : () -> memref<1x128x128xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 128], [64, [64, 1, 8192]], [3, 3, 3]>} : () -> memref<2x128x128xbf16, 3>
    %10 = "tile.alloc"() {layout = #tile.layout<[128, 128], [64, [64, 1, 8192]], [3, 3, 3]>} : () -> memref<2x128x128xbf16, 3>
    %11 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
    %12 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<2xi64, 3>
    %13 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<2xi64, 3>
    %c0_3 = arith.constant 0 : index
    "tile.warp_specialize"() ({
      "tile.mbarrier_expect"(%11, %c0_3) {bytes = 32768 : i64} : (memref<1xi64, 3>, index) -> ()
      "tile.tma_copy"(%arg0, %5, %3, %1, %c0_2, %8, %c0_3, %11) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<1x128x128xbf16, 3>, index, memref<1xi64, 3>) -> ()
      %c0_4 = arith.constant 0 : index
      %c1_5 = arith.constant 1 : index
      scf.for %arg9 = %c0_4 to %7 step %c1_5 {
        %c2 = arith.constant 2 : index
        %14 = arith.remsi %arg9, %c2 : index
        %15 = arith.divsi %arg9, %c2 : index
        %c2_6 = arith.constant 2 : index
        %16 = arith.remsi %15, %c2_6 : index
        %c1_7 = arith.constant 1 : index
        %17 = arith.subi %c1_7, %16 : index
        "tile.mbarrier_wait"(%13, %14, %17) : (memref<2xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%12, %14) {bytes = 65536 : i64} : (memref<2xi64, 3>, index) -> ()
        %c128_8 = arith.constant 128 : index
        %18 = arith.muli %arg9, %c128_8 : index
        %c0_9 = arith.constant 0 : index
        %c0_10 = arith.constant 0 : index
        "tile.tma_copy"(%arg1, %5, %3, %18, %c0_9, %9, %14, %12) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index, memref<2xi64, 3>) -> ()
        "tile.tma_copy"(%arg2, %5, %3, %18, %c0_10, %10, %14, %12) : (memref<?x?x?x128xbf16>, index, index, index, index, memref<2x128x128xbf16, 3>, index, memref<2xi64, 3>) -> ()
      }
    }, {
      "tile.mbarrier_wait"(%11, %c0_3, %c0_3) : (memref<1xi64, 3>, index, index) -> ()
      %14 = "tile.map"() ({
        %cst_8 = arith.constant 0xFF800000 : f32
        "tile.yield"(%cst_8) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %15 = "tile.map"() ({
        %cst_8 = arith.constant 0.000000e+00 : f32
        "tile.yield"(%cst_8) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %16 = "tile.map"() ({
        %cst_8 = arith.constant 0.000000e+00 : f32
        "tile.yield"(%cst_8) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %c0_4 = arith.constant 0 : index
      %c1_5 = arith.constant 1 : index
      %17:3 = scf.for %arg9 = %c0_4 to %7 step %c1_5 iter_args(%arg10 = %14, %arg11 = %15, %arg12 = %16) -> (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>) {
        %c2 = arith.constant 2 : index
        %21 = arith.remsi %arg9, %c2 : index
        %22 = arith.divsi %arg9, %c2 : index
        %c2_8 = arith.constant 2 : index
        %23 = arith.remsi %22, %c2_8 : index
        "tile.mbarrier_wait"(%12, %21, %23) : (memref<2xi64, 3>, index, index) -> ()
        %24 = "tile.map"() ({
          %cst_11 = arith.constant 0.000000e+00 : f32
          "tile.yield"(%cst_11) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %25 = "tile.wgmma"(%8, %9, %21, %24) {transpose_b} : (memref<1x128x128xbf16, 3>, memref<2x128x128xbf16, 3>, index, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %c1_9 = arith.constant 1 : index
        %26 = arith.cmpi sge, %arg9, %c1_9 : index
        scf.if %26 {
          %39 = arith.subi %arg9, %c1_9 : index
          %c2_11 = arith.constant 2 : index
          %40 = arith.remsi %39, %c2_11 : index
          %41 = arith.divsi %39, %c2_11 : index
          %c2_12 = arith.constant 2 : index
          %42 = arith.remsi %41, %c2_12 : index
          "tile.mbarrier_arrive"(%13, %40) : (memref<2xi64, 3>, index) -> ()
        }
        %c128_10 = arith.constant 128 : index
        %27 = arith.muli %arg9, %c128_10 : index
        %28 = "tile.map"() ({
          %39 = "tile.elem"(%25) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %40 = arith.mulf %39, %cst_0 : f32
          %41 = "tile.index"() {dim = 1 : i64} : () -> index
          %42 = arith.addi %27, %41 : index
          %43 = arith.cmpi slt, %42, %arg8 : index
          %cst_11 = arith.constant 0xFF800000 : f32
          %44 = arith.select %43, %40, %cst_11 : f32
          "tile.yield"(%44) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %29 = "tile.reduce"(%28) {dim = 1 : i64, kind = "max"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %30 = "tile.map"() ({
          %39 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.maximumf %39, %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %31 = "tile.map"() ({
          %39 = "tile.elem"(%arg10) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %cst_11 = arith.constant 1.000000e+00 : f32
          %41 = arith.cmpf oeq, %39, %40 : f32
          %42 = arith.subf %39, %40 : f32
          %43 = math.exp %42 : f32
          %44 = arith.select %41, %cst_11, %43 : f32
          "tile.yield"(%44) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %32 = "tile.map"() ({
          %39 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %cst_11 = arith.constant 0xFF800000 : f32
          %40 = arith.cmpf oeq, %39, %cst_11 : f32
          %cst_12 = arith.constant 0.000000e+00 : f32
          %41 = "tile.elem"(%30) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %42 = arith.select %40, %cst_12, %41 : f32
          "tile.yield"(%42) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %33 = "tile.map"() ({
          %39 = "tile.elem"(%28) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %40 = "tile.elem"(%32) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.subf %39, %40 : f32
          %42 = math.exp %41 : f32
          "tile.yield"(%42) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %34 = "tile.reduce"(%33) {dim = 1 : i64, kind = "sum"} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %35 = "tile.map"() ({
          %39 = "tile.elem"(%arg11) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = "tile.elem"(%31) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.mulf %39, %40 : f32
          %42 = "tile.elem"(%34) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %43 = arith.addf %41, %42 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %36 = "tile.map"() ({
          %39 = "tile.elem"(%33) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %40 = arith.truncf %39 : f32 to bf16
          "tile.yield"(%40) : (bf16) -> ()
        }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
        %37 = "tile.map"() ({
          %39 = "tile.elem"(%arg12) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %40 = "tile.elem"(%31) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.mulf %39, %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %38 = "tile.wgmma"(%36, %10, %21, %37) {async} : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<2x128x128xbf16, 3>, index, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        scf.yield %30, %35, %38 : tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x128xf32, #tile.mma<[8, 1]>>
      } {tile.computes = [3, 3, 4], tile.stages = 2 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %c1_6 = arith.constant 1 : index
      %18 = arith.cmpi sge, %7, %c1_6 : index
      scf.if %18 {
        %21 = arith.subi %7, %c1_6 : index
        %c2 = arith.constant 2 : index
        %22 = arith.remsi %21, %c2 : index
        %23 = arith.divsi %21, %c2 : index
        %c2_8 = arith.constant 2 : index
        %24 = arith.remsi %23, %c2_8 : index
        "tile.mbarrier_arrive"(%13, %22) : (memref<2xi64, 3>, index) -> ()
      }
      %19 = "tile.map"() ({
        %21 = "tile.elem"(%17#2) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %22 = "tile.elem"(%17#1) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %23 = arith.divf %cst, %22 : f32
        %24 = arith.mulf %21, %23 : f32
        "tile.yield"(%24) : (f32) -> ()
      }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
      %20 = "tile.map"() ({
        %21 = "tile.elem"(%19) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
        %22 = arith.truncf %21 : f32 to bf16
        "tile.yield"(%22) : (bf16) -> ()
      }) : () -> tensor<128x128xbf16, #tile.mma<[8, 1]>>
      %c0_7 = arith.constant 0 : index
      "tile.store"(%20, %arg3, %5, %3, %1, %c0_7) : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<?x?x?x128xbf16>, index, index, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
