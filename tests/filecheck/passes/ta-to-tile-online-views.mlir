// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 warps=4 stages=2}, tile-canonicalize)' | filecheck %s

// The online-group matcher on attention stored in einsum order, [B, S, H, D]: the rows of a tile
// run along S, not the second-to-last dim. Q, K, V and O are read through the row-major view
// [B, S, H*D] of their memory (ta.dims names the merged dim); the CTA of head h copies and
// stores the columns h*D .. h*D + 63, and the batch program id splits into b and h.
// CHECK-LABEL: func.func @ta_to_tile_online_views
// CHECK-SAME:  memref<?x?x?xbf16> {ta.dims = ["B", "S", "H*D"], ta.name = "Q"}
// CHECK-SAME:  memref<?x?x?xbf16> {ta.dims = ["B", "T", "H*D"], ta.name = "K"}
// CHECK-SAME:  memref<?x?x?xbf16> {ta.dims = ["B", "T", "H*D"], ta.name = "V"}
// CHECK-SAME:  memref<?x?x?xbf16> {ta.dims = ["B", "S", "H*D"], ta.name = "O", ta.output}
// CHECK-SAME:  %[[D:arg[0-9]+]]: index {ta.param = "D"}, %[[H:arg[0-9]+]]: index {ta.param = "H"}
// CHECK:       %[[Q0:[0-9]+]] = arith.muli %{{.*}}, %c64
// CHECK:       %[[HEAD:[0-9]+]] = arith.remsi %{{.*}}, %[[H]]
// CHECK:       %[[B:[0-9]+]] = arith.remsi %{{.*}}, %arg
// CHECK:       %[[COL:[0-9]+]] = arith.muli %[[HEAD]], %[[D]]
// CHECK:       "tile.async_copy"(%arg0, %[[B]], %[[Q0]], %[[COL]], {{.*}}) : (memref<?x?x?xbf16>, index, index, index
// the pipeline's prologue (one stage ahead: inlined) and the main loop copy K and V blocks of the same columns
// CHECK:       "tile.async_copy"(%arg1, %[[B]], %c0, %{{[0-9]+}}, {{.*}}) {tile.prologue}
// CHECK:       "tile.async_copy"(%arg2, %[[B]], %c0, %{{[0-9]+}}, {{.*}}) {tile.prologue}
// CHECK:       scf.for
// CHECK:         "tile.async_copy"(%arg1, %[[B]], %{{[0-9]+}}, %{{[0-9]+}},
// CHECK:         "tile.async_copy"(%arg2, %[[B]], %{{[0-9]+}}, %{{[0-9]+}},
// CHECK:       "tile.store"(%{{.*}}, %arg3, %[[B]], %[[Q0]], %{{[0-9]+}}) : (tensor<64x64xbf16, #tile.mma<[4, 1]>>, memref<?x?x?xbf16>, index, index, index)

// The input is the ta IR of this spec at D=64 after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param B = 1, H = 2, S = 100, T = 90, D = 64
//   input Q[B, S, H, D] : bf16
//   input K[B, T, H, D] : bf16
//   input V[B, T, H, D] : bf16
//   output O[B, S, H, D] : bf16
//   O[b, i, h, d] = sum[j](softmax[j](sum[e](Q[b, i, h, e] * K[b, j, h, e]) * rsqrt(D)) * V[b, j, h, d])

#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2, d4)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @ta_to_tile_online_views(%arg0: tensor<?x?x?x64xbf16, ["B", "S", "H", "D"]> {ta.name = "Q"}, %arg1: tensor<?x?x?x64xbf16, ["B", "T", "H", "D"]> {ta.name = "K"}, %arg2: tensor<?x?x?x64xbf16, ["B", "T", "H", "D"]> {ta.name = "V"}) -> (tensor<?x?x?x64xbf16, ["B", "S", "H", "D"]> {ta.name = "O"}) attributes {ta.params = {B = 1 : i64, D = 64 : i64, H = 2 : i64, S = 100 : i64, T = 90 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 1.250000e-01 : f32
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?x?x64xbf16, ["B", "S", "H", "D"]>, tensor<?x?x?x64xbf16, ["B", "T", "H", "D"]>) -> tensor<?x?x?x?xf32, ["B", "S", "H", "T"]>
    %1 = "ta.online"() ({
      %5 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "S", "H", "T"]>) -> f32
      %6 = arith.mulf %5, %cst_0 : f32
      "ta.yield"(%6, %cst) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "S", "H", "T", "D"], group = "g0", kind = "sum", map = #map3} : () -> tensor<?x?x?xf32, ["B", "S", "H"]>
    %2 = "ta.online"() ({
      %5 = "ta.at"(%arg2) {map = #map4} : (tensor<?x?x?x64xbf16, ["B", "T", "H", "D"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "S", "H", "T"]>) -> f32
      %8 = arith.mulf %7, %cst_0 : f32
      "ta.yield"(%8, %6) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "S", "H", "T", "D"], group = "g0", kind = "sum", map = #map2} : () -> tensor<?x?x?x?xf32, ["B", "S", "H", "D"]>
    %3 = "ta.map"() ({
      %5 = "ta.at"(%2) {map = #map5} : (tensor<?x?x?x?xf32, ["B", "S", "H", "D"]>) -> f32
      %6 = "ta.at"(%1) {map = #map6} : (tensor<?x?x?xf32, ["B", "S", "H"]>) -> f32
      %7 = arith.divf %cst, %6 : f32
      %8 = arith.mulf %5, %7 : f32
      "ta.yield"(%8) : (f32) -> ()
    }) : () -> tensor<?x?x?x64xf32, ["B", "S", "H", "D"]>
    %4 = "ta.map"() ({
      %5 = "ta.at"(%3) {map = #map5} : (tensor<?x?x?x64xf32, ["B", "S", "H", "D"]>) -> f32
      %6 = arith.truncf %5 : f32 to bf16
      "ta.yield"(%6) : (bf16) -> ()
    }) : () -> tensor<?x?x?x64xbf16, ["B", "S", "H", "D"]>
    return %4 : tensor<?x?x?x64xbf16, ["B", "S", "H", "D"]>
  }
}
