// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-to-tile{target=sm_90a bm=64 bn=64 bk=32})' | filecheck %s --check-prefix=SM90
// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-to-tile{bm=64 bn=64 bk=32})' | filecheck %s --check-prefix=DEFAULT
// RUN: not tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-to-tile{target=sm_100a})' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not tilec opt %s --split-input-file --pass-pipeline='builtin.module(ta-to-tile{target=sm_80 bm=128 bn=128 bk=64 warps=8 stages=3 consumers=2})' 2>&1 | filecheck %s --check-prefix=LACKS

// ta-to-tile records the target it lowered for on the module (tile.target); every later layer
// (legality, the emitter, the verifier, packaging) reads it there. With no target named the
// module is lowered for sm_80, whose kernel every registered target runs. A target that is not
// registered is refused, naming those that are; a warp-specialised schedule is refused on a
// target without the copy engine and wgmma, naming what it lacks.

// SM90:      module attributes {tile.target = "sm_90a"}
// SM90-LABEL: func.func @gemm
// SM90-SAME:  tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 64 : i64, bn = 64 : i64, consumers = 0 : i64
// SM90:       "tile.mma"
// DEFAULT:    module attributes {tile.target = "sm_80"}
// DEFAULT-LABEL: func.func @gemm
// UNKNOWN:    unknown target 'sm_100a' (targets: sm_80, sm_90a)
// LACKS:      consumers=2 (a warp-specialised kernel) needs tma, wgmma, setmaxnreg, which sm_80 does not have (targets with them: sm_90a)
func.func @gemm(%arg0: tensor<?x?xbf16, ["M", "K"]> {ta.name = "A"}, %arg1: tensor<?x?xbf16, ["K", "N"]> {ta.name = "B"}) -> (tensor<?x?xbf16, ["M", "N"]> {ta.name = "C"}) attributes {ta.params = {K = 128 : i64, M = 256 : i64, N = 256 : i64}} {
  %0 = "ta.contract"(%arg0, %arg1) {maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]} : (tensor<?x?xbf16, ["M", "K"]>, tensor<?x?xbf16, ["K", "N"]>) -> tensor<?x?xf32, ["M", "N"]>
  %1 = "ta.map"() ({
    %2 = "ta.at"(%0) {map = affine_map<(d0, d1) -> (d0, d1)>} : (tensor<?x?xf32, ["M", "N"]>) -> f32
    %3 = arith.truncf %2 : f32 to bf16
    "ta.yield"(%3) : (bf16) -> ()
  }) : () -> tensor<?x?xbf16, ["M", "N"]>
  return %1 : tensor<?x?xbf16, ["M", "N"]>
}
