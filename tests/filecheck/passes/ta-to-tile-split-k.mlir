// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=64 bn=64 bk=32 warps=4 stages=3 split-k=3}, tile-canonicalize)' | filecheck %s

// Split-K in the contraction matcher: grid y holds the batch elements, each split 3 ways; a
// CTA multiplies its share of the K tiles, [split * chunk, + min(chunk, K tiles - that)), and
// writes its accumulator as its part of the workspace slot of its output tile; the CTA
// arriving last sums the parts and stores.
// CHECK-LABEL: func.func @split_k
// CHECK-SAME:  tile.grid = ["(M+63)/64*((N+63)/64)", "3*B"]
// CHECK-SAME:  split_k = 3 : i64
// CHECK:       %[[PID:.*]] = "tile.program_id"() {axis = 0 : i64}
// CHECK:       %[[Y:.*]] = "tile.program_id"() {axis = 1 : i64}
// CHECK:       %[[SPLIT:.*]] = arith.remsi %[[Y]], %c3
// CHECK:       %[[BATCH:.*]] = arith.divsi %[[Y]], %c3
// the K tiles, a split's share of them, where it starts and how many it takes
// CHECK:       %[[NK:.*]] = arith.ceildivsi %arg{{[0-9]+}}, %c32
// CHECK:       %[[CHUNK:.*]] = arith.ceildivsi %[[NK]], %c3
// CHECK:       %[[BEGIN:.*]] = arith.muli %[[SPLIT]], %[[CHUNK]]
// CHECK:       %[[LEFT:.*]] = arith.subi %[[NK]], %[[BEGIN]]
// CHECK:       %[[TAKE:.*]] = arith.minsi %[[CHUNK]], %[[LEFT]]
// CHECK:       %[[COUNT:.*]] = arith.maxsi %[[TAKE]], %c0
// CHECK:       %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %[[COUNT]] step %c1
// CHECK:       } {tile.stages = 3 : i64}
// the slot: the output tile's index over the batch and the tile grid
// CHECK:       %[[TILES:.*]] = arith.muli
// CHECK:       %[[BASE:.*]] = arith.muli %[[BATCH]], %[[TILES]]
// CHECK:       %[[SLOT:.*]] = arith.addi %[[BASE]], %[[PID]]
// CHECK:       %[[TOTAL:.*]] = "tile.split_sum"(%[[ACC]], %[[SLOT]], %[[SPLIT]], %[[BEGIN]]) {splits = 3 : i64}
// CHECK:       "tile.elem"(%[[TOTAL]])
// CHECK:       "tile.store"

// The input: C[b, i, j] = sum[k](A[b, i, k] * B[b, k, j]), bf16 in, bf16 out.

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @split_k(%arg0: tensor<?x?x?xbf16, ["B", "M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?x?xbf16, ["B", "K", "N"]> {ta.name = "W"}) -> (tensor<?x?x?xbf16, ["B", "M", "N"]> {ta.name = "C"}) attributes {ta.params = {B = 2 : i64, K = 300 : i64, M = 100 : i64, N = 70 : i64}} {
    %0 = "ta.contract"(%arg0, %arg1) {maps = [#map, #map1, #map2]} : (tensor<?x?x?xbf16, ["B", "M", "K"]>, tensor<?x?x?xbf16, ["B", "K", "N"]>) -> tensor<?x?x?xf32, ["B", "M", "N"]>
    %1 = "ta.map"() ({
      %2 = "ta.at"(%0) {map = #map3} : (tensor<?x?x?xf32, ["B", "M", "N"]>) -> f32
      %3 = arith.truncf %2 : f32 to bf16
      "ta.yield"(%3) : (bf16) -> ()
    }) : () -> tensor<?x?x?xbf16, ["B", "M", "N"]>
    return %1 : tensor<?x?x?xbf16, ["B", "M", "N"]>
  }
}
