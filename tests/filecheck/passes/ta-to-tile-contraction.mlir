// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 bk=32 warps=4 stages=3}, tile-canonicalize)' | filecheck %s

// The contraction matcher: a batched A times a weight W stored [N, K] (transposed, and
// broadcast over the batch: W has no batch dim). One CTA per (batch, 64x64 output tile); a
// 3-stage cp.async pipeline into swizzled shared memory; ldmatrix.trans reads W as the B operand.
// CHECK-LABEL: func.func @ta_to_tile_contraction
// CHECK-SAME:  tile.operands = "nt"
// CHECK:       "tile.program_id"() {axis = 0 : i64}
// CHECK:       "tile.program_id"() {axis = 1 : i64}
// both operand tiles are [64, 32] in shared memory, 3 stages, XOR-swizzled
// CHECK:       "tile.alloc"() {layout = #tile.layout<[64, 32], [32, 1], [2, 3, 3]>} : () -> memref<3x64x32xbf16, 3>
// CHECK:       "tile.alloc"() {layout = #tile.layout<[64, 32], [32, 1], [2, 3, 3]>} : () -> memref<3x64x32xbf16, 3>
// the prologue fills stages 0 and 1 (marked tile.prologue); A is copied at its batch index, W without one
// CHECK:       scf.for
// CHECK:         "tile.async_copy"(%arg0, {{.*}}) {tile.prologue} : (memref<?x?x?xbf16>, index, index, index,
// CHECK:         "tile.async_copy"(%arg1, {{.*}}) {tile.prologue} : (memref<?x?xbf16>, index, index,
// CHECK:         "tile.commit_group"() {tile.prologue}
// CHECK:       } {tile.prologue}
// the accumulator starts at zero in the mma layout and is carried over K
// CHECK:       "tile.yield"(%cst) : (f32) -> ()
// CHECK-NEXT:  }) : () -> tensor<64x64xf32, #tile.mma<[2, 2]>>
// CHECK:       scf.for {{.*}} iter_args({{.*}}) -> (tensor<64x64xf32, #tile.mma<[2, 2]>>)
// CHECK:         "tile.wait_group"() {pending = 1 : i64}
// CHECK-NEXT:    "tile.barrier"
// CHECK:         "tile.smem_load"({{.*}}) : {{.*}} -> tensor<64x32xbf16, #tile.mma_operand<[2, 2], 0 : i64>>
// CHECK:         "tile.smem_load"({{.*}}) {transpose} : {{.*}} -> tensor<32x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>
// CHECK:         "tile.mma"({{.*}}) {tile.computes = 0 : i64}
// CHECK:       } {tile.stages = 3 : i64}
// the epilogue rounds to bf16 in registers and stores the masked tile
// CHECK:       "tile.wait_group"() {pending = 0 : i64}
// CHECK:       arith.truncf
// CHECK:       "tile.store"

// The input is the ta IR of this spec after the ta rewrites (ta-decompose-softmax, ta-canonicalize, ta-fuse-reductions, canonicalize, cse):
//   param B = 2, M = 100, N = 70, K = 90
//   input A[B, M, K] : bf16
//   input W[N, K] : bf16
//   output C[B, M, N] : bf16
//   C[b, i, j] = sum[k](A[b, i, k] * W[j, k])

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @ta_to_tile_contraction(%arg0: tensor<?x?x?xbf16, ["B", "M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?xbf16, ["N", "K"]> {ta.name = "W"}) -> (tensor<?x?x?xbf16, ["B", "M", "N"]> {ta.name = "C"}) attributes {ta.params = {B = 2 : i64, K = 90 : i64, M = 100 : i64, N = 70 : i64}} {
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?x?xbf16, ["B", "M", "K"]>, tensor<?x?xbf16, ["N", "K"]>) -> tensor<?x?x?xf32, ["B", "M", "N"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%0) {map = #map3} : (tensor<?x?x?xf32, ["B", "M", "N"]>) -> f32
      %3 = arith.truncf %2 : f32 to bf16
      "ta.yield"(%3) : (bf16) -> ()
    }) : () -> tensor<?x?x?xbf16, ["B", "M", "N"]>
    return %1 : tensor<?x?x?xbf16, ["B", "M", "N"]>
  }
}
