// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-pingpong, tile-canonicalize)' | filecheck %s

// A persistent warp-specialised contraction whose schedule asks for pingpong=true (sm_90a):
// each of the two consumer warpgroups runs the consumer region on its own (consumer_roles = 2)
// and owns whole 64 x 256 tiles. empty counts one warpgroup's 4 warps; a third barrier array of
// one stage per warpgroup is the turn token. Warpgroup g loops over the CTA's tiles from
// pid + g * CTAs in steps of 2 * CTAs; before a tile's ring iterations it waits on turn[g]
// (parity ((n + 1) div 2 + 1) mod 2 at the CTA's n-th tile) and after its last wait on full it
// arrives on turn[(g + 1) mod 2]. The producer's loop is left as it is.
// CHECK-LABEL: func.func @pingpong
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[TURN:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<2xi64, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK-NEXT:    %[[PC:[0-9]+]] = "tile.num_programs"()
// CHECK-NEXT:    scf.for %{{arg[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %[[PC]] {
// CHECK:       }, {
// CHECK:         %[[G:[0-9]+]] = "tile.warpgroup_id"() : () -> index
// CHECK:         %[[CTAS:[0-9]+]] = "tile.num_programs"()
// CHECK:         %[[GC:[0-9]+]] = arith.muli %[[G]], %[[CTAS]]
// CHECK:         %[[FIRST:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[GC]]
// CHECK:         %[[STEP:[0-9]+]] = arith.muli %[[CTAS]], %c2
// CHECK:         scf.for %[[T:arg[0-9]+]] = %[[FIRST]] to %{{[0-9]+}} step %[[STEP]] {
// CHECK:           "tile.mbarrier_wait"(%[[TURN]], %[[G]], %{{[0-9]+}})
// CHECK:           scf.for %[[KT:arg[0-9]+]] = {{.*}} iter_args
// CHECK:             "tile.mbarrier_wait"(%[[FULL]]
// CHECK:             "tile.wgmma"({{.*}} -> tensor<64x256xf32, #tile.mma<[4, 1]>>
// CHECK:             "tile.mbarrier_arrive"(%[[EMPTY]]
// CHECK:           } {tile.stages = 4 : i64}
// CHECK:           %[[NEXT:[0-9]+]] = arith.addi %[[G]], %c1
// CHECK:           %[[TO:[0-9]+]] = arith.remsi %[[NEXT]], %c2
// CHECK:           "tile.mbarrier_arrive"(%[[TURN]], %[[TO]])
// CHECK:           "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:           "tile.store"
// CHECK:       }) {consumer_registers = 232 : i64, consumer_roles = 2 : i64, producer_registers = 40 : i64}

// The input: `tilec opt` of the ta of this spec with ta-to-tile{target=sm_90a bm=64 bn=256 bk=64
// warps=8 stages=4 consumers=2 pingpong=true persistent=true}, tile-canonicalize,
// tile-warp-specialize, tile-persistent, tile-canonicalize:
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @pingpong(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+63)/64*((N+255)/256)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 64 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = true, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c256 = arith.constant 256 : index
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg4, %c64 : index
    %1 = arith.ceildivsi %arg5, %c256 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %8 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %9 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %9 {
        %10 = arith.subi %arg6, %2 : index
        %11 = arith.divsi %10, %9 : index
        %12 = arith.muli %11, %8 : index
        %13 = arith.muli %1, %c8 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %22 = arith.muli %20, %c64 : index
        %23 = arith.muli %21, %c256 : index
        %24 = arith.addi %12, %8 : index
        scf.for %arg7 = %12 to %24 step %c1 {
          %25 = arith.remsi %arg7, %c4 : index
          %26 = arith.divsi %arg7, %c4 : index
          %27 = arith.remsi %26, %c2 : index
          %28 = arith.subi %c1, %27 : index
          "tile.mbarrier_wait"(%7, %25, %28) : (memref<4xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%6, %25) {bytes = 40960 : i64} : (memref<4xi64, 3>, index) -> ()
          %29 = arith.subi %arg7, %12 : index
          %30 = arith.muli %29, %c64 : index
          "tile.tma_copy"(%arg0, %22, %30, %4, %25, %6) : (memref<?x?xbf16>, index, index, memref<4x64x64xbf16, 3>, index, memref<4xi64, 3>) -> ()
          "tile.tma_copy"(%arg1, %30, %23, %5, %25, %6) : (memref<?x?xbf16>, index, index, memref<4x64x256xbf16, 3>, index, memref<4xi64, 3>) -> ()
        }
      } {tile.persistent}
    }, {
      %9 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %9 {
        %10 = arith.subi %arg6, %2 : index
        %11 = arith.divsi %10, %9 : index
        %12 = arith.muli %11, %8 : index
        %13 = arith.muli %1, %c8 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %22 = arith.muli %20, %c64 : index
        %23 = arith.muli %21, %c256 : index
        %24 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<64x256xf32, #tile.mma<[8, 1]>>
        %25 = arith.addi %12, %8 : index
        %26 = scf.for %arg7 = %12 to %25 step %c1 iter_args(%arg8 = %24) -> (tensor<64x256xf32, #tile.mma<[8, 1]>>) {
          %30 = arith.remsi %arg7, %c4 : index
          %31 = arith.divsi %arg7, %c4 : index
          %32 = arith.remsi %31, %c2 : index
          "tile.mbarrier_wait"(%6, %30, %32) : (memref<4xi64, 3>, index, index) -> ()
          %33 = "tile.wgmma"(%4, %5, %30, %arg8) {async, tile.computes = 0 : i64} : (memref<4x64x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<64x256xf32, #tile.mma<[8, 1]>>) -> tensor<64x256xf32, #tile.mma<[8, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %34 = arith.addi %12, %c1 : index
          %35 = arith.cmpi sge, %arg7, %34 : index
          scf.if %35 {
            %36 = arith.subi %arg7, %c1 : index
            %37 = arith.remsi %36, %c4 : index
            "tile.mbarrier_arrive"(%7, %37) : (memref<4xi64, 3>, index) -> ()
          }
          scf.yield %33 : tensor<64x256xf32, #tile.mma<[8, 1]>>
        } {tile.stages = 4 : i64}
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %27 = arith.addi %12, %c1 : index
        %28 = arith.cmpi sge, %25, %27 : index
        scf.if %28 {
          %30 = arith.subi %25, %c1 : index
          %31 = arith.remsi %30, %c4 : index
          "tile.mbarrier_arrive"(%7, %31) : (memref<4xi64, 3>, index) -> ()
        }
        %29 = "tile.map"() ({
          %30 = "tile.elem"(%26) {map = #map} : (tensor<64x256xf32, #tile.mma<[8, 1]>>) -> f32
          %31 = arith.truncf %30 : f32 to bf16
          "tile.yield"(%31) : (bf16) -> ()
        }) : () -> tensor<64x256xbf16, #tile.mma<[8, 1]>>
        "tile.store"(%29, %arg2, %22, %23) : (tensor<64x256xbf16, #tile.mma<[8, 1]>>, memref<?x?xbf16>, index, index) -> ()
      } {tile.persistent}
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}

// -----

// A persistent contraction whose schedule does not ask for ping-pong (bm=128 bn=256 warps=8
// consumers=2 persistent=true, tile-persistent.mlir's): its two warpgroups work as one on each
// tile; the pass leaves it as it is.
// CHECK-LABEL: func.func @pp
// CHECK-NOT:   tile.warpgroup_id
// CHECK:       "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
// CHECK-NOT:   "tile.mbarrier_alloc"
// CHECK:       "tile.warp_specialize"
// CHECK-NOT:   tile.warpgroup_id
// CHECK:       }) {consumer_registers = 232 : i64, producer_registers = 40 : i64}

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_90a"} {
  func.func @pp(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+127)/128*((N+255)/256)", "1"], tile.operands = "nn", tile.persistent, tile.schedule = #tile.schedule<{bk = 64 : i64, bm = 128 : i64, bn = 256 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = true, pingpong = false, softmax_overlap = false, stages = 4 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
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
    %3 = arith.muli %0, %1 : index
    %4 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
    %5 = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
    %6 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
    %7 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
    %8 = arith.ceildivsi %arg3, %c64 : index
    "tile.warp_specialize"() ({
      %9 = "tile.num_programs"() {axis = 0 : i64} : () -> index
      scf.for %arg6 = %2 to %3 step %9 {
        %10 = arith.subi %arg6, %2 : index
        %11 = arith.divsi %10, %9 : index
        %12 = arith.muli %11, %8 : index
        %13 = arith.muli %1, %c8 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %22 = arith.muli %20, %c128 : index
        %23 = arith.muli %21, %c256 : index
        %24 = arith.addi %12, %8 : index
        scf.for %arg7 = %12 to %24 step %c1 {
          %25 = arith.remsi %arg7, %c4 : index
          %26 = arith.divsi %arg7, %c4 : index
          %27 = arith.remsi %26, %c2 : index
          %28 = arith.subi %c1, %27 : index
          "tile.mbarrier_wait"(%7, %25, %28) : (memref<4xi64, 3>, index, index) -> ()
          "tile.mbarrier_expect"(%6, %25) {bytes = 49152 : i64} : (memref<4xi64, 3>, index) -> ()
          %29 = arith.subi %arg7, %12 : index
          %30 = arith.muli %29, %c64 : index
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
        %13 = arith.muli %1, %c8 : index
        %14 = arith.divsi %arg6, %13 : index
        %15 = arith.muli %14, %c8 : index
        %16 = arith.subi %0, %15 : index
        %17 = arith.minsi %16, %c8 : index
        %18 = arith.remsi %arg6, %13 : index
        %19 = arith.remsi %18, %17 : index
        %20 = arith.addi %15, %19 : index
        %21 = arith.divsi %18, %17 : index
        %22 = arith.muli %20, %c128 : index
        %23 = arith.muli %21, %c256 : index
        %24 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<128x256xf32, #tile.mma<[8, 1]>>
        %25 = arith.addi %12, %8 : index
        %26 = scf.for %arg7 = %12 to %25 step %c1 iter_args(%arg8 = %24) -> (tensor<128x256xf32, #tile.mma<[8, 1]>>) {
          %30 = arith.remsi %arg7, %c4 : index
          %31 = arith.divsi %arg7, %c4 : index
          %32 = arith.remsi %31, %c2 : index
          "tile.mbarrier_wait"(%6, %30, %32) : (memref<4xi64, 3>, index, index) -> ()
          %33 = "tile.wgmma"(%4, %5, %30, %arg8) {async, tile.computes = 0 : i64} : (memref<4x128x64xbf16, 3>, memref<4x64x256xbf16, 3>, index, tensor<128x256xf32, #tile.mma<[8, 1]>>) -> tensor<128x256xf32, #tile.mma<[8, 1]>>
          "tile.wgmma_wait"() {pending = 1 : i64} : () -> ()
          %34 = arith.addi %12, %c1 : index
          %35 = arith.cmpi sge, %arg7, %34 : index
          scf.if %35 {
            %36 = arith.subi %arg7, %c1 : index
            %37 = arith.remsi %36, %c4 : index
            "tile.mbarrier_arrive"(%7, %37) : (memref<4xi64, 3>, index) -> ()
          }
          scf.yield %33 : tensor<128x256xf32, #tile.mma<[8, 1]>>
        } {tile.stages = 4 : i64}
        "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
        %27 = arith.addi %12, %c1 : index
        %28 = arith.cmpi sge, %25, %27 : index
        scf.if %28 {
          %30 = arith.subi %25, %c1 : index
          %31 = arith.remsi %30, %c4 : index
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

// A warp-specialised attention whose schedule asks for pingpong=true: its two consumer warpgroups
// take turns at the tensor cores, a turn spanning one warpgroup's P·V of a key block and its
// Q·Kᵀ of the next. After Q has landed the last warpgroup passes the first turn on (to
// warpgroup 0) and each waits for its own; in the key loop each passes the turn after Q·Kᵀ and
// the release of the block before, and waits for it before P·V; after the loop and its last
// release each passes it on, and warpgroup 0 takes back the one the last passed.
// CHECK-LABEL: func.func @attention(
// CHECK:       }, {
// CHECK-NEXT:    "tile.mbarrier_wait"(%{{[0-9]+}}, %c0, %c0)
// CHECK-NEXT:    "tile.turn_pass"() {who = "last"}
// CHECK-NEXT:    "tile.turn_wait"() {who = "all"}
// CHECK:         scf.for
// CHECK:           "tile.wgmma"({{.*}}) {transpose_b}
// CHECK:           scf.if
// CHECK-NEXT:        arith.subi
// CHECK-NEXT:        arith.remsi
// CHECK-NEXT:        "tile.mbarrier_arrive"
// CHECK-NEXT:      }
// CHECK-NEXT:      "tile.turn_pass"() {who = "all"}
// CHECK-NOT:       tile.turn_pass
// CHECK:           "tile.turn_wait"() {who = "all"}
// CHECK-NEXT:      "tile.wgmma"({{.*}}) {async}
// CHECK-NOT:       tile.turn
// CHECK:         } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
// CHECK-NEXT:    "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK:         "tile.mbarrier_arrive"
// CHECK-NEXT:    }
// CHECK-NEXT:    "tile.turn_pass"() {who = "all"}
// CHECK-NEXT:    "tile.turn_wait"() {who = "first"}
// CHECK:         "tile.store"

// The input: `tilec opt` of the ta of examples/attention.ta (--emit ta) with
// ta-specialize-shapes{shapes=D=64}, the ta rewrites, ta-to-tile{target=sm_90a bm=128 bn=128
// warps=8 stages=3 consumers=2 pingpong=true}, tile-canonicalize, tile-warp-specialize,
// tile-persistent, tile-canonicalize.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 64 : i64, H = 4 : i64, S = 128 : i64, T = 128 : i64}, tile.grid = ["(S+127)/128", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 128 : i64, bn = 128 : i64, consumers = 2 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = true, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 8 : i64}>, tile.threads = 384 : i64} {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c128 = arith.constant 128 : index
    %c0 = arith.constant 0 : index
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c128 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.ceildivsi %arg8, %c128 : index
    %7 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x128x64xbf16, 3>
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %10 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<1xi64, 3>
    %11 = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<3xi64, 3>
    %12 = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<3xi64, 3>
    "tile.warp_specialize"() ({
      "tile.mbarrier_expect"(%10, %c0) {bytes = 16384 : i64} : (memref<1xi64, 3>, index) -> ()
      "tile.tma_copy"(%arg0, %5, %3, %1, %c0, %7, %c0, %10) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<1x128x64xbf16, 3>, index, memref<1xi64, 3>) -> ()
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
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %14 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
      %15 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
      %16:3 = scf.for %arg9 = %c0 to %6 step %c1 iter_args(%arg10 = %13, %arg11 = %14, %arg12 = %15) -> (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x64xf32, #tile.mma<[8, 1]>>) {
        %20 = arith.remsi %arg9, %c3 : index
        %21 = arith.divsi %arg9, %c3 : index
        %22 = arith.remsi %21, %c2 : index
        "tile.mbarrier_wait"(%11, %20, %22) : (memref<3xi64, 3>, index, index) -> ()
        %23 = "tile.map"() ({
          "tile.yield"(%cst) : (f32) -> ()
        }) : () -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %24 = "tile.wgmma"(%7, %8, %20, %23) {transpose_b} : (memref<1x128x64xbf16, 3>, memref<3x128x64xbf16, 3>, index, tensor<128x128xf32, #tile.mma<[8, 1]>>) -> tensor<128x128xf32, #tile.mma<[8, 1]>>
        %25 = arith.cmpi sge, %arg9, %c1 : index
        scf.if %25 {
          %38 = arith.subi %arg9, %c1 : index
          %39 = arith.remsi %38, %c3 : index
          "tile.mbarrier_arrive"(%12, %39) : (memref<3xi64, 3>, index) -> ()
        }
        %26 = arith.muli %arg9, %c128 : index
        %27 = "tile.map"() ({
          %38 = "tile.elem"(%24) {map = #map} : (tensor<128x128xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = arith.mulf %38, %cst_2 : f32
          %40 = "tile.index"() {dim = 1 : i64} : () -> index
          %41 = arith.addi %26, %40 : index
          %42 = arith.cmpi slt, %41, %arg8 : index
          %43 = arith.select %42, %39, %cst_0 : f32
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
          %40 = arith.cmpf oeq, %38, %39 : f32
          %41 = arith.subf %38, %39 : f32
          %42 = math.exp %41 : f32
          %43 = arith.select %40, %cst_1, %42 : f32
          "tile.yield"(%43) : (f32) -> ()
        }) : () -> tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>
        %31 = "tile.map"() ({
          %38 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %39 = arith.cmpf oeq, %38, %cst_0 : f32
          %40 = "tile.elem"(%29) {map = #map1} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %41 = arith.select %39, %cst, %40 : f32
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
          %38 = "tile.elem"(%arg12) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
          %39 = "tile.elem"(%30) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
          %40 = arith.mulf %38, %39 : f32
          "tile.yield"(%40) : (f32) -> ()
        }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
        %37 = "tile.wgmma"(%35, %9, %20, %36) {async} : (tensor<128x128xbf16, #tile.mma<[8, 1]>>, memref<3x128x64xbf16, 3>, index, tensor<128x64xf32, #tile.mma<[8, 1]>>) -> tensor<128x64xf32, #tile.mma<[8, 1]>>
        scf.yield %29, %34, %37 : tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>, tensor<128x64xf32, #tile.mma<[8, 1]>>
      } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
      "tile.wgmma_wait"() {pending = 0 : i64} : () -> ()
      %17 = arith.cmpi sge, %6, %c1 : index
      scf.if %17 {
        %20 = arith.subi %6, %c1 : index
        %21 = arith.remsi %20, %c3 : index
        "tile.mbarrier_arrive"(%12, %21) : (memref<3xi64, 3>, index) -> ()
      }
      %18 = "tile.map"() ({
        %20 = "tile.elem"(%16#2) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
        %21 = "tile.elem"(%16#1) {map = #map2} : (tensor<128xf32, #tile.slice<"mma", [8, 1], 1 : i64>>) -> f32
        %22 = arith.divf %cst_1, %21 : f32
        %23 = arith.mulf %20, %22 : f32
        "tile.yield"(%23) : (f32) -> ()
      }) : () -> tensor<128x64xf32, #tile.mma<[8, 1]>>
      %19 = "tile.map"() ({
        %20 = "tile.elem"(%18) {map = #map} : (tensor<128x64xf32, #tile.mma<[8, 1]>>) -> f32
        %21 = arith.truncf %20 : f32 to bf16
        "tile.yield"(%21) : (bf16) -> ()
      }) : () -> tensor<128x64xbf16, #tile.mma<[8, 1]>>
      "tile.store"(%19, %arg3, %5, %3, %1, %c0) : (tensor<128x64xbf16, #tile.mma<[8, 1]>>, memref<?x?x?x64xbf16>, index, index, index, index) -> ()
    }) {consumer_registers = 232 : i64, producer_registers = 40 : i64} : () -> ()
    return
  }
}
