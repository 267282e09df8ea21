// RUN: tilec translate %s | filecheck %s
// RUN: sed 's/tile.target = "sm_80"/tile.target = "sm_90a"/' %s | tilec translate - | filecheck %s

// The CUDA of a row program (RMSNorm): a warp a row (two rows, two warps: 64 threads), the row's
// column blocks read in 16-byte vectors, the sum of squares folded in registers and then across
// the warp with sm_80's shuffle (xor 16, 8, 4, 2, 1: every lane holds the row's sum), the same
// text lowered for sm_80 or sm_90a (a row program uses no sm_90a feature).
// CHECK:       // schedule: bm=2,bn=256,{{.*}}warps=2,{{.*}}consumers=0
// CHECK-NEXT:  extern "C" __global__ void __launch_bounds__(64)
// CHECK:       v = v + __shfl_xor_sync(0xffffffffu, v, 16);
// CHECK-NEXT:  v = v + __shfl_xor_sync(0xffffffffu, v, 8);
// CHECK-NEXT:  v = v + __shfl_xor_sync(0xffffffffu, v, 4);
// CHECK-NEXT:  v = v + __shfl_xor_sync(0xffffffffu, v, 2);
// CHECK-NEXT:  v = v + __shfl_xor_sync(0xffffffffu, v, 1);
// CHECK:       rsqrtf(
// CHECK-NOT:   wgmma
// CHECK-NOT:   mbar_

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_80 --schedule bm=2,bn=256,warps=2`,
// SPEC being
//   param N = 64, C = 1024
//   const eps = 1e-6
//   input X[N, C] : bf16
//   input w[C] : bf16
//   output Y[N, C] : bf16
//   let ms[n] = sum[c](X[n, c] * X[n, c]) / C
//   Y[n, c] = X[n, c] * rsqrt(ms[n] + eps) * w[c]

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
module attributes {tile.target = "sm_80"} {
  func.func @rows_rmsnorm(%arg0: memref<?x?xbf16> {ta.dims = ["N", "C"], ta.name = "X"}, %arg1: memref<?xbf16> {ta.dims = ["C"], ta.name = "w"}, %arg2: memref<?x?xbf16> {ta.dims = ["N", "C"], ta.name = "Y", ta.output}, %arg3: index {ta.param = "C"}, %arg4: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {C = 1024 : i64, N = 64 : i64}, tile.grid = ["(N+1)/2", "1"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 2 : i64, bn = 256 : i64, consumers = 0 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 2 : i64}>, tile.threads = 64 : i64} {
    %cst = arith.constant 0.000000e+00 : f32
    %c256 = arith.constant 256 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst_0 = arith.constant 9.99999997E-7 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c2 : index
    %2 = arith.ceildivsi %arg3, %c256 : index
    %3 = "tile.map"() ({
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>
    %4 = scf.for %arg5 = %c0 to %2 step %c1 iter_args(%arg6 = %3) -> (tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>) {
      %6 = arith.muli %arg5, %c256 : index
      %7 = "tile.load"(%arg0, %1, %6) {padding = 0.000000e+00 : bf16} : (memref<?x?xbf16>, index, index) -> tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>
      %8 = "tile.map"() ({
        %11 = "tile.elem"(%7) {map = #map} : (tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>) -> bf16
        %12 = arith.extf %11 : bf16 to f32
        %13 = "tile.elem"(%7) {map = #map} : (tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>) -> bf16
        %14 = arith.extf %13 : bf16 to f32
        %15 = arith.mulf %12, %14 : f32
        %16 = "tile.index"() {dim = 1 : i64} : () -> index
        %17 = arith.addi %6, %16 : index
        %18 = arith.cmpi slt, %17, %arg3 : index
        %19 = arith.select %18, %15, %cst : f32
        "tile.yield"(%19) : (f32) -> ()
      }) : () -> tensor<2x256xf32, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>
      %9 = "tile.reduce"(%8) {dim = 1 : i64, kind = "sum"} : (tensor<2x256xf32, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>) -> tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>
      %10 = "tile.map"() ({
        %11 = "tile.elem"(%arg6) {map = #map1} : (tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>) -> f32
        %12 = "tile.elem"(%9) {map = #map1} : (tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>) -> f32
        %13 = arith.addf %11, %12 : f32
        "tile.yield"(%13) : (f32) -> ()
      }) : () -> tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>
      scf.yield %10 : tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>
    } {tile.computes = [1]}
    %5 = "tile.map"() ({
      %6 = "tile.elem"(%4) {map = #map1} : (tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>) -> f32
      %7 = arith.index_cast %arg3 : index to i64
      %8 = arith.sitofp %7 : i64 to f32
      %9 = arith.divf %6, %8 : f32
      "tile.yield"(%9) : (f32) -> ()
    }) {tile.computes = 2 : i64} : () -> tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>
    scf.for %arg5 = %c0 to %2 step %c1 {
      %6 = arith.muli %arg5, %c256 : index
      %7 = "tile.load"(%arg0, %1, %6) {padding = 0.000000e+00 : bf16} : (memref<?x?xbf16>, index, index) -> tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>
      %8 = "tile.load"(%arg1, %6) {padding = 0.000000e+00 : bf16} : (memref<?xbf16>, index) -> tensor<256xbf16, #tile.slice<"blocked", [2, 8, 32, 1], 0 : i64>>
      %9 = "tile.map"() ({
        %10 = "tile.elem"(%7) {map = #map} : (tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>) -> bf16
        %11 = arith.extf %10 : bf16 to f32
        %12 = "tile.elem"(%5) {map = #map2} : (tensor<2xf32, #tile.slice<"blocked", [2, 8, 32, 1], 1 : i64>>) -> f32
        %13 = arith.addf %12, %cst_0 : f32
        %14 = math.rsqrt %13 : f32
        %15 = arith.mulf %11, %14 : f32
        %16 = "tile.elem"(%8) {map = #map3} : (tensor<256xbf16, #tile.slice<"blocked", [2, 8, 32, 1], 0 : i64>>) -> bf16
        %17 = arith.extf %16 : bf16 to f32
        %18 = arith.mulf %15, %17 : f32
        %19 = arith.truncf %18 : f32 to bf16
        "tile.yield"(%19) : (bf16) -> ()
      }) {tile.computes = 3 : i64} : () -> tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>
      "tile.store"(%9, %arg2, %1, %6) : (tensor<2x256xbf16, #tile.blocked<2 : i64, 8 : i64, 32 : i64, 1 : i64>>, memref<?x?xbf16>, index, index) -> ()
    }
    return
  }
}
