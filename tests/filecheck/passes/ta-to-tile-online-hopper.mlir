// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=128 bn=128 warps=8 stages=2 consumers=2}, tile-canonicalize)' | filecheck %s

// Attention under a schedule with consumer warpgroups (sm_90a): Q [128, 128] is two 64-column
// boxes of the 128-byte swizzle, copied once onto a one-stage barrier of its own; K and V
// blocks [128, 128] stream through a two-stage ring (full: the producer's arrival and
// 128*(128+128)*2 bytes; empty: one arrival per consumer warp). The consumers wait for Q, then
// per key block for the stage: Q·Kᵀ by wgmma from shared memory (K stored [n, k]:
// transpose_b), which also waits for the block before's P·V, so that block's stage is
// released; the online step in registers; P·V by wgmma with P in registers, left in flight.
// After the loop: the wait for the last P·V and the release of its stage.
// CHECK-LABEL: func.func @ta_to_tile_online_hopper
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

// The input is the ta IR of this spec at D=128 after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param B = 2, H = 4, S = 1000, T = 1000, D = 128
//   input Q[B, H, S, D] : bf16
//   input K[B, H, T, D] : bf16
//   input V[B, H, T, D] : bf16
//   output O[B, H, S, D] : bf16
//   O[b, h, i, d] = sum[j](softmax[j](sum[e](Q[b, h, i, e] * K[b, h, j, e]) * rsqrt(D)) * V[b, h, j, d])

#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @ta_to_tile_online_hopper(%arg0: tensor<?x?x?x128xbf16, ["B", "H", "S", "D"]> {ta.name = "Q"}, %arg1: tensor<?x?x?x128xbf16, ["B", "H", "T", "D"]> {ta.name = "K"}, %arg2: tensor<?x?x?x128xbf16, ["B", "H", "T", "D"]> {ta.name = "V"}) -> (tensor<?x?x?x128xbf16, ["B", "H", "S", "D"]> {ta.name = "O"}) attributes {ta.params = {B = 2 : i64, D = 128 : i64, H = 4 : i64, S = 1000 : i64, T = 1000 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 0.0883883461 : f32
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?x?x128xbf16, ["B", "H", "S", "D"]>, tensor<?x?x?x128xbf16, ["B", "H", "T", "D"]>) -> tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>
    %1 = "ta.online"() ({
      %5 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>) -> f32
      %6 = arith.mulf %5, %cst_0 : f32
      "ta.yield"(%6, %cst) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "H", "S", "T", "D"], group = "g0", kind = "sum", map = #map3} : () -> tensor<?x?x?xf32, ["B", "H", "S"]>
    %2 = "ta.online"() ({
      %5 = "ta.at"(%arg2) {map = #map4} : (tensor<?x?x?x128xbf16, ["B", "H", "T", "D"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>) -> f32
      %8 = arith.mulf %7, %cst_0 : f32
      "ta.yield"(%8, %6) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "H", "S", "T", "D"], group = "g0", kind = "sum", map = #map2} : () -> tensor<?x?x?x?xf32, ["B", "H", "S", "D"]>
    %3 = "ta.map"() ({
      %5 = "ta.at"(%2) {map = #map5} : (tensor<?x?x?x?xf32, ["B", "H", "S", "D"]>) -> f32
      %6 = "ta.at"(%1) {map = #map6} : (tensor<?x?x?xf32, ["B", "H", "S"]>) -> f32
      %7 = arith.divf %cst, %6 : f32
      %8 = arith.mulf %5, %7 : f32
      "ta.yield"(%8) : (f32) -> ()
    }) : () -> tensor<?x?x?x128xf32, ["B", "H", "S", "D"]>
    %4 = "ta.map"() ({
      %5 = "ta.at"(%3) {map = #map5} : (tensor<?x?x?x128xf32, ["B", "H", "S", "D"]>) -> f32
      %6 = arith.truncf %5 : f32 to bf16
      "ta.yield"(%6) : (bf16) -> ()
    }) : () -> tensor<?x?x?x128xbf16, ["B", "H", "S", "D"]>
    return %4 : tensor<?x?x?x128xbf16, ["B", "H", "S", "D"]>
  }
}
