// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-persistent, tile-canonicalize)' | filecheck %s
// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-persistent, tile-canonicalize, tile-persistent, tile-canonicalize)' | filecheck %s

// A warp-specialised contraction whose schedule asks for persistent=true: the number of output
// tiles is computed before the shared tiles; in each role (the producer's, the consumers') a
// loop over the CTA's tiles from its program id in steps of the CTAs launched (tile.num_programs)
// holds the role, the raster computed from the loop's tile, the ring loop running from the
// tile's first iteration, (t - pid) / CTAs x nk, for nk iterations; the copies' k offsets count
// from it. The function is marked tile.persistent (the launch caps its grid). Run twice, the
// second run keeps what the first built (it loops over tiles already).
// CHECK-LABEL: func.func @pp
// CHECK-SAME:  tile.persistent
// CHECK-NOT:   tile.ring_start
// CHECK:       %[[MT:[0-9]+]] = arith.ceildivsi %arg4, %c128
// CHECK:       %[[NT:[0-9]+]] = arith.ceildivsi %arg5, %c256
// CHECK:       %[[PID:[0-9]+]] = "tile.program_id"() {axis = 0 : i64}
// CHECK-NEXT:  %[[TILES:[0-9]+]] = arith.muli %[[MT]], %[[NT]]
// CHECK-NEXT:  "tile.alloc"
// CHECK:       %[[NK:[0-9]+]] = arith.ceildivsi %arg3, %c64
// CHECK:       "tile.warp_specialize"() ({
// CHECK-NEXT:    %[[C:[0-9]+]] = "tile.num_programs"() {axis = 0 : i64}
// CHECK-NEXT:    scf.for %[[T:arg[0-9]+]] = %[[PID]] to %[[TILES]] step %[[C]] {
// CHECK-NEXT:      %[[OFF:[0-9]+]] = arith.subi %[[T]], %[[PID]]
// CHECK-NEXT:      %[[DONE:[0-9]+]] = arith.divsi %[[OFF]], %[[C]]
// CHECK-NEXT:      %[[FIRST:[0-9]+]] = arith.muli %[[DONE]], %[[NK]]
// CHECK:           arith.divsi %[[T]],
// CHECK:           %[[END:[0-9]+]] = arith.addi %[[FIRST]], %[[NK]]
// CHECK-NEXT:      scf.for %[[KT:arg[0-9]+]] = %[[FIRST]] to %[[END]] step %c1 {
// CHECK:             %[[KTILE:[0-9]+]] = arith.subi %[[KT]], %[[FIRST]]
// CHECK:             "tile.tma_copy"(%arg0,
// CHECK:         } {tile.persistent}
// CHECK-NEXT:  }, {
// CHECK-NEXT:    %[[C2:[0-9]+]] = "tile.num_programs"() {axis = 0 : i64}
// CHECK-NEXT:    scf.for %[[T2:arg[0-9]+]] = %[[PID]] to %[[TILES]] step %[[C2]] {
// CHECK:           %[[FIRST2:[0-9]+]] = arith.muli %{{[0-9]+}}, %[[NK]]
// CHECK:           scf.for %{{arg[0-9]+}} = %[[FIRST2]] to %{{[0-9]+}} step %c1 iter_args
// CHECK:           "tile.wgmma"
// CHECK:           "tile.store"
// CHECK:         } {tile.persistent}
// CHECK-NEXT:  }) {consumer_registers = 232 : i64, producer_registers = 40 : i64}

// The input: `tilec opt` of the ta of this spec (`tilec compile pp.ta --emit ta`) with
// ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true},
// tile-canonicalize, tile-warp-specialize, tile-canonicalize:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @pp(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %5 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %7 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %8 = "tile.ring_start"() : () -> index
      %9 = arith.muli %1, %c8 : index
      %10 = arith.divsi %2, %9 : index
      %11 = arith.muli %10, %c8 : index
      %12 = arith.subi %0, %11 : index
      %13 = arith.minsi %12, %c8 : index
      %14 = arith.remsi %2, %9 : index
      %15 = arith.remsi %14, %13 : index
      %16 = arith.addi %11, %15 : index
      %17 = arith.divsi %14, %13 : index
      %18 = arith.muli %16, %c128 : index
      %19 = arith.muli %17, %c256 : index
      %20 = arith.addi %8, %7 : index
      scf.for %arg6 = %8 to %20 step %c1 {
        %21 = arith.remsi %arg6, %c4 : index
        %22 = arith.divsi %arg6, %c4 : index
        %23 = arith.remsi %22, %c2 : index
        %24 = arith.subi %c1, %23 : index
        "tile.mbarrier_wait"(%6, %21, %24) : (memref<4xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%5, %21) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
        %25 = arith.subi %arg6, %8 : index
        %26 = arith.muli %25, %c64 : index
        "tile.tma_copy"(%arg0, %18, %26, %3, %21, %5) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
        "tile.tma_copy"(%arg1, %26, %19, %4, %21, %5) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
      }
    }, {
      %8 = "tile.ring_start"() : () -> index
      %9 = arith.muli %1, %c8 : index
      %10 = arith.divsi %2, %9 : index
      %11 = arith.muli %10, %c8 : index
      %12 = arith.subi %0, %11 : index
      %13 = arith.minsi %12, %c8 : index
      %14 = arith.remsi %2, %9 : index
      %15 = arith.remsi %14, %13 : index
      %16 = arith.addi %11, %15 : index
      %17 = arith.divsi %14, %13 : index
      %18 = arith.muli %16, %c128 : index
      %19 = arith.muli %17, %c256 : index
      %20 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
      %21 = arith.addi %8, %7 : index
      %22 = scf.for %arg6 = %8 to %21 step %c1 iter_args(%arg7 = %20) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
        %26 = arith.remsi %arg6, %c4 : index
        %27 = arith.divsi %arg6, %c4 : index
        %28 = arith.remsi %27, %c2 : index
        "tile.mbarrier_wait"(%5, %26, %28) : (memref<4xi64, 3>, index, index) -> ()
        %29 = "tile.wgmma"(%3, %4, %26, %arg7) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
        %30 = arith.addi %8, %c1 : index
        %31 = arith.cmpi sge, %arg6, %30 : index
        scf.if %31 {
          %32 = arith.subi %arg6, %c1 : index
          %33 = arith.remsi %32, %c4 : index
          "tile.mbarrier_arrive"(%6, %33) : (memref<4xi64, 3>, index) -> ()
        }
        scf.yield %29 : tensor<128x256xf32, #tile.mma<[8, 1]>>
      } {tile.stages = 4 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %23 = arith.addi %8, %c1 : index
      %24 = arith.cmpi sge, %21, %23 : index
      scf.if %24 {
        %26 = arith.subi %21, %c1 : index
        %27 = arith.remsi %26, %c4 : index
        "tile.mbarrier_arrive"(%6, %27) : (memref<4xi64, 3>, index) -> ()
      }
      %25 = "tile.map"() ({
        %26 = "tile.elem"(%22) {map = #map} : (tensor<128x256xf32, #tile.mma<[8, 1]>>) -> f32
        %27 = arith.truncf %26 : f32 to bf16
        "tile.yield"(%27) : (bf16) -> ()
      }) : () -> tensor<128x256xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%25, %arg2, %18, %19) : (tensor<128x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// The same kernel where the schedule does not ask (persistent=false): a CTA works on its one
// tile, so each role's ring starts at iteration 0: no loop over tiles, no tile.persistent.
// CHECK-LABEL: func.func @pp
// CHECK-NOT:   tile.persistent
// CHECK:       "tile.warp_specialize"() ({
// CHECK-NOT:     tile.num_programs
// CHECK-NOT:     tile.ring_start
// CHECK:         scf.for %{{arg[0-9]+}} = %c0 to %[[NK:[0-9]+]] step %c1 {
// CHECK:       }, {
// CHECK:         scf.for %{{arg[0-9]+}} = %c0 to %[[NK]] step %c1 iter_args
// CHECK-NOT:   tile.num_programs

// The input as above, with persistent=false.

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @pp(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c128 = arith.constant 128 : index
    %0 = arith.ceildivsi %arg4, %c128 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %5 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %7 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %8 = "tile.ring_start"() : () -> index
      %9 = arith.muli %1, %c8 : index
      %10 = arith.divsi %2, %9 : index
      %11 = arith.muli %10, %c8 : index
      %12 = arith.subi %0, %11 : index
      %13 = arith.minsi %12, %c8 : index
      %14 = arith.remsi %2, %9 : index
      %15 = arith.remsi %14, %13 : index
      %16 = arith.addi %11, %15 : index
      %17 = arith.divsi %14, %13 : index
      %18 = arith.muli %16, %c128 : index
      %19 = arith.muli %17, %c256 : index
      %20 = arith.addi %8, %7 : index
      scf.for %arg6 = %8 to %20 step %c1 {
        %21 = arith.remsi %arg6, %c4 : index
        %22 = arith.divsi %arg6, %c4 : index
        %23 = arith.remsi %22, %c2 : index
        %24 = arith.subi %c1, %23 : index
        "tile.mbarrier_wait"(%6, %21, %24) : (memref<4xi64, 3>, index, index) -> ()
        "tile.mbarrier_expect"(%5, %21) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
        %25 = arith.subi %arg6, %8 : index
        %26 = arith.muli %25, %c64 : index
        "tile.tma_copy"(%arg0, %18, %26, %3, %21, %5) : (memref<?x?xbf16>, index, index, memref<4x128x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
        "tile.tma_copy"(%arg1, %26, %19, %4, %21, %5) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
      }
    }, {
      %8 = "tile.ring_start"() : () -> index
      %9 = arith.muli %1, %c8 : index
      %10 = arith.divsi %2, %9 : index
      %11 = arith.muli %10, %c8 : index
      %12 = arith.subi %0, %11 : index
      %13 = arith.minsi %12, %c8 : index
      %14 = arith.remsi %2, %9 : index
      %15 = arith.remsi %14, %13 : index
      %16 = arith.addi %11, %15 : index
      %17 = arith.divsi %14, %13 : index
      %18 = arith.muli %16, %c128 : index
      %19 = arith.muli %17, %c256 : index
      %20 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
      %21 = arith.addi %8, %7 : index
      %22 = scf.for %arg6 = %8 to %21 step %c1 iter_args(%arg7 = %20) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
        %26 = arith.remsi %arg6, %c4 : index
        %27 = arith.divsi %arg6, %c4 : index
        %28 = arith.remsi %27, %c2 : index
        "tile.mbarrier_wait"(%5, %26, %28) : (memref<4xi64, 3>, index, index) -> ()
        %29 = "tile.wgmma"(%3, %4, %26, %arg7) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
        %30 = arith.addi %8, %c1 : index
        %31 = arith.cmpi sge, %arg6, %30 : index
        scf.if %31 {
          %32 = arith.subi %arg6, %c1 : index
          %33 = arith.remsi %32, %c4 : index
          "tile.mbarrier_arrive"(%6, %33) : (memref<4xi64, 3>, index) -> ()
        }
        scf.yield %29 : tensor<128x256xf32, #tile.mma<[8, 1]>>
      } {tile.stages = 4 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %23 = arith.addi %8, %c1 : index
      %24 = arith.cmpi sge, %21, %23 : index
      scf.if %24 {
        %26 = arith.subi %21, %c1 : index
        %27 = arith.remsi %26, %c4 : index
        "tile.mbarrier_arrive"(%6, %27) : (memref<4xi64, 3>, index) -> ()
      }
      %25 = "tile.map"() ({
        %26 = "tile.elem"(%22) {map = #map} : (tensor<128x256xf32, #tile.mma<[8, 1]>>) -> f32
        %27 = arith.truncf %26 : f32 to bf16
        "tile.yield"(%27) : (bf16) -> ()
      }) : () -> tensor<128x256xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%25, %arg2, %18, %19) : (tensor<128x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
