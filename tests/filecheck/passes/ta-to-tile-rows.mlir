// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=8 bn=64 warps=4}, tile-canonicalize)' | filecheck %s

// The row-program matcher: softmax after fusion is a running max and a stabilised sum over
// column blocks, then an element loop; every register tile carries the blocked layout.
// CHECK-LABEL: func.func @ta_to_tile_rows
// CHECK-SAME:  tile.grid = ["(N+7)/8", "1"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 8 : i64, bn = 64 : i64
// CHECK:       "tile.program_id"() {axis = 0 : i64}
// the reduction loop carries (max, sum): one value per row, a warp per row; the stabilised sum
// rescales by the max's running value (tile.shared_max) instead of keeping its own
// CHECK:       scf.for {{.*}} iter_args({{.*}}) -> (tensor<8xf32, #tile.slice<"blocked", [4, 2, 32, 1], 1 : i64>>
// CHECK:         "tile.load"({{.*}}) {padding = 0.000000e+00 : f32} : {{.*}} -> tensor<8x64xf32, #tile.blocked<4 : i64, 2 : i64, 32 : i64, 1 : i64>>
// columns past C are masked to the neutral element before the row reduction
// CHECK:         arith.cmpi slt
// CHECK:         arith.select
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "sum"}
// CHECK-NOT:     "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:       } {tile.computes = [1, 2], tile.shared_max = {{\[\[}}2, 1{{\]\]}}}
// the element loop: exp(x - max) / sum, stored block by block
// CHECK:       scf.for
// CHECK:         math.exp
// CHECK:         arith.divf
// CHECK:         "tile.store"

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param N = 64, C = 1000
//   input X[N, C] : f32
//   output Y[N, C] : f32
//   Y[n, c] = softmax[c](X[n, c])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @ta_to_tile_rows(%arg0: tensor<?x?xf32, ["N", "C"]> {ta.name = "X"}) -> (tensor<?x?xf32, ["N", "C"]> {ta.name = "Y"}) attributes {ta.params = {C = 1000 : i64, N = 64 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = "ta.online"() ({
      %4 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      "ta.yield"(%4) : (f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "max", map = #map1} : () -> tensor<?xf32, ["N"]>
    %1 = "ta.online"() ({
      %4 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      "ta.yield"(%4, %cst) : (f32, f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "sum", map = #map1} : () -> tensor<?xf32, ["N"]>
    %2 = "ta.map"() ({
      %4 = "ta.at"(%arg0) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      %5 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %6 = arith.subf %4, %5 : f32
      %7 = math.exp %6 : f32
      "ta.yield"(%7) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["N", "C"]>
    %3 = "ta.map"() ({
      %4 = "ta.at"(%2) {map = #map} : (tensor<?x?xf32, ["N", "C"]>) -> f32
      %5 = "ta.at"(%1) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %6 = arith.divf %4, %5 : f32
      "ta.yield"(%6) : (f32) -> ()
    }) : () -> tensor<?x?xf32, ["N", "C"]>
    return %3 : tensor<?x?xf32, ["N", "C"]>
  }
}
