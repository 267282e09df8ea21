// RUN: tilec opt %s --pass-pipeline='builtin.module(ta-fuse-reductions,ta-to-tile{bm=16 bn=16 warps=1 stages=2})' | filecheck %s

// dV[j, d] = sum_i exp(s[i, j] - lse[i]) * dO[i, d], s = Q.K^T recomputed: a CTA per block of keys
// j, K resident, Q and dO streamed by blocks of i; S^T = K.Q^T (one mma), P from it and lse
// (gathered at the block's i), dV += P.dO (a second mma); the scores are never stored
// CHECK-LABEL: func.func @dv(
// CHECK:       "tile.async_copy"(%arg1,
// CHECK:       "tile.commit_group"
// CHECK:       scf.for
// CHECK:         "tile.async_copy"(%arg0,
// CHECK:         "tile.async_copy"(%arg3,
// CHECK:       scf.for {{.*}} iter_args
// CHECK:         "tile.smem_load"{{.*}}transpose
// CHECK:         %[[S:.*]] = "tile.mma"
// CHECK:         "tile.elem"(%[[S]])
// CHECK:         "tile.gather"(%arg2,
// CHECK:         math.exp
// CHECK:         arith.truncf
// CHECK:         "tile.mma"
// CHECK:       } {tile.computes = [1], tile.stages = 2 : i64}
// CHECK:       "tile.store"({{.*}}, %arg4,
// CHECK-NOT:   "tile.store"
func.func @dv(%q: tensor<?x16xbf16, ["S", "16"]> {ta.name = "Q"}, %k: tensor<?x16xbf16, ["T", "16"]> {ta.name = "K"}, %lse: tensor<?xf32, ["S"]> {ta.name = "lse"}, %do: tensor<?x16xbf16, ["S", "16"]> {ta.name = "dO"}) -> (tensor<?x16xf32, ["T", "16"]> {ta.name = "dV"}) attributes {ta.params = {S = 32 : i64, T = 32 : i64}, ta.recompute} {
  %s = "ta.contract"(%q, %k) {maps = [affine_map<(i, j, e) -> (i, e)>, affine_map<(i, j, e) -> (j, e)>, affine_map<(i, j, e) -> (i, j)>]} : (tensor<?x16xbf16, ["S", "16"]>, tensor<?x16xbf16, ["T", "16"]>) -> tensor<?x?xf32, ["S", "T"]>
  %p = "ta.map"() ({
    %a = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %l = "ta.at"(%lse) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["S"]>) -> f32
    %d = arith.subf %a, %l : f32
    %e = math.exp %d : f32
    "ta.yield"(%e) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["S", "T"]>
  %dv = "ta.contract"(%p, %do) {maps = [affine_map<(j, d, i) -> (i, j)>, affine_map<(j, d, i) -> (i, d)>, affine_map<(j, d, i) -> (j, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x16xbf16, ["S", "16"]>) -> tensor<?x16xf32, ["T", "16"]>
  return %dv : tensor<?x16xf32, ["T", "16"]>
}

