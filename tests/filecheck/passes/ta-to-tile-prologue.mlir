// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 bk=32 warps=4 stages=3}, tile-canonicalize)' | filecheck %s

// The contraction matcher with prologue maps: relu(X) and W * s[c] are the operands. X and W are
// copied as they are; in the main loop each staged tile is mapped (s read with a tile.load at
// the k offset), masked to 0 past C, and the mma multiplies the f32 results.
// CHECK-LABEL: func.func @ta_to_tile_prologue
// CHECK:       scf.for {{.*}} iter_args({{.*}}) -> (tensor<64x64xf32, #tile.mma<[2, 2]>>)
// CHECK:         %[[XT:.*]] = "tile.smem_load"({{.*}}) : {{.*}} -> tensor<64x32xbf16, #tile.mma_operand<[2, 2], 0 : i64>>
// CHECK:         %[[WT:.*]] = "tile.smem_load"({{.*}}) {transpose} : {{.*}} -> tensor<32x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>
// CHECK:         %[[K0:.*]] = arith.muli %arg{{[0-9]+}}, %c32 : index
// CHECK:         %[[A:.*]] = "tile.map"() ({
// CHECK:           "tile.elem"(%[[XT]])
// CHECK:           arith.maximumf
// CHECK:           "tile.index"() {dim = 1 : i64}
// CHECK:           arith.select
// CHECK:         }) : () -> tensor<64x32xf32, #tile.mma_operand<[2, 2], 0 : i64>>
// CHECK:         %[[S:.*]] = "tile.load"(%arg2, %[[K0]])
// CHECK:         %[[B:.*]] = "tile.map"() ({
// CHECK:           "tile.elem"(%[[WT]])
// CHECK:           "tile.elem"(%[[S]]) {map = #{{.*}}}
// CHECK:           arith.mulf
// CHECK:           "tile.index"() {dim = 0 : i64}
// CHECK:           arith.select
// CHECK:         }) : () -> tensor<32x64xf32, #tile.mma_operand<[2, 2], 1 : i64>>
// CHECK:         "tile.mma"(%[[A]], %[[B]], {{.*}})

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param T = 100, C = 90, N = 70
//   input X[T, C] : bf16
//   input W[N, C] : bf16
//   input s[C] : bf16
//   output Y[T, N] : f32
//   Y[t, n] = sum[c](max(X[t, c], 0.0) * W[n, c] * s[c])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
module {
  func.func @ta_to_tile_prologue(%arg0: tensor<?x?xbf16, ["T", "C"]> {ta.name = "X"}, %arg1: tensor<?x?xbf16, ["N", "C"]> {ta.name = "W"}, %arg2: tensor<?xbf16, ["C"]> {ta.name = "s"}) -> (tensor<?x?xf32, ["T", "N"]> {ta.name = "Y"}) attributes {ta.params = {C = 90 : i64, N = 70 : i64, T = 100 : i64}} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = "ta.map"() ({
      %3 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xbf16, ["T", "C"]>) -> bf16
      %4 = arith.extf %3 : bf16 to f32
      %5 = arith.maximumf %4, %cst : f32
      "ta.yield"(%5) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["T", "C"]>
    %1 = "ta.map"() ({
      %3 = "ta.at"(%arg1) {map = #map} : (tensor<?x?xbf16, ["N", "C"]>) -> bf16
      %4 = arith.extf %3 : bf16 to f32
      %5 = "ta.at"(%arg2) {map = #map1} : (tensor<?xbf16, ["C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = arith.mulf %4, %6 : f32
      "ta.yield"(%7) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["N", "C"]>
    %2 = "ta.contract"(%0, %1) {maps = [#map2, #map3, #map4]} : (tensor<?x?xf32, ["T", "C"]>, tensor<?x?xf32, ["N", "C"]>) -> tensor<?x?xf32, ["T", "N"]>
    return %2 : tensor<?x?xf32, ["T", "N"]>
  }
}
