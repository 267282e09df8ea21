// RUN: tilec translate %s | filecheck %s

// The CUDA of a contraction lowered for sm_80: sm_80's instruction table (codegen/targets.py)
// prints each staged copy as a 16-byte cp.async that zero-fills past the extent, the wait as
// cp.async.wait_group with one group still in flight (three stages), the operand reads as
// ldmatrix (B transposed) and the multiply as mma.sync m16n8k16. Two kernels: one for rows of
// whole 16-byte chunks, one for any row length.
// CHECK:       __device__ __forceinline__ void cp_async16(
// CHECK:       cp.async.cg.shared.global
// CHECK:       __device__ __forceinline__ void mma_bf16(
// CHECK:       mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK:       // schedule: bm=64,bn=64,bk=32,warps=4,stages=3,{{.*}}consumers=0{{.*}}; 16-byte aligned rows: cp.async
// CHECK-NEXT:  extern "C" __global__ void __launch_bounds__(128)
// CHECK-NEXT:  [[NAME:gemm[a-z_0-9]*]](const __nv_bfloat16* __restrict__ g_A, const __nv_bfloat16* __restrict__ g_B, __nv_bfloat16* __restrict__ g_C, long long p_K, long long p_M, long long p_N) {
// CHECK:       extern __shared__ __align__(128) unsigned char smem[];
// CHECK:       const int bytes = (gr < p_M && gc < p_K) ? (int)min(16LL, (p_K - gc) * 2) : 0;
// CHECK:       cp_async16(d, bytes ? src + gr * p_K + gc : src, bytes);
// CHECK:       cp_async_wait<1>();
// CHECK-NEXT:  __syncthreads();
// CHECK:       ldmatrix_x4(af[kk % 2][mi],
// CHECK:       ldmatrix_x4_trans(r,
// CHECK:       mma_bf16(
// CHECK:       cp_async_wait<0>();
// CHECK:       extern "C" __global__ void __launch_bounds__(128)
// CHECK-NEXT:  [[NAME]]_unaligned(
// CHECK-NOT:   wgmma
// CHECK-NOT:   setmaxnreg

// The input: the tile IR of `tilec compile SPEC --emit tile --target sm_80 --schedule bm=64,bn=64,bk=32,warps=4,stages=3`,
// SPEC being
//   param M = 300, N = 520, K = 200
//   input A[M, K] : bf16
//   input B[K, N] : bf16
//   output C[M, N] : bf16
//   C[i, j] = sum[k](A[i, k] * B[k, j])

#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {tile.target = "sm_80"} {
  func.func @gemm_sm_80(%arg0: memref<?x?xbf16> {ta.dims = ["M", "K"], ta.name = "A"}, %arg1: memref<?x?xbf16> {ta.dims = ["K", "N"], ta.name = "B"}, %arg2: memref<?x?xbf16> {ta.dims = ["M", "N"], ta.name = "C", ta.output}, %arg3: index {ta.param = "K"}, %arg4: index {ta.param = "M"}, %arg5: index {ta.param = "N"}) attributes {llvm.emit_c_interface, ta.params = {K = 200 : i64, M = 300 : i64, N = 520 : i64}, tile.grid = ["(M+63)/64*((N+63)/64)", "1"], tile.operands = "nn", tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 64 : i64, bn = 64 : i64, consumers = 0 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 1 : i64, persistent = false, pingpong = false, softmax_overlap = false, stages = 3 : i64, swizzle = true, tma_store = false, warps = 4 : i64}>, tile.threads = 128 : i64} {
    %c3 = arith.constant 3 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %0 = arith.ceildivsi %arg4, %c64 : index
    %1 = arith.ceildivsi %arg5, %c64 : index
    %2 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %3 = arith.muli %1, %c8 : index
    %4 = arith.divsi %2, %3 : index
    %5 = arith.muli %4, %c8 : index
    %6 = arith.subi %0, %5 : index
    %7 = arith.minsi %6, %c8 : index
    %8 = arith.remsi %2, %3 : index
    %9 = arith.remsi %8, %7 : index
    %10 = arith.addi %5, %9 : index
    %11 = arith.divsi %8, %7 : index
    %12 = arith.muli %10, %c64 : index
    %13 = arith.muli %11, %c64 : index
    %14 = "tile.alloc"() {layout = #tile.layout<[64, 32], [32, 1], [2, 3, 3]>} : () -> memref<3x64x32xbf16, 3>
    %15 = "tile.alloc"() {layout = #tile.layout<[32, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x32x64xbf16, 3>
    %16 = arith.ceildivsi %arg3, %c32 : index
    scf.for %arg6 = %c0 to %c2 step %c1 {
      %20 = arith.muli %arg6, %c32 : index
      "tile.async_copy"(%arg0, %12, %20, %14, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<3x64x32xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %20, %13, %15, %arg6) {tile.prologue} : (memref<?x?xbf16>, index, index, memref<3x32x64xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %17 = "tile.map"() ({
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<64x64xf32, #tile.mma<[2, 2]>>
    %18 = scf.for %arg6 = %c0 to %16 step %c1 iter_args(%arg7 = %17) -> (tensor<64x64xf32, #tile.mma<[2, 2]>>) {
      %20 = arith.remsi %arg6, %c3 : index
      "tile.wait_group"() {pending = 1 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %21 = "tile.smem_load"(%14, %20) : (memref<3x64x32xbf16, 3>, index) -> tensor<64x32xbf16, #tile.mma_operand<[2, 2], 0 : i64>>
      %22 = "tile.smem_load"(%15, %20) : (memref<3x32x64xbf16, 3>, index) -> tensor<32x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>
      %23 = arith.addi %arg6, %c2 : index
      %24 = arith.remsi %23, %c3 : index
      %25 = arith.muli %23, %c32 : index
      "tile.async_copy"(%arg0, %12, %25, %14, %24) : (memref<?x?xbf16>, index, index, memref<3x64x32xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg1, %25, %13, %15, %24) : (memref<?x?xbf16>, index, index, memref<3x32x64xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %26 = "tile.mma"(%21, %22, %arg7) {tile.computes = 0 : i64} : (tensor<64x32xbf16, #tile.mma_operand<[2, 2], 0 : i64>>, tensor<32x64xbf16, #tile.mma_operand<[2, 2], 1 : i64>>, tensor<64x64xf32, #tile.mma<[2, 2]>>) -> tensor<64x64xf32, #tile.mma<[2, 2]>>
      scf.yield %26 : tensor<64x64xf32, #tile.mma<[2, 2]>>
    } {tile.stages = 3 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %19 = "tile.map"() ({
      %20 = "tile.elem"(%18) {map = #map} : (tensor<64x64xf32, #tile.mma<[2, 2]>>) -> f32
      %21 = arith.truncf %20 : f32 to bf16
      "tile.yield"(%21) : (bf16) -> ()
    }) : () -> tensor<64x64xbf16, #tile.mma<[2, 2]>>
    "tile.store"(%19, %arg2, %12, %13) : (tensor<64x64xbf16, #tile.mma<[2, 2]>>, memref<?x?xbf16>, index, index) -> ()
    return
  }
}
