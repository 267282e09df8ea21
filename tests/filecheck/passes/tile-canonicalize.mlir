// RUN: tilec opt %s --split-input-file --pass-pipeline='builtin.module(tile-canonicalize)' | filecheck %s

// A pipelined loop of one iteration (its sizes fit one k block) is kept, the index arithmetic
// of its bounds folded; no opaque bound is left behind.
// CHECK-LABEL: func.func @one_iteration_main_loop
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[C1]] step %[[C1]]
// CHECK:       } {tile.stages = 3 : i64}
// CHECK-NOT:   tilec_hold
func.func @one_iteration_main_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %k = arith.constant 20 : index
  %n = arith.ceildivsi %k, %c32 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %cst, %a[%i] : memref<4xf32>
  } {tile.stages = 3}
  return
}

// -----

// A loop the tile program does not pipeline is canonicalized as ever: one iteration is inlined.
// CHECK-LABEL: func.func @one_iteration_plain_loop
// CHECK-NOT:   scf.for
// CHECK:       memref.store
func.func @one_iteration_plain_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    memref.store %cst, %a[%i] : memref<4xf32>
  }
  return
}

// -----

// A pipelined loop of several iterations is left as canonicalize leaves it.
// CHECK-LABEL: func.func @several_iterations
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       scf.for %{{.*}} = %{{.*}} to %[[C3]] step
// CHECK:       } {tile.stages = 2 : i64}
func.func @several_iterations(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    memref.store %cst, %a[%i] : memref<4xf32>
  } {tile.stages = 2}
  return
}
