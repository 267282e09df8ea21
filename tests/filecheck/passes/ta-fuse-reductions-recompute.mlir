// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-fuse-reductions)' | filecheck %s

// marked ta.recompute: dV = sum_i exp(s - lse) * dO, s = q . k read at (i, j), becomes an online
// sum over i whose body reads s where it needs it (ta-to-loops computes it there)
// CHECK-LABEL: func.func @dv(
// CHECK:       %[[S:.*]] = "ta.contract"(%arg0, %arg1)
// CHECK:       "ta.online"() ({
// CHECK:         "ta.at"(%[[S]])
// CHECK:         math.exp
// CHECK:       }) {dim = {{[0-9]}} : i64, {{.*}}group = "g0", kind = "sum"
// CHECK-NOT:   "ta.contract"(%{{.*}}, %arg3)
func.func @dv(%q: tensor<?x?xf32, ["S", "D"]> {ta.name = "Q"}, %k: tensor<?x?xf32, ["T", "D"]> {ta.name = "K"}, %lse: tensor<?xf32, ["S"]> {ta.name = "lse"}, %do: tensor<?x?xf32, ["S", "E"]> {ta.name = "dO"}) -> (tensor<?x?xf32, ["T", "E"]> {ta.name = "dV"}) attributes {ta.recompute} {
  %s = "ta.contract"(%q, %k) {maps = [affine_map<(i, j, e) -> (i, e)>, affine_map<(i, j, e) -> (j, e)>, affine_map<(i, j, e) -> (i, j)>]} : (tensor<?x?xf32, ["S", "D"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "T"]>
  %p = "ta.map"() ({
    %a = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %l = "ta.at"(%lse) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["S"]>) -> f32
    %d = arith.subf %a, %l : f32
    %e = math.exp %d : f32
    "ta.yield"(%e) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["S", "T"]>
  %dv = "ta.contract"(%p, %do) {maps = [affine_map<(j, d, i) -> (i, j)>, affine_map<(j, d, i) -> (i, d)>, affine_map<(j, d, i) -> (j, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["S", "E"]>) -> tensor<?x?xf32, ["T", "E"]>
  return %dv : tensor<?x?xf32, ["T", "E"]>
}

// -----

// the same without the mark: the scores are a tensor, the sum a contraction (left alone)
// CHECK-LABEL: func.func @dv_stored(
// CHECK-NOT:   ta.online
// CHECK:       "ta.contract"(%{{.*}}, %arg3)
func.func @dv_stored(%q: tensor<?x?xf32, ["S", "D"]> {ta.name = "Q"}, %k: tensor<?x?xf32, ["T", "D"]> {ta.name = "K"}, %lse: tensor<?xf32, ["S"]> {ta.name = "lse"}, %do: tensor<?x?xf32, ["S", "E"]> {ta.name = "dO"}) -> (tensor<?x?xf32, ["T", "E"]> {ta.name = "dV"}) {
  %s = "ta.contract"(%q, %k) {maps = [affine_map<(i, j, e) -> (i, e)>, affine_map<(i, j, e) -> (j, e)>, affine_map<(i, j, e) -> (i, j)>]} : (tensor<?x?xf32, ["S", "D"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "T"]>
  %p = "ta.map"() ({
    %a = "ta.at"(%s) {map = affine_map<(i, j) -> (i, j)>} : (tensor<?x?xf32, ["S", "T"]>) -> f32
    %l = "ta.at"(%lse) {map = affine_map<(i, j) -> (i)>} : (tensor<?xf32, ["S"]>) -> f32
    %d = arith.subf %a, %l : f32
    %e = math.exp %d : f32
    "ta.yield"(%e) : (f32) -> ()
  }) : () -> tensor<?x?xf32, ["S", "T"]>
  %dv = "ta.contract"(%p, %do) {maps = [affine_map<(j, d, i) -> (i, j)>, affine_map<(j, d, i) -> (i, d)>, affine_map<(j, d, i) -> (j, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["S", "E"]>) -> tensor<?x?xf32, ["T", "E"]>
  return %dv : tensor<?x?xf32, ["T", "E"]>
}

// -----

// dV and dK read the scores with their reduced dim (i) at the same place: one group, one loop;
// dQ reads them with j reduced: a group of its own
// CHECK-LABEL: func.func @three(
// CHECK-COUNT-2: group = "g0"
// CHECK:       group = "g1"
func.func @three(%q: tensor<?x?xf32, ["S", "D"]> {ta.name = "Q"}, %k: tensor<?x?xf32, ["T", "D"]> {ta.name = "K"}, %do: tensor<?x?xf32, ["S", "D"]> {ta.name = "dO"}) -> (tensor<?x?xf32, ["T", "D"]> {ta.name = "dV"}, tensor<?x?xf32, ["T", "D"]> {ta.name = "dK"}, tensor<?x?xf32, ["S", "D"]> {ta.name = "dQ"}) attributes {ta.recompute} {
  %s = "ta.contract"(%q, %k) {maps = [affine_map<(i, j, e) -> (i, e)>, affine_map<(i, j, e) -> (j, e)>, affine_map<(i, j, e) -> (i, j)>]} : (tensor<?x?xf32, ["S", "D"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "T"]>
  %dv = "ta.contract"(%s, %do) {maps = [affine_map<(j, d, i) -> (i, j)>, affine_map<(j, d, i) -> (i, d)>, affine_map<(j, d, i) -> (j, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["S", "D"]>) -> tensor<?x?xf32, ["T", "D"]>
  %dk = "ta.contract"(%s, %q) {maps = [affine_map<(j, d, i) -> (i, j)>, affine_map<(j, d, i) -> (i, d)>, affine_map<(j, d, i) -> (j, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["S", "D"]>) -> tensor<?x?xf32, ["T", "D"]>
  %dq = "ta.contract"(%s, %k) {maps = [affine_map<(i, d, j) -> (i, j)>, affine_map<(i, d, j) -> (j, d)>, affine_map<(i, d, j) -> (i, d)>]} : (tensor<?x?xf32, ["S", "T"]>, tensor<?x?xf32, ["T", "D"]>) -> tensor<?x?xf32, ["S", "D"]>
  return %dv, %dk, %dq : tensor<?x?xf32, ["T", "D"]>, tensor<?x?xf32, ["T", "D"]>, tensor<?x?xf32, ["S", "D"]>
}
