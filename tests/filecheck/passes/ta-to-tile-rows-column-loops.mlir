// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=8 bn=256 warps=4}, tile-canonicalize)' | filecheck %s --check-prefix=LOOPS

// The row program of ta-to-tile-rows-one-block.mlir with C left free: a column block of 256
// cannot hold the row, so the statistics and the output each loop over the column blocks.

// LOOPS-LABEL: func.func @ta_to_tile_rows_one_block
// LOOPS:       scf.for
// LOOPS:         "tile.load"
// LOOPS:       } {tile.computes = [1, 2], tile.shared_max = {{\[\[}}2, 1{{\]\]}}}
// LOOPS:       scf.for
// LOOPS:         "tile.load"
// LOOPS-NOT:   tile.state

// The input is the ta IR of this spec, C free, after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param N = 64, C = 1000
//   input X[N, C] : bf16
//   output Y[N, C] : bf16
//   Y[n, c] = softmax[c](X[n, c])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @ta_to_tile_rows_one_block(%arg0: tensor<?x?xbf16, ["N", "C"]> {ta.name = "X"}) -> (tensor<?x?xbf16, ["N", "C"]> {ta.name = "Y"}) attributes {ta.params = {C = 1000 : i64, N = 64 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = "ta.online"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      "ta.yield"(%6) : (f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "max", map = #map1} : () -> tensor<?xf32, ["N"]>
    %1 = "ta.online"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      "ta.yield"(%6, %cst) : (f32, f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "sum", map = #map1} : () -> tensor<?xf32, ["N"]>
    %2 = "ta.map"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %8 = arith.subf %6, %7 : f32
      %9 = math.exp %8 : f32
      "ta.yield"(%9) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["N", "C"]>
    %3 = "ta.map"() ({
      %5 = "ta.at"(%2) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      %6 = "ta.at"(%1) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %7 = arith.divf %5, %6 : f32
      "ta.yield"(%7) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["N", "C"]>
    %4 = "ta.map"() ({
      %5 = "ta.at"(%3) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      %6 = arith.truncf %5 : f32 to bf16
      "ta.yield"(%6) : (bf16) -> ()
    }) : () -> tensor<?x?xbf16, ["N", "C"]>
    return %4 : tensor<?x?xbf16, ["N", "C"]>
  }
}
