// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2 persistent=true tma-store=true}, tile-canonicalize)' | filecheck %s
// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=64 bn=128 bk=64 warps=8 stages=3 consumers=2 pingpong=true persistent=true tma-store=true}, tile-canonicalize)' | filecheck %s --check-prefix=PP

// A contraction whose tile the copy engine stores (tma_store=true): two staging buffers of one
// 128-byte swizzle row per stored row (64 bf16 columns, one copy box), allocated after the
// operand tiles; the consumers end each tile with tile.tma_store instead of tile.store. In
// ping-pong, each warpgroup stores through its own set of two (sets = 2), from buffer 2 g.
// CHECK-LABEL: func.func @ta_to_tile_tma_store
// CHECK:       tma_store = true
// CHECK:       "tile.alloc"() {{.*}} -> memref<4x64x256xbf16, 3>
// CHECK:       %[[ST:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x128x64xbf16, 3>
// CHECK:       "tile.warp_specialize"() ({
// CHECK:       }, {
// CHECK:         "tile.wgmma_wait"() {pending = 0 : i64}
// CHECK-NOT:     "tile.store"
// CHECK:         "tile.tma_store"(%{{[0-9]+}}, %arg2, %{{[0-9]+}}, %{{[0-9]+}}, %[[ST]], %c0) {sets = 1 : i64}
// PP-LABEL:    func.func @ta_to_tile_tma_store
// PP:          %[[ST:[0-9]+]] = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x64x64xbf16, 3>
// PP:          %[[G:[0-9]+]] = "tile.warpgroup_id"() : () -> index
// PP:          %[[FIRST:[0-9]+]] = arith.muli %[[G]], %c2
// PP:          "tile.tma_store"(%{{[0-9]+}}, %arg2, %{{[0-9]+}}, %{{[0-9]+}}, %[[ST]], %[[FIRST]]) {sets = 2 : i64}

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
  func.func @ta_to_tile_tma_store(%arg0: tensor<?x?xbf16, ["M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?xbf16, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xbf16, ["M", "N"]> {ta.name = "C"}) attributes {ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}} {
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%0) {map = #map3} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %3 = arith.truncf %2 : f32 to bf16
      "ta.yield"(%3) : (bf16) -> ()
    }) : () -> tensor<?x?xbf16, ["M", "N"]>
    return %1 : tensor<?x?xbf16, ["M", "N"]>
  }
}
