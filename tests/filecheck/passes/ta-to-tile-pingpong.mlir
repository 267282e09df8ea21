// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=64 bn=256 bk=64 warps=8 stages=4 consumers=2 pingpong=true persistent=true}, tile-canonicalize)' | filecheck %s

// A ping-pong contraction (sm_90a): each of the two consumer warpgroups runs the consumer
// region on its own (consumer_roles = 2) and owns whole 64 x 256 tiles. empty counts one
// warpgroup's 4 warps; a third barrier array of one stage per warpgroup is the turn token.
// Warpgroup g loops over the CTA's tiles from pid + g * CTAs in steps of 2 * CTAs; before a
// tile's ring iterations it waits on turn[g] (parity ((n + 1) div 2 + 1) mod 2 at the CTA's
// n-th tile) and after its last wait on full it arrives on turn[(g + 1) mod 2].
// CHECK-LABEL: func.func @ta_to_tile_pingpong
// CHECK:       %[[FULL:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 1 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[EMPTY:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<4xi64, 3>
// CHECK:       %[[TURN:[0-9]+]] = "tile.mbarrier_alloc"() {arrivals = 4 : i64} : () -> memref<2xi64, 3>
// CHECK:       "tile.warp_specialize"() ({
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
  func.func @ta_to_tile_pingpong(%arg0: tensor<?x?xbf16, ["M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?xbf16, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xbf16, ["M", "N"]> {ta.name = "C"}) attributes {ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}} {
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%0) {map = #map3} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %3 = arith.truncf %2 : f32 to bf16
      "ta.yield"(%3) : (bf16) -> ()
    }) : () -> tensor<?x?xbf16, ["M", "N"]>
    return %1 : tensor<?x?xbf16, ["M", "N"]>
  }
}
