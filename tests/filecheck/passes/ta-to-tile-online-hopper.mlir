// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=128 bn=128 warps=8 stages=2 consumers=2}, tile-canonicalize)' | filecheck %s

// ta-to-tile builds the same staged attention kernel under a schedule with consumer warpgroups
// (sm_90a) as under any other: Q copied once, K and V blocks through a cp.async pipeline, Q·Kᵀ and
// P·V by mma.sync. The schedule it records asks sm_90a's tile-warp-specialize for the
// warp-specialised kernel (tile-warp-specialize-attention.mlir).
// CHECK-LABEL: func.func @ta_to_tile_online_hopper
// CHECK-SAME:  consumers = 2
// CHECK-SAME:  tile.threads = 384
// CHECK-NOT:   tile.warp_specialize
// CHECK:       "tile.async_copy"(%arg0
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         "tile.mma"
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:         "tile.mma"
// CHECK:       } {tile.computes = [{{.*}}], tile.stages = 2 : i64}
// CHECK-NOT:   tile.wgmma
// CHECK:       "tile.store"

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
