// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-softmax-overlap, tile-canonicalize)' | filecheck %s

// A warp-specialised attention (tile-warp-specialize's consumers: per key block Q·Kᵀ, waited;
// the release of the block before; the softmax; acc·c + P·V left in flight) under a schedule
// with softmax-overlap: the key loop rotated. Block 0's Q·Kᵀ and softmax before the loop, against
// the initial state; the loop from block 1 carries P beside (m, l, acc), issues block kt's Q·Kᵀ
// and block kt - 1's P·V (its stage: the one before) both asynchronously, waits for all but one
// group (the scores), runs block kt's softmax under P·V, waits for P·V, releases the stage of
// kt - 1 and rescales acc; after the loop the last block's P·V (waited) and its release, then
// the epilogue and the store.
// CHECK-LABEL: func.func @attention(
// CHECK:       %[[SQ:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<1x64x64xbf16, 3>
// CHECK:       %[[SK:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<3x128x64xbf16, 3>
// CHECK:       %[[SV:[0-9]+]] = "tile.alloc"() {{.*}} -> memref<3x128x64xbf16, 3>
// CHECK:       %[[QBAR:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<3xi64, 3>
// CHECK:       }, {
// CHECK-NEXT:    "tile.mbarrier_wait"(%[[QBAR]], %c0, %c0)
// CHECK:         "tile.mbarrier_wait"(%[[FULL]], %c0, %c0)
// CHECK:         %[[S0:[0-9]+]] = "tile.wgmma"(%[[SQ]], %[[SK]], %c0, %{{[0-9]+}}) {transpose_b}
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "sum"}
// CHECK:         %[[LOOP:[0-9]+]]:4 = scf.for %[[KT:arg[0-9]+]] = %c1 to %[[N:[0-9]+]] step %c1 iter_args({{.*}}, %[[ACC:arg[0-9]+]] = %{{[0-9]+}}, %[[P:arg[0-9]+]] = %{{[0-9]+}})
// CHECK:           %[[STAGE:[0-9]+]] = arith.remsi %[[KT]], %c3
// CHECK:           %[[PREV:[0-9]+]] = arith.subi %[[KT]], %c1
// CHECK-NEXT:      %[[BEFORE:[0-9]+]] = arith.remsi %[[PREV]], %c3
// CHECK-NEXT:      "tile.mbarrier_wait"(%[[FULL]], %[[STAGE]], %{{[0-9]+}})
// CHECK:           %[[S:[0-9]+]] = "tile.wgmma"(%[[SQ]], %[[SK]], %[[STAGE]], %{{[0-9]+}}) {async, transpose_b}
// CHECK-NEXT:      %[[PV:[0-9]+]] = "tile.wgmma"(%[[P]], %[[SV]], %[[BEFORE]], %[[ACC]]) {async}
// CHECK-NEXT:      "tile.wgmma_wait"() {pending = 1 : i64}
// CHECK:           "tile.elem"(%[[S]])
// CHECK:           "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:           "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "sum"}
// CHECK:           "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:           scf.if
// CHECK:             "tile.mbarrier_arrive"(%[[EMPTY]],
// CHECK:           "tile.elem"(%[[PV]])
// CHECK:           scf.yield
// CHECK-NEXT:    } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
// CHECK:         "tile.wgmma"(%[[LOOP]]#3, %[[SV]], %{{[0-9]+}}, %[[LOOP]]#2) :
// CHECK:         scf.if
// CHECK:           "tile.mbarrier_arrive"(%[[EMPTY]],
// CHECK:         "tile.store"

// The input: `tilec opt` of the ta of examples/attention.ta (--emit ta) with
// ta-specialize-shapes{shapes=D=64}, the ta rewrites, ta-to-tile{target=sm_90a bm=64 bn=128 warps=4
// stages=3 consumers=1 softmax-overlap=true occupancy=2}, tile-warp-specialize, tile-canonicalize.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 64 : i64, H = 4 : i64, S = 128 : i64, T = 128 : i64}, tile.grid = ["(S+63)/64", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 64 : i64, bn = 128 : i64, consumers = 1 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 2 : i64, persistent = false, pingpong = false, softmax_overlap = true, stages = 3 : i64, swizzle = true, tma_store = false, warps = 4 : i64}>, tile.threads = 256 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c64 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.ceildivsi %arg8, %c128 : index
    %7 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x64x64xbf16, 3>
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %10 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
    %11 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %12 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<3xi64, 3>
    "tile.warp_specialize"() ({
      "tile.mbarrier_expect"(%10, %c0) {bytes = 8192 : i64} : (memref<1xi64, 3>, index) -> ()
      "tile.tma_copy"(%arg0, %5, %3, %1, %c0, %7, %c0, %10) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<1x64x64xbf16, 3>, index, memref<1xi64, 3>) -> ()
      scf.for %arg9 = %c0 to %6 step %c1 {
        %13 = arith.remsi %arg9, %c3 : index
        %14 = arith.divsi %arg9, %c3 : index
        %15 = arith.remsi %14, %c2 : index
        %16 = arith.subi %c1, %15 : index
        "tile.mbarrier_wait"(%12, %13, %16) : (memref<3xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%11, %13) {bytes = 32768 : i64} : (memref<3xi64, 3>, index) -> ()
        %17 = arith.muli %arg9, %c128 : index
        "tile.tma_copy"(%arg1, %5, %3, %17, %c0, %8, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
        "tile.tma_copy"(%arg2, %5, %3, %17, %c0, %9, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
      }
    }, {
      "tile.mbarrier_wait"(%10, %c0, %c0) : (memref<1xi64, 3>, index, index) -> ()
      %13 = "tile.map"() ({
        "tile.yield"(%cst_0) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %14 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %15 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      %16:3 = scf.for %arg9 = %c0 to %6 step %c1 iter_args(%arg10 = %13, %arg11 = %14, %arg12 = %15) -> (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>) {
        %20 = arith.remsi %arg9, %c3 : index
        %21 = arith.divsi %arg9, %c3 : index
        %22 = arith.remsi %21, %c2 : index
        "tile.mbarrier_wait"(%11, %20, %22) : (memref<3xi64, 3>, index, index) -> ()
        %23 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %24 = "tile.wgmma"(%7, %8, %20, %23) {transpose_b} : (memref<1x64x64xbf16, 3>, memref<3x128x64xbf16, 3>, index, tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %25 = arith.cmpi sge, %arg9, %c1 : index
        scf.if %25 {
          %38 = arith.subi %arg9, %c1 : index
          %39 = arith.remsi %38, %c3 : index
          "tile.mbarrier_arrive"(%12, %39) : (memref<3xi64, 3>, index) -> ()
        }
        %26 = arith.muli %arg9, %c128 : index
        %27 = "tile.map"() ({
          %38 = "tile.elem"(%24) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = arith.mulf %38, %cst_2 : f32
          %40 = "tile.index"() {dim = 1 : i64} : () -> index
          %41 = arith.addi %26, %40 : index
          %42 = arith.cmpi slt, %41, %arg8 : index
          %43 = arith.select %42, %39, %cst_0 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %28 = "tile.reduce"(%27) {dim = 1 : i64, kind = "max"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %29 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%28) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.maximumf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %30 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.cmpf oeq, %38, %39 : f32
          %41 = arith.subf %38, %39 : f32
          %42 = math.exp %41 : f32
          %43 = arith.select %40, %cst_1, %42 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %31 = "tile.map"() ({
          %38 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = arith.cmpf oeq, %38, %cst_0 : f32
          %40 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %41 = arith.select %39, %cst, %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %32 = "tile.map"() ({
          %38 = "tile.elem"(%27) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = "tile.elem"(%31) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.subf %38, %39 : f32
          %41 = math.exp %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "sum"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %34 = "tile.map"() ({
          %38 = "tile.elem"(%arg11) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%30) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          %41 = "tile.elem"(%33) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %42 = arith.addf %40, %41 : f32
          "tile.yield"(%42) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %35 = "tile.map"() ({
          %38 = "tile.elem"(%32) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = arith.truncf %38 : f32 to bf16
          "tile.yield"(%39) : (bf16) -> ()
        }) : () -> tensor<64x128xbf16, #tile.mma<[4, 1]>>
        %36 = "tile.map"() ({
          %38 = "tile.elem"(%arg12) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = "tile.elem"(%30) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
        %37 = "tile.wgmma"(%35, %9, %20, %36) {async} : (tensor<64x128xbf16, #tile.mma<[4, 1]>>, memref<3x128x64xbf16, 3>, index, tensor<64x64xf32, #tile.mma<[4, 1]>>) -> tensor<64x64xf32, #tile.mma<[4, 1]>>
        scf.yield %29, %34, %37 : tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>
      } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %17 = arith.cmpi sge, %6, %c1 : index
      scf.if %17 {
        %20 = arith.subi %6, %c1 : index
        %21 = arith.remsi %20, %c3 : index
        "tile.mbarrier_arrive"(%12, %21) : (memref<3xi64, 3>, index) -> ()
      }
      %18 = "tile.map"() ({
        %20 = "tile.elem"(%16#2) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
        %21 = "tile.elem"(%16#1) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %22 = arith.divf %cst_1, %21 : f32
        %23 = arith.mulf %20, %22 : f32
        "tile.yield"(%23) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      %19 = "tile.map"() ({
        %20 = "tile.elem"(%18) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
        %21 = arith.truncf %20 : f32 to bf16
        "tile.yield"(%21) : (bf16) -> ()
      }) : () -> tensor<64x64xbf16, #tile.mma<[4, 1]>>
      "tile.store"(%19, %arg3, %5, %3, %1, %c0) : (tensor<64x64xbf16, #tile.mma<[4, 1]>>, memref<?x?x?x64xbf16>, index, index, index, index) -> ()
    }) {consumer_registers = 216 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// Keep: the same kernel under a schedule without softmax-overlap is left as it is: the key loop
// from block 0, carrying (m, l, acc), Q·Kᵀ waited in its block.
// CHECK-LABEL: func.func @attention(
// CHECK:       }, {
// CHECK:         scf.for %[[KT:arg[0-9]+]] = %c0 to %{{[0-9]+}} step %c1 iter_args(%{{.*}}, %{{.*}}, %{{[^,]*}}) -> (
// CHECK-NOT:     tile.wgmma_wait
// CHECK:           "tile.wgmma"({{.*}}) {transpose_b}
// CHECK-NOT:     tile.wgmma_wait
// CHECK:           "tile.wgmma"({{.*}}) {async}
// CHECK-NEXT:      scf.yield
// CHECK:         "tile.wgmma_wait"() {pending = 0 : i64}

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 64 : i64, H = 4 : i64, S = 128 : i64, T = 128 : i64}, tile.grid = ["(S+63)/64", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 64 : i64, bn = 128 : i64, consumers = 1 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 2 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 4 : i64}>, tile.threads = 256 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c64 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.ceildivsi %arg8, %c128 : index
    %7 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x64x64xbf16, 3>
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %10 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
    %11 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %12 = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<3xi64, 3>
    "tile.warp_specialize"() ({
      "tile.mbarrier_expect"(%10, %c0) {bytes = 8192 : i64} : (memref<1xi64, 3>, index) -> ()
      "tile.tma_copy"(%arg0, %5, %3, %1, %c0, %7, %c0, %10) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<1x64x64xbf16, 3>, index, memref<1xi64, 3>) -> ()
      scf.for %arg9 = %c0 to %6 step %c1 {
        %13 = arith.remsi %arg9, %c3 : index
        %14 = arith.divsi %arg9, %c3 : index
        %15 = arith.remsi %14, %c2 : index
        %16 = arith.subi %c1, %15 : index
        "tile.mbarrier_wait"(%12, %13, %16) : (memref<3xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%11, %13) {bytes = 32768 : i64} : (memref<3xi64, 3>, index) -> ()
        %17 = arith.muli %arg9, %c128 : index
        "tile.tma_copy"(%arg1, %5, %3, %17, %c0, %8, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
        "tile.tma_copy"(%arg2, %5, %3, %17, %c0, %9, %13, %11) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index, memref<3xi64, 3>) -> ()
      }
    }, {
      "tile.mbarrier_wait"(%10, %c0, %c0) : (memref<1xi64, 3>, index, index) -> ()
      %13 = "tile.map"() ({
        "tile.yield"(%cst_0) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %14 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %15 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      %16:3 = scf.for %arg9 = %c0 to %6 step %c1 iter_args(%arg10 = %13, %arg11 = %14, %arg12 = %15) -> (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>) {
        %20 = arith.remsi %arg9, %c3 : index
        %21 = arith.divsi %arg9, %c3 : index
        %22 = arith.remsi %21, %c2 : index
        "tile.mbarrier_wait"(%11, %20, %22) : (memref<3xi64, 3>, index, index) -> ()
        %23 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %24 = "tile.wgmma"(%7, %8, %20, %23) {transpose_b} : (memref<1x64x64xbf16, 3>, memref<3x128x64xbf16, 3>, index, tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %25 = arith.cmpi sge, %arg9, %c1 : index
        scf.if %25 {
          %38 = arith.subi %arg9, %c1 : index
          %39 = arith.remsi %38, %c3 : index
          "tile.mbarrier_arrive"(%12, %39) : (memref<3xi64, 3>, index) -> ()
        }
        %26 = arith.muli %arg9, %c128 : index
        %27 = "tile.map"() ({
          %38 = "tile.elem"(%24) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = arith.mulf %38, %cst_2 : f32
          %40 = "tile.index"() {dim = 1 : i64} : () -> index
          %41 = arith.addi %26, %40 : index
          %42 = arith.cmpi slt, %41, %arg8 : index
          %43 = arith.select %42, %39, %cst_0 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %28 = "tile.reduce"(%27) {dim = 1 : i64, kind = "max"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %29 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%28) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.maximumf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %30 = "tile.map"() ({
          %38 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.cmpf oeq, %38, %39 : f32
          %41 = arith.subf %38, %39 : f32
          %42 = math.exp %41 : f32
          %43 = arith.select %40, %cst_1, %42 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %31 = "tile.map"() ({
          %38 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = arith.cmpf oeq, %38, %cst_0 : f32
          %40 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %41 = arith.select %39, %cst, %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %32 = "tile.map"() ({
          %38 = "tile.elem"(%27) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = "tile.elem"(%31) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.subf %38, %39 : f32
          %41 = math.exp %40 : f32
          "tile.yield"(%41) : (f32) -> ()
        }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
        %33 = "tile.reduce"(%32) {dim = 1 : i64, kind = "sum"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %34 = "tile.map"() ({
          %38 = "tile.elem"(%arg11) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %39 = "tile.elem"(%30) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          %41 = "tile.elem"(%33) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %42 = arith.addf %40, %41 : f32
          "tile.yield"(%42) : (f32) -> ()
        }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
        %35 = "tile.map"() ({
          %38 = "tile.elem"(%32) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = arith.truncf %38 : f32 to bf16
          "tile.yield"(%39) : (bf16) -> ()
        }) : () -> tensor<64x128xbf16, #tile.mma<[4, 1]>>
        %36 = "tile.map"() ({
          %38 = "tile.elem"(%arg12) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
          %39 = "tile.elem"(%30) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
        %37 = "tile.wgmma"(%35, %9, %20, %36) {async} : (tensor<64x128xbf16, #tile.mma<[4, 1]>>, memref<3x128x64xbf16, 3>, index, tensor<64x64xf32, #tile.mma<[4, 1]>>) -> tensor<64x64xf32, #tile.mma<[4, 1]>>
        scf.yield %29, %34, %37 : tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>
      } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %17 = arith.cmpi sge, %6, %c1 : index
      scf.if %17 {
        %20 = arith.subi %6, %c1 : index
        %21 = arith.remsi %20, %c3 : index
        "tile.mbarrier_arrive"(%12, %21) : (memref<3xi64, 3>, index) -> ()
      }
      %18 = "tile.map"() ({
        %20 = "tile.elem"(%16#2) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
        %21 = "tile.elem"(%16#1) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %22 = arith.divf %cst_1, %21 : f32
        %23 = arith.mulf %20, %22 : f32
        "tile.yield"(%23) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      %19 = "tile.map"() ({
        %20 = "tile.elem"(%18) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
        %21 = arith.truncf %20 : f32 to bf16
        "tile.yield"(%21) : (bf16) -> ()
      }) : () -> tensor<64x64xbf16, #tile.mma<[4, 1]>>
      "tile.store"(%19, %arg3, %5, %3, %1, %c0) : (tensor<64x64xbf16, #tile.mma<[4, 1]>>, memref<?x?x?x64xbf16>, index, index, index, index) -> ()
    }) {consumer_registers = 216 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
