// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2}, tile-canonicalize)' | filecheck %s

// A contraction under a schedule with consumer warpgroups (sm_90a): the tiles are placed as the
// copy engine writes them (A [128, 64] in one 128-byte-swizzled box, B [64, 256] as four
// 64-column boxes side by side: a split stride), two mbarrier rings (full: the producer's one
// arrival and its bytes; empty: one arrival per consumer warp), and one tile.warp_specialize
// whose producer waits for a stage's release, expects 128*64*2 + 64*256*2 bytes and starts
// both copies, and whose consumers wait for the stage, issue its wgmma asynchronously, wait
// until only that group is in flight and release the previous iteration's stage (from the
// second iteration on); after the loop they wait for the last group and release its stage.
// CHECK-LABEL: func.func @ta_to_tile_hopper
// CHECK-SAME:  tile.threads = 384
// CHECK:       %[[SA:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
// CHECK:       %[[SB:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[64, 256], [64, [64, 1, 4096]], [3, 3, 3]>} : () -> memref<4x64x256xbf16, 3>
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 8 : i64} : () -> memref<4xi64, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK:         scf.for %[[PT:arg[0-9]+]] =
// CHECK:           %[[S:[0-9]+]] = arith.remsi %[[PT]], %c4
// CHECK:           %[[RELEASED:[0-9]+]] = arith.subi %c1, %{{[0-9]+}}
// CHECK:           "tile.mbarrier_wait"(%[[EMPTY]], %[[S]], %[[RELEASED]])
// CHECK:           "tile.mbarrier_expect"(%[[FULL]], %[[S]]) {bytes = 49152 : i64}
// CHECK:           "tile.tma_copy"(%arg0, %{{[0-9]+}}, %{{[0-9]+}}, %[[SA]], %[[S]], %[[FULL]])
// CHECK:           "tile.tma_copy"(%arg1, %{{[0-9]+}}, %{{[0-9]+}}, %[[SB]], %[[S]], %[[FULL]])
// CHECK:       }, {
// CHECK:         scf.for %[[KT:arg[0-9]+]] = {{.*}} iter_args
// CHECK:           %[[T:[0-9]+]] = arith.remsi %[[KT]], %c4
// CHECK:           "tile.mbarrier_wait"(%[[FULL]], %[[T]], %{{[0-9]+}})
// CHECK:           "tile.wgmma"(%[[SA]], %[[SB]], %[[T]], %{{.*}}) {async, tile.computes = 0 : i64} {{.*}} -> tensor<128x256xf32, #tile.mma<[8, 1]>>
// CHECK-NEXT:      "tile.wgmma_wait"() {pending = 1 : i64}
// CHECK-NEXT:      %[[LATER:[0-9]+]] = arith.cmpi sge, %[[KT]], %c1
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

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ta_to_tile_hopper(%arg0: tensor<?x?xbf16, ["M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?xbf16, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xbf16, ["M", "N"]> {ta.name = "C"}) attributes {ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}} {
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%0) {map = #map3} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %3 = arith.truncf %2 : f32 to bf16
      "ta.yield"(%3) : (bf16) -> ()
    }) : () -> tensor<?x?xbf16, ["M", "N"]>
    return %1 : tensor<?x?xbf16, ["M", "N"]>
  }
}
