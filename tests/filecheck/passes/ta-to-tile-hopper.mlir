// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=128 bn=256 bk=64 warps=8 stages=4 consumers=2}, tile-canonicalize)' | filecheck %s

// ta-to-tile builds the same staged program under a schedule with consumer warpgroups (sm_90a)
// as under any other: cp.async copies into swizzled shared tiles, a prologue filling the first
// stages, a main loop of ldmatrix loads and mma.sync. The schedule it records (consumers = 2,
// the threads of a producer warpgroup and two consumer ones) asks sm_90a's tile-warp-specialize
// for the warp-specialised kernel (tile-warp-specialize.mlir); ta-to-tile builds none of it.
// CHECK-LABEL: func.func @ta_to_tile_hopper
// CHECK-SAME:  consumers = 2
// CHECK-SAME:  tile.threads = 384
// CHECK-NOT:   tile.warp_specialize
// CHECK:       "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<4x128x64xbf16, 3>
// CHECK:       "tile.async_copy"
// CHECK:       "tile.commit_group"() {tile.prologue}
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         "tile.smem_load"
// CHECK:         "tile.mma"
// CHECK:       } {tile.stages = 4 : i64}
// CHECK-NOT:   tile.wgmma
// CHECK:       "tile.store"

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
