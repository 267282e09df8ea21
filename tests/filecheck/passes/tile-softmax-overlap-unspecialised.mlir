// RUN: not tilec opt %s --pass-pipeline='builtin.module(tile-softmax-overlap)' 2>&1 | filecheck %s

// The rotated key loop is a warp-specialised attention's: on the staged program (tile-warp-specialize
// not run) whose schedule asks for softmax-overlap, the pass refuses.
// CHECK: tile-softmax-overlap: the key loop it rotates is a warp-specialised attention's (tile-warp-specialize first)

// The staged program: `tilec opt` of the ta of examples/attention.ta (--emit ta) with
// ta-specialize-shapes{shapes=D=64}, the ta rewrites, ta-to-tile{target=sm_90a bm=64 bn=128 warps=4
// stages=3 consumers=1 softmax-overlap=true occupancy=2}, tile-canonicalize.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0)>
module attributes {tile.target = "sm_90a"} {
  func.func @attention(%arg0: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "Q"}, %arg1: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "K"}, %arg2: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "T", "D"], ta.name = "V"}, %arg3: memref<?x?x?x64xbf16> {ta.dims = ["B", "H", "S", "D"], ta.name = "O", ta.output}, %arg4: index {ta.param = "B"}, %arg5: index {ta.param = "D"}, %arg6: index {ta.param = "H"}, %arg7: index {ta.param = "S"}, %arg8: index {ta.param = "T"}) attributes {llvm.emit_c_interface, ta.params = {B = 2 : i64, D = 64 : i64, H = 4 : i64, S = 128 : i64, T = 128 : i64}, tile.grid = ["(S+63)/64", "1*B*H"], tile.schedule = #tile.schedule<{bk = 32 : i64, bm = 64 : i64, bn = 128 : i64, consumers = 1 : i64, group_m = 8 : i64, heavy_first = false, occupancy = 2 : i64, persistent = false, pingpong = false, softmax_overlap = true, stages = 3 : i64, swizzle = true, tma_store = false, warps = 4 : i64}>, tile.threads = 256 : i64} {
    %c3 = arith.constant 3 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %0 = "tile.program_id"() {axis = 0 : i64} : () -> index
    %1 = arith.muli %0, %c64 : index
    %2 = "tile.program_id"() {axis = 1 : i64} : () -> index
    %3 = arith.remsi %2, %arg6 : index
    %4 = arith.divsi %2, %arg6 : index
    %5 = arith.remsi %4, %arg4 : index
    %6 = arith.ceildivsi %arg8, %c128 : index
    %7 = "tile.alloc"() {layout = #tile.layout<[64, 64], [64, 1], [3, 3, 3]>} : () -> memref<1x64x64xbf16, 3>
    %8 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    %9 = "tile.alloc"() {layout = #tile.layout<[128, 64], [64, 1], [3, 3, 3]>} : () -> memref<3x128x64xbf16, 3>
    "tile.async_copy"(%arg0, %5, %3, %1, %c0, %7, %c0) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<1x64x64xbf16, 3>, index) -> ()
    "tile.commit_group"() : () -> ()
    scf.for %arg9 = %c0 to %c2 step %c1 {
      %16 = arith.muli %arg9, %c128 : index
      "tile.async_copy"(%arg1, %5, %3, %16, %c0, %8, %arg9) {tile.prologue} : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg2, %5, %3, %16, %c0, %9, %arg9) {tile.prologue} : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index) -> ()
      "tile.commit_group"() {tile.prologue} : () -> ()
    } {tile.prologue}
    %10 = "tile.map"() ({
      "tile.yield"(%cst_0) : (f32) -> ()
    }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
    %11 = "tile.map"() ({
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
    %12 = "tile.map"() ({
      "tile.yield"(%cst) : (f32) -> ()
    }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
    %13:3 = scf.for %arg9 = %c0 to %6 step %c1 iter_args(%arg10 = %10, %arg11 = %11, %arg12 = %12) -> (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>) {
      %16 = arith.remsi %arg9, %c3 : index
      "tile.wait_group"() {pending = 1 : i64} : () -> ()
      "tile.barrier"() : () -> ()
      %17 = "tile.smem_load"(%7, %c0) : (memref<1x64x64xbf16, 3>, index) -> tensor<64x64xbf16, #tile.mma_operand<[4, 1], 0 : i64>>
      %18 = "tile.smem_load"(%8, %16) {transpose} : (memref<3x128x64xbf16, 3>, index) -> tensor<64x128xbf16, #tile.mma_operand<[4, 1], 1 : i64>>
      %19 = "tile.smem_load"(%9, %16) : (memref<3x128x64xbf16, 3>, index) -> tensor<128x64xbf16, #tile.mma_operand<[4, 1], 1 : i64>>
      %20 = arith.addi %arg9, %c2 : index
      %21 = arith.remsi %20, %c3 : index
      %22 = arith.muli %20, %c128 : index
      "tile.async_copy"(%arg1, %5, %3, %22, %c0, %8, %21) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index) -> ()
      "tile.async_copy"(%arg2, %5, %3, %22, %c0, %9, %21) : (memref<?x?x?x64xbf16>, index, index, index, index, memref<3x128x64xbf16, 3>, index) -> ()
      "tile.commit_group"() : () -> ()
      %23 = "tile.map"() ({
        "tile.yield"(%cst) : (f32) -> ()
      }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
      %24 = "tile.mma"(%17, %18, %23) : (tensor<64x64xbf16, #tile.mma_operand<[4, 1], 0 : i64>>, tensor<64x128xbf16, #tile.mma_operand<[4, 1], 1 : i64>>, tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64x128xf32, #tile.mma<[4, 1]>>
      %25 = arith.muli %arg9, %c128 : index
      %26 = "tile.map"() ({
        %37 = "tile.elem"(%24) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
        %38 = arith.mulf %37, %cst_2 : f32
        %39 = "tile.index"() {dim = 1 : i64} : () -> index
        %40 = arith.addi %25, %39 : index
        %41 = arith.cmpi slt, %40, %arg8 : index
        %42 = arith.select %41, %38, %cst_0 : f32
        "tile.yield"(%42) : (f32) -> ()
      }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
      %27 = "tile.reduce"(%26) {dim = 1 : i64, kind = "max"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %28 = "tile.map"() ({
        %37 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %38 = "tile.elem"(%27) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %39 = arith.maximumf %37, %38 : f32
        "tile.yield"(%39) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %29 = "tile.map"() ({
        %37 = "tile.elem"(%arg10) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %38 = "tile.elem"(%28) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %39 = arith.cmpf oeq, %37, %38 : f32
        %40 = arith.subf %37, %38 : f32
        %41 = math.exp %40 : f32
        %42 = arith.select %39, %cst_1, %41 : f32
        "tile.yield"(%42) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %30 = "tile.map"() ({
        %37 = "tile.elem"(%28) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %38 = arith.cmpf oeq, %37, %cst_0 : f32
        %39 = "tile.elem"(%28) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %40 = arith.select %38, %cst, %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %31 = "tile.map"() ({
        %37 = "tile.elem"(%26) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
        %38 = "tile.elem"(%30) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %39 = arith.subf %37, %38 : f32
        %40 = math.exp %39 : f32
        "tile.yield"(%40) : (f32) -> ()
      }) : () -> tensor<64x128xf32, #tile.mma<[4, 1]>>
      %32 = "tile.reduce"(%31) {dim = 1 : i64, kind = "sum"} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %33 = "tile.map"() ({
        %37 = "tile.elem"(%arg11) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %38 = "tile.elem"(%29) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %39 = arith.mulf %37, %38 : f32
        %40 = "tile.elem"(%32) {map = #map1} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %41 = arith.addf %39, %40 : f32
        "tile.yield"(%41) : (f32) -> ()
      }) : () -> tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>
      %34 = "tile.map"() ({
        %37 = "tile.elem"(%31) {map = #map} : (tensor<64x128xf32, #tile.mma<[4, 1]>>) -> f32
        %38 = arith.truncf %37 : f32 to bf16
        "tile.yield"(%38) : (bf16) -> ()
      }) : () -> tensor<64x128xbf16, #tile.mma<[4, 1]>>
      %35 = "tile.map"() ({
        %37 = "tile.elem"(%arg12) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
        %38 = "tile.elem"(%29) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
        %39 = arith.mulf %37, %38 : f32
        "tile.yield"(%39) : (f32) -> ()
      }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      %36 = "tile.mma"(%34, %19, %35) : (tensor<64x128xbf16, #tile.mma<[4, 1]>>, tensor<128x64xbf16, #tile.mma_operand<[4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>) -> tensor<64x64xf32, #tile.mma<[4, 1]>>
      scf.yield %28, %33, %36 : tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>, tensor<64x64xf32, #tile.mma<[4, 1]>>
    } {tile.computes = [3, 3, 4], tile.stages = 3 : i64}
    "tile.wait_group"() {pending = 0 : i64} : () -> ()
    %14 = "tile.map"() ({
      %16 = "tile.elem"(%13#2) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
      %17 = "tile.elem"(%13#1) {map = #map2} : (tensor<64xf32, #tile.slice<"mma", [4, 1], 1 : i64>>) -> f32
      %18 = arith.divf %cst_1, %17 : f32
      %19 = arith.mulf %16, %18 : f32
      "tile.yield"(%19) : (f32) -> ()
    }) : () -> tensor<64x64xf32, #tile.mma<[4, 1]>>
    %15 = "tile.map"() ({
      %16 = "tile.elem"(%14) {map = #map} : (tensor<64x64xf32, #tile.mma<[4, 1]>>) -> f32
      %17 = arith.truncf %16 : f32 to bf16
      "tile.yield"(%17) : (bf16) -> ()
    }) : () -> tensor<64x64xbf16, #tile.mma<[4, 1]>>
    "tile.store"(%15, %arg3, %5, %3, %1, %c0) : (tensor<64x64xbf16, #tile.mma<[4, 1]>>, memref<?x?x?x64xbf16>, index, index, index, index) -> ()
    return
  }
}
