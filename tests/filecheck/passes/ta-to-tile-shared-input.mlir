// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 bk=32 warps=4 stages=3}, tile-canonicalize)' | filecheck %s

// Two contractions that share their first operand lower into one kernel (a SwiGLU MLP):
// one A tile feeds two mma per K step, each accumulator tagged with the ta op it computes,
// and silu(x Wg) * (x Wu) is the register epilogue.
// CHECK-LABEL: func.func @ta_to_tile_shared_input
// one A buffer, one B buffer per weight
// CHECK:       "tile.alloc"() {{.*}} -> memref<3x64x32xbf16, 3>
// CHECK:       "tile.alloc"() {{.*}} -> memref<3x32x64xbf16, 3>
// CHECK:       "tile.alloc"() {{.*}} -> memref<3x32x64xbf16, 3>
// CHECK:       scf.for {{.*}} -> (tensor<64x64xf32, #tile.mma<[2, 2]>>, tensor<64x64xf32, #tile.mma<[2, 2]>>)
// CHECK:         %[[A:.*]] = "tile.smem_load"({{.*}}) : (memref<3x64x32xbf16, 3>, index) -> tensor<64x32xbf16, #tile.mma_operand<[2, 2], 0 : i64>>
// CHECK:         "tile.mma"(%[[A]], {{.*}}) {tile.computes = [[G:[0-9]+]] : i64}
// CHECK:         "tile.mma"(%[[A]], {{.*}}) {tile.computes = [[U:[0-9]+]] : i64}
// CHECK:       } {tile.stages = 3 : i64}
// CHECK:       math.exp
// CHECK:       arith.divf
// CHECK:       arith.mulf
// CHECK:       "tile.store"

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param M = 100, N = 70, K = 90
//   input X[M, K] : bf16
//   input Wg[K, N] : bf16
//   input Wu[K, N] : bf16
//   output Y[M, N] : bf16
//   let g[i, j] = sum[k](X[i, k] * Wg[k, j])
//   Y[i, j] = g[i, j] / (1.0 + exp(-g[i, j])) * sum[k](X[i, k] * Wu[k, j])

#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ta_to_tile_shared_input(%arg0: tensor<?x?xbf16, ["M", "K"]> {ta.name = "X"}, %arg1: tensor<?x?xbf16, ["K", "N"]> {ta.name = "Wg"}, %arg2: tensor<?x?xbf16, ["K", "N"]> {ta.name = "Wu"}) -> (tensor<?x?xbf16, ["M", "N"]> {ta.name = "Y"}) attributes {ta.params = {K = 90 : i64, M = 100 : i64, N = 70 : i64}} {
    %cst = arith.constant 1.000000e+00 : f32
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
    %1 = "ta.contract"(%arg0, %arg2) {maps = [#map, #map1, #map2]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
    %2 = "ta.map"() ({
      %3 = "ta.at"(%0) {map = #map3} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %4 = arith.negf %3 : f32
      %5 = math.exp %4 : f32
      %6 = arith.addf %5, %cst : f32
      %7 = arith.divf %3, %6 : f32
      %8 = "ta.at"(%1) {map = #map3} : (tensor<?x?xf32, ["M", "N"]>) -> f32
      %9 = arith.mulf %7, %8 : f32
      %10 = arith.truncf %9 : f32 to bf16
      "ta.yield"(%10) : (bf16) -> ()
    }) : () -> tensor<?x?xbf16, ["M", "N"]>
    return %2 : tensor<?x?xbf16, ["M", "N"]>
  }
}
