// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=8 bn=1024 warps=4}, tile-canonicalize)' | filecheck %s
// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile)' | filecheck %s --check-prefix=DEFAULT

// A row one column block holds (C fixed at 1000, bn = 1024): no column loops; X is loaded once
// and both reductions and the element map read that tile. Each state starts neutral
// (tile.state_init) and folds the block once (tile.state: [ta op, slot]); the stabilised sum
// shares the max's (tile.shared_max). ta-to-tile without a schedule (the second run line, the pass's
// own default, not a command's pick) keeps the column loops for a stabilised sum (its
// exponentials would stay live beside the row: measured slower on the H200). With C left free
// the loops stay too: ta-to-tile-rows-column-loops.mlir.

// CHECK-LABEL: func.func @ta_to_tile_rows_one_block
// CHECK-SAME:  memref<?x1000xbf16>
// CHECK-SAME:  tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 8 : i64, bn = 1024 : i64
// CHECK-NOT:   scf.for
// CHECK:       {tile.state_init = [1, 0]}
// CHECK:       {tile.state_init = [2, 0]}
// CHECK:       %[[X:.*]] = "tile.load"(%arg0, {{.*}}) {{.*}} -> tensor<8x1024xbf16, #tile.blocked<4 : i64, 8 : i64, 32 : i64, 1 : i64>>
// CHECK-NOT:   "tile.load"
// CHECK:       "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:       {tile.state = [1, 0]}
// CHECK:       "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "sum"}
// CHECK:       {tile.shared_max = 1 : i64, tile.state = [2, 0]}
// CHECK:       "tile.elem"(%[[X]])
// CHECK:       math.exp
// CHECK:       arith.divf
// CHECK:       "tile.store"
// CHECK-NOT:   scf.for

// DEFAULT-LABEL: func.func @ta_to_tile_rows_one_block
// DEFAULT-SAME:  bm = 8 : i64, bn = 256 : i64
// DEFAULT:       scf.for

// The input is the ta IR of this spec at C=1000 after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param N = 64, C = 1000
//   input X[N, C] : bf16
//   output Y[N, C] : bf16
//   Y[n, c] = softmax[c](X[n, c])

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @ta_to_tile_rows_one_block(%arg0: tensor<?x1000xbf16, ["N", "C"]> {ta.name = "X"}) -> (tensor<?x1000xbf16, ["N", "C"]> {ta.name = "Y"}) attributes {ta.params = {C = 1000 : i64, N = 64 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = "ta.online"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x1000xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      "ta.yield"(%6) : (f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "max", map = #map1} : () -> tensor<?xf32, ["N"]>
    %1 = "ta.online"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x1000xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      "ta.yield"(%6, %cst) : (f32, f32) -> ()
    }) {dim = 1 : i64, extents = ["N", "C"], group = "g0", kind = "sum", map = #map1} : () -> tensor<?xf32, ["N"]>
    %2 = "ta.map"() ({
      %5 = "ta.at"(%arg0) {map = #map} : (tensor<?x1000xbf16, ["N", "C"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = "ta.at"(%0) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %8 = arith.subf %6, %7 : f32
      %9 = math.exp %8 : f32
      "ta.yield"(%9) : (f32) -> ()
    }) : () -> tensor<?x1000xf32, ["N", "C"]>
    %3 = "ta.map"() ({
      %5 = "ta.at"(%2) {map = #map} : (tensor<?x1000xf32, ["N", "C"]>) -> f32
      %6 = "ta.at"(%1) {map = #map1} : (tensor<?xf32, ["N"]>) -> f32
      %7 = arith.divf %5, %6 : f32
      "ta.yield"(%7) : (f32) -> ()
    }) : () -> tensor<?x1000xf32, ["N", "C"]>
    %4 = "ta.map"() ({
      %5 = "ta.at"(%3) {map = #map} : (tensor<?x1000xf32, ["N", "C"]>) -> f32
      %6 = arith.truncf %5 : f32 to bf16
      "ta.yield"(%6) : (bf16) -> ()
    }) : () -> tensor<?x1000xbf16, ["N", "C"]>
    return %4 : tensor<?x1000xbf16, ["N", "C"]>
  }
}
