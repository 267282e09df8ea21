// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=8 bn=64 warps=4}, tile-canonicalize)' | filecheck %s

// The pointwise matcher: a transpose, a broadcast and a shifted read, no reduction. Each
// output element is one expression; each input element is a tile.gather at the composition
// of the index maps between it and the output; grid y walks the leading dims.
// the maps themselves: X read transposed, S broadcast along the rows, Z one step further along T
// CHECK-DAG:   #map = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG:   #map1 = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG:   #map2 = affine_map<(d0, d1, d2) -> (d0, d2, d1 + 1)>
// CHECK-LABEL: func.func @ta_to_tile_pointwise
// CHECK-SAME:  tile.grid = ["(T+7)/8", "B"], tile.pointwise
// CHECK:       %[[P0:.*]] = "tile.program_id"() {axis = 0 : i64}
// CHECK:       %[[P1:.*]] = "tile.program_id"() {axis = 1 : i64}
// CHECK:       %[[B:.*]] = arith.remsi %[[P1]], %arg
// the columns (N) in blocks of bn
// CHECK:       scf.for
// CHECK:         "tile.map"() ({
// CHECK:           "tile.gather"(%arg0, %[[B]], {{.*}}) {map = #map, padding = 0.000000e+00 : f32}
// CHECK:           "tile.gather"(%arg1, %[[B]], {{.*}}) {map = #map1, padding = 0.000000e+00 : f32}
// CHECK:           "tile.gather"(%arg2, %[[B]], {{.*}}) {map = #map2, padding = 0.000000e+00 : f32}
// 16-byte vectors of f32 (4 a lane), 16 lanes a row of 64 columns: a warp spans two rows
// CHECK:         }) {tile.computes = {{[0-9]+}} : i64} : () -> tensor<8x64xf32, #tile.blocked<4 : i64, 4 : i64, 16 : i64, 1 : i64>>
// CHECK:         "tile.store"({{.*}}, %arg3, %[[B]], {{.*}})

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param B = 2, T = 37, N = 100
//   input X[B, N, T] : f32
//   input S[N] : f32
//   input Z[B, N, T + 1] : f32
//   output Y[B, T, N] : f32
//   Y[b, t, n] = X[b, n, t] * S[n] + Z[b, n, t + 1]

#map = affine_map<(d0, d1, d2) -> (d0, d1, d2 + 1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @ta_to_tile_pointwise(%arg0: tensor<?x?x?xf32, ["B", "N", "T"]> {ta.name = "X"}, %arg1: tensor<?xf32, ["N"]> {ta.name = "S"}, %arg2: tensor<?x?x?xf32, ["B", "N", "T+1"]> {ta.name = "Z"}) -> (tensor<?x?x?xf32, ["B", "T", "N"]> {ta.name = "Y"}) attributes {ta.params = {B = 2 : i64, N = 100 : i64, T = 37 : i64}} {
    %0 = "ta.remap"(%arg2) {map = #map} : (tensor<?x?x?xf32, ["B", "N", "T+1"]>) -> tensor<?x?x?xf32, ["B", "N", "T"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%arg0) {map = #map1} : (tensor<?x?x?xf32, ["B", "N", "T"]>) -> f32
      %3 = "ta.at"(%arg1) {map = #map2} : (tensor<?xf32, ["N"]>) -> f32
      %4 = arith.mulf %2, %3 : f32
      %5 = "ta.at"(%0) {map = #map1} : (tensor<?x?x?xf32, ["B", "N", "T"]>) -> f32
      %6 = arith.addf %4, %5 : f32
      "ta.yield"(%6) : (f32) -> ()
    }) : () -> tensor<?x?x?xf32, ["B", "T", "N"]>
    return %1 : tensor<?x?x?xf32, ["B", "T", "N"]>
  }
}
