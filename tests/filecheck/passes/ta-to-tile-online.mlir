// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 warps=4 stages=2}, tile-canonicalize)' | filecheck %s

// The online-group matcher: attention whose value head dim (E = 32) differs from the query/key
// head dim (D = 64). Q is copied once; K and V blocks stream through 2 stages; the loop carries
// the running max, the row sum and the [64, E] accumulator, each tagged with the ta.online op it
// computes (tile.computes).
// CHECK-LABEL: func.func @ta_to_tile_online
// Q and K tiles are D wide, V tiles E wide
// CHECK:       "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x64x64xbf16, 3>
// CHECK:       "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<2x64x64xbf16, 3>
// CHECK:       "tile.alloc"() {layout = #tile.layout<[64, 32], [32, 1], [2, 3, 3]>} : () -> memref<2x64x32xbf16, 3>
// CHECK:       scf.for {{.*}} -> (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x32xf32, #tile.mma<[4, 1]>>)
// S = Q K^T for the key block, keys past T masked (tile.index along the key dim)
// CHECK:         "tile.mma"({{.*}}) : (tensor<64x64xbf16, #tile.mma_operand<[4, 1], 0 : i64>>, tensor<64x64xbf16, #tile.mma_operand<[4, 1], 1 : i64>>
// CHECK:         "tile.index"() {dim = 1 : i64}
// the new max, the rescale factor exp(m - m'), the block's exponentials and their row sum
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max"}
// CHECK:         arith.maximumf
// CHECK:         math.exp
// CHECK:         math.exp
// CHECK:         "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "sum"}
// P (bf16, in the accumulator layout) times the V block into the rescaled accumulator
// CHECK:         -> tensor<64x64xbf16, #tile.mma<[4, 1]>>
// CHECK:         "tile.mma"({{.*}}) : (tensor<64x64xbf16, #tile.mma<[4, 1]>>, tensor<64x32xbf16, #tile.mma_operand<[4, 1], 1 : i64>>, tensor<64x32xf32, #tile.mma<[4, 1]>>)
// CHECK:       } {tile.computes = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], tile.stages = 2 : i64}
// the epilogue divides by the row sum, rounds, and stores [64, E]
// CHECK:       arith.divf
// CHECK:       "tile.store"({{.*}}) : (tensor<64x32xbf16, #tile.mma<[4, 1]>>

// The input is the ta IR of this spec at E=32, D=64 after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param B = 1, H = 2, S = 100, T = 90, D = 64, E = 32
//   input Q[B, H, S, D] : bf16
//   input K[B, H, T, D] : bf16
//   input V[B, H, T, E] : bf16
//   output O[B, H, S, E] : bf16
//   O[b, h, i, e] = sum[j](softmax[j](sum[d](Q[b, h, i, d] * K[b, h, j, d]) * rsqrt(D)) * V[b, h, j, e])

#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
module {
  func.func @ta_to_tile_online(%arg0: tensor<?x?x?x64xbf16, ["B", "H", "S", "D"]> {ta.name = "Q"}, %arg1: tensor<?x?x?x64xbf16, ["B", "H", "T", "D"]> {ta.name = "K"}, %arg2: tensor<?x?x?x32xbf16, ["B", "H", "T", "E"]> {ta.name = "V"}) -> (tensor<?x?x?x32xbf16, ["B", "H", "S", "E"]> {ta.name = "O"}) attributes {ta.params = {B = 1 : i64, D = 64 : i64, E = 32 : i64, H = 2 : i64, S = 100 : i64, T = 90 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 1.250000e-01 : f32
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?x?x64xbf16, ["B", "H", "S", "D"]>, tensor<?x?x?x64xbf16, ["B", "H", "T", "D"]>) -> tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>
    %1 = "ta.online"() ({
      %5 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>) -> f32
      %6 = arith.mulf %5, %cst_0 : f32
      "ta.yield"(%6, %cst) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "H", "S", "T", "E"], group = "g0", kind = "sum", map = #map3} : () -> tensor<?x?x?xf32, ["B", "H", "S"]>
    %2 = "ta.online"() ({
      %5 = "ta.at"(%arg2) {map = #map4} : (tensor<?x?x?x32xbf16, ["B", "H", "T", "E"]>) -> bf16
      %6 = arith.extf %5 : bf16 to f32
      %7 = "ta.at"(%0) {map = #map} : (tensor<?x?x?x?xf32, ["B", "H", "S", "T"]>) -> f32
      %8 = arith.mulf %7, %cst_0 : f32
      "ta.yield"(%8, %6) : (f32, f32) -> ()
    }) {dim = 3 : i64, extents = ["B", "H", "S", "T", "E"], group = "g0", kind = "sum", map = #map2} : () -> tensor<?x?x?x?xf32, ["B", "H", "S", "E"]>
    %3 = "ta.map"() ({
      %5 = "ta.at"(%2) {map = #map5} : (tensor<?x?x?x?xf32, ["B", "H", "S", "E"]>) -> f32
      %6 = "ta.at"(%1) {map = #map6} : (tensor<?x?x?xf32, ["B", "H", "S"]>) -> f32
      %7 = arith.divf %cst, %6 : f32
      %8 = arith.mulf %5, %7 : f32
      "ta.yield"(%8) : (f32) -> ()
    }) : () -> tensor<?x?x?x32xf32, ["B", "H", "S", "E"]>
    %4 = "ta.map"() ({
      %5 = "ta.at"(%3) {map = #map5} : (tensor<?x?x?x32xf32, ["B", "H", "S", "E"]>) -> f32
      %6 = arith.truncf %5 : f32 to bf16
      "ta.yield"(%6) : (bf16) -> ()
    }) : () -> tensor<?x?x?x32xbf16, ["B", "H", "S", "E"]>
    return %4 : tensor<?x?x?x32xbf16, ["B", "H", "S", "E"]>
  }
}
